#!/usr/bin/env python3
"""make bench: release-build timings, reported as medians (these machines are shared and noisy).

The benchmark executables are a package of their own (Benchmarks/Package.swift), built here
with `swift build -c release --package-path Benchmarks`; a plain `swift build` builds none.

1. The Mustache engine: one compiled page rendered 100,000 times with different contexts.
2. The locale layer: sorting and sectioning 100,000 names.
2b. The byte kernels (Sources/ByteKernels), each against its plain Swift alternative on the
   sizes a build sees: median times and their ratio, and, when valgrind is installed, the
   instructions each takes per operation (deterministic, unlike the times on a shared host).
3. Whole builds of gen-store.py stores (1,000, 10,000 and 100,000 contacts; add 1,000,000
   with BENCH_FULL=1; BENCH_SIZES=1000,10000 picks others): a cold build into an empty folder
   and a rebuild with nothing changed, each run several times; wall, user and system time and
   peak memory of the rolodeck process.
4. The floors the issue names, on the same store: libcmark rendering every note on one core,
   and creating as many small files as the build writes; the cold build as a multiple of each.
5. Watch and serve, at 10,000 and 100,000 contacts (BENCH_WATCH_SIZES=… picks others): with
   `rolodeck serve` running, one contact of contacts.json is edited (its phone number, then its
   given name) and saved the way editors save (a new file renamed over the old one), several
   times; reported are the time from the save to the site on disk being up to date (its
   manifest, written last, replaced) and to an open page's event stream receiving the reload
   event.
With BENCH_BASELINE=<another rolodeck binary>, only this runs instead: cold builds of the same
stores by that binary and by this checkout's, one after the other in turn (BENCH_RUNS times
each, default 5), in both store layouts (one contacts.json, and a file per contact); printed are
the medians of wall time and peak memory, new over old, and whether the two outputs are
byte-identical. That is how a change is shown to cost nothing: ratios of runs taken side by side
are what a shared host can tell.

6. Search (Benchmarks/search_bench.py) at 10,000 and 100,000 contacts: the index's size on
   disk, the pieces and bytes a first query loads, and the time from keystroke to results in
   headless Chromium. Needs the test venv (`make test-deps`) for selenium.
"""

import ctypes
import ctypes.util
import json

import os
import re
import shutil
import socket
import statistics
import subprocess
import sys
import tempfile
import threading
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
BENCHMARKS = os.path.join(ROOT, "Benchmarks")
VENV_PYTHON = os.path.join(ROOT, ".build", "test-venv", "bin", "python")
SHARED_TOOLS = os.path.join(os.path.dirname(ROOT), "shared", "tools", "gen-store.py")
RUNS = int(os.environ.get("BENCH_RUNS", "3"))


def sh(*args, **kwargs):
    return subprocess.run(args, check=True, cwd=ROOT, **kwargs)


def measured(args, cwd=None, env=None):
    """Runs a command; returns (wall seconds, user, system, peak RSS in MB, stdout)."""
    start = time.perf_counter()
    process = subprocess.Popen(args, cwd=cwd, stdout=subprocess.PIPE, stderr=subprocess.PIPE, env=env)
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
    sh("swift", "build", "-c", "release", "--package-path", BENCHMARKS)
    bin_dir = subprocess.run(["swift", "build", "-c", "release", "--show-bin-path"], cwd=ROOT, check=True,
                             capture_output=True, text=True).stdout.strip()
    bench_dir = subprocess.run(["swift", "build", "-c", "release", "--package-path", BENCHMARKS, "--show-bin-path"],
                               cwd=ROOT, check=True, capture_output=True, text=True).stdout.strip()
    print("cores: %d" % os.cpu_count())
    if os.environ.get("BENCH_BASELINE"):
        compare_with_baseline(os.environ["BENCH_BASELINE"], os.path.join(bin_dir, "rolodeck"))
        return

    print("\n== Mustache: one compiled template, 100,000 renders ==", flush=True)
    sh(os.path.join(bench_dir, "mustache-bench"))

    print("\n== Locale: sort and section 100,000 names ==", flush=True)
    sh(os.path.join(bench_dir, "locale-bench"), "--count", "100000")

    print("\n== Byte kernels against plain Swift ==", flush=True)
    sh(os.path.join(bench_dir, "kernel-bench"))
    kernel_instructions(os.path.join(bench_dir, "kernel-bench"))

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
    watch_rows = []
    if os.environ.get("BENCH_WATCH_SIZES"):
        watch_sizes = [int(size) for size in os.environ["BENCH_WATCH_SIZES"].split(",")]
    else:
        watch_sizes = [10000, 100000]
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
        for size in watch_sizes:
            site = os.path.join(scratch, "site-%d" % size)
            if not os.path.exists(site):
                subprocess.run([sys.executable, SHARED_TOOLS, "--contacts", str(size), "--out", site], check=True,
                               stderr=subprocess.DEVNULL)
            # The build benchmark's output, when there is one, is up to date: serve starts sooner.
            for kind in ("phone", "name"):
                watch_rows.append((size, kind) + watch_bench(rolodeck, site, os.path.join(scratch, "out-%d" % size),
                                                             kind))
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
    print("\n== Watch and serve: one contact saved (median of %d saves; the watcher waits 50 ms for a burst "
          "to end) ==" % WATCH_SAVES)
    print("%9s  %-6s  %12s  %14s  %10s  %8s" % ("contacts", "edit", "save→disk s", "save→reload s", "rebuild s",
                                                 "written"))
    for row in watch_rows:
        print("%9d  %-6s  %12.3f  %14.3f  %10.3f  %8s" % row)
    print("(phone: the first phone number, which moves no contact; name: the given name, which can move the "
          "contact and so plans the directory anew)")

    search(rolodeck, scratch_parent)


