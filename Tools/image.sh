#!/usr/bin/env bash
# make image: the container image terrapin:VERSION, from the Dockerfile.
#
# With a Docker engine: `docker build`, both stages. Without one — this machine: the docker
# client is here but no engine runs, and base images cannot be pulled — the same two stages by
# hand, the Dockerfile still the one description of the image:
#   build:   the release binary with the Swift runtime linked in (`make install`'s build), on
#            this Debian bookworm host as the swift:6.3-bookworm stage would;
#   runtime: a Debian bookworm root made with debootstrap (minbase; kept in $IMAGE_DIR/base and
#            reused), then every instruction of the Dockerfile's last stage applied to it:
#            COPY from the context (COPY --from=build copies the binary), RUN in a chroot, and
#            USER, EXPOSE, ENV, ENTRYPOINT and CMD kept as the image's configuration.
# Then checked: `ldd` inside the root finds every library the binary loads (and those it loads
# when first needed, libcurl, PROJ, librsvg and libmicrohttpd, with theirs). The root is left in
# $IMAGE_DIR/rootfs and as $IMAGE_DIR/terrapin-VERSION.tar, and imported as terrapin:VERSION
# where podman is installed (`podman import` with the configuration). Tools/image-smoke.sh runs
# the image (a chroot into the root where containers cannot run).
set -euo pipefail
cd "$(dirname "$0")/.."
version=$(sed -n 's/.*static let version = "\(.*\)".*/\1/p' Sources/Terrapin/TerrapinInfo.swift)
tag="terrapin:$version"
dir=${IMAGE_DIR:-.build/image}
mirror=${DEBIAN_MIRROR:-http://deb.debian.org/debian}

if command -v docker >/dev/null && docker info >/dev/null 2>&1; then
  exec docker build -t "$tag" .
fi
echo "image.sh: no Docker engine; building $tag from a debootstrapped root in $dir"
[ "$(id -u)" = 0 ] || { echo "image.sh: debootstrap and chroot need root" >&2; exit 1; }
command -v debootstrap >/dev/null || { apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends debootstrap; }
mkdir -p "$dir"

# build stage
swift build -c release --product terrapin --static-swift-stdlib --scratch-path .build/install
binary=.build/install/release/terrapin

# runtime stage: FROM debian:bookworm-slim
if [ ! -x "$dir/base/usr/bin/apt-get" ]; then
  rm -rf "$dir/base.tmp"
  debootstrap --variant=minbase bookworm "$dir/base.tmp" "$mirror"
  mv "$dir/base.tmp" "$dir/base"
fi
root="$dir/rootfs"
rm -rf "$root"
cp -a "$dir/base" "$root"
cp /etc/resolv.conf "$root/etc/resolv.conf"
mounted=""
if mount -t proc proc "$root/proc" 2>/dev/null; then mounted=1; fi
cleanup() { if [ -n "$mounted" ]; then umount "$root/proc" || true; fi; }
trap cleanup EXIT

# The last stage's instructions, continuation lines joined.
config=()
stage=$(awk '/^FROM /{buf=""} {buf=buf $0 "\n"} END{printf "%s", buf}' Dockerfile | sed -e ':a' -e '/\\$/N; s/\\\n//; ta' | grep -v '^\s*#' | grep -v '^\s*$')
while IFS= read -r line; do
  instruction=${line%% *}
  rest=${line#* }
  case "$instruction" in
    FROM) ;;
    COPY)
      if [[ "$rest" == --from=build* ]]; then
        set -- ${rest#--from=build }
        install -D -m 0755 "$binary" "$root$2"
      else
        set -- $rest
        install -D -m 0644 "$1" "$root$2"
      fi ;;
    RUN)
      echo "image.sh: RUN $rest" | cut -c1-160
      chroot "$root" /usr/bin/env -i PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin HOME=/root /bin/sh -c "$rest" ;;
    USER|EXPOSE|ENV|ENTRYPOINT|CMD|WORKDIR|LABEL) config+=("$line") ;;
    *) echo "image.sh: the Dockerfile's $instruction is not handled here" >&2; exit 1 ;;
  esac
done <<< "$stage"
rm -f "$root/etc/resolv.conf"
printf '%s\n' "${config[@]}" > "$dir/config"

# Every library the binary loads is in the image.
missing=$(chroot "$root" ldd /usr/local/bin/terrapin | grep 'not found' || true)
if [ -n "$missing" ]; then echo "image.sh: libraries missing in the image:" >&2; echo "$missing" >&2; exit 1; fi
echo "image.sh: ldd inside the image: $(chroot "$root" ldd /usr/local/bin/terrapin | wc -l) libraries, none missing"
# The libraries loaded when first needed (libcurl, PROJ, librsvg, libmicrohttpd: their C shims), which
# ldd does not see, and what they load.
for lazy in libcurl-gnutls.so.4 libproj.so.25 librsvg-2.so.2 libmicrohttpd.so.12; do
  path=$(chroot "$root" /sbin/ldconfig -p | awk -v l="$lazy" '$1 == l { print $NF; exit }')
  if [ -z "$path" ]; then echo "image.sh: $lazy, loaded when first needed, is missing in the image" >&2; exit 1; fi
  missing=$(chroot "$root" ldd "$path" | grep 'not found' || true)
  if [ -n "$missing" ]; then echo "image.sh: $lazy's libraries missing in the image:" >&2; echo "$missing" >&2; exit 1; fi
done
echo "image.sh: libcurl, PROJ, librsvg and libmicrohttpd (loaded when first needed) are there with their libraries"
cleanup; mounted=""

tar -C "$root" --numeric-owner -cf "$dir/terrapin-$version.tar" .
echo "image.sh: $dir/terrapin-$version.tar ($(du -m "$dir/terrapin-$version.tar" | cut -f1) MiB)"
if command -v podman >/dev/null; then
  changes=()
  for line in "${config[@]}"; do changes+=(--change "$line"); done
  if podman import "${changes[@]}" "$dir/terrapin-$version.tar" "$tag" >/dev/null; then
    echo "image.sh: imported $tag into podman"
  else
    echo "image.sh: podman could not import it (the tar is the image's root)" >&2
  fi
fi
