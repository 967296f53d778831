#!/usr/bin/env python3
"""MapLibre's render tests through Terrapin: every case of a suite rendered and scored.

    Tools/rendertests.py [SUITE] [--terrapin BIN] [--only TEXT] [--jobs N] [--out DIR]

SUITE is a copy of MapLibre GL JS's render-test suite laid out as ../shared/rendertests/suite
(render/tests/<group>/<case>/style.json with expected*.png beside it, assets/ for `local://`
URLs, manifest.json optional). For each case this thin adapter
- pre-applies the operations of `metadata.test` to the style (setPaintProperty,
  setLayoutProperty, setFilter, addLayer, removeLayer, addSource, setLayerZoomRange, setStyle,
  setZoom, setCenter, setBearing, setPitch; setFeatureState and removeFeatureState make the
  scene's basemap "featureState"; waits need nothing; any other is named as a reason);
- rewrites `local://X` to files under the suite's assets/;
- converts MapLibre's camera (centre, zoom of 512-pixel tiles, bearing, pitch, the 36.87°
  vertical field of view) to a scene on Web Mercator's sphere, `roadmap` mode, transparent
  where nothing draws, no attribution;
- renders it with `terrapin render` (Open Sans, where a style names it and the PyPI package
  ttf-opensans is installed, through a fontconfig file scoped to the run);
- scores it with MapLibre's own rule: pixelmatch at the case's threshold (default 0.1285),
  anti-aliased pixels not counted, colours over white (`terrapin diff --over-white`); the
  score is differing pixels / all pixels, the least over the expected*.png variants; a case
  passes at <= `allowed` (default 0.00025).

Prints the pass rate and the graded score (within 1 % and 5 % of pixels), a table per group,
a table per reason for failing (Terrapin's warnings, an operation not applied, an error), and
the worst case of each group; writes OUT/results.jsonl and, for each case that does not pass,
OUT/<case>/actual.png, diff.png and strip.png. Nothing from the suite enters the repository.
"""
import argparse, atexit, concurrent.futures, glob, json, math, os, re, shutil, subprocess, sys, tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)
FOV = 36.86989764584402  # MapLibre's vertical field of view, degrees
DEFAULTS = {"width": 512, "height": 512, "pixelRatio": 1, "allowed": 0.00025, "threshold": 0.1285}


def cases(suite, only):
    """Every case folder holding a style.json, as ids relative to render/tests."""
    base = os.path.join(suite, "render", "tests")
    found = []
    for style in glob.glob(os.path.join(base, "**", "style.json"), recursive=True):
        case = os.path.relpath(os.path.dirname(style), base)
        if not only or only in case:
            found.append(case)
    return sorted(found)


def local(url, assets):
    """`local://X`, and `http://localhost:2900/X` (the suite's test server, as TileJSON
    documents name it), → assets/X (other URLs unchanged)."""
    for prefix in ("local://", "http://localhost:2900/"):
        if isinstance(url, str) and url.startswith(prefix):
            return os.path.join(assets, url[len(prefix):])
    return url


EMPTY = []


def assets_empty():
    """A folder of empty folders (made once per run, removed at exit)."""
    if not EMPTY:
        EMPTY.append(tempfile.mkdtemp(prefix="rendertests-204-"))
        atexit.register(shutil.rmtree, EMPTY[0], True)
    return EMPTY[0]


