#!/usr/bin/env python3
"""make bench: release-build timings, reported as medians (these machines are shared and noisy).

1. The Mustache engine: one compiled page rendered 100,000 times with different contexts.
2. The locale layer: sorting and sectioning 100,000 names.
3. Whole builds of gen-store.py stores (1,000 and 10,000 contacts; add 100,000 with
   BENCH_FULL=1): a cold build into an empty folder and a rebuild with nothing changed, each
   run several times; wall, user and system time and peak memory of the rolodeck process.
4. Search (Benchmarks/search_bench.py) at 10,000 and 100,000 contacts: the index's size on
   disk, the pieces and bytes a first query loads, and the time from keystroke to results in
   headless Chromium. Needs the test venv (`make test-deps`) for selenium.
"""

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
    sizes = [1000, 10000] + ([100000] if os.environ.get("BENCH_FULL") else [])
    scratch_parent = "/dev/shm" if os.path.isdir("/dev/shm") else None
    scratch = tempfile.mkdtemp(prefix="rolodeck-bench-", dir=scratch_parent)
    rolodeck = os.path.join(bin_dir, "rolodeck")
    rows = []
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

    search(rolodeck, scratch_parent)


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
