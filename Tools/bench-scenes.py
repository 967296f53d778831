#!/usr/bin/env python3
"""Real scenes end to end, as a user runs them: every example, and MapLibre's basemap views.

The scenes: every Examples/*.json, and the basemap views of ../shared/bench/maplibre/ — Andorra's
OpenMapTiles at z13 and z14 straight down and z14 tilted 60°, 1024×768, for the built-in roadmap,
the bench's example-style.json and the shared data's Protomaps light and VersaTiles Colorful
(over Monaco's Protomaps and Shortbread tiles), each on Web Mercator's plane as
Tools/native-fidelity.py builds them. Each scene is timed
- cold: a fresh `terrapin render` process, N times, the median wall time, with `--timings`' stages
  (decode, load, resolve, paint, encode) and the process's peak RSS; on one core (taskset -c 0)
  and on all;
- warm: the same scene rendered again in one process, as batch and serve run it
  (`terrapin batch --manifest` of the scene K+1 times, -j 1: (T(K+1) − T(1)) / K); on one core
  and on all; and its map→pixels alone, the same difference of the decode, load, resolve and
  paint stages batch's --json sums (leaving out encoding the PNG and writing it, as Native's
  map→pixels leaves them out).
With --native, each basemap view is also drawn by MapLibre Native (../shared/bench/maplibre/
native.sh --runs N --json), in the same minutes as Terrapin's (alternately, view by view), and
the ratios printed: Terrapin's cold process to Native's whole process (python start, Map(),
render, PNG), and Terrapin's warm render, whole and map→pixels, to Native's median map→pixels
in one process (and the warm map→pixels to Native's fastest).
Prints a Markdown table; writes the figures as JSON to out/bench-scenes/results.json.

    python3 Tools/bench-scenes.py [--terrapin .build/install/release/terrapin] [--runs 5] [--warm 4] [--native] [--only monaco]
"""
import argparse, importlib.util, json, os, re, statistics, subprocess, sys, tempfile, time

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)
OUT = os.path.join(ROOT, "out", "bench-scenes")
spec = importlib.util.spec_from_file_location("native_fidelity", os.path.join(HERE, "native-fidelity.py"))
nf = importlib.util.module_from_spec(spec)
spec.loader.exec_module(nf)
SIZE = (1024, 768)
VIEWS = [(13, 0), (14, 0), (14, 60)]
BASEMAPS = [
    # name, tiles under Fixtures/tiles, style (a built-in's name or a file), centre
    ("andorra-roadmap", "andorra-omt", "roadmap", nf.ANDORRA),
    ("andorra-example", "andorra-omt", nf.EXAMPLE, nf.ANDORRA),
    ("monaco-protomaps-light", "monaco-protomaps", os.path.join(nf.STYLES, "protomaps-light", "style.json"), nf.MONACO),
    ("monaco-versatiles-colorful", "monaco-shortbread", os.path.join(nf.STYLES, "versatiles-colorful", "style.json"), nf.MONACO),
]
STAGES = ["decode", "load", "resolve", "paint", "encode"]


def measured(command, one_core, stdout=False):
    """Wall seconds, peak RSS in MiB and stderr (with `stdout`, standard output) of one process
    (os.wait4 gives its own rusage)."""
    if one_core:
        command = ["taskset", "-c", "0"] + command
    start = time.perf_counter()
    with tempfile.TemporaryFile() as err, tempfile.TemporaryFile() as out:
        pid = os.posix_spawnp(command[0], command, os.environ, file_actions=[
            (os.POSIX_SPAWN_DUP2, out.fileno(), 1) if stdout else (os.POSIX_SPAWN_OPEN, 1, "/dev/null", os.O_WRONLY, 0),
            (os.POSIX_SPAWN_DUP2, err.fileno(), 2)])
        _, status, usage = os.wait4(pid, 0)
        wall = time.perf_counter() - start
        err.seek(0)
        text = err.read().decode("utf-8", "replace")
        out.seek(0)
        printed = out.read().decode("utf-8", "replace")
    if os.waitstatus_to_exitcode(status) != 0:
        sys.exit("bench-scenes: %s failed:\n%s" % (" ".join(command), text))
    return wall, usage.ru_maxrss / 1024, (printed if stdout else text)


def cold(terrapin, scene, runs, one_core):
    """The median wall ms, stage ms and peak RSS MiB of `runs` fresh renders."""
    walls, peaks, stages = [], [], {s: [] for s in STAGES}
    for _ in range(runs):
        wall, peak, err = measured([terrapin, "render", scene, "-o", os.path.join(OUT, "out.png"), "--timings"], one_core)
        walls.append(wall * 1000)
        peaks.append(peak)
        for stage, ms in re.findall(r"(decode|load|resolve|paint|encode) ([0-9.]+) ms", err):
            stages[stage].append(float(ms))
    return {"ms": statistics.median(walls), "peak_mib": max(peaks),
            "stages": {s: statistics.median(v) for s, v in stages.items() if v}}


def warm(terrapin, scene, repeats, one_core):
    """Milliseconds a render takes in a process that has rendered the scene before: the whole
    render, its file written (wall), and map→pixels (its decode, load, resolve and paint stages,
    from batch's --json; not encoding the PNG nor writing it), as MapLibre Native's
    map→pixels is timed."""
    def batch(n):
        manifest = os.path.join(OUT, "manifest.jsonl")
        with open(manifest, "w") as f:
            for i in range(n):
                f.write(json.dumps({"scene": os.path.abspath(scene), "name": "r%d" % i}) + "\n")
        wall, _, printed = measured([terrapin, "batch", "--manifest", manifest, "--force", "-j", "1", "--json", "--quiet",
                                     "--output", os.path.join(OUT, "warm", "{name}.png")], one_core, stdout=True)
        stages = json.loads(printed).get("stages", {})
        return wall * 1000, sum(stages.get(s, 0) for s in ("decode", "load", "resolve", "paint"))
    (whole_n, map_n), (whole_1, map_1) = batch(repeats + 1), batch(1)
    return max(0.0, (whole_n - whole_1) / repeats), max(0.0, (map_n - map_1) / repeats)


