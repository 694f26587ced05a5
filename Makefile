# Rolodeck: the README's commands. `make demo` builds the demo site, `make test` runs every test.
# Debian packages the project needs are installed when run as root; otherwise the exact
# apt-get line is printed.

SWIFT ?= swift
PYTHON ?= python3
BIN := .build/debug/rolodeck
VENV := .build/test-venv
AXE := .build/axe-core
SITE_OUT ?= _site

# Needed to build: the CommonMark library (found through pkg-config), and jemalloc, the
# command's memory allocator.
BUILD_PACKAGES := libcmark-dev libjemalloc-dev pkg-config
# Needed by the browser and validator tests, and by the vCard differential test (Debian's
# python3-vobject, imported by /usr/bin/python3).
TEST_PACKAGES := chromium chromium-driver python3-vobject

.PHONY: demo build test test-swift test-browser deps test-deps bench clean

demo: build
	$(BIN) build --site Examples/demo --out $(SITE_OUT)
	@echo "Open $(SITE_OUT)/index.html in a browser: file://$(CURDIR)/$(SITE_OUT)/index.html"

build: deps
	$(SWIFT) build

test: deps test-deps
	$(SWIFT) build --build-tests
	$(SWIFT) test
	$(VENV)/bin/python Tests/Schema/check_schema.py
	$(VENV)/bin/python Tests/Browser/run_tests.py --rolodeck $(BIN)

test-swift: deps
	$(SWIFT) test

test-browser: test-deps build
	$(VENV)/bin/python Tests/Browser/run_tests.py --rolodeck $(BIN)

deps:
	@$(MAKE) --no-print-directory install-packages PACKAGES="$(BUILD_PACKAGES)"

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

bench: deps test-deps
	$(PYTHON) Benchmarks/bench.py

clean:
	rm -rf .build Benchmarks/.build $(SITE_OUT)
