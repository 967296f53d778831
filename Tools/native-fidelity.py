#!/usr/bin/env python3
"""Terrapin's basemap against MapLibre Native, in the three tile schemas, built-in and published styles.

Each case is a style and the tiles it reads, rendered by MapLibre Native
(../shared/bench/maplibre/native.sh) and by Terrapin with the same tiles and view: 800×600,
MapLibre's 36.87° field of view, the camera's range from MapLibre's zoom (78,271.52 · cos φ / 2^z
metres per pixel times the focal length), the map on Web Mercator's plane (`"earth": "mercator"`,
drawn at the output's resolution straight down, draped from tile textures at pitch 60).
The styles: Terrapin's built-ins for each schema (`terrapin style NAME --schema …`), the bench's
example-style.json (OpenMapTiles), and the published styles in ../shared/data/styles/
(VersaTiles Colorful and Neutrino over Shortbread, Protomaps light and dark over Protomaps).
Both renderers get the same style file: its vector sources read the case's tiles, its sprite and
glyph URLs left out (Native draws no icons without a local sprite; Terrapin sets text with the
machine's fonts). Two figures a view: the share of pixels that differ (`terrapin diff`,
pixelmatch's threshold 0.1, anti-aliasing not counted) and the mean |ΔRGB| over all pixels
(0–255). Writes out/native-fidelity/NAME-{native,terrapin,diff}.png and prints a Markdown table,
one row a case: at z13 and z14 straight down and at z14 tilted 60°.

    python3 Tools/native-fidelity.py [--terrapin .build/opt/debug/terrapin] [--only monaco]
        [--style NAME=STYLE.json ...]

`--style` adds a style of your own over the OpenMapTiles archives of Andorra and Monaco (cases
NAME-andorra and NAME-monaco), e.g. OSM Bright, Positron or MapTiler Basic from their
repositories: styles that are not in ../shared and so not among the cases above.
"""
import argparse, json, math, os, subprocess, sys

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)
NATIVE = os.path.normpath(os.path.join(ROOT, "..", "shared", "bench", "maplibre", "native.sh"))
OUT = os.path.join(ROOT, "out", "native-fidelity")
FOV = 36.87
SIZE = (800, 600)
STYLES = os.path.normpath(os.path.join(ROOT, "..", "shared", "data", "styles"))
EXAMPLE = os.path.normpath(os.path.join(ROOT, "..", "shared", "bench", "maplibre", "example-style.json"))
ANDORRA, MONACO = (42.5078, 1.5211), (43.7384, 7.4246)
# Each archive under Fixtures/tiles: its place's name, its schema's name, its centre.
ARCHIVES = {"andorra-omt": ("Andorra", "OpenMapTiles", ANDORRA), "monaco-omt": ("Monaco", "OpenMapTiles", MONACO),
            "monaco-protomaps": ("Monaco", "Protomaps", MONACO), "monaco-shortbread": ("Monaco", "Shortbread", MONACO)}


def make_case(tiles, style_ref, style_label, suffix, name=None):
    """A case: name (the archive's, then `suffix`, unless given), label, tiles, style (a
    built-in's name or a file) and centre."""
    place, schema, centre = ARCHIVES[tiles]
    return (name or tiles + suffix, "%s, %s, %s" % (place, schema, style_label), tiles, style_ref, centre)


def builtin(tiles, style):
    return make_case(tiles, style, style, "" if style == "roadmap" else "-" + style)


def published(tiles, folder, label, suffix):
    return make_case(tiles, os.path.join(STYLES, folder, "style.json"), label, suffix)


