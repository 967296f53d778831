#!/usr/bin/env bash
# make load-remote: terrapin serve scaled out on this machine, tiles from one remote archive.
# An origin (nginx on 127.0.0.1) holds Fixtures/tiles; `terrapin serve` processes draw
# /staticmap over Andorra's vector tiles read from it by range (--allow-host 127.0.0.1); HAProxy
# balances them round-robin; wrk asks for 400×300 maps at zoom 14 around random centres in
# Andorra (the same sequence every run) for LOAD_SECONDS (default 20) at 4 connections. Each case
# starts with empty download caches. Printed: requests/s, p50 and p99 latency, and the requests
# and bytes that reached the origin, for
#   1 process × 2 render threads
#   2 processes × 1 thread, sharing one download cache folder (as pods sharing a volume)
#   2 processes × 1 thread, each with its own download cache (as pods with emptyDir)
# Needs nginx, haproxy and wrk (Debian packages).
set -euo pipefail
cd "$(dirname "$0")/.."
seconds=${LOAD_SECONDS:-20}
bin=$(pwd)/${TERRAPIN:-.build/release/terrapin}
[ -x "$bin" ] || { echo "load-remote.sh: build first (swift build -c release)" >&2; exit 1; }
for tool in nginx haproxy wrk; do command -v $tool >/dev/null || { echo "load-remote.sh: needs $tool" >&2; exit 1; }; done
work=$(mktemp -d)
pids=()
cleanup() {
  for p in "${pids[@]}"; do kill "$p" 2>/dev/null || true; done
  kill "$(cat "$work/nginx.pid" 2>/dev/null)" 2>/dev/null || true
  wait 2>/dev/null || true
  rm -rf "$work"
}
trap cleanup EXIT
origin=$((21000 + RANDOM % 9000)); front=$((origin + 1))
. Tools/nginx.sh
start_nginx "$work" "server { listen 127.0.0.1:$origin; root $(pwd)/Fixtures/tiles; access_log $work/origin.log bench; }"
mkdir -p "$work/root"
cat > "$work/root/base.json" <<JSON
{"output": {"width": 400, "height": 300}, "map": {"mode": "roadmap", "basemap": {"tiles": "http://127.0.0.1:$origin/andorra-omt.pmtiles"}}}
JSON
cat > "$work/centres.lua" <<'LUA'
math.randomseed(42)
request = function()
  local lat = 42.45 + math.random() * 0.18
  local lon = 1.43 + math.random() * 0.32
  return wrk.format("GET", string.format("/staticmap?center=%.5f,%.5f&zoom=14&size=400x300", lat, lon))
end
LUA

run_case() {  # label, processes, threads, shared (1/0)
  local label=$1 processes=$2 threads=$3 shared=$4
  rm -rf "$work/cache"*; : > "$work/origin.log"
  pids=()
  local servers=""
  for i in $(seq "$processes"); do
    local port=$((front + i)) cache="$work/cache"
    [ "$shared" = 1 ] || cache="$work/cache$i"
    "$bin" serve --root "$work/root" --staticmap base.json --host 127.0.0.1 --port "$port" --threads "$threads" \
      --allow-host 127.0.0.1 --download-cache "$cache" --log none 2> "$work/serve$i.log" &
    pids+=($!)
    servers+="  server s$i 127.0.0.1:$port"$'\n'
  done
  for i in $(seq "$processes"); do
    for _ in $(seq 1 100); do grep -q ready "$work/serve$i.log" 2>/dev/null && break; sleep 0.1; done
  done
  cat > "$work/haproxy.cfg" <<CFG
defaults
  mode http
  timeout connect 5s
  timeout client 60s
  timeout server 60s
frontend f
  bind 127.0.0.1:$front
  default_backend b
backend b
  balance roundrobin
$servers
CFG
  haproxy -f "$work/haproxy.cfg" -D -p "$work/haproxy.pid"
  local out
  out=$(wrk -t2 -c4 -d"${seconds}s" --latency -s "$work/centres.lua" "http://127.0.0.1:$front/")
  kill "$(cat "$work/haproxy.pid")"
  for p in "${pids[@]}"; do kill "$p"; wait "$p" 2>/dev/null || true; done
  pids=()
  local rps p50 p99 errors
  rps=$(echo "$out" | awk '/Requests\/sec/ {print $2}')
  p50=$(echo "$out" | awk '$1 == "50%" {print $2}')
  p99=$(echo "$out" | awk '$1 == "99%" {print $2}')
  errors=$(echo "$out" | awk '/Non-2xx/ {print $5}')
  printf '%-44s %8s %8s %8s %8s %10s %7s\n' "$label" "$rps" "$p50" "$p99" "$(wc -l < "$work/origin.log")" \
    "$(awk '{s += $2} END {print s + 0}' "$work/origin.log")" "${errors:-0}"
}
printf '%-44s %8s %8s %8s %8s %10s %7s\n' case "req/s" p50 p99 "origin" "origin B" "non-2xx"
run_case "1 process × 2 threads" 1 2 1
run_case "2 processes × 1 thread, one shared cache" 2 1 1
run_case "2 processes × 1 thread, a cache each" 2 1 0
echo "($seconds s a case, wrk 2 threads × 4 connections through HAProxy; $(nproc) cores; $("$bin" --version))"
