#!/usr/bin/env python3
"""Terrapin's built-in basemap styles against MapLibre Native, in the three tile schemas.

For each case the built-in `roadmap` style for the tiles' schema (`terrapin style roadmap
--schema …`) is rendered by MapLibre Native (../shared/bench/maplibre/native.sh) and by Terrapin
with the same tiles and view: 800×600, MapLibre's 36.87° field of view, the camera's range
from MapLibre's zoom (78,271.52 · cos φ / 2^z metres per pixel times the focal length), the map
on the sphere Web Mercator maps assume. `terrapin diff` (pixelmatch's threshold 0.1,
anti-aliased pixels not counted) gives the share of pixels that differ. Writes
out/native-fidelity/NAME-{native,terrapin,diff}.png and prints a Markdown table: Andorra and
Monaco in OpenMapTiles, Monaco in Protomaps and Shortbread, each at z13 and z14 straight down
and at z14 tilted 60°.

    python3 Tools/native-fidelity.py [--terrapin .build/opt/debug/terrapin] [--only monaco]
"""
import argparse, json, math, os, subprocess, sys

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)
NATIVE = os.path.normpath(os.path.join(ROOT, "..", "shared", "bench", "maplibre", "native.sh"))
OUT = os.path.join(ROOT, "out", "native-fidelity")
FOV = 36.87
SIZE = (800, 600)
PLACES = [
    # name, tiles under Fixtures/tiles, schema, centre
    ("Andorra, OpenMapTiles", "andorra-omt", "openmaptiles", (42.5078, 1.5211)),
    ("Monaco, OpenMapTiles", "monaco-omt", "openmaptiles", (43.7384, 7.4246)),
    ("Monaco, Protomaps", "monaco-protomaps", "protomaps", (43.7384, 7.4246)),
    ("Monaco, Shortbread", "monaco-shortbread", "shortbread", (43.7384, 7.4246)),
]
VIEWS = [(13, 0), (14, 0), (14, 60)]


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--terrapin", default=os.path.join(ROOT, ".build", "opt", "debug", "terrapin"))
    parser.add_argument("--only", help="places whose tiles' name contains this text")
    args = parser.parse_args()
    if not os.path.exists(NATIVE):
        sys.exit("native-fidelity: %s not found (MapLibre Native's script from the shared bench)" % NATIVE)
    os.makedirs(OUT, exist_ok=True)
    w, h = SIZE
    rows = []
    for label, tiles, schema, (lat, lon) in PLACES:
        if args.only and args.only not in tiles:
            continue
        style = os.path.join(OUT, "roadmap-%s.json" % schema)
        with open(style, "w") as f:
            f.write(subprocess.run([args.terrapin, "style", "roadmap", "--schema", schema], check=True, capture_output=True, text=True).stdout)
        archive = os.path.join(ROOT, "Fixtures", "tiles", tiles + ".pmtiles")
        cells = []
        for zoom, pitch in VIEWS:
            name = "%s-z%d-p%d" % (tiles, zoom, pitch)
            metres_per_point = 78271.52 * math.cos(math.radians(lat)) / 2 ** zoom
            focal = (h / 2) / math.tan(math.radians(FOV / 2))
            scene = {"output": {"width": w, "height": h},
                     "map": {"mode": "roadmap", "earth": "sphere", "attribution": False,
                             "camera": {"center": {"latitude": lat, "longitude": lon}, "tilt": pitch,
                                        "range": metres_per_point * focal, "fieldOfView": FOV},
                             "basemap": {"tiles": archive, "style": style}}}
            path = os.path.join(OUT, name + ".json")
            with open(path, "w") as f:
                json.dump(scene, f, indent=1)
            mine, theirs = os.path.join(OUT, name + "-terrapin.png"), os.path.join(OUT, name + "-native.png")
            subprocess.run([args.terrapin, "render", path, "-o", mine], check=True, capture_output=True)
            subprocess.run(["bash", NATIVE, "--style", style, "--tiles", archive, "--center", "%s,%s" % (lat, lon),
                            "--zoom", str(zoom), "--pitch", str(pitch), "--size", "%dx%d" % (w, h), "-o", theirs],
                           check=True, capture_output=True)
            result = subprocess.run([args.terrapin, "diff", theirs, mine, "--json", "-o", os.path.join(OUT, name + "-diff.png")],
                                    capture_output=True, text=True)
            share = 100 * json.loads(result.stdout)["differingPixels"] / (w * h)
            cells.append("%.2f %%" % share)
            print("%s: %.2f %%" % (name, share), file=sys.stderr, flush=True)
        rows.append("| %s | %s |" % (label, " | ".join(cells)))
    print("| tiles | " + " | ".join("z%d pitch %d" % v for v in VIEWS) + " |")
    print("|---|" + "---|" * len(VIEWS))
    print("\n".join(rows))


if __name__ == "__main__":
    main()