def rewrite(style, assets, reasons):
    for name, source in (style.get("sources") or {}).items():
        if not isinstance(source, dict):
            continue
        if "url" in source:
            url = local(source["url"], assets)
            if isinstance(url, str) and url.endswith(".json") and os.path.exists(url):
                # A TileJSON document: its tiles and zooms go into the source.
                with open(url) as f:
                    tilejson = json.load(f)
                del source["url"]
                for key in ("tiles", "minzoom", "maxzoom", "bounds", "attribution", "tileSize", "encoding"):
                    if key in tilejson and key not in source:
                        source[key] = [local(t, assets) for t in tilejson[key]] if key == "tiles" else tilejson[key]
            else:
                source["url"] = url
        if "tiles" in source:
            source["tiles"] = [local(t, assets) for t in source["tiles"]]
            # A folder the suite does not hold stands for a server answering 204 (no content)
            # for every tile, as MapLibre's test server does: an empty folder.
            for i, t in enumerate(source["tiles"]):
                if isinstance(t, str) and t.startswith(assets) and "{z}" in t and not os.path.isdir(os.path.dirname(t)):
                    empty = os.path.join(assets_empty(), os.path.basename(os.path.dirname(t)))
                    os.makedirs(empty, exist_ok=True)
                    source["tiles"][i] = os.path.join(empty, os.path.basename(t))
        if "data" in source:
            source["data"] = local(source["data"], assets)
        if "url" in source and isinstance(source["url"], str) and source["url"].startswith("mapbox://"):
            reasons.add("a mapbox:// URL")
    if isinstance(style.get("sprite"), list):
        for entry in style["sprite"]:
            if isinstance(entry, dict) and "url" in entry:
                entry["url"] = local(entry["url"], assets)
    elif "sprite" in style:
        style["sprite"] = local(style["sprite"], assets)
    style.pop("glyphs", None)
    return style


def layer_index(style, layer_id):
    for i, layer in enumerate(style.get("layers", [])):
        if layer.get("id") == layer_id:
            return i
    return None


def apply_operations(style, operations, assets, reasons, states=None, images=None):
    """Runs the operations on the style (and its camera) before rendering; setFeatureState's
    states are appended to `states`, as the scene's basemap "featureState" entries."""
    for op in operations:
        name, args = op[0], op[1:]
        if name in ("wait", "idle", "sleep"):
            continue
        try:
            if name in ("setPaintProperty", "setLayoutProperty"):
                i = layer_index(style, args[0])
                group = "paint" if name == "setPaintProperty" else "layout"
                if i is not None:
                    props = style["layers"][i].setdefault(group, {})
                    if args[2] is None:
                        props.pop(args[1], None)
                    else:
                        props[args[1]] = args[2]
            elif name == "setFilter":
                i = layer_index(style, args[0])
                if i is not None:
                    if args[1] is None:
                        style["layers"][i].pop("filter", None)
                    else:
                        style["layers"][i]["filter"] = args[1]
            elif name == "addLayer":
                layers = style.setdefault("layers", [])
                before = layer_index(style, args[1]) if len(args) > 1 and args[1] else None
                layers.insert(before if before is not None else len(layers), args[0])
            elif name == "removeLayer":
                i = layer_index(style, args[0])
                if i is not None:
                    del style["layers"][i]
            elif name == "addSource":
                style.setdefault("sources", {})[args[0]] = args[1]
            elif name == "setLayerZoomRange":
                i = layer_index(style, args[0])
                if i is not None:
                    style["layers"][i]["minzoom"], style["layers"][i]["maxzoom"] = args[1], args[2]
            elif name == "setStyle":
                new = args[0]
                if isinstance(new, str):
                    with open(local(new, assets)) as f:
                        new = json.load(f)
                metadata = style.get("metadata")
                style.clear()
                style.update(new)
                if metadata and "metadata" not in style:
                    style["metadata"] = metadata
            elif name == "setZoom":
                style["zoom"] = args[0]
            elif name == "setCenter":
                style["center"] = args[0]
            elif name == "setBearing":
                style["bearing"] = args[0]
            elif name == "setPitch":
                style["pitch"] = args[0]
            elif name == "setVerticalFieldOfView":
                # The camera's field of view, kept apart from the style (the scene's camera).
                style["_fieldOfView"] = float(args[0])
            elif name == "addImage" and images is not None:
                # The scene's basemap "images" (MapLibre's addImage), its file under the assets.
                path = os.path.join(assets, args[1][2:] if args[1].startswith("./") else args[1])
                if not os.path.isfile(path):
                    reasons.add("operation addImage (its image is not in the suite)")
                    continue
                options = args[2] if len(args) > 2 and isinstance(args[2], dict) else {}
                image = {"file": path}
                if options.get("pixelRatio", 1) != 1:
                    image["pixelRatio"] = options["pixelRatio"]
                if options.get("sdf"):
                    image["sdf"] = True
                for key in ("stretchX", "stretchY", "content"):
                    if key in options:
                        reasons.add("operation addImage (%s)" % key)
                images[args[0]] = image
            elif name == "removeImage" and images is not None:
                images.pop(args[0], None)
            elif name == "setFeatureState" and states is not None:
                target = args[0]
                entry = {"source": target["source"], "id": target["id"], "state": args[1]}
                if target.get("sourceLayer"):
                    entry["sourceLayer"] = target["sourceLayer"]
                states.append(entry)
            elif name == "removeFeatureState" and states is not None:
                target, key = args[0], (args[1] if len(args) > 1 else None)

                def matches(entry):
                    return entry["source"] == target["source"] and \
                        (not target.get("sourceLayer") or entry.get("sourceLayer") == target["sourceLayer"]) and \
                        ("id" not in target or str(entry["id"]) == str(target["id"]))
                for entry in states:
                    if matches(entry) and key is not None:
                        entry["state"] = {k: v for k, v in entry["state"].items() if k != key}
                if key is None:
                    states[:] = [e for e in states if not matches(e)]
            else:
                reasons.add("operation " + name)
        except (IndexError, KeyError, TypeError, OSError, ValueError):
            reasons.add("operation " + name + " (malformed)")
    return style


