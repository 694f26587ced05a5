#!/usr/bin/env python3
"""make bench: release-build timings, reported as medians (these machines are shared and noisy).

1. The Mustache engine: one compiled page rendered 100,000 times with different contexts.
2. The locale layer: sorting and sectioning 100,000 names.
3. Whole builds of gen-store.py stores (1,000, 10,000 and 100,000 contacts; add 1,000,000
   with BENCH_FULL=1; BENCH_SIZES=1000,10000 picks others): a cold build into an empty folder
   and a rebuild with nothing changed, each run several times; wall, user and system time and
   peak memory of the rolodeck process.
4. The floors the issue names, on the same store: libcmark rendering every note on one core,
   and creating as many small files as the build writes; the cold build as a multiple of each.
5. Search (Benchmarks/search_bench.py) at 10,000 and 100,000 contacts: the index's size on
   disk, the pieces and bytes a first query loads, and the time from keystroke to results in
   headless Chromium. Needs the test venv (`make test-deps`) for selenium.
"""

import ctypes
import ctypes.util
import json

import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
VENV_PYTHON = os.path.join(ROOT, ".build", "test-venv", "bin", "python")
SHARED_TOOLS = os.path.join(os.path.dirname(ROOT), "shared", "tools", "gen-store.py")
RUNS = int(os.environ.get("BENCH_RUNS", "3"))


def sh(*args, **kwargs):
    return subprocess.run(args, check=True, cwd=ROOT, **kwargs)


