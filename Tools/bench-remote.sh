#!/usr/bin/env bash
# make bench-remote: remote sources against local files, as users run them — one
# `terrapin render` process a render (nothing kept in memory between renders), Andorra at about
# z14, tilt 60 (Examples/andorra-roadmap-3d.json: a vector basemap over terrain tiles, 800×600):
#   file          the archives on disk
#   http cold     from nginx on 127.0.0.1 (PMTiles by range), the download cache empty
#   http warm/lm  the cache full; the server sends Last-Modified but no max-age: fresh by the
#                 heuristic (a tenth of the file's age), so no request
#   http warm     the cache full; the server sends max-age=3600: no request at all
# The variants alternate within each round; medians of ROUNDS (default 7) rounds. Requests and
# bytes a render come from nginx's access log. Needs nginx (Debian nginx-light).
set -euo pipefail
cd "$(dirname "$0")/.."
rounds=${ROUNDS:-7}
bin=${TERRAPIN:-.build/release/terrapin}
[ -x "$bin" ] || { echo "bench-remote.sh: build first (swift build -c release)" >&2; exit 1; }
command -v nginx >/dev/null || { echo "bench-remote.sh: needs nginx (apt-get install nginx-light)" >&2; exit 1; }
work=$(mktemp -d)
trap 'kill $(cat "$work/nginx.pid" 2>/dev/null) 2>/dev/null || true; rm -rf "$work"' EXIT
tiles=$(pwd)/Fixtures/tiles
portA=$((20000 + RANDOM % 10000)); portB=$((portA + 1))
. Tools/nginx.sh
start_nginx "$work" 'access_log off;' \
  "server { listen 127.0.0.1:$portA; root $tiles; access_log $work/a.log bench; }" \
  "server { listen 127.0.0.1:$portB; root $tiles; expires 1h; access_log $work/b.log bench; }"
scene() {  # $1: base URL or empty for the files
  local from='../Fixtures/tiles/'
  if [ -z "$1" ]; then sed "s|$from|$(pwd)/Fixtures/tiles/|g" Examples/andorra-roadmap-3d.json
  else sed "s|$from|$1/|g" Examples/andorra-roadmap-3d.json; fi
}
scene "" > "$work/file.json"
scene "http://127.0.0.1:$portA" > "$work/a.json"
scene "http://127.0.0.1:$portB" > "$work/b.json"
now() { date +%s.%N; }
declare -A times requests bytes
run() {  # name, log (or ""), command...
  local name=$1 log=$2; shift 2
  [ -n "$log" ] && : > "$log"
  local t0; t0=$(now)
  "$@" > /dev/null 2>&1
  times[$name]+="$(echo "$(now) - $t0" | bc) "
  if [ -n "$log" ]; then
    requests[$name]=$(wc -l < "$log")
    bytes[$name]=$(awk '{s += $2} END {print s + 0}' "$log")
  fi
}
# Warm the caches once (and the file system's).
"$bin" render "$work/file.json" -o "$work/out.png" >/dev/null 2>&1
"$bin" render "$work/a.json" -o "$work/out.png" --download-cache "$work/cacheA" >/dev/null 2>&1
"$bin" render "$work/b.json" -o "$work/out.png" --download-cache "$work/cacheB" >/dev/null 2>&1
for _ in $(seq "$rounds"); do
  run "file" "" "$bin" render "$work/file.json" -o "$work/file.png"
  rm -rf "$work/cold"
  run "http cold" "$work/a.log" "$bin" render "$work/a.json" -o "$work/cold.png" --download-cache "$work/cold"
  run "http warm/lm" "$work/a.log" "$bin" render "$work/a.json" -o "$work/warmlm.png" --download-cache "$work/cacheA"
  run "http warm" "$work/b.log" "$bin" render "$work/b.json" -o "$work/warm.png" --download-cache "$work/cacheB"
done
for f in cold warmlm warm; do cmp -s "$work/file.png" "$work/$f.png" || { echo "bench-remote.sh: $f.png differs from the file render" >&2; exit 1; }; done
median() { tr ' ' '\n' | grep -v '^$' | sort -n | awk '{a[NR] = $1} END {print a[int((NR + 1) / 2)]}'; }
printf '%-15s %10s %10s %12s\n' variant "median s" requests "bytes"
for name in "file" "http cold" "http warm/lm" "http warm"; do
  printf '%-15s %10.3f %10s %12s\n' "$name" "$(echo "${times[$name]}" | median)" "${requests[$name]:--}" "${bytes[$name]:--}"
done
echo "(all four images byte-identical; $rounds rounds alternating; $(nproc) cores; $("$bin" --version))"
