#!/usr/bin/env python3
"""Terrapin's vector basemap against MapLibre GL JS, the style specification's reference.

For each case: MapLibre renders the style and tiles (../shared/bench/maplibre/render.sh, one
batch, headless Chromium), Terrapin renders the same style, tiles and view (pitch 0; MapLibre
zoom z at latitude φ is 78,271.52 · cos φ / 2^z metres per pixel, so the camera range is that
times the focal length in points; the map on `"earth": "mercator"`, Web Mercator's plane, drawn
at the output's resolution, so that straight down the two draw the same pixels where the tiles put them), and `terrapin diff` (pixelmatch's threshold 0.1, anti-aliased
pixels not counted) reports the fraction of pixels that differ. Writes out/fidelity/NAME-*.png
(maplibre, terrapin, diff, strip) and prints one line per case.

    python3 Tools/fidelity.py [--terrapin .build/release/terrapin] [--only NAME]
"""
import argparse, json, math, os, subprocess, sys

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)
SHARED = os.path.normpath(os.path.join(ROOT, "..", "shared"))
ML = os.path.join(SHARED, "bench", "maplibre")
OUT = os.path.join(ROOT, "out", "fidelity")
FIX = os.path.join(ROOT, "Fixtures")

CASES = [
    # name, style (a file, or a built-in name), vector tiles, raster tiles, centre, zoom, size
    ("example-andorra-z14", os.path.join(ML, "example-style.json"), "tiles/andorra-omt.pmtiles", None, (42.5078, 1.5211), 14, (1024, 768)),
    ("example-monaco-z15", os.path.join(ML, "example-style.json"), "tiles/monaco-omt.pmtiles", None, (43.7384, 7.4246), 15, (1024, 768)),
    ("roadmap-andorra-z14", "roadmap", "tiles/andorra-omt.pmtiles", None, (42.5078, 1.5211), 14, (1024, 768)),
    ("roadmap-monaco-z15", "roadmap", "tiles/monaco-omt.pmtiles", None, (43.7384, 7.4246), 15, (1024, 768)),
    ("hybrid-andorra-z13", "hybrid", "tiles/andorra-omt.pmtiles", "tiles/stamen-toner-z0-3.pmtiles", (42.5078, 1.5211), 13, (1024, 768)),
    ("light-andorra-z13", os.path.join(FIX, "basemap", "styles", "light.json"), "tiles/andorra-omt.pmtiles", None, (42.5400, 1.5600), 13, (1024, 768)),
    ("light-monaco-z16", os.path.join(FIX, "basemap", "styles", "light.json"), "tiles/monaco-omt.pmtiles", None, (43.7384, 7.4246), 16, (1024, 768)),
    ("oneway-monaco-z16", os.path.join(FIX, "basemap", "styles", "oneway.json"), "tiles/monaco-omt.pmtiles", None, (43.7395, 7.4265), 16, (1024, 768)),
    ("hillshade-andorra-z12", os.path.join(FIX, "basemap", "styles", "hillshade-plain.json"), "tiles/andorra-omt.pmtiles", None, (42.5350, 1.5600), 12, (1024, 768)),
    ("hillshade-andorra-z10", os.path.join(FIX, "basemap", "styles", "hillshade-plain.json"), "tiles/andorra-omt.pmtiles", None, (42.5350, 1.5600), 10, (1024, 768)),
    ("hillshade-andorra-z13", os.path.join(FIX, "basemap", "styles", "hillshade-plain.json"), "tiles/andorra-omt.pmtiles", None, (42.5350, 1.5600), 13, (1024, 768)),
    ("hillshade-andorra-z8", os.path.join(FIX, "basemap", "styles", "hillshade-plain.json"), "tiles/andorra-omt.pmtiles", None, (42.5350, 1.5600), 8, (1024, 768)),
    ("facades-monaco-z16", os.path.join(FIX, "basemap", "styles", "facades.json"), "tiles/monaco-omt.pmtiles", None, (43.7402, 7.4275), 16, (1024, 768)),
]
# Cases with a raster-dem source: MapLibre is given the same Terrain-RGB tiles.
DEM = {n: os.path.join(FIX, "tiles", "andorra-terrainrgb-z8-12.pmtiles") for n in ("hillshade-andorra-z12", "hillshade-andorra-z10", "hillshade-andorra-z13", "hillshade-andorra-z8")}
# Cases whose style draws sprite images: MapLibre makes its sprite from the same SVG folder.
ICONS = {name: os.path.join(FIX, "basemap", "sprites", "patterns") for name in ("oneway-monaco-z16", "facades-monaco-z16")}