def measured(args, cwd=None):
    """Runs a command; returns (wall seconds, user, system, peak RSS in MB, stdout)."""
    start = time.perf_counter()
    process = subprocess.Popen(args, cwd=cwd, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    _, status, usage = os.wait4(process.pid, 0)
    wall = time.perf_counter() - start
    out = process.stdout.read().decode()
    err = process.stderr.read().decode()
    if os.waitstatus_to_exitcode(status) != 0:
        sys.exit("failed: %s\n%s" % (" ".join(args), err))
    return wall, usage.ru_utime, usage.ru_stime, usage.ru_maxrss / 1024, out


def main():
    print("Building release binaries ...", flush=True)
    sh("swift", "build", "-c", "release", "--product", "rolodeck")
    sh("swift", "build", "-c", "release", "--product", "mustache-bench")
    sh("swift", "build", "-c", "release", "--product", "locale-bench")
    bin_dir = subprocess.run(["swift", "build", "-c", "release", "--show-bin-path"], cwd=ROOT, check=True,
                             capture_output=True, text=True).stdout.strip()
    print("cores: %d" % os.cpu_count())

    print("\n== Mustache: one compiled template, 100,000 renders ==", flush=True)
    sh(os.path.join(bin_dir, "mustache-bench"))

    print("\n== Locale: sort and section 100,000 names ==", flush=True)
    sh(os.path.join(bin_dir, "locale-bench"), "--count", "100000")

    if not os.path.exists(SHARED_TOOLS):
        print("\nskipped site builds: %s not found" % SHARED_TOOLS)
        return
    if os.environ.get("BENCH_SIZES"):
        sizes = [int(size) for size in os.environ["BENCH_SIZES"].split(",")]
    else:
        sizes = [1000, 10000, 100000] + ([1000000] if os.environ.get("BENCH_FULL") else [])
    scratch_parent = "/dev/shm" if os.path.isdir("/dev/shm") else None
    scratch = tempfile.mkdtemp(prefix="rolodeck-bench-", dir=scratch_parent)
    rolodeck = os.path.join(bin_dir, "rolodeck")
    rows = []
    floors = []
    try:
        for size in sizes:
            site = os.path.join(scratch, "site-%d" % size)
            subprocess.run([sys.executable, SHARED_TOOLS, "--contacts", str(size), "--out", site], check=True,
                           stderr=subprocess.DEVNULL)
            out = os.path.join(scratch, "out-%d" % size)
            cold, warm = [], []
            for _ in range(RUNS):
                shutil.rmtree(out, ignore_errors=True)
                cold.append(measured([rolodeck, "build", "--quiet", "--site", site, "--out", out]))
                warm.append(measured([rolodeck, "build", "--quiet", "--site", site, "--out", out]))
            files = sum(len(names) for _, _, names in os.walk(out))
            cmark_floor = markdown_floor(os.path.join(site, "store", "contacts.json"))
            files_floor = file_floor(scratch, files, average_page_size(os.path.join(out, "contacts")))
            cold_wall = statistics.median(r[0] for r in cold)
            floors.append((size, cmark_floor, files_floor, cold_wall / cmark_floor, cold_wall / files_floor))
            for kind, runs in (("cold", cold), ("no change", warm)):
                wall = statistics.median(r[0] for r in runs)
                rows.append((size, kind, wall, statistics.median(r[1] for r in runs),
                             statistics.median(r[2] for r in runs), statistics.median(r[3] for r in runs),
                             files, wall / size * 1e6))
    finally:
        shutil.rmtree(scratch, ignore_errors=True)

    print("\n== Site builds (median of %d runs, files on %s) ==" % (RUNS, scratch_parent or "disk"))
    print("%9s  %-9s  %8s  %8s  %8s  %9s  %7s  %10s" %
          ("contacts", "build", "wall s", "user s", "sys s", "peak MB", "files", "µs/contact"))
    for row in rows:
        print("%9d  %-9s  %8.2f  %8.2f  %8.2f  %9.1f  %7d  %10.1f" % row)
    print("\n== Floors: libcmark over every note (one core); creating the same number of files ==")
    print("%9s  %10s  %10s  %14s  %14s" % ("contacts", "cmark s", "files s", "cold / cmark", "cold / files"))
    for row in floors:
        print("%9d  %10.2f  %10.2f  %13.1fx  %13.1fx" % row)

    search(rolodeck, scratch_parent)


def markdown_floor(contacts_json):
    """Seconds libcmark takes to render every contact's notes to HTML, on one core."""
    library = ctypes.CDLL(ctypes.util.find_library("cmark") or "libcmark.so")
    library.cmark_markdown_to_html.restype = ctypes.c_void_p
    library.cmark_markdown_to_html.argtypes = [ctypes.c_char_p, ctypes.c_size_t, ctypes.c_int]
    libc = ctypes.CDLL(ctypes.util.find_library("c"))
    libc.free.argtypes = [ctypes.c_void_p]
    with open(contacts_json, encoding="utf-8") as handle:
        notes = [json.loads(line.rstrip(",\n")).get("notes", "").encode()
                 for line in handle if line.startswith("{")]
    timings = []
    for _ in range(RUNS):
        start = time.perf_counter()
        for note in notes:
            if note:
                libc.free(library.cmark_markdown_to_html(note, len(note), 0))
        timings.append(time.perf_counter() - start)
    return statistics.median(timings)


def average_page_size(folder):
    names = os.listdir(folder)
    return sum(os.path.getsize(os.path.join(folder, name)) for name in names) // max(1, len(names))


def file_floor(scratch, count, size):
    """Seconds to create `count` files of `size` bytes in one folder, from C-level calls."""
    payload = b"x" * size
    timings = []
    for run in range(RUNS):
        folder = os.path.join(scratch, "floor-%d" % run)
        os.mkdir(folder)
        start = time.perf_counter()
        for index in range(count):
            descriptor = os.open(os.path.join(folder, "%d.html" % index), os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o644)
            os.write(descriptor, payload)
            os.close(descriptor)
        timings.append(time.perf_counter() - start)
        shutil.rmtree(folder)
    return statistics.median(timings)


def search(rolodeck, scratch_parent):
    """Builds 10,000- and 100,000-contact sites once and measures search on them in Chromium."""
    if not os.path.exists(VENV_PYTHON):
        print("\nskipped search: no %s (run make test-deps)" % os.path.relpath(VENV_PYTHON, ROOT))
        return
    scratch = tempfile.mkdtemp(prefix="rolodeck-search-bench-", dir=scratch_parent)
    try:
        outs = []
        for size in (10000, 100000):
            site = os.path.join(scratch, "site-%d" % size)
            subprocess.run([sys.executable, SHARED_TOOLS, "--contacts", str(size), "--out", site], check=True,
                           stderr=subprocess.DEVNULL)
            out = os.path.join(scratch, "out-%d" % size)
            measured([rolodeck, "build", "--quiet", "--site", site, "--out", out])
            outs.append(out)
        sh(VENV_PYTHON, os.path.join(ROOT, "Benchmarks", "search_bench.py"), *outs)
    finally:
        shutil.rmtree(scratch, ignore_errors=True)


if __name__ == "__main__":
    main()
