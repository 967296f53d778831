#!/usr/bin/env bash
# make fuzz: builds the libFuzzer targets (Fuzz/<target>, entries in Sources/TerrapinFuzzing)
# with AddressSanitizer and runs each for FUZZ_SECONDS (default 60) from a seed corpus built
# from Fixtures/ and Examples/. The working corpus persists in out/fuzz/corpus/<target> and
# grows run after run; findings go to out/fuzz/findings/. Exit status 1 if anything was found.
#
#   FUZZ_SECONDS=600 make fuzz              ten minutes per target
#   FUZZ_TARGETS="scene text" make fuzz     some targets only
#   FUZZ_JOBS=2 make fuzz                   two targets at a time (one core each)
set -uo pipefail
cd "$(dirname "$0")/.."
seconds=${FUZZ_SECONDS:-60}
targets=${FUZZ_TARGETS:-scene png grid text geojson raster tiles geotiff mvt style sprite staticmap gltf svg mbtiles encoders net expression worker}
jobs=${FUZZ_JOBS:-1}
swift=${SWIFT:-swift}
out=out/fuzz

swift_build() {  # swift_build <target> <log>
  # SwiftPM hands swiftc one -sanitize= flag per sanitizer, and swiftc keeps only the last: in
  # whichever order SwiftPM lists them, the Swift code got coverage without ASan or ASan without
  # coverage. The combined flag, appended last, gives it both.
  TERRAPIN_FUZZ=1 $swift build -c release --scratch-path .build/fuzz --sanitize=fuzzer --sanitize=address \
    -Xswiftc -sanitize=fuzzer,address --product "fuzz-$1" > "$2" 2>&1
}
build() {  # build <target>
  local log
  log=$(mktemp)
  # Incremental builds here have failed to relink after a signature changed (undefined
  # references to the old symbols): then start over, once.
  if ! swift_build "$1" "$log"; then
    echo "make fuzz: the incremental build of fuzz-$1 failed; building from scratch"
    rm -rf .build/fuzz
    swift_build "$1" "$log" || { grep -E "error" "$log" | head -5 >&2; rm -f "$log"; echo "make fuzz: building fuzz-$1 failed" >&2; exit 2; }
  fi
  grep -v "Cannot export local symbol" "$log" | grep -E "warning: |complete" || true
  rm -f "$log"
}
asan() {  # asan: whether the Swift code calls AddressSanitizer's checks
  # (grep -c reads everything: with -q, nm's SIGPIPE would fail the pipeline under pipefail.)
  [ "$(nm .build/fuzz/release/TerrapinScene.build/*.o 2>/dev/null | grep -c "__asan_report_")" -gt 0 ]
}
counters() {  # counters <target>: coverage counters libFuzzer finds in the binary
  local n
  # (Leak checks off: fontconfig's one-time allocations would otherwise end this probe as a
  # "crash" and leave an empty crash-* file in the working directory.)
  n=$(ASAN_OPTIONS=detect_leaks=0 ".build/fuzz/release/fuzz-$1" -runs=0 2>&1 | grep -oE '\([0-9]+ inline 8-bit counters' | grep -oE '[0-9]+' | head -1)
  echo "${n:-0}"
}
for t in $targets; do
  build "$t"
  # A binary whose Swift code lacks coverage (only the C shim's 78 counters) fuzzes blind, and
  # one without ASan misses memory errors: start over once, and stop if it is still so.
  if [ "$(counters "$t")" -lt 5000 ] || ! asan; then
    echo "make fuzz: fuzz-$t has $(counters "$t") coverage counters$(asan || echo ' and no ASan in Swift code'); rebuilding from scratch"
    rm -rf .build/fuzz
    build "$t"
    [ "$(counters "$t")" -ge 5000 ] && asan || { echo "make fuzz: fuzz-$t is not instrumented ($(counters "$t") counters)" >&2; exit 2; }
  fi
done