def style_file(style, name):
    if os.path.exists(style):
        return style
    path = os.path.join(OUT, name + "-style.json")
    text = subprocess.run([args.terrapin, "style", style], check=True, capture_output=True, text=True).stdout
    with open(path, "w") as f:
        f.write(text)
    return path

def scene(name, style, tiles, raster, centre, zoom, size):
    lat, lon = centre
    w, h = size
    metres_per_point = 78271.52 * math.cos(math.radians(lat)) / 2 ** zoom
    focal = (h / 2) / math.tan(math.radians(35 / 2))
    m = {"mode": "hybrid" if raster else "roadmap", "earth": "mercator",
         "camera": {"center": {"latitude": lat, "longitude": lon}, "heading": 0, "tilt": 0, "range": metres_per_point * focal},
         "basemap": {"tiles": os.path.join(FIX, tiles), "style": style},
         "attribution": False}
    if raster:
        m["imagery"] = {"tiles": os.path.join(FIX, raster)}
    path = os.path.join(OUT, name + ".json")
    with open(path, "w") as f:
        json.dump({"output": {"width": w, "height": h, "scale": 1}, "map": m}, f, indent=1)
    return path

parser = argparse.ArgumentParser()
parser.add_argument("--terrapin", default=os.path.join(ROOT, ".build", "release", "terrapin"))
parser.add_argument("--only")
parser.add_argument("--skip-maplibre", action="store_true", help="reuse the MapLibre renders already in out/fidelity")
args = parser.parse_args()
os.makedirs(OUT, exist_ok=True)
cases = [c for c in CASES if not args.only or args.only in c[0]]

if not args.skip_maplibre:
    with open(os.path.join(OUT, "batch.jsonl"), "w") as f:
        for name, style, tiles, raster, centre, zoom, size in cases:
            line = {"name": name, "style": style_file(style, name), "center": list(centre), "zoom": zoom, "size": list(size),
                    "o": name + "-maplibre.png"}
            line["tiles"] = ["openmaptiles=" + os.path.join(FIX, tiles)] if "example" not in name and "light" not in name else [os.path.join(FIX, tiles)]
            if raster:
                line["tiles"].append("imagery=" + os.path.join(FIX, raster))
            if name in DEM:
                line["tiles"].append("dem=" + DEM[name])
            if name in ICONS:
                line["icons"] = ICONS[name]
            f.write(json.dumps(line) + "\n")
    subprocess.run(["bash", os.path.join(ML, "render.sh"), "--batch", os.path.join(OUT, "batch.jsonl"), "--out-dir", OUT], check=True)

for name, style, tiles, raster, centre, zoom, size in cases:
    path = scene(name, style, tiles, raster, centre, zoom, size)
    mine = os.path.join(OUT, name + "-terrapin.png")
    subprocess.run([args.terrapin, "render", path, "-o", mine], check=True)
    result = subprocess.run([args.terrapin, "diff", os.path.join(OUT, name + "-maplibre.png"), mine, "--json",
                             "-o", os.path.join(OUT, name + "-diff.png"), "--strip", os.path.join(OUT, name + "-strip.png")],
                            capture_output=True, text=True)
    d = json.loads(result.stdout)
    total = size[0] * size[1]
    print(f"{name}: {d['differingPixels']} of {total} pixels differ ({100 * d['differingPixels'] / total:.2f} %)")
