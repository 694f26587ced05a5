# Rolodeck: the README's commands. `make demo` builds the demo site, `make test` runs every test.
# Debian packages the project needs are installed when run as root; otherwise the exact
# apt-get line is printed.

SWIFT ?= swift
PYTHON ?= python3
BIN := .build/debug/rolodeck
VENV := .build/test-venv
AXE := .build/axe-core
SITE_OUT ?= _site

# Needed to build: the CommonMark library, found through pkg-config, jemalloc, the command's
# memory allocator, and libqrencode, which the tests compare the QR encoder with (the command
# does not link it). libvips makes the contacts' photos and thumbnails; the command loads it
# when a photo needs it, so only its run-time library is needed, by the tests and the command.
BUILD_PACKAGES := libcmark-dev libqrencode-dev libvips42 libjemalloc-dev pkg-config
# Needed by the browser and validator tests, by the vCard and iCalendar differential tests
# (Debian's python3-vobject and python3-icalendar, imported by /usr/bin/python3), by the check
# of the exported vCards and QR codes (vobject again and zbarimg, which the browser tests use too), and by the
# install tests (the shells whose completions are installed, man, and Debian's package tools
# and lintian), and by the check of docs/deploy/ (systemd-analyze, nginx -t); fonts-noto-cjk so
# that the screenshots show Korean and Japanese names, not empty boxes.
TEST_PACKAGES := chromium chromium-driver fonts-noto-cjk python3-vobject python3-icalendar zbar-tools \
	bash-completion zsh fish man-db dpkg-dev lintian systemd nginx
# Needed by `make bench`: Hugo, whose build of the same store the benchmark compares with ours,
# and the vips command, which makes the pictures of the store with photos.
BENCH_PACKAGES := hugo libvips-tools

.PHONY: demo build test test-swift test-browser test-install deps test-deps bench clean \
	release install uninstall deb fuzz fuzz-watch test-asan test-tsan

# Where `make install` puts things, as the GNU conventions name them; DESTDIR stages an install
# (the Debian package is built that way).
PREFIX ?= /usr/local
DESTDIR ?=
BINDIR ?= $(PREFIX)/bin
DATADIR ?= $(PREFIX)/share
MANDIR ?= $(DATADIR)/man
BASH_COMPLETION_DIR ?= $(DATADIR)/bash-completion/completions
ZSH_COMPLETION_DIR ?= $(DATADIR)/zsh/site-functions
FISH_COMPLETION_DIR ?= $(DATADIR)/fish/vendor_completions.d
# The release binary, with Swift's runtime linked in, so it runs without the toolchain.
RELEASE_BIN := .build/release/rolodeck
# The manual page and completions, written by the release binary from its own definitions.
DIST := .build/dist

demo: build
	$(BIN) build --site Examples/demo --out $(SITE_OUT)
	@echo "Open $(SITE_OUT)/index.html in a browser: file://$(CURDIR)/$(SITE_OUT)/index.html"

build: deps
	$(SWIFT) build

test: deps test-deps
	$(SWIFT) build --build-tests
	$(SWIFT) test
	$(VENV)/bin/python Tests/Schema/check_schema.py
	/usr/bin/python3 Tests/Export/check_exports.py --rolodeck $(BIN)
	$(VENV)/bin/python Tests/Browser/run_tests.py --rolodeck $(BIN)
	$(VENV)/bin/python Tests/Install/run_tests.py
	sh Tests/Deploy/check_deploy.sh

test-swift: deps
	$(SWIFT) test

test-browser: test-deps build
	$(VENV)/bin/python Tests/Browser/run_tests.py --rolodeck $(BIN)

deps:
	@$(MAKE) --no-print-directory install-packages PACKAGES="$(BUILD_PACKAGES)"

test-install: test-deps
	$(VENV)/bin/python Tests/Install/run_tests.py
	sh Tests/Deploy/check_deploy.sh