seeds() {  # seeds <target> <dir>: the starting inputs, fresh each run
  local t=$1 dir=$2
  rm -rf "$dir"; mkdir -p "$dir"
  cp Fixtures/fuzz/"$t"/* "$dir"/
  case $t in
    scene)
      cp Examples/*.json Fixtures/cli/*.json "$dir"/
      # Each malformed scene of the decoder tests, one file per line of the JSONL.
      python3 - "$dir" <<'PY'
import json, sys
for i, line in enumerate(open("Fixtures/cli/malformed-scenes.jsonl")):
    if line.strip():
        open(f"{sys.argv[1]}/malformed-{i:03}.json", "w").write(json.loads(line)["scene"])
PY
      ;;
    png) find Fixtures -name '*.png' -size -12k | head -200 | while read -r f; do cp "$f" "$dir/$(echo "$f" | tr / _)"; done ;;
  esac
}

maxlen() { case $1 in scene) echo 32768 ;; png) echo 16384 ;; grid) echo 4096 ;; text) echo 512 ;; staticmap) echo 8192 ;; gltf) echo 16384 ;; worker) echo 16384 ;; esac; }

run() {  # run <target>: one fuzzing session, its statistics in out/fuzz/<target>.log
  local t=$1
  mkdir -p "$out/corpus/$t" "$out/findings"
  seeds "$t" "$out/seeds/$t"
  local dict=()
  if [ "$t" = scene ]; then
    # Every key and enumerated value the schema names, as tokens for the mutator.
    grep -oE '"[A-Za-z0-9_.#-]+"' schema/scene.schema.json | sort -u | sed 's/"/\\"/g; s/.*/"&"/' > "$out/scene.dict"
    dict=(-dict="$out/scene.dict")
  fi
  # Leaks are checked per input (fontconfig is loaded before the first, see FuzzEntry.prepare);
  # at exit make sanitize covers them. The Swift backtracer would fight ASan over a crash.
  # The expression target recurses as deep as the grammar nests, and ASan keeps every distinct
  # allocation stack it sees for ever: with its full 30 frames that store grew by 4 KB a run (2 GB
  # in 10 minutes; the same inputs without ASan hold 58 MB); with 4 frames it levels off.
  local context=30
  [ "$t" = expression ] && context=4
  SWIFT_BACKTRACE=enable=no ASAN_OPTIONS=detect_leaks=1:leak_check_at_exit=0:malloc_context_size=$context LSAN_OPTIONS=suppressions=$PWD/Tools/lsan.supp \
    ".build/fuzz/release/fuzz-$t" "$out/corpus/$t" "$out/seeds/$t" "${dict[@]}" \
    -max_total_time="$seconds" -timeout=10 -rss_limit_mb=2048 -malloc_limit_mb=128 -max_len="$(maxlen "$t")" \
    -artifact_prefix="$out/findings/$t-" -print_final_stats=1 > "$out/$t.log" 2>&1
  local status=$?
  local execs cov
  execs=$(grep -oE 'stat::number_of_executed_units: [0-9]+' "$out/$t.log" | grep -oE '[0-9]+$')
  cov=$(grep -oE 'cov: [0-9]+ ft: [0-9]+ corp: [0-9]+' "$out/$t.log" | tail -1)
  printf '%-6s %4ss  %10s executions  %s  %s\n' "$t" "$seconds" "${execs:-?}" "${cov:-}" \
    "$([ $status = 0 ] && echo "no findings" || echo "FINDING (exit $status): see $out/$t.log and $out/findings/")"
  return $status
}

status=0
pids=()
for t in $targets; do
  run "$t" & pids+=($!)
  if [ ${#pids[@]} -ge "$jobs" ]; then wait "${pids[0]}" || status=1; pids=("${pids[@]:1}"); fi
done
for p in "${pids[@]}"; do wait "$p" || status=1; done
[ $status = 0 ] && echo "make fuzz: no findings" || echo "make fuzz: findings in $out/findings/ (make each a regression under Fixtures/regressions/<target>/ with its fix)"
exit $status
