#!/usr/bin/env bash
# The smoke test of the image `make image` built: every example rendered inside it gives the
# same bytes as the same binary on this host (so the image holds the libraries and fonts the
# goldens assume), and `terrapin serve` starts, answers /healthz, /readyz and a render, and
# stops on SIGTERM with status 0. Run inside a container where one can run (podman run);
# where none can (this machine), chrooted into the image's root as its user (uid 10001), with
# the image's environment, Examples and Fixtures copied to /data.
set -euo pipefail
cd "$(dirname "$0")/.."
dir=${IMAGE_DIR:-.build/image}
root="$dir/rootfs"
host=.build/install/release/terrapin
[ -x "$root/usr/local/bin/terrapin" ] || { echo "image-smoke.sh: no image in $root; run make image" >&2; exit 1; }
[ "$(id -u)" = 0 ] || { echo "image-smoke.sh: chroot needs root" >&2; exit 1; }
rm -rf "$root/data" "$dir/smoke"
mkdir -p "$root/data" "$dir/smoke/host"
cp -a Examples Fixtures "$root/data/"
chown -R 10001:10001 "$root/data"
env=$(sed -n 's/^ENV //p' "$dir/config")
# A container has /proc (the Swift runtime reads the arguments from /proc/self/cmdline).
mount -t proc proc "$root/proc"
trap 'kill $pid 2>/dev/null || true; umount "$root/proc" 2>/dev/null || true' EXIT
pid=""
# (exec: started in the background, the server is then this pid, for kill and wait)
inside() { exec chroot --userspec=10001:10001 "$root" /usr/bin/env -i PATH=/usr/local/bin:/usr/bin:/bin HOME=/nonexistent $env "$@"; }

(inside terrapin --version)
# Every example, inside and on the host.
(inside sh -c 'mkdir -p /tmp/smoke && cd /data/Examples && for s in *.json; do terrapin render "$s" -o "/tmp/smoke/${s%.json}.png" 2>/dev/null || exit 1; done')
(cd Examples && for s in *.json; do "../$host" render "$s" -o "../$dir/smoke/host/${s%.json}.png" 2>/dev/null; done)
different=0
for png in "$dir"/smoke/host/*.png; do
  name=$(basename "$png")
  cmp -s "$png" "$root/tmp/smoke/$name" || { echo "image-smoke.sh: $name differs inside the image" >&2; different=1; }
done
[ "$different" = 0 ] || exit 1
echo "image-smoke.sh: $(ls "$dir"/smoke/host/*.png | wc -l) examples rendered inside the image, byte-identical to the host's"

# serve: start, health, readiness, a render, SIGTERM.
port=$((20000 + RANDOM % 20000))
(inside terrapin serve --root /data --host 127.0.0.1 --port "$port" --log none 2> "$dir/smoke/serve.log") &
pid=$!
for _ in $(seq 1 100); do grep -q "ready" "$dir/smoke/serve.log" 2>/dev/null && break; sleep 0.1; done
curl -sf "http://127.0.0.1:$port/healthz" > /dev/null
curl -sf "http://127.0.0.1:$port/readyz" > /dev/null
curl -sf -o "$dir/smoke/served.png" "http://127.0.0.1:$port/render/Examples/andorra-3d.json"
kill -TERM "$pid"
wait "$pid"
cmp -s <(head -c 8 "$dir/smoke/served.png") <(printf '\x89PNG\r\n\x1a\n')
echo "image-smoke.sh: serve inside the image answered /healthz, /readyz and /render, and stopped on SIGTERM with status 0"