def scene(style, test, style_path, states=(), images=None, fov=None):
    """The scene that draws `style` as MapLibre's camera sees it."""
    lon, lat = (style.get("center") or [0, 0])[:2]
    zoom = style.get("zoom", 0)
    width, height = test["width"], test["height"]
    # Metres per CSS pixel at the centre on Web Mercator's sphere, times the focal length in
    # points: the eye's distance from the centre.
    metres_per_point = 2 * math.pi * 6378137 / 512 * math.cos(math.radians(lat)) / 2 ** zoom
    fov = fov or FOV
    focal = (height / 2) / math.tan(math.radians(fov / 2))
    camera = {"center": {"latitude": max(-85.05, min(85.05, lat)), "longitude": ((lon + 180) % 360) - 180},
              "heading": style.get("bearing", 0) % 360, "tilt": min(90, max(0, style.get("pitch", 0))),
              "range": max(1, metres_per_point * focal), "fieldOfView": fov}
    ratio = test["pixelRatio"]
    return {"output": {"width": width, "height": height, "scale": int(ratio) if float(ratio).is_integer() and 1 <= ratio <= 4 else 1,
                       "background": "#00000000"},
            "map": {"mode": "roadmap", "earth": "mercator", "camera": camera, "attribution": False,
                    "basemap": dict({"tiles": os.path.join(os.path.dirname(style_path), "none", "{z}", "{x}", "{y}.pbf"), "style": style_path},
                                    **({"featureState": list(states)} if states else {}),
                                    **({"images": images} if images else {}))}}


def warnings_as_reasons(stderr):
    """Terrapin's warnings, made general enough to count (names of layers and sources dropped)."""
    reasons = set()
    for line in stderr.splitlines():
        line = line.strip()
        if not line.startswith("warning:") and "warning" not in line[:20]:
            continue
        text = re.sub(r"^.*?warning:\s*", "", line)
        text = re.sub(r"^\S*scene\.json:\s*", "", text)
        text = re.sub(r"layer '[^']*'", "layer", text)
        text = re.sub(r"source '[^']*'", "source", text)
        text = re.sub(r"'[^']*'", "…", text)
        text = re.sub(r"at line \d+", "", text)
        reasons.add(text[:110])
    return reasons


