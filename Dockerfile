# terrapin serve (and the rest of the CLI) in a container: built with the Swift toolchain,
# run on Debian slim with only the C libraries and fonts it loads, as a non-root user.
#   docker build -t terrapin:0.1.0 .
#   docker run --rm -p 8080:8080 -v "$PWD/Examples:/data:ro" terrapin:0.1.0
# Scenes and the files they read are mounted at /data (read-only); see deploy/ for Kubernetes.

FROM swift:6.3-bookworm AS build
WORKDIR /src
COPY Makefile Package.swift ./
RUN make setup
COPY Sources Sources
RUN swift build -c release --static-swift-stdlib --product terrapin \
 && install -D -m 0755 "$(swift build -c release --show-bin-path)/terrapin" /out/terrapin

FROM debian:bookworm-slim
RUN apt-get update -qq \
 && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends \
      libpng16-16 zlib1g libjpeg62-turbo libwebp7 libwebpmux3 libsqlite3-0 libtiff6 libbrotli1 libzstd1 \
      libfreetype6 libharfbuzz0b libfontconfig1 libfribidi0 libmicrohttpd12 \
      fonts-dejavu-core fonts-noto-core fonts-ipafont-gothic \
 && rm -rf /var/lib/apt/lists/* \
 && useradd --system --uid 10001 --home-dir /nonexistent --shell /usr/sbin/nologin terrapin
COPY --from=build /out/terrapin /usr/local/bin/terrapin
USER 10001
EXPOSE 8080
# Fontconfig's cache goes to a writable place for a non-root user on a read-only root.
ENV XDG_CACHE_HOME=/tmp
ENTRYPOINT ["terrapin"]
CMD ["serve", "--root", "/data", "--host", "0.0.0.0", "--port", "8080"]