CASES = [builtin(t, "roadmap") for t in ["andorra-omt", "monaco-omt", "monaco-protomaps", "monaco-shortbread"]] + [
    builtin("monaco-omt", "light"), builtin("monaco-protomaps", "dark"),
    builtin("andorra-omt", "light"), builtin("andorra-omt", "dark"), builtin("monaco-omt", "dark"),
    builtin("monaco-protomaps", "light"), builtin("monaco-shortbread", "light"), builtin("monaco-shortbread", "dark"),
    make_case("andorra-omt", EXAMPLE, "example-style", "-example"), make_case("monaco-omt", EXAMPLE, "example-style", "-example"),
    published("monaco-shortbread", "versatiles-colorful", "VersaTiles Colorful", "-colorful"),
    published("monaco-shortbread", "versatiles-neutrino", "VersaTiles Neutrino", "-neutrino"),
    published("monaco-protomaps", "protomaps-light", "Protomaps light", "-pm-light"),
    published("monaco-protomaps", "protomaps-dark", "Protomaps dark", "-pm-dark"),
]
SCHEMAS = {"andorra-omt": "openmaptiles", "monaco-omt": "openmaptiles", "monaco-protomaps": "protomaps", "monaco-shortbread": "shortbread"}
VIEWS = [(13, 0), (14, 0), (14, 60)]


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--terrapin", default=os.path.join(ROOT, ".build", "opt", "debug", "terrapin"))
    parser.add_argument("--only", help="cases whose name (e.g. monaco-protomaps-dark) contains this text")
    parser.add_argument("--style", action="append", default=[], metavar="NAME=STYLE.json",
                        help="also a style of your own over the OpenMapTiles tiles of Andorra and Monaco")
    args = parser.parse_args()
    cases = list(CASES)
    for item in args.style:
        name, sep, path = item.partition("=")
        if not sep or not name or not os.path.isfile(path):
            sys.exit("native-fidelity: --style takes NAME=STYLE.json with an existing file, not %r" % item)
        path = os.path.abspath(path)
        cases += [make_case(tiles, path, name, "", name=name + "-" + ARCHIVES[tiles][0].lower()) for tiles in ["andorra-omt", "monaco-omt"]]
    if not os.path.exists(NATIVE):
        sys.exit("native-fidelity: %s not found (MapLibre Native's script from the shared bench)" % NATIVE)
    os.makedirs(OUT, exist_ok=True)
    w, h = SIZE
    rows = []
    for case, label, tiles, style_ref, (lat, lon) in cases:
        if args.only and args.only not in case:
            continue
        style = prepare_style(case, style_ref, tiles, args.terrapin, OUT)
        if style is None:
            continue
        archive = os.path.join(ROOT, "Fixtures", "tiles", tiles + ".pmtiles")
        cells = []
        for zoom, pitch in VIEWS:
            name = "%s-z%d-p%d" % (case, zoom, pitch)
            scene = view_scene(lat, lon, zoom, pitch, (w, h), archive, style)
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
            delta = mean_delta(theirs, mine)
            cells.append("%.2f %% · %.1f" % (share, delta))
            print("%s: %.2f %%, mean |ΔRGB| %.2f" % (name, share, delta), file=sys.stderr, flush=True)
        rows.append("| %s | %s |" % (label, " | ".join(cells)))
    print("| tiles, style | " + " | ".join("z%d pitch %d" % v for v in VIEWS) + " |")
    print("|---|" + "---|" * len(VIEWS))
    print("\n".join(rows))


def prepare_style(case, style_ref, tiles, terrapin, out):
    """The case's style as one file both renderers read (out/CASE-style.json): its vector sources
    read the case's tiles, without sprite or glyph URLs. `style_ref` is a built-in's name or a
    file; None when the file is missing."""
    style = os.path.join(out, case + "-style.json")
    if os.path.sep in style_ref:
        if not os.path.exists(style_ref):
            print("%s: %s not found; skipped" % (case, style_ref), file=sys.stderr)
            return None
        with open(style_ref) as f:
            doc = json.load(f)
    else:
        doc = json.loads(subprocess.run([terrapin, "style", style_ref, "--schema", SCHEMAS[tiles]], check=True, capture_output=True, text=True).stdout)
    for source in doc.get("sources", {}).values():
        if source.get("type") == "vector":
            for key in ("url", "tiles"):
                source.pop(key, None)
    for key in ("sprite", "glyphs"):
        doc.pop(key, None)
    with open(style, "w") as f:
        json.dump(doc, f)
    return style


def view_scene(lat, lon, zoom, pitch, size, archive, style):
    """A Terrapin scene of MapLibre's view at `zoom` and `pitch`: Web Mercator's plane, MapLibre's
    field of view, the range from the zoom's metres per pixel and the focal length."""
    w, h = size
    metres_per_point = 78271.52 * math.cos(math.radians(lat)) / 2 ** zoom
    focal = (h / 2) / math.tan(math.radians(FOV / 2))
    return {"output": {"width": w, "height": h},
            "map": {"mode": "roadmap", "earth": "mercator", "attribution": False,
                    "camera": {"center": {"latitude": lat, "longitude": lon}, "tilt": pitch,
                               "range": metres_per_point * focal, "fieldOfView": FOV},
                    "basemap": {"tiles": archive, "style": style}}}


def mean_delta(a, b):
    """The mean over all pixels of |ΔR|, |ΔG| and |ΔB| (0–255), both images over white."""
    from PIL import Image
    import numpy as np
    def rgb(path):
        image = Image.open(path).convert("RGBA")
        white = Image.new("RGBA", image.size, (255, 255, 255, 255))
        return np.asarray(Image.alpha_composite(white, image).convert("RGB"), dtype=np.int16)
    x, y = rgb(a), rgb(b)
    if x.shape != y.shape:
        return float("nan")
    return float(np.abs(x - y).mean())


if __name__ == "__main__":
    main()