def run_case(case, args):
    base = os.path.join(args.suite, "render", "tests", case)
    out = os.path.join(args.out, case)
    os.makedirs(out, exist_ok=True)
    reasons = set()
    record = {"case": case, "group": case.split("/")[0]}
    try:
        with open(os.path.join(base, "style.json")) as f:
            style = json.load(f)
    except (OSError, ValueError) as e:
        return dict(record, score=1.0, reasons=["style.json unreadable: %s" % e])
    test = dict(DEFAULTS, **((style.get("metadata") or {}).get("test") or {}))
    record.update(allowed=test["allowed"], threshold=test["threshold"])
    assets = os.path.join(args.suite, "assets")
    states, images = [], {}
    style = apply_operations(style, test.get("operations", []), assets, reasons, states, images)
    fov = style.pop("_fieldOfView", None)
    style = rewrite(style, assets, reasons)
    if not float(test["pixelRatio"]).is_integer():
        reasons.add("pixelRatio %s (Terrapin's scale is 1 to 4)" % test["pixelRatio"])
    style_path = os.path.join(out, "style.json")
    with open(style_path, "w") as f:
        json.dump(style, f)
    # The scene's basemap names tiles; the style's own sources stand for themselves, so these
    # are an empty folder.
    os.makedirs(os.path.join(out, "none"), exist_ok=True)
    scene_path = os.path.join(out, "scene.json")
    with open(scene_path, "w") as f:
        json.dump(scene(style, test, style_path, states, images, fov), f, indent=1)
    actual = os.path.join(out, "actual.png")
    try:
        run = subprocess.run([args.terrapin, "render", scene_path, "-o", actual], capture_output=True, text=True,
                             timeout=args.timeout, env=args.env)
    except subprocess.TimeoutExpired:
        return dict(record, score=1.0, reasons=sorted(reasons | {"render timed out (%d s)" % args.timeout}))
    reasons |= warnings_as_reasons(run.stderr)
    if run.returncode != 0:
        first = (run.stderr.strip().splitlines() or ["exit %d" % run.returncode])[0]
        first = re.sub(r"'[^']*'", "…", first)
        return dict(record, score=1.0, reasons=sorted(reasons | {"render error: " + first[:100]}))
    best, best_expected = 1.0, None
    for expected in sorted(glob.glob(os.path.join(base, "expected*.png"))):
        d = subprocess.run([args.terrapin, "diff", expected, actual, "--over-white", "--threshold", str(test["threshold"]), "--json"],
                           capture_output=True, text=True)
        try:
            result = json.loads(d.stdout)
        except ValueError:
            continue
        total = max(1, result.get("totalPixels") or test["width"] * test["height"] * test["pixelRatio"] ** 2)
        score = 1.0 if result.get("sizesMatch") is False else result["differingPixels"] / total
        if score < best:
            best, best_expected = score, expected
    record.update(score=best, reasons=sorted(reasons))
    if best <= test["allowed"]:
        shutil.rmtree(out, ignore_errors=True)
    elif best_expected:
        subprocess.run([args.terrapin, "diff", best_expected, actual, "--over-white", "--threshold", str(test["threshold"]),
                        "-o", os.path.join(out, "diff.png"), "--strip", os.path.join(out, "strip.png")], capture_output=True)
    return record


def fontconfig(out):
    """A fontconfig file adding Open Sans (PyPI ttf-opensans) to the system's fonts, or None."""
    try:
        import ttf_opensans  # noqa: F401
        folder = os.path.dirname(ttf_opensans.__file__)
    except ImportError:
        return None
    path = os.path.join(out, "fonts.conf")
    with open(path, "w") as f:
        f.write('<?xml version="1.0"?>\n<!DOCTYPE fontconfig SYSTEM "fonts.dtd">\n<fontconfig>\n'
                '  <include ignore_missing="yes">/etc/fonts/fonts.conf</include>\n  <dir>%s</dir>\n</fontconfig>\n' % folder)
    return path