# The test venv, and apart from it axe-core: the wheel that ships its axe.min.js, without the
# Playwright it depends on and the tests do not use.
test-deps:
	@$(MAKE) --no-print-directory install-packages \
		PACKAGES="$(TEST_PACKAGES) $(if $(shell command -v java),,default-jre-headless)"
	@if [ ! -x $(VENV)/bin/python ] || [ Tests/Browser/requirements.txt -nt $(VENV)/.installed ]; then \
		$(PYTHON) -m venv $(VENV) && \
		$(VENV)/bin/pip install --quiet --disable-pip-version-check -r Tests/Browser/requirements.txt && \
		touch $(VENV)/.installed; \
	fi
	@if [ ! -f $(AXE)/.installed ] || [ Tests/Browser/axe-requirements.txt -nt $(AXE)/.installed ]; then \
		rm -rf $(AXE) && \
		$(VENV)/bin/pip install --quiet --disable-pip-version-check --no-deps --require-hashes --no-compile \
			--target $(AXE) -r Tests/Browser/axe-requirements.txt && \
		touch $(AXE)/.installed; \
	fi

# Installs the missing ones of $(PACKAGES) as root, or says how to.
install-packages:
	@missing=""; \
	for package in $(PACKAGES); do \
		dpkg-query -W -f='$${Status}' $$package 2>/dev/null | grep -q "install ok installed" || missing="$$missing $$package"; \
	done; \
	if [ -n "$$missing" ]; then \
		if [ "$$(id -u)" = 0 ]; then \
			echo "Installing Debian packages:$$missing"; \
			apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq$$missing; \
		else \
			echo "Missing Debian packages. Run:"; \
			echo "  sudo apt-get install -y$$missing"; \
			exit 1; \
		fi; \
	fi

# The libFuzzer targets (Fuzz/, docs/fuzzing.md), built with AddressSanitizer and run for
# FUZZ_SECONDS each; FUZZ_TARGETS picks some of json vcard icalendar config mustache markdown
# http. Exits non-zero when any target crashed. libFuzzer ships with the Swift toolchain.
# Without --disable-dead-strip the linker drops the coverage counters, which nothing refers to,
# and the fuzzer runs blind. SwiftPM hands swiftc each --sanitize as a flag of its own, and
# swiftc keeps only the last (-sanitize=address: no coverage at all in the Swift code), so both
# are given again as one flag, which comes after them.
FUZZ_SECONDS ?= 300
FUZZ_TARGETS ?=
fuzz: deps
	$(SWIFT) build -c release --package-path Fuzz --sanitize fuzzer --sanitize address -Xswiftc -enable-testing \
		-Xswiftc -sanitize=fuzzer,address --disable-dead-strip
	$(PYTHON) Fuzz/run_fuzzers.py --bin Fuzz/.build/release --seconds $(FUZZ_SECONDS) $(FUZZ_TARGETS)

# Random saves of a synthetic store under `rolodeck watch`, in every store layout, each checked
# against a whole build (Fuzz/watch_fuzz.py, docs/fuzzing.md). Needs ../shared/tools beside the
# repository. Exits non-zero when a watched output differed, keeping the stores and both outputs.
# WATCH_FUZZ_OPTIONS=--poll runs watch --poll.
WATCH_FUZZ_SEEDS ?= 1
WATCH_FUZZ_STEPS ?= 100
WATCH_FUZZ_OPTIONS ?=
fuzz-watch: deps
	$(SWIFT) build -c release --product rolodeck
	$(PYTHON) Fuzz/watch_fuzz.py --bin "$$($(SWIFT) build -c release --show-bin-path)/rolodeck" \
		--seeds $(WATCH_FUZZ_SEEDS) --steps $(WATCH_FUZZ_STEPS) $(WATCH_FUZZ_OPTIONS)

