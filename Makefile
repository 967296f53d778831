# Terrapin: `make demo` and `make test` are all a user needs; both install what is missing first.
SHELL := /bin/bash
SWIFT ?= swift
PACKAGES := pkg-config libmicrohttpd-dev libcurl4-gnutls-dev librsvg2-dev libproj-dev libpng-dev zlib1g-dev libdeflate-dev libjpeg62-turbo-dev libwebp-dev libsqlite3-dev libtiff-dev libbrotli-dev libzstd-dev libfreetype-dev libharfbuzz-dev libfontconfig-dev libfribidi-dev pngcheck python3-jsonschema \
            fonts-dejavu-core fonts-noto-core fonts-ipafont-gothic fonts-noto-cjk fonts-noto-color-emoji fonts-material-design-icons-iconfont

.PHONY: setup build test demo docs schema rendertests native-fidelity install bench bench-scenes bench-serve bench-remote load-remote deploy-check stress sanitize fuzz image image-test clean

# Installs the Debian packages that are missing (as root, or through sudo). A no-op when all
# are present; runs apt-get update only when it must install.
setup:
	@missing=""; for p in $(PACKAGES); do \
	  dpkg-query -W -f='$${Status}' $$p 2>/dev/null | grep -q "install ok installed" || missing="$$missing $$p"; \
	done; \
	if [ -n "$$missing" ]; then \
	  echo "make setup: installing$$missing"; \
	  if [ "$$(id -u)" = 0 ]; then sudo=""; elif command -v sudo >/dev/null; then sudo="sudo"; \
	  else echo "make setup: need root or sudo to install:$$missing" >&2; exit 1; fi; \
	  $$sudo apt-get update -qq && DEBIAN_FRONTEND=noninteractive $$sudo apt-get install -y -qq --no-install-recommends $$missing; \
	fi

# `make build`, `demo` and `test` share one build in .build/opt: SwiftPM's debug configuration
# (testable, `DEBUG` set, preconditions and exclusivity checks kept) with the modules that draw
# and decode compiled with -O (whole-module), and the test targets and orchestration modules
# without (TERRAPIN_OPTIMISE, read by Package.swift). The suite takes about 45 s so on the 2-core
# machine against about 4 minutes unoptimised; every golden is
# the same bytes either way (the determinism promise covers every build). `swift build` and
# `swift test` by hand still use .build/debug, unoptimised.
BUILD_DIR := .build/opt
# Without debug information (-gnone): a fresh clone's `make test` took 262 s with it and 236 s
# without, one after the other on the 2-core machine (DWARF for every module, test targets
# included, and linking it); test failures still name their file and line (Swift Testing's
# macros carry them), and `swift build` by hand keeps -g for a debugger.
BUILD := TERRAPIN_OPTIMISE=1 $(SWIFT) build --scratch-path $(BUILD_DIR) -Xswiftc -gnone
build: setup
	$(BUILD)

test: setup
	$(BUILD) --build-tests
	$(SWIFT) test --skip-build --scratch-path $(BUILD_DIR)

# The CLI into $(PREFIX)/bin (default /usr/local; DESTDIR for staging), built release with the
# Swift runtime linked in, so it runs where the C libraries of `make setup` are installed
# without the Swift toolchain. A build directory of its own keeps the normal builds untouched.
PREFIX ?= /usr/local
install: setup
	$(SWIFT) build -c release --product terrapin --static-swift-stdlib --scratch-path .build/install
	install -D -m 0755 .build/install/release/terrapin "$(DESTDIR)$(PREFIX)/bin/terrapin"
	@echo "installed $(DESTDIR)$(PREFIX)/bin/terrapin"

# docs/cli.md's command reference is the binary's own --help (Tools/cli-docs.sh); a test
# checks it is current, so run this after changing a command's help.
docs: build
	TERRAPIN=$(BUILD_DIR)/debug/terrapin Tools/cli-docs.sh

# The scene format's JSON Schema and field reference, from the field tables
# (Sources/TerrapinScene/SceneTables.swift); tests check both files are current.
schema: build
	$(BUILD_DIR)/debug/terrapin schema > schema/scene.schema.json
	$(BUILD_DIR)/debug/terrapin schema --markdown > docs/scene-fields.md

