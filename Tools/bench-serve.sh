#!/usr/bin/env bash
# make bench-serve: `terrapin serve` under a bounded local load against the example scenes
# (wrk, 127.0.0.1 only, SERVE_SECONDS at SERVE_CONCURRENCY connections), then `terrapin batch`
# on the same scenes with as many threads; prints requests/s, p50/p99 latency, peak RSS and the
# ratio of the two throughputs; with SERVE_HOSTILE=1 the load again with make stress's hostile
# scenes mixed in. Figures, not assertions.
set -euo pipefail
cd "$(dirname "$0")/.."
SECONDS_=${SERVE_SECONDS:-30}
CONCURRENCY=${SERVE_CONCURRENCY:-8}
THREADS=${SERVE_THREADS:-$(nproc)}
BIN=.build/release/terrapin
OUT=out/bench/serve
rm -rf "$OUT" && mkdir -p "$OUT"

scenes=(Examples/*.json)
{
  echo "local paths = {"
  for s in "${scenes[@]}"; do echo "  \"/render/$s\","; done
  echo "}"
  cat <<'LUA'
local i = 0
request = function()
  i = i + 1
  return wrk.format("GET", paths[(i % #paths) + 1])
end
LUA
} > "$OUT/rotate.lua"

"$BIN" serve --root . --host 127.0.0.1 --port 0 --threads "$THREADS" --queue 64 --log none 2> "$OUT/serve.err" &
pid=$!
trap 'kill $pid 2>/dev/null || true' EXIT
for _ in $(seq 1 600); do grep -q "terrapin serve: ready" "$OUT/serve.err" && break; sleep 0.1; done
port=$(grep -o "127.0.0.1:[0-9]*" "$OUT/serve.err" | head -1 | cut -d: -f2)
url="http://127.0.0.1:$port"
# Every scene once, so failures show before the load (and first loads are not timed).
for s in "${scenes[@]}"; do
  code=$(curl -s -o /dev/null -w "%{http_code}" "$url/render/$s")
  [ "$code" = 200 ] || { echo "bench-serve: $s answered $code" >&2; exit 1; }
done
wrk -t "$(( CONCURRENCY < THREADS ? CONCURRENCY : THREADS ))" -c "$CONCURRENCY" -d "${SECONDS_}s" --timeout 60s --latency \
    -s "$OUT/rotate.lua" "$url" > "$OUT/wrk.txt"
# SERVE_HOSTILE=1: the same load again while a second client sends make stress's hostile scenes
# (HostileScenes at full size, written by `TerrapinBench stress-files`) one after another; the
# ordinary requests' latency is compared with the undisturbed run's.
hostile_report=""
if [ -n "${SERVE_HOSTILE:-}" ]; then
  mkdir -p "$OUT/hostile"
  cases=$(.build/release/TerrapinBench stress-files list | grep -E '^[a-z][a-z0-9-]+$')
  for c in $cases; do .build/release/TerrapinBench stress-files "$c" "$OUT/hostile/$c" > /dev/null; done
  ( while true; do for c in $cases; do
      curl -s -o /dev/null -w "%{http_code} $c %{time_total}\n" "$url/render/$OUT/hostile/$c/scene.json" >> "$OUT/hostile.txt" || true
    done; done ) &
  hostile=$!
  wrk -t "$(( CONCURRENCY < THREADS ? CONCURRENCY : THREADS ))" -c "$CONCURRENCY" -d "${SECONDS_}s" --timeout 60s --latency \
      -s "$OUT/rotate.lua" "$url" > "$OUT/wrk-hostile.txt"
  kill $hostile 2>/dev/null || true; wait $hostile 2>/dev/null || true
  hp50=$(awk '$1 == "50%" {print $2}' "$OUT/wrk-hostile.txt"); hp99=$(awk '$1 == "99%" {print $2}' "$OUT/wrk-hostile.txt")
  hrps=$(awk '/Requests\/sec/ {print $2}' "$OUT/wrk-hostile.txt")
  hnon=$(awk '/Non-2xx/ {print $NF}' "$OUT/wrk-hostile.txt"); hnon=${hnon:-0}
  sent=$(wc -l < "$OUT/hostile.txt"); codes=$(awk '{print $1}' "$OUT/hostile.txt" | sort | uniq -c | awk '{printf "%s×%s ", $1, $2}')
  alive=$(curl -s -o /dev/null -w "%{http_code}" "$url/healthz")
  hostile_report="with hostile scenes mixed in ($sent sent by a second client: $codes; /healthz after: $alive):
  requests/s:   $hrps   (non-2xx: $hnon)
  latency:      p50 $hp50, p99 $hp99"
fi
peak=$(awk '/VmHWM/ {print $2}' "/proc/$pid/status")
non2xx=$(awk '/Non-2xx/ {print $NF}' "$OUT/wrk.txt"); non2xx=${non2xx:-0}
kill -TERM $pid; wait $pid || true
trap - EXIT

rps=$(awk '/Requests\/sec/ {print $2}' "$OUT/wrk.txt")
p50=$(awk '$1 == "50%" {print $2}' "$OUT/wrk.txt")
p99=$(awk '$1 == "99%" {print $2}' "$OUT/wrk.txt")

# The same scenes through terrapin batch: each scene 4 times, every output rendered.
: > "$OUT/manifest.jsonl"
for k in 1 2 3 4; do for s in "${scenes[@]}"; do
  echo "{\"scene\": \"$PWD/$s\", \"name\": \"$(basename "$s" .json)-$k\"}" >> "$OUT/manifest.jsonl"
done; done
"$BIN" batch --manifest "$OUT/manifest.jsonl" -j "$THREADS" --force --quiet --json --output "$OUT/batch/{name}.png" > "$OUT/batch.json"
batch_rate=$(python3 -c "import json; s=json.load(open('$OUT/batch.json')); print(f\"{s['rendered'] / s['seconds']:.2f}\")")

echo "terrapin serve, ${#scenes[@]} example scenes in turn, ${SECONDS_} s at ${CONCURRENCY} connections, ${THREADS} workers:"
echo "  requests/s:   $rps   (non-2xx: $non2xx)"
echo "  latency:      p50 $p50, p99 $p99"
echo "  peak RSS:     $(( peak / 1024 )) MiB"
[ -z "$hostile_report" ] || echo "$hostile_report"
echo "terrapin batch, the same scenes x4, -j $THREADS: $batch_rate outputs/s"
python3 -c "print(f'  serve / batch throughput: {float(\"$rps\") / float(\"$batch_rate\"):.2f} (target >= 0.9)')"