WATCH_SAVES = int(os.environ.get("BENCH_WATCH_SAVES", "5"))


class EventStream:
    """An open page's event stream: a thread that notes when each event arrives."""

    def __init__(self, port):
        self.connection = socket.create_connection(("127.0.0.1", port))
        self.connection.sendall(b"GET /.rolodeck-serve/events HTTP/1.1\r\nHost: bench\r\n\r\n")
        self.events = []  # (name, arrival time)
        self.lock = threading.Condition()
        threading.Thread(target=self.read, daemon=True).start()

    def read(self):
        pending = b""
        while True:
            data = self.connection.recv(65536)
            if not data:
                return
            now = time.perf_counter()
            pending += data
            while b"\n\n" in pending:
                block, pending = pending.split(b"\n\n", 1)
                for line in block.split(b"\n"):
                    if line.startswith(b"event: "):
                        with self.lock:
                            self.events.append((line[7:].decode(), now))
                            self.lock.notify_all()

    def wait(self, name, after, timeout=120):
        """The arrival time of the first `name` event that came after `after` events."""
        deadline = time.monotonic() + timeout
        with self.lock:
            while True:
                for event, arrival in self.events[after:]:
                    if event == name:
                        return arrival
                if time.monotonic() > deadline:
                    sys.exit("no %s event within %d s" % (name, timeout))
                self.lock.wait(timeout=1)


