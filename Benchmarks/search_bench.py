#!/usr/bin/env python3
"""Search in headless Chromium, on sites built by bench.py (run by `make bench`).

For each site: the index's size on disk, and for each query the pieces and bytes a first
query needs (before its first result, and for its first page of results) and the time from
keystroke to results. Needs selenium (the test venv) and Debian's chromium and chromedriver.

Usage: search_bench.py SITE_OUT_FOLDER [SITE_OUT_FOLDER ...]

Timings are medians over several fresh pages, from the input event to the results in the
DOM (`window.rolodeckSearch.last`, see Public/search.js); this machine is shared and noisy.
"""

import os
import statistics
import sys
import time
from pathlib import Path

os.environ.setdefault("SE_OFFLINE", "true")

from selenium import webdriver  # noqa: E402
from selenium.webdriver.chrome.service import Service  # noqa: E402

RUNS = int(os.environ.get("BENCH_SEARCH_RUNS", "5"))
# (label, query): the four kinds of first query, and two more.
QUERIES = [
    ("common surname (Korean)", "김"),
    ("common surname", "smith"),
    ("rare surname", "zendaya"),
    ("chosung", "ㄱㅊㅅ"),
    ("4-digit phone", "1234"),
    ("transliterated", "mueller"),
]

PASTE = """
const input = document.getElementById('search-input');
input.value = arguments[0];
input.dispatchEvent(new InputEvent('input', {bubbles: true}));
"""
LAST = """
const last = window.rolodeckSearch && window.rolodeckSearch.last;
return last && last.query === arguments[0] && (last.ms !== null || last.error) ? last : null;
"""


def driver():
    options = webdriver.ChromeOptions()
    options.binary_location = "/usr/bin/chromium"
    for arg in ("--headless=new", "--no-sandbox", "--disable-dev-shm-usage", "--window-size=1280,1000",
                "--no-first-run", "--disable-background-networking", "--disable-extensions"):
        options.add_argument(arg)
    d = webdriver.Chrome(service=Service("/usr/bin/chromedriver"), options=options)
    d.set_page_load_timeout(600)
    d.set_script_timeout(600)
    return d


def wait_last(d, query, timeout=60):
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        last = d.execute_script(LAST, query)
        if last:
            if last.get("error"):
                sys.exit(f"search for {query!r} failed: {last['error']}")
            return last
        time.sleep(0.01)
    sys.exit(f"no results for {query!r} within {timeout} s")


def fresh_page(d, site):
    d.get((site / "index.html").as_uri())
    # Let the page finish laying out what is on screen before anything is timed.
    d.execute_async_script("const done = arguments[0]; requestAnimationFrame(() => setTimeout(done, 500));")


def size_of(site, pieces):
    return sum((site / "search" / f"{piece}.js").stat().st_size for piece in pieces)


def index_size(site):
    files = sorted((site / "search").glob("*.js"))
    kinds = {"root": [], "t": [], "h": [], "r": []}
    for f in files:
        kinds["root" if f.stem == "root" else f.stem[0]].append(f.stat().st_size)
    total = sum(sum(v) for v in kinds.values())
    print(f"  index on disk: {total / 1e6:.1f} MB in {len(files)} files: root {kinds['root'][0] / 1e3:.1f} KB, "
          f"{len(kinds['t'])} term pieces {sum(kinds['t']) / 1e6:.1f} MB (largest {max(kinds['t'], default=0) / 1e3:.0f} KB), "
          f"{len(kinds['h'])} hot pieces {sum(kinds['h']) / 1e6:.1f} MB (largest {max(kinds['h'], default=0) / 1e3:.0f} KB), "
          f"{len(kinds['r'])} row pieces {sum(kinds['r']) / 1e6:.1f} MB")
    print(f"  client: search.js {(site / 'search.js').stat().st_size / 1e3:.1f} KB; "
          f"index page {(site / 'index.html').stat().st_size / 1e6:.1f} MB")


def bench_site(d, site):
    contacts = sum(1 for _ in (site / "contacts").iterdir())
    print(f"\n== Search at {contacts:,} contacts ({site.name}) ==")
    index_size(site)
    print(f"  first query, pasted on a fresh page (median of {RUNS}); pieces and bytes include the root:")
    print("  %-24s %-8s %7s  %-26s %-26s %9s %9s" % ("query", "", "results", "before first result",
                                                 "whole first page", "first ms", "page ms"))
    for label, query in QUERIES:
        first_ms, page_ms, last = [], [], None
        for _ in range(RUNS):
            fresh_page(d, site)
            d.execute_script(PASTE, query)
            last = wait_last(d, query)
            first_ms.append(last["firstResultMs"] or last["ms"])
            page_ms.append(last["ms"])
        first, page = last["firstResultPieces"], last["pieces"]
        print("  %-24s %-8s %7d  %2d pieces %8.1f KB     %2d pieces %8.1f KB     %9.1f %9.1f" % (
            label, query, last["count"], len(first), size_of(site, first) / 1e3, len(page),
            size_of(site, page) / 1e3, statistics.median(first_ms), statistics.median(page_ms)))

    print("  typing key by key on a fresh page: milliseconds from each keystroke to its results, and")
    print("  everything loaded while typing:")
    for label, query in QUERIES:
        per_key = []
        fresh_page(d, site)
        box = d.find_element("id", "search-input")
        box.click()
        for end in range(1, len(query) + 1):
            box.send_keys(query[end - 1])
            per_key.append(wait_last(d, query[:end])["ms"])
        loaded = d.execute_script("return window.rolodeckSearch.loaded")
        print("  %-24s %-8s keystrokes %s ms; loaded %d pieces, %.1f KB" % (
            label, query, " ".join(f"{ms:.0f}" for ms in per_key), len(loaded), size_of(site, loaded) / 1e3))


def main():
    sites = [Path(p) for p in sys.argv[1:]]
    d = driver()
    try:
        for site in sites:
            bench_site(d, site)
    finally:
        d.quit()


if __name__ == "__main__":
    main()
