# terrapin serve (and the rest of the CLI) in a container: built with the Swift toolchain,
# run on Debian slim with exactly the C libraries and fonts it loads (deploy/runtime-packages.txt),
# as a non-root user.
#   docker build -t terrapin:0.1.0 .
#   docker run --rm -p 8080:8080 -v "$PWD/Examples:/data:ro" terrapin:0.1.0
# Where no Docker engine runs or base images cannot be pulled, `make image` builds the same
# image from a debootstrapped Debian root (Tools/image.sh). Scenes and the files they read are
# mounted at /data (read-only); see deploy/ for Kubernetes.

FROM swift:6.3-bookworm AS build
WORKDIR /src
COPY Makefile Package.swift ./
RUN make setup
# The manifest names the test targets, so their folders come too (they are not built).
COPY Sources Sources
COPY Tests Tests
RUN swift build -c release --static-swift-stdlib --product terrapin \
 && install -D -m 0755 "$(swift build -c release --show-bin-path)/terrapin" /out/terrapin

FROM debian:bookworm-slim
COPY deploy/runtime-packages.txt /tmp/runtime-packages.txt
RUN apt-get update -qq \
 && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends $(grep -v '^#' /tmp/runtime-packages.txt) \
 && apt-get clean && rm -rf /var/lib/apt/lists/* /tmp/runtime-packages.txt \
 && useradd --system --uid 10001 --home-dir /nonexistent --shell /usr/sbin/nologin terrapin
COPY --from=build /out/terrapin /usr/local/bin/terrapin
USER 10001
EXPOSE 8080
# Fontconfig's cache and the download cache go to a writable place for a non-root user on a
# read-only root (mount a volume at /cache to share downloads between restarts and pods).
ENV XDG_CACHE_HOME=/tmp TERRAPIN_CACHE_DIR=/tmp/terrapin-downloads
ENTRYPOINT ["terrapin"]
CMD ["serve", "--root", "/data", "--host", "0.0.0.0", "--port", "8080"]