def watch_bench(rolodeck, site, out, kind):
    """Median seconds from saving one contact (its phone number, or its given name) to the site
    on disk being up to date and to the reload event; the watcher's own rebuild time; files
    written."""
    process = subprocess.Popen([rolodeck, "serve", "--site", site, "--out", out, "--port", "0"],
                               stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    lines = []
    port = None
    while port is None:
        line = process.stdout.readline()
        if not line:
            sys.exit("rolodeck serve did not start: %s" % process.stderr.read())
        match = re.search(r"http://127\.0\.0\.1:(\d+)/", line)
        port = int(match.group(1)) if match else None
    while not process.stdout.readline().startswith("Watching "):
        pass
    threading.Thread(target=lambda: [lines.append(line) for line in process.stdout], daemon=True).start()
    stream = EventStream(port)
    stream.wait("hello", 0)
    contacts = os.path.join(site, "store", "contacts.json")
    manifest = os.path.join(out, ".rolodeck")
    with open(contacts, "rb") as handle:
        original = handle.read()
    current = original
    disk, reload, rebuild, written = [], [], [], []
    try:
        for save in range(WATCH_SAVES):
            # One contact near the middle gets another given name.
            start = current.index(b"\n{", len(current) // 2 + save * 997) + 1
            end = current.index(b"\n", start)
            if kind == "name":
                record = current[start:end].replace(b'"givenName":"', b'"givenName":"Bench%d ' % save, 1)
            else:
                record = re.sub(rb'"phones":\[\{"label":"(\w+)","value":"', rb'"phones":[{"label":"\1","value":"+1 ',
                                current[start:end], count=1)
                if record == current[start:end]:
                    record = current[start:end].replace(b'"phones":[', b'"phones":[{"label":"work","value":"+1 555"},', 1)
            current = edited = current[:start] + record + current[end:]
            temporary = contacts + ".tmp"
            with open(temporary, "wb") as handle:
                handle.write(edited)
            before = os.stat(manifest).st_ino
            seen_events = len(stream.events)
            seen_lines = len(lines)
            saved = time.perf_counter()
            os.replace(temporary, contacts)
            while os.stat(manifest).st_ino == before:
                time.sleep(0.001)
            disk.append(time.perf_counter() - saved)
            reload.append(stream.wait("reload", seen_events) - saved)
            while len(lines) == seen_lines:
                time.sleep(0.01)
            match = re.search(r": (\d+) files? written, \d+ removed in ([\d.]+) s", lines[seen_lines])
            if not match:
                sys.exit("unexpected watch line: %s" % lines[seen_lines])
            written.append(int(match.group(1)))
            rebuild.append(float(match.group(2)))
            time.sleep(0.2)
    finally:
        # Put the store back while serve runs, so the output matches it for the next run.
        before = os.stat(manifest).st_ino
        with open(contacts + ".tmp", "wb") as handle:
            handle.write(original)
        os.replace(contacts + ".tmp", contacts)
        deadline = time.monotonic() + 120
        while os.stat(manifest).st_ino == before and time.monotonic() < deadline:
            time.sleep(0.01)
        process.send_signal(2)
        process.wait(timeout=60)
    return (statistics.median(disk), statistics.median(reload), statistics.median(rebuild),
            "%d" % statistics.median(written))

def kernel_instructions(kernel_bench):
    """Instructions per operation of each kernel and its plain alternative, counted by callgrind:
    one pass over the inputs (100,000 operations) less a run that only makes the inputs."""
    if not shutil.which("valgrind"):
        print("(no valgrind: instruction counts skipped)")
        return

    def instructions(*args):
        run = subprocess.run(["valgrind", "--tool=callgrind", "--callgrind-out-file=/dev/null", kernel_bench, *args],
                             check=True, capture_output=True, text=True)
        return int(re.search(r"Collected : (\d+)", run.stderr).group(1))

    names = re.findall(r"^(\S.*?) kernel: checksum", subprocess.run(
        [kernel_bench, "--variant", "kernel", "--passes", "0"], check=True, capture_output=True, text=True).stdout,
        re.M)
    setup = instructions("--only", names[0], "--variant", "kernel", "--passes", "0")
    print("%-30s  %14s  %13s  %6s" % ("instructions per operation", "kernel", "plain", "ratio"))
    for name in names:
        kernel, plain = [(instructions("--only", name, "--variant", variant, "--passes", "1") - setup) / 100000
                         for variant in ("kernel", "plain")]
        print("%-30s  %14.1f  %13.1f  %5.2fx" % (name, kernel, plain, kernel / plain))


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


def compare_with_baseline(baseline, rolodeck):
    """Alternating cold builds of the same stores by `baseline` and `rolodeck`: medians and ratios."""
    if not os.path.exists(SHARED_TOOLS):
        sys.exit("BENCH_BASELINE needs %s to make the stores" % SHARED_TOOLS)
    runs = int(os.environ.get("BENCH_RUNS", "5"))
    sizes = [int(size) for size in os.environ.get("BENCH_SIZES", "100000").split(",")]
    scratch_parent = "/dev/shm" if os.path.isdir("/dev/shm") else None
    scratch = tempfile.mkdtemp(prefix="rolodeck-ab-", dir=scratch_parent)
    environment = dict(os.environ, SOURCE_DATE_EPOCH=os.environ.get("SOURCE_DATE_EPOCH", "1764547200"))
    rows = []
    try:
        for size in sizes:
            for layout in ("array", "files"):
                site = os.path.join(scratch, "site-%d-%s" % (size, layout))
                subprocess.run([sys.executable, SHARED_TOOLS, "--contacts", str(size), "--layout", layout,
                                "--out", site], check=True, stderr=subprocess.DEVNULL)
                results = {"old": [], "new": []}
                outs = {which: os.path.join(scratch, "out-" + which) for which in results}
                for _ in range(runs):
                    for which, binary in (("old", baseline), ("new", rolodeck)):
                        shutil.rmtree(outs[which], ignore_errors=True)
                        results[which].append(measured(
                            [binary, "build", "--quiet", "--site", site, "--out", outs[which]], env=environment))
                identical = same_tree(outs["old"], outs["new"])
                for which in results:
                    shutil.rmtree(outs[which], ignore_errors=True)
                shutil.rmtree(site, ignore_errors=True)
                old_wall = statistics.median(r[0] for r in results["old"])
                new_wall = statistics.median(r[0] for r in results["new"])
                old_peak = statistics.median(r[3] for r in results["old"])
                new_peak = statistics.median(r[3] for r in results["new"])
                rows.append((size, layout, old_wall, new_wall, new_wall / old_wall, old_peak, new_peak,
                             new_peak / old_peak, "yes" if identical else "NO"))
    finally:
        shutil.rmtree(scratch, ignore_errors=True)
    print("\n== Cold builds, %s (old) against this checkout (new), alternating, medians of %d ==" %
          (baseline, runs))
    print("%9s  %-6s  %8s  %8s  %7s  %8s  %8s  %7s  %9s" %
          ("contacts", "layout", "old s", "new s", "new/old", "old MB", "new MB", "new/old", "identical"))
    for row in rows:
        print("%9d  %-6s  %8.2f  %8.2f  %7.3f  %8.0f  %8.0f  %7.3f  %9s" % row)


def same_tree(left, right):
    """Whether two output folders hold the same files with the same bytes (the manifest aside:
    it names the binary that built it)."""
    def files(root):
        found = {}
        for folder, _, names in os.walk(root):
            for name in names:
                path = os.path.join(folder, name)
                relative = os.path.relpath(path, root)
                if relative != ".rolodeck":
                    with open(path, "rb") as file:
                        found[relative] = file.read()
        return found
    return files(left) == files(right)


if __name__ == "__main__":
    main()
