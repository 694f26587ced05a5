#!/usr/bin/env python3
"""Paged lists (pageSize) in headless Chromium, run by `make bench` (section `pages`).

For 10,000 and 100,000 contacts (BENCH_PAGES_SIZES=… picks others; 1,000,000 is slow and big,
so only on request): a gen-store.py store is built with the default pageSize by the given
binary, and reported are the size of index.html and of the largest HTML page, how many pages
are over 512 KB (issue 18's limit, which fails the run), and the DOMContentLoaded time of the
index and of the largest page from file://, medians of BENCH_PAGES_RUNS (default 5) fresh loads.
Then the sizes at 1,000,000 contacts, computed from the 100,000-contact build's pages: a page of
contacts holds at most pageSize rows whatever the size of the store; the index grows by one
link per extra page of a long section.

Usage: pages_bench.py ROLODECK_BINARY
Needs selenium (the test venv) and Debian's chromium and chromedriver.
"""

import os
import re
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

os.environ.setdefault("SE_OFFLINE", "true")

from selenium import webdriver  # noqa: E402
from selenium.webdriver.chrome.service import Service  # noqa: E402

ROOT = Path(__file__).resolve().parent.parent
GEN_STORE = ROOT.parent / "shared" / "tools" / "gen-store.py"
LIMIT = 512 * 1024
# Config's default pageSize, which the stores here are built with.
DEFAULT_PAGE_SIZE = 1000
INDEX_GOAL_MS = 300
RUNS = int(os.environ.get("BENCH_PAGES_RUNS", "5"))
SIZES = [int(s) for s in os.environ.get("BENCH_PAGES_SIZES", "10000,100000").split(",")]

DCL = """
const entry = performance.getEntriesByType('navigation')[0];
return entry && entry.domContentLoadedEventEnd > 0 ? entry.domContentLoadedEventEnd : null;
"""


def driver():
    options = webdriver.ChromeOptions()
    options.binary_location = "/usr/bin/chromium"
    for arg in ("--headless=new", "--no-sandbox", "--disable-dev-shm-usage", "--window-size=1280,900",
                "--no-first-run", "--disable-background-networking", "--disable-extensions"):
        options.add_argument(arg)
    d = webdriver.Chrome(service=Service("/usr/bin/chromedriver"), options=options)
    d.set_page_load_timeout(600)
    return d


def dom_content_loaded(d, path):
    """The median DOMContentLoaded of `path`, in ms from navigation start, over RUNS fresh loads."""
    times = []
    for _ in range(RUNS):
        d.get("about:blank")
        d.get(path.as_uri())
        deadline = time.monotonic() + 60
        value = None
        while value is None and time.monotonic() < deadline:
            value = d.execute_script(DCL)
        times.append(value)
    return statistics.median(times)


def build(rolodeck, scratch, size):
    site = scratch / f"site-{size}"
    subprocess.run([sys.executable, str(GEN_STORE), "--contacts", str(size), "--out", str(site)], check=True,
                   stderr=subprocess.DEVNULL)
    out = scratch / f"out-{size}"
    started = time.monotonic()
    subprocess.run([rolodeck, "build", "--quiet", "--site", str(site), "--out", str(out)], check=True)
    shutil.rmtree(site)
    return out, time.monotonic() - started


def main():
    if len(sys.argv) != 2:
        sys.exit(__doc__.split("\n\n")[-2])
    rolodeck = sys.argv[1]
    scratch = Path(tempfile.mkdtemp(prefix="rolodeck-pages-bench-", dir="/dev/shm" if os.path.isdir("/dev/shm") else None))
    d = driver()
    failed = False
    rows = []
    try:
        print("%9s  %8s  %9s  %-28s  %9s  %6s  %9s  %9s" % (
            "contacts", "build s", "index KB", "largest page", "KB", ">512K", "index ms", "largest ms"))
        for size in SIZES:
            out, seconds = build(rolodeck, scratch, size)
            sizes = {p: p.stat().st_size for p in out.rglob("*.html")}
            largest = max(sizes, key=sizes.get)
            over = [p for p, s in sizes.items() if s > LIMIT]
            index_ms = dom_content_loaded(d, out / "index.html")
            largest_ms = dom_content_loaded(d, largest)
            rel = largest.relative_to(out).as_posix()
            print("%9d  %8.1f  %9.1f  %-28s  %9.1f  %6d  %9.0f  %9.0f" % (
                size, seconds, sizes[out / "index.html"] / 1024, rel, sizes[largest] / 1024, len(over), index_ms,
                largest_ms), flush=True)
            rows.append((size, out, sizes))
            failed |= bool(over)
            if size >= 100000 and index_ms > INDEX_GOAL_MS:
                print(f"  index.html at {size} contacts: {index_ms:.0f} ms, over the goal of {INDEX_GOAL_MS} ms")
            for p in over:
                print(f"  over 512 KB: {p.relative_to(out)} ({sizes[p]} bytes)")
        if rows:
            estimate_million(*rows[-1])
    finally:
        d.quit()
        shutil.rmtree(scratch, ignore_errors=True)
    return 1 if failed else 0


def estimate_million(size, out, sizes):
    """The page sizes at 1,000,000 contacts, from a build of `size`: a section page holds at
    most pageSize rows, so its size does not grow; the index grows by a link per extra page."""
    target = 1_000_000
    section_pages = [p for p in sizes if p.parent == out / "sections"]
    if not section_pages:
        print(f"  at {target:,}: not estimated, the {size:,}-contact index is not paged")
        return
    largest = max(sizes[p] for p in section_pages)
    index = (out / "index.html").read_text(encoding="utf-8")
    part_links = len(re.findall(r'<li><a href="sections/[^"]+" aria-label=', index))
    index_bytes = sizes[out / "index.html"]
    per_link = 0
    if part_links:
        per_link = max(len(m) for m in re.findall(r'<li><a href="sections/[^"]+" aria-label="[^"]*">\d+</a></li>', index)) + 1
    # At most target/pageSize full pages and one part-filled page per section, each listed on
    # the index as a numbered link (the store is built with the default pageSize).
    per_link = per_link or 80
    sections = index.count('class="section-entry"')
    grown = index_bytes + per_link * max(0, target // DEFAULT_PAGE_SIZE + sections - part_links)
    print(f"  at {target:,} (computed from {size:,}): largest section page {largest / 1024:.1f} KB "
          f"(at most pageSize rows, as at {size:,}); index.html about {grown / 1024:.0f} KB "
          f"(at most {target // DEFAULT_PAGE_SIZE + sections} page links, ~{per_link} bytes each)")


if __name__ == "__main__":
    sys.exit(main())