def native(style, archive, lat, lon, zoom, pitch, runs):
    """MapLibre Native's whole process (ms), and its median and fastest map→pixels (ms), one
    fresh process."""
    report = os.path.join(OUT, "native.json")
    start = time.perf_counter()
    subprocess.run(["bash", nf.NATIVE, "--style", style, "--tiles", archive, "--center", "%s,%s" % (lat, lon),
                    "--zoom", str(zoom), "--pitch", str(pitch), "--size", "%dx%d" % SIZE, "-o", os.path.join(OUT, "native.png"),
                    "--runs", str(runs), "--json", report], check=True, capture_output=True)
    wall = (time.perf_counter() - start) * 1000
    with open(report) as f:
        doc = json.load(f)
    row = doc["results"][0]
    # The whole process once, without the timed runs after its first render.
    first = doc["process"].get("start_to_first_png_ms") or wall
    return {"process_ms": first, "map_ms": row.get("map_ms"), "min_map_ms": row.get("min_map_ms"), "peak_mib": row.get("peak_rss_mib")}


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    # `make install`'s binary (the Swift runtime linked in), the one users and the image run.
    parser.add_argument("--terrapin", default=os.path.join(ROOT, ".build", "install", "release", "terrapin"))
    parser.add_argument("--runs", type=int, default=5, help="cold processes a scene (default 5)")
    parser.add_argument("--warm", type=int, default=4, help="renders after the first in the warm process (default 4)")
    parser.add_argument("--native", action="store_true", help="also MapLibre Native, for the basemap views")
    parser.add_argument("--only", help="scenes whose name contains this text")
    args = parser.parse_args()
    os.makedirs(os.path.join(OUT, "warm"), exist_ok=True)
    scenes = []
    for file in sorted(os.listdir(os.path.join(ROOT, "Examples"))):
        if file.endswith(".json"):
            scenes.append((file[:-5], os.path.join(ROOT, "Examples", file), None))
    for case, tiles, style_ref, (lat, lon) in BASEMAPS:
        if args.only and not any(args.only in "%s-z%d-p%d" % (case, z, p) for z, p in VIEWS):
            continue
        style = nf.prepare_style(case, style_ref, tiles, args.terrapin, OUT)
        if style is None:
            continue
        archive = os.path.join(ROOT, "Fixtures", "tiles", tiles + ".pmtiles")
        for zoom, pitch in VIEWS:
            name = "%s-z%d-p%d" % (case, zoom, pitch)
            path = os.path.join(OUT, name + ".json")
            with open(path, "w") as f:
                json.dump(nf.view_scene(lat, lon, zoom, pitch, SIZE, archive, style), f, indent=1)
            scenes.append((name, path, (style, archive, lat, lon, zoom, pitch)))
    results = []
    for name, path, view in scenes:
        if args.only and args.only not in name:
            continue
        row = {"name": name,
               "cold_one": cold(args.terrapin, path, args.runs, True), "cold_all": cold(args.terrapin, path, args.runs, False),
               }
        (row["warm_one"], row["warm_one_map"]), (row["warm_all"], row["warm_all_map"]) = \
            warm(args.terrapin, path, args.warm, True), warm(args.terrapin, path, args.warm, False)
        if args.native and view:
            row["native"] = native(*view, runs=args.runs)
        results.append(row)
        print("%s: cold %.0f ms (1 core) %.0f ms (all), warm %.0f / %.0f ms (map→pixels %.0f / %.0f), peak %.0f MiB"
              % (name, row["cold_one"]["ms"], row["cold_all"]["ms"], row["warm_one"], row["warm_all"], row["warm_one_map"], row["warm_all_map"],
                 row["cold_one"]["peak_mib"]),
              file=sys.stderr, flush=True)
    with open(os.path.join(OUT, "results.json"), "w") as f:
        json.dump({"terrapin": args.terrapin, "runs": args.runs, "warm": args.warm, "results": results}, f, indent=1)
    header = "| scene | cold, 1 core | decode · load · resolve · paint · encode | cold, all cores | warm, 1 core | warm, all (map→pixels) | peak RSS |"
    if args.native:
        header += " Native process · map→pixels (fastest) | ratio cold · warm · warm map→pixels (to the fastest) |"
    print(header)
    print("|---" * (header.count("|") - 1) + "|")
    for r in results:
        c = r["cold_one"]
        line = "| %s | %.0f ms | %s | %.0f ms | %.0f ms | %.0f (%.0f) ms | %.0f MiB |" % (
            r["name"], c["ms"], " · ".join("%.0f" % c["stages"].get(s, 0) for s in STAGES), r["cold_all"]["ms"],
            r["warm_one"], r["warm_all"], r["warm_all_map"], c["peak_mib"])
        if args.native:
            n = r.get("native")
            fastest = n.get("min_map_ms") or n.get("map_ms") if n else None
            line += (" %.0f · %.0f (%.0f) ms | %.2f · %.2f · %.2f (%.2f) |" % (n["process_ms"], n["map_ms"], fastest, r["cold_all"]["ms"] / n["process_ms"],
                                                                         r["warm_all"] / n["map_ms"], r["warm_all_map"] / n["map_ms"], r["warm_all_map"] / fastest)
                     if n and n.get("map_ms") else " | |")
        print(line)


if __name__ == "__main__":
    main()