# MapLibre's render tests, every case of a suite rendered and scored by MapLibre's own rule
# (Tools/rendertests.py says how): SUITE defaults to ../shared/rendertests/suite; ONLY=TEXT
# keeps the cases whose id contains TEXT. Nothing from the suite enters the repository or CI.
SUITE ?= ../shared/rendertests/suite
rendertests: build
	Tools/rendertests.py $(SUITE) $(if $(ONLY),--only $(ONLY))

# The built-in, bench and published styles in the three tile schemas against MapLibre Native
# (../shared/bench/maplibre), at z13 and z14 straight down and z14 tilted 60°: a Markdown table of
# the share of pixels that differ and the mean |ΔRGB|. STYLES="NAME=FILE …" adds styles of your own
# over the OpenMapTiles archives (OSM Bright, Positron, MapTiler Basic: docs/map-data.md).
native-fidelity: build
	Tools/native-fidelity.py $(if $(ONLY),--only $(ONLY)) $(foreach s,$(STYLES),--style $(s))

demo: build
	@mkdir -p out
	@for scene in Examples/*.json; do \
	  name=$$(basename $$scene .json); \
	  $(BUILD_DIR)/debug/terrapin render $$scene -o out/$$name.png || exit 1; \
	  echo "out/$$name.png"; \
	done

# The container image terrapin:VERSION from the Dockerfile: docker build where an engine runs,
# else the same stages by hand on a debootstrapped Debian root (Tools/image.sh says how), checked
# with ldd inside; then the smoke test runs it (Tools/image-smoke.sh).
image: setup
	Tools/image.sh
	Tools/image-smoke.sh

image-test:
	Tools/image-smoke.sh

# PEERS=FILE (the output of ../shared/bench/peers/run.sh, from the same hour) adds the ratios
# to the faster peer for S1, S2 and S3 (BENCHMARKS.md).
bench: setup
	$(SWIFT) build -c release --product TerrapinBench
	@mkdir -p out/bench
	.build/release/TerrapinBench
	$(SWIFT) build --product TerrapinBench
	.build/debug/TerrapinBench diff

# Renders from tiles on an HTTP server (nginx on 127.0.0.1) against the same files: cold and warm
# download cache, requests and bytes a render (Tools/bench-remote.sh).
# Real scenes end to end (Tools/bench-scenes.py says how): every example and MapLibre's basemap
# views, cold (fresh processes, stages and peak RSS) and warm (one process), on one core and on
# all; NATIVE=1 also runs MapLibre Native (../shared/bench/maplibre/native.sh) view by view and
# prints the ratios. ONLY=TEXT keeps the scenes whose name contains TEXT. The binary timed is
# the one `make install` and the container image ship (release, the Swift runtime linked in: a
# cold start without the dynamic linker's symbol lookups, 8–15 ms a render less than
# .build/release's).
bench-scenes: setup
	$(SWIFT) build -c release --product terrapin --static-swift-stdlib --scratch-path .build/install
	Tools/bench-scenes.py --terrapin .build/install/release/terrapin $(if $(NATIVE),--native) $(if $(ONLY),--only $(ONLY))

bench-remote: setup
	@command -v nginx >/dev/null || { echo "make bench-remote: installing nginx-light"; $(MAKE) --no-print-directory PACKAGES="nginx-light bc" setup; }
	$(SWIFT) build -c release --product terrapin
	Tools/bench-remote.sh

# deploy/'s kustomizations rendered with kubectl and validated strictly against the Kubernetes
# schemas (kubernetes-validate from PyPI, installed for this check when missing). make test checks
# the options they pass and, where kubectl is installed, that they render.
deploy-check:
	@command -v kubectl >/dev/null || { echo "make deploy-check: needs kubectl" >&2; exit 1; }
	@command -v kubernetes-validate >/dev/null || pip install -q kubernetes-validate
	@set -e; for k in deploy deploy/serve-remote deploy/batch; do \
	  kubectl kustomize $$k > .build/deploy-check.yaml; \
	  kubernetes-validate --strict .build/deploy-check.yaml; \
	done

# Several terrapin serve processes behind HAProxy, tiles from one archive on an HTTP origin:
# requests/s, p50/p99 and the requests reaching the origin (Tools/load-remote.sh).
load-remote: setup
	@for t in nginx haproxy wrk; do command -v $$t >/dev/null || { $(MAKE) --no-print-directory PACKAGES="nginx-light haproxy wrk bc" setup; break; }; done
	$(SWIFT) build -c release --product terrapin
	Tools/load-remote.sh

# terrapin serve under wrk (127.0.0.1 only, 30 s at 8 connections) against the example scenes,
# then terrapin batch on the same scenes: requests/s, p50/p99, peak RSS and the ratio of the two;
# SERVE_HOSTILE=1 runs the load again with make stress's hostile scenes sent alongside.
bench-serve: setup
	@command -v wrk >/dev/null || { echo "make bench-serve: installing wrk"; $(MAKE) --no-print-directory PACKAGES=wrk setup; }
	$(SWIFT) build -c release --product terrapin
	@if [ -n "$(SERVE_HOSTILE)" ]; then $(SWIFT) build -c release --product TerrapinBench; fi
	SERVE_HOSTILE=$(SERVE_HOSTILE) Tools/bench-serve.sh

# Every hostile scene (HostileScenes) at full size, each alone in a process pinned to one core:
# its time and peak memory against the promise in docs/limits.md (figures, not assertions).
stress: setup
	$(SWIFT) build -c release --product TerrapinBench
	@mkdir -p out/bench
	taskset -c 0 .build/release/TerrapinBench stress

# The test suite under AddressSanitizer (with LeakSanitizer; spawned `terrapin` processes
# inherit the options, so render, tap and batch are leak-checked too), then under
# ThreadSanitizer. Separate build directories keep the normal build untouched; they are built
# from scratch each time, since an incremental build can keep a struct's old layout in a module
# that did not change (seen here as an ASan stack-buffer-overflow in code that was fine, and as
# a crash destroying a struct whose layout had changed in another module). Compiled with -O, as
# `make test` is: the code users run, and a suite fast enough under the sanitizers that the
# service tests' timeouts hold (unoptimised, two of them timed out under ASan).
SANITIZER_ENV := ASAN_OPTIONS=fast_unwind_on_malloc=0:detect_leaks=1 \
                 LSAN_OPTIONS=suppressions=$(CURDIR)/Tools/lsan.supp:print_suppressions=0 \
                 TSAN_OPTIONS=halt_on_error=0:exitcode=66
sanitize: setup
	rm -rf .build/asan .build/tsan
	$(SWIFT) build --build-tests --sanitize=address -Xswiftc -O --scratch-path .build/asan
	$(SANITIZER_ENV) $(SWIFT) test --skip-build --sanitize=address --scratch-path .build/asan
	@mkdir -p out/sanitize
	@for scene in Examples/*.json; do \
	  $(SANITIZER_ENV) .build/asan/debug/terrapin render $$scene -o out/sanitize/$$(basename $$scene .json).png || exit 1; \
	done
	$(SANITIZER_ENV) .build/asan/debug/terrapin batch Examples --output 'out/sanitize/batch/{name}.png' -j 2 --force --quiet
	$(SWIFT) build --build-tests --sanitize=thread -Xswiftc -O --scratch-path .build/tsan
	$(SANITIZER_ENV) $(SWIFT) test --skip-build --sanitize=thread --scratch-path .build/tsan
	$(SANITIZER_ENV) .build/tsan/debug/terrapin batch Examples --output 'out/sanitize/batch/{name}.png' -j 2 --force --quiet
	@echo "make sanitize: AddressSanitizer, LeakSanitizer and ThreadSanitizer found nothing"

# libFuzzer on every FuzzEntry target (Tools/fuzz.sh says how; docs/limits.md,
# "Hardening"). FUZZ_SECONDS per target, default 60.
fuzz: setup
	SWIFT=$(SWIFT) Tools/fuzz.sh

clean:
	rm -rf .build out