def table(title, rows, header):
    print("\n" + title)
    print("| " + " | ".join(header) + " |")
    print("|" + "---|" * len(header))
    for row in rows:
        print("| " + " | ".join(str(c) for c in row) + " |")


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("suite", nargs="?", default=os.path.normpath(os.path.join(ROOT, "..", "shared", "rendertests", "suite")))
    parser.add_argument("--terrapin", default=os.path.join(ROOT, ".build", "opt", "debug", "terrapin"))
    parser.add_argument("--only", help="cases whose id contains this text")
    parser.add_argument("--jobs", type=int, default=os.cpu_count() or 2)
    parser.add_argument("--timeout", type=int, default=60)
    parser.add_argument("--out", default=os.path.join(ROOT, "out", "rendertests"))
    args = parser.parse_args()
    # Styles are written under --out and name the suite's assets: a relative suite path (make's
    # default) would be read from there.
    args.suite = os.path.abspath(args.suite)
    if not os.path.isdir(os.path.join(args.suite, "render", "tests")):
        sys.exit("rendertests: %s is not a render-test suite (no render/tests folder)" % args.suite)
    os.makedirs(args.out, exist_ok=True)
    args.env = dict(os.environ)
    conf = fontconfig(args.out)
    if conf:
        args.env["FONTCONFIG_FILE"] = conf
    ids = cases(args.suite, args.only)
    results = []
    with concurrent.futures.ThreadPoolExecutor(max_workers=args.jobs) as pool:
        for record in pool.map(lambda c: run_case(c, args), ids):
            results.append(record)
            if len(results) % 100 == 0:
                print("%d of %d cases" % (len(results), len(ids)), file=sys.stderr)
    with open(os.path.join(args.out, "results.jsonl"), "w") as f:
        for r in results:
            f.write(json.dumps(r) + "\n")

    def counts(rs):
        n = len(rs)
        passed = sum(r["score"] <= r.get("allowed", DEFAULTS["allowed"]) for r in rs)
        one = sum(r["score"] <= 0.01 for r in rs)
        five = sum(r["score"] <= 0.05 for r in rs)
        return n, passed, one, five

    n, passed, one, five = counts(results)
    pct = lambda a, b: "%.1f %%" % (100.0 * a / b) if b else "-"
    print("\n%d cases: %d pass (%s), %d within 1 %% of pixels (%s), %d within 5 %% (%s); Open Sans %s"
          % (n, passed, pct(passed, n), one, pct(one, n), five, pct(five, n), "used" if conf else "not installed (pip install ttf-opensans)"))
    groups = sorted({r["group"] for r in results})
    rows = []
    for g in groups:
        rs = [r for r in results if r["group"] == g]
        gn, gp, g1, g5 = counts(rs)
        worst = max(rs, key=lambda r: r["score"])
        rows.append((g, gn, gp, g1, g5, "%s (%.1f %%)" % (worst["case"], 100 * worst["score"])))
    table("By group", rows, ["group", "cases", "pass", "≤ 1 %", "≤ 5 %", "worst"])
    failing = [r for r in results if r["score"] > r.get("allowed", DEFAULTS["allowed"])]
    by_reason = {}
    for r in failing:
        for reason in r["reasons"] or ["drawn, but differs"]:
            by_reason.setdefault(reason, []).append(r)
    rows = sorted(((len(rs), reason, sum(x["score"] <= 0.05 for x in rs)) for reason, rs in by_reason.items()), reverse=True)
    table("Failing cases by reason (a case may have several)", [(reason, c, w5) for c, reason, w5 in rows], ["reason", "cases", "of them ≤ 5 %"])


if __name__ == "__main__":
    main()