# The whole Swift test suite under AddressSanitizer, then under ThreadSanitizer, each in a build
# folder of its own so that neither disturbs the normal build (docs/fuzzing.md). The command is
# linked without jemalloc (ROLODECK_SYSTEM_MALLOC): the sanitizers bring their own malloc.
# What the suppression files leave out, and why, they say themselves; LeakSanitizer is told not
# to list the suppressions it used, which would land in the stderr the end-to-end tests check.
# Suppressions match function names, which the runtime gets from llvm-symbolizer, found on PATH
# unless named: a test that runs `rolodeck` with a PATH of its own (serve --open without
# xdg-open) would otherwise get reports that nothing suppresses.
SYMBOLIZER := $(shell command -v llvm-symbolizer)
SANITIZER_SYMBOLIZER := $(if $(SYMBOLIZER),:external_symbolizer_path=$(SYMBOLIZER))

test-asan: deps
	ROLODECK_SYSTEM_MALLOC=1 \
	LSAN_OPTIONS="suppressions=$(CURDIR)/Tests/Sanitizers/lsan-suppressions.txt:print_suppressions=0$(SANITIZER_SYMBOLIZER)" \
	ASAN_OPTIONS="$(patsubst :%,%,$(SANITIZER_SYMBOLIZER))" \
		$(SWIFT) test --sanitize=address --scratch-path .build/asan

test-tsan: deps
	ROLODECK_SYSTEM_MALLOC=1 \
	TSAN_OPTIONS="suppressions=$(CURDIR)/Tests/Sanitizers/tsan-suppressions.txt$(SANITIZER_SYMBOLIZER)" \
		$(SWIFT) test --sanitize=thread --scratch-path .build/tsan

bench: deps test-deps
	@$(MAKE) --no-print-directory install-packages PACKAGES="$(BENCH_PACKAGES)"
	$(PYTHON) Benchmarks/bench.py

# Linked with full RELRO (-z now), as Debian's hardening asks of installed binaries.
release: deps
	$(SWIFT) build -c release --static-swift-stdlib --product rolodeck -Xlinker -z -Xlinker now
	@mkdir -p $(DIST)
	$(RELEASE_BIN) manpage > $(DIST)/rolodeck.1
	$(RELEASE_BIN) completion bash > $(DIST)/rolodeck.bash
	$(RELEASE_BIN) completion zsh > $(DIST)/_rolodeck
	$(RELEASE_BIN) completion fish > $(DIST)/rolodeck.fish

install: release
	install -d $(DESTDIR)$(BINDIR) $(DESTDIR)$(MANDIR)/man1 $(DESTDIR)$(BASH_COMPLETION_DIR) \
		$(DESTDIR)$(ZSH_COMPLETION_DIR) $(DESTDIR)$(FISH_COMPLETION_DIR)
	install -m 755 $(RELEASE_BIN) $(DESTDIR)$(BINDIR)/rolodeck
	install -m 644 $(DIST)/rolodeck.1 $(DESTDIR)$(MANDIR)/man1/rolodeck.1
	install -m 644 $(DIST)/rolodeck.bash $(DESTDIR)$(BASH_COMPLETION_DIR)/rolodeck
	install -m 644 $(DIST)/_rolodeck $(DESTDIR)$(ZSH_COMPLETION_DIR)/_rolodeck
	install -m 644 $(DIST)/rolodeck.fish $(DESTDIR)$(FISH_COMPLETION_DIR)/rolodeck.fish

uninstall:
	rm -f $(DESTDIR)$(BINDIR)/rolodeck $(DESTDIR)$(MANDIR)/man1/rolodeck.1 \
		$(DESTDIR)$(BASH_COMPLETION_DIR)/rolodeck $(DESTDIR)$(ZSH_COMPLETION_DIR)/_rolodeck \
		$(DESTDIR)$(FISH_COMPLETION_DIR)/rolodeck.fish

# A Debian package of the release build in .build/deb/ (Packaging/make-deb.sh says how).
deb: release
	@$(MAKE) --no-print-directory install-packages PACKAGES="dpkg-dev"
	sh Packaging/make-deb.sh

clean:
	rm -rf .build Benchmarks/.build Fuzz/.build $(SITE_OUT)
