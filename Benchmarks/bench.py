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
   with BENCH_FULL=1; BENCH_SIZES=1000,10000 picks others), in five layouts of the same
   contacts: `array` (one store/contacts.json), `files` (one store/contacts/<id>.json per
   contact), `vcards` (one vCard 3.0 file per contact in a vdir collection, written from the
   array store by Benchmarks/to_vdir.py; groups.json and todos.json stay JSON) and `vcf` (the
   same cards one after another in one store/book/contacts.vcf, as a phone exports them) and
   `export` (that file without UIDs, as Google Contacts and Android export it: each contact's id
   is made from its name, so todos.json's links to contacts are left out); BENCH_LAYOUTS=array,files
   picks some. For each: a cold build into an empty folder, a rebuild
   with nothing changed and `rolodeck check`, each run several times (BENCH_RUNS, default 3),
   the layouts taking turns run by run (at 1,000,000 one layout after the other, each store and
   output deleted when done, so that they fit in memory); wall, user and system time and peak
   memory of the rolodeck process. Then issue 17's goals: each layout's cold build over the
   array layout's (at most 1.3x), µs per contact at the largest size over at 10,000 (at most
   1.2x), and `check` of 100,000 contacts (at most 1 s).
4. The floors the issue names, on the same store: libcmark rendering every note on one core,
   and creating as many small files as the build writes; the cold build as a multiple of each.
4b. Decoding without the kernel (decode-bench), at 100,000 contacts (BENCH_DECODE_SIZES=…
   picks others) in the layouts of a file per contact: the files of the store are read once,
   then decoded into contacts BENCH_RUNS times (after one run not counted), on every core as a
   build decodes them. Printed are the medians and the least of the wall and CPU time of a
   decode, and the CPU microseconds a file takes: the part of `check` and of a cold build that
   the code, not the file system, sets. When valgrind is installed, also the instructions a
   decode of the first 10,000 files takes (deterministic, unlike the times on a shared host).
5. Watch and serve, at 10,000 and 100,000 contacts (BENCH_WATCH_SIZES=… picks others), in each
   layout: with `rolodeck serve` running, one contact is edited (its phone number, then its
   given name) and saved the way editors save (a new file renamed over the old one), several
   times: in store/contacts.json, in its own store/contacts/<id>.json, in its own .vcf, or in
   the one contacts.vcf (its TEL, or its N and FN). Reported are the time from the save to the site on disk being up
   to date (its manifest, written last, replaced) and to an open page's event stream receiving
   the reload event, beside issue 17's goals at 100,000 contacts: save to disk within 0.05 s
   for a file per card, 0.3 s for one contacts.json or contacts.vcf; the reload within 0.1 s
   after that. The first save after serve starts is reported apart. Each row is one serve
   session unless BENCH_WATCH_RUNS=N asks for N (a phone row's each into an empty output, a
   name row's each finding the output up to date): then the medians are over every session's
   saves, and the first save's is the median of the sessions' first saves.
With BENCH_BASELINE=<another rolodeck binary>, only this runs instead: cold builds of the same
stores by that binary and by this checkout's, one after the other in turn (BENCH_RUNS times
each, default 5), in each store layout (one contacts.json, a file per contact, a vCard file per
contact; BENCH_LAYOUTS picks some); printed are the medians of wall time, CPU time and peak
memory, new over old, and whether the two outputs are byte-identical. That is how a change is
shown to cost nothing: ratios of runs taken side by side are what a shared host can tell.

7. Photos (issue 21): a 10,000-contact store (BENCH_PHOTO_SIZE picks another size) in which
   every contact has a photo of its own (a 256 × 256 JPEG of about 10 KB, in store/photos/,
   named by the contact's `photo`), cold build, unchanged rebuild, and a build after one
   contact is renamed (which takes the photos' files from the last output), against the same
   store without photos; the photos are made with libvips' command (`vips`) from one picture, each
   with a comment of its own so that every contact's bytes, name and thumbnail are its own.

6. Search (Benchmarks/search_bench.py) at 10,000 and 100,000 contacts: the index's size on
   disk, the pieces and bytes a first query loads, and the time from keystroke to results in
   headless Chromium. Needs the test venv (`make test-deps`) for selenium.

7. Paged lists (Benchmarks/pages_bench.py) at 10,000 and 100,000 contacts: the size of
   index.html and of the largest page, how many pages are over 512 KB (none may be), and the
   DOMContentLoaded of the index and of the largest page in headless Chromium, beside issue 18's
   goal of 300 ms for the index at 100,000; and the sizes at 1,000,000, computed.

8. Hugo against Rolodeck, at 10,000 and 100,000 contacts (BENCH_HUGO_SIZES=… picks others):
   the array store is converted into a Hugo site by Benchmarks/hugo_site.py (untimed; its
   docstring says what the site renders), then Hugo's and Rolodeck's cold builds take turns,
   BENCH_RUNS times each, every run into a deleted output folder and Hugo's with its cache
   folder deleted too. Printed are the medians of wall, user and system time, peak memory and
   HTML pages written, and Hugo over Rolodeck in wall time and memory beside the claim that
   Rolodeck is at least 10 times faster and uses at most a tenth of the memory. Needs `hugo`
   (Debian's package; `make bench` installs it).

BENCH_ONLY=sites,watch runs only the sections named: mustache, locale, kernels, sites (3 and 4),
decode, watch, search, pages, photos, hugo; for trying the bench itself on small sizes, e.g.
`BENCH_ONLY=sites,watch BENCH_SIZES=1000 BENCH_WATCH_SIZES=1000 BENCH_RUNS=1`.
"""

import ctypes
import ctypes.util
import json

import os
import re
import shutil
import signal
import socket
import statistics
import subprocess
import sys
import tempfile
import threading
import time

import to_vdir

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
BENCHMARKS = os.path.join(ROOT, "Benchmarks")
VENV_PYTHON = os.path.join(ROOT, ".build", "test-venv", "bin", "python")
SHARED_TOOLS = os.path.join(os.path.dirname(ROOT), "shared", "tools", "gen-store.py")
TO_VDIR = os.path.join(BENCHMARKS, "to_vdir.py")
HUGO_SITE = os.path.join(BENCHMARKS, "hugo_site.py")
RUNS = int(os.environ.get("BENCH_RUNS", "3"))
# Serve sessions a watch row takes (each starts serve anew, so each has a first save).
WATCH_RUNS = int(os.environ.get("BENCH_WATCH_RUNS", "1"))
# How the contacts of a store are kept: one contacts.json, a JSON file each, a vCard file each,
# every vCard in one file (a phone's export), and that file without UIDs (Google's or Android's).
LAYOUTS = ("array", "files", "vcards", "vcf", "export")
# The layouts that keep every contact in one file.
ONE_FILE_LAYOUTS = ("array", "vcf", "export")


# The folder of each layout's contacts under store/.
STORE_FOLDERS = {"array": "", "files": "contacts", "vcards": "book", "vcf": "book", "export": "book"}


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


def selected(section):
    """Whether BENCH_ONLY (a comma-separated list of sections) leaves `section` in; all are by default."""
    only = os.environ.get("BENCH_ONLY")
    return not only or section in only.split(",")


def sizes_from(variable, default):
    value = os.environ.get(variable)
    return [int(size) for size in value.split(",")] if value else default


def main():
    print("Building release binaries ...", flush=True)
    sh("swift", "build", "-c", "release", "--product", "rolodeck")
    bin_dir = subprocess.run(["swift", "build", "-c", "release", "--show-bin-path"], cwd=ROOT, check=True,
                             capture_output=True, text=True).stdout.strip()
    print("cores: %d" % os.cpu_count())
    rolodeck = os.path.join(bin_dir, "rolodeck")
    if os.environ.get("BENCH_BASELINE"):
        compare_with_baseline(os.environ["BENCH_BASELINE"], rolodeck)
        return

    if selected("mustache") or selected("locale") or selected("kernels"):
        sh("swift", "build", "-c", "release", "--package-path", BENCHMARKS)
        bench_dir = subprocess.run(["swift", "build", "-c", "release", "--package-path", BENCHMARKS,
                                    "--show-bin-path"], cwd=ROOT, check=True, capture_output=True,
                                   text=True).stdout.strip()
    if selected("mustache"):
        print("\n== Mustache: one compiled template, 100,000 renders ==", flush=True)
        sh(os.path.join(bench_dir, "mustache-bench"))
    if selected("locale"):
        print("\n== Locale: sort and section 100,000 names ==", flush=True)
        sh(os.path.join(bench_dir, "locale-bench"), "--count", "100000")
    if selected("kernels"):
        print("\n== Byte kernels against plain Swift ==", flush=True)
        sh(os.path.join(bench_dir, "kernel-bench"))
        kernel_instructions(os.path.join(bench_dir, "kernel-bench"))

    scratch_parent = "/dev/shm" if os.path.isdir("/dev/shm") else None
    if selected("sites") or selected("watch"):
        if not os.path.exists(SHARED_TOOLS):
            print("\nskipped site builds: %s not found" % SHARED_TOOLS)
            return
        sizes = sizes_from("BENCH_SIZES", [1000, 10000, 100000] + ([1000000] if os.environ.get("BENCH_FULL") else []))
        watch_sizes = sizes_from("BENCH_WATCH_SIZES", [10000, 100000]) if selected("watch") else []
        scratch = tempfile.mkdtemp(prefix="rolodeck-bench-", dir=scratch_parent)
        try:
            if selected("sites"):
                sh("swift", "build", "-c", "release", "--package-path", BENCHMARKS, "--product", "syscall-bench")
                syscall_bench = os.path.join(subprocess.run(
                    ["swift", "build", "-c", "release", "--package-path", BENCHMARKS, "--show-bin-path"], cwd=ROOT,
                    check=True, capture_output=True, text=True).stdout.strip(), "syscall-bench")
                site_builds(rolodeck, scratch, scratch_parent, sizes, watch_sizes, syscall_bench)
            if watch_sizes:
                watch_section(rolodeck, scratch, watch_sizes)
        finally:
            shutil.rmtree(scratch, ignore_errors=True)

    if selected("decode") and os.path.exists(SHARED_TOOLS):
        scratch = tempfile.mkdtemp(prefix="rolodeck-bench-decode-", dir=scratch_parent)
        try:
            decode_section(scratch, sizes_from("BENCH_DECODE_SIZES", [100000]))
        finally:
            shutil.rmtree(scratch, ignore_errors=True)

    if selected("photos") and os.path.exists(SHARED_TOOLS):
        scratch = tempfile.mkdtemp(prefix="rolodeck-bench-photos-", dir=scratch_parent)
        try:
            photo_builds(rolodeck, scratch, int(os.environ.get("BENCH_PHOTO_SIZE", "10000")))
        finally:
            shutil.rmtree(scratch, ignore_errors=True)

    if selected("hugo") and os.path.exists(SHARED_TOOLS):
        scratch = tempfile.mkdtemp(prefix="rolodeck-bench-hugo-", dir=scratch_parent)
        try:
            hugo_builds(rolodeck, scratch, sizes_from("BENCH_HUGO_SIZES", [10000, 100000]))
        finally:
            shutil.rmtree(scratch, ignore_errors=True)

    if selected("search"):
        search(rolodeck, scratch_parent)

    if selected("pages"):
        print("\n== Paged lists: page sizes and DOMContentLoaded in headless Chromium ==", flush=True)
        if not os.path.exists(VENV_PYTHON):
            print("skipped: no %s (run make test-deps)" % os.path.relpath(VENV_PYTHON, ROOT))
        else:
            sh(VENV_PYTHON, os.path.join(ROOT, "Benchmarks", "pages_bench.py"), rolodeck)


def layouts():
    """The store layouts to measure: BENCH_LAYOUTS, or all three."""
    chosen = os.environ.get("BENCH_LAYOUTS", ",".join(LAYOUTS)).split(",")
    unknown = [layout for layout in chosen if layout not in LAYOUTS]
    if unknown:
        sys.exit("BENCH_LAYOUTS: unknown layout %s; the layouts are %s" % (", ".join(unknown), ", ".join(LAYOUTS)))
    return [layout for layout in LAYOUTS if layout in chosen]


def make_store(scratch, size, layout):
    """The site folder of a gen-store store of `size` contacts in `layout`, made when missing.
    The vCard stores are converted from the array store, made for the purpose when there is none."""
    site = os.path.join(scratch, "site-%d-%s" % (size, layout))
    if os.path.exists(site):
        return site
    if layout in ("vcards", "vcf", "export"):
        source = os.path.join(scratch, "site-%d-array" % size)
        made = not os.path.exists(source)
        make_store(scratch, size, "array")
        options = {"vcards": [], "vcf": ["--one-file"], "export": ["--one-file", "--no-uids"]}[layout]
        subprocess.run([sys.executable, TO_VDIR, source, site] + options, check=True, stderr=subprocess.DEVNULL)
        if made:
            shutil.rmtree(source)
    else:
        subprocess.run([sys.executable, SHARED_TOOLS, "--contacts", str(size), "--layout", layout, "--out", site],
                       check=True, stderr=subprocess.DEVNULL)
    return site


def decode_section(scratch, sizes):
    """Section 4b: decode-bench over the folder of a file per contact of each store."""
    print("\n== Decoding a store already read (decode-bench) ==", flush=True)
    sh("swift", "build", "-c", "release", "--package-path", BENCHMARKS, "--product", "decode-bench")
    decode_bench = os.path.join(subprocess.run(
        ["swift", "build", "-c", "release", "--package-path", BENCHMARKS, "--show-bin-path"], cwd=ROOT,
        check=True, capture_output=True, text=True).stdout.strip(), "decode-bench")
    for size in sizes:
        for layout in [layout for layout in layouts() if layout != "array"]:
            site = make_store(scratch, size, layout)
            folder = os.path.join(site, "store", STORE_FOLDERS[layout])
            summary = subprocess.run([decode_bench, folder, str(RUNS)], check=True, capture_output=True,
                                     text=True).stdout.splitlines()[-1]
            print("%9s %-7s %s" % ("{:,}".format(size), layout, summary), flush=True)
            # Valgrind cannot read these binaries' debug information, so `strip` must be there too.
            # Counted a file, of a file per card (one file of every card is not one of them).
            if shutil.which("valgrind") and shutil.which("strip") and layout not in ONE_FILE_LAYOUTS:
                print("%9s %-7s %s" % ("", "", decode_instructions(decode_bench, folder, scratch)), flush=True)
            shutil.rmtree(site)


def decode_instructions(decode_bench, folder, scratch):
    """The instructions (callgrind) a decode of the first 10,000 files of `folder` takes: the
    decoder's own count, without reading the files or the run before it."""
    part = os.path.join(scratch, "first-10000")
    shutil.rmtree(part, ignore_errors=True)
    os.makedirs(part)
    for name in sorted(os.listdir(folder))[:10000]:
        shutil.copyfile(os.path.join(folder, name), os.path.join(part, name))
    # Valgrind cannot read the debug information of these binaries; the symbols are enough.
    stripped = os.path.join(scratch, "decode-bench-stripped")
    subprocess.run(["strip", "-g", "-o", stripped, decode_bench], check=True)
    out = os.path.join(scratch, "callgrind.out")
    subprocess.run(["valgrind", "--tool=callgrind", "--callgrind-out-file=" + out, stripped, part, "1"],
                   check=True, capture_output=True)
    report = subprocess.run(["callgrind_annotate", "--inclusive=yes", out], check=True, capture_output=True,
                            text=True).stdout
    shutil.rmtree(part)
    # Both runs (the one not counted and the counted one) decode on every core: the per-file
    # work of both, over two, on the worker threads and this one.
    per_file = [int(line.split()[0].replace(",", "")) for line in report.splitlines()
                if "0B7DecoderV10wholeCards2of" in line or "0B7DecoderV7records2of" in line]
    if not per_file:
        return "(callgrind found no decoder in its report)"
    return "callgrind, first 10,000 files: %s instructions a file decoding them" % "{:,}".format(
        max(per_file) // 20000)


def site_builds(rolodeck, scratch, scratch_parent, sizes, watch_sizes, syscall_bench):
    """Section 3 and 4: cold builds, unchanged rebuilds and checks of every size and layout, the
    floors, and issue 17's goals; prints their tables."""
    results = {}  # (size, layout) -> {"cold": runs, "no change": runs, "check": runs, "files": count}
    floors = []
    call_costs = {}  # (size, layout) -> what the system calls cost (`system_call_costs`)
    for size in sizes:
        # A million contacts in three layouts, with their outputs, do not fit in memory at once.
        turns = [[layout] for layout in layouts()] if size >= 1000000 else [layouts()]
        for turn in turns:
            if size >= 1000000:
                check_room(scratch, size, turn)
            sites = {layout: make_store(scratch, size, layout) for layout in turn}
            outs = {layout: os.path.join(scratch, "out-%d-%s" % (size, layout)) for layout in turn}
            for layout in turn:
                results[size, layout] = {"cold": [], "no change": [], "check": []}
            for run in range(RUNS):
                for layout in turn:
                    runs, site, out = results[size, layout], sites[layout], outs[layout]
                    shutil.rmtree(out, ignore_errors=True)
                    runs["cold"].append(measured([rolodeck, "build", "--quiet", "--site", site, "--out", out]))
                    runs["no change"].append(measured([rolodeck, "build", "--quiet", "--site", site, "--out", out]))
                    runs["check"].append(measured([rolodeck, "check", "--site", site]))
                    if run == RUNS - 1:
                        runs["files"] = sum(len(names) for _, _, names in os.walk(out))
                        call_costs[size, layout] = system_call_costs(syscall_bench, site, layout, out)
                        if layout == "array":
                            floors.append(build_floors(scratch, size, site, out, runs))
                    # One site's output at a time, as a user has: every file on a tmpfs is a name
                    # the kernel holds, and each layout's output held beside the next one's made
                    # the next one's lookups slower (a million names more at 100,000 contacts).
                    shutil.rmtree(out, ignore_errors=True)
            if size not in watch_sizes:
                for layout in turn:
                    shutil.rmtree(sites[layout], ignore_errors=True)

    print("\n== Site builds (median of %d runs, files on %s) ==" % (RUNS, scratch_parent or "disk"))
    print("%9s  %-6s  %-9s  %8s  %8s  %8s  %9s  %7s  %10s" %
          ("contacts", "layout", "build", "wall s", "user s", "sys s", "peak MB", "files", "µs/contact"))
    for (size, layout), runs in results.items():
        for kind in ("cold", "no change", "check"):
            wall = statistics.median(r[0] for r in runs[kind])
            print("%9d  %-6s  %-9s  %8.2f  %8.2f  %8.2f  %9.1f  %7s  %10.1f" %
                  (size, layout, kind, wall, statistics.median(r[1] for r in runs[kind]),
                   statistics.median(r[2] for r in runs[kind]), statistics.median(r[3] for r in runs[kind]),
                   runs["files"] if kind != "check" else "-", wall / size * 1e6))
    print("(check reads and checks the store and writes nothing; files are the output's files)")
    print_goals(results, sizes)
    print_call_floors(results, call_costs)
    if floors:
        print("\n== Floors: libcmark over every note (one core); creating the same number of files ==")
        print("%9s  %10s  %10s  %14s  %14s" % ("contacts", "cmark s", "files s", "cold / cmark", "cold / files"))
        for row in floors:
            print("%9d  %10.2f  %10.2f  %13.1fx  %13.1fx" % row)
    sys.stdout.flush()


def build_floors(scratch, size, site, out, runs):
    """The floors row of the array's store: libcmark over every note, creating as many files as
    its output has, and its cold build over each."""
    cmark_floor = markdown_floor(os.path.join(site, "store", "contacts.json"))
    files_floor = file_floor(scratch, runs["files"], average_page_size(os.path.join(out, "contacts")))
    cold_wall = statistics.median(r[0] for r in runs["cold"])
    return (size, cmark_floor, files_floor, cold_wall / cmark_floor, cold_wall / files_floor)


def check_room(scratch, size, turn):
    """Stops the bench, saying why, when the scratch folder cannot hold `turn`'s stores and
    outputs of `size` contacts: a tmpfs has a fixed number of inodes (3.1 million for /dev/shm
    on a machine of 24 GB), and its files are memory. A million contacts in a file each take
    about 3.9 GB and a million inodes, their output about 14 GB and 2.1 million inodes (two
    files a contact), and the build up to 4 GB besides; a build that runs out meets "No space
    left on device" halfway through, or the machine runs out of memory."""
    store = {"array": (4, 700), "files": (size, 4096), "vcards": (size, 4096), "vcf": (5, 700), "export": (5, 700)}
    inodes = sum(store[layout][0] + int(2.1 * size) for layout in turn)
    space = sum(store[layout][1] * size + 14500 * size for layout in turn)
    problems = []
    if os.statvfs(scratch).f_favail < inodes:
        problems.append("%d free inodes, about %d needed" % (os.statvfs(scratch).f_favail, inodes))
    stat = os.statvfs(scratch)
    if stat.f_bavail * stat.f_frsize < space:
        problems.append("%.1f GB free, about %.1f GB needed" % (stat.f_bavail * stat.f_frsize / 1e9, space / 1e9))
    memory = {line.split(":")[0]: int(line.split()[1]) * 1024 for line in open("/proc/meminfo")}
    on_tmpfs = any(fields[1] == os.path.dirname(scratch) and fields[2] == "tmpfs"
                   for fields in (line.split() for line in open("/proc/mounts")))
    if on_tmpfs and memory["MemAvailable"] < space + 4.5e9:
        problems.append("%.1f GB of memory available, about %.1f GB needed with the build" %
                        (memory["MemAvailable"] / 1e9, (space + 4.5e9) / 1e9))
    if problems:
        sys.exit("bench: %s cannot hold %d contacts in %s: %s (BENCH_LAYOUTS picks fewer layouts; "
                 "a tmpfs takes more inodes with mount -o remount,nr_inodes=N)" %
                 (scratch, size, "+".join(turn), "; ".join(problems)))


def system_call_costs(syscall_bench, site, layout, out):
    """What the system calls of a build cost on this machine (`syscall-bench` over the folder of
    a file per card, or of the output's contact pages): on one core, the microseconds of a
    status of a store file, of opening, looking at, reading and closing one, and of a status of
    an output file; and on every core, the seconds of a status of every store file, of reading
    every store file, and of a status of every output file of the folder."""
    store = os.path.join(site, "store", STORE_FOLDERS[layout])
    lines = subprocess.run([syscall_bench, store, os.path.join(out, "contacts")], check=True,
                           capture_output=True, text=True).stdout.splitlines()
    store_row, out_row = lines[1].split(), lines[2].split()
    return {"store files": int(store_row[-5]), "stat": float(store_row[-4]), "read": float(store_row[-3]),
            "out stat": float(out_row[-4]), "all stat": float(store_row[-2]), "all read": float(store_row[-1]),
            "all out stat": float(out_row[-2]), "out files": int(out_row[-5])}


def print_call_floors(results, call_costs):
    """What an unchanged build and the reading part of `check` cost at the least: every file's
    status (store and output), every store file read, on every core."""
    cores = os.cpu_count()
    print("\n== Floors: the system calls of an unchanged build and of check's reading, on %d cores ==" % cores)
    print("%9s  %-6s  %11s  %12s  %8s  %8s  %15s  %11s  %11s  %7s" %
          ("contacts", "layout", "store files", "output files", "stat µs", "read µs", "unchanged floor",
           "unchanged s", "read floor", "check s"))
    for (size, layout), costs in call_costs.items():
        runs = results[size, layout]
        # Measured on the output's contact pages; the other output files cost the same a status.
        unchanged_floor = costs["all stat"] + costs["all out stat"] * runs["files"] / max(costs["out files"], 1)
        # One store file of a million records is not a file per card: its read is its bytes'.
        read, read_floor = ("-", "-") if layout in ONE_FILE_LAYOUTS else \
            ("%.2f" % costs["read"], "%.2f" % costs["all read"])
        print("%9d  %-6s  %11d  %12d  %8.2f  %8s  %15.2f  %11.2f  %11s  %7.2f" %
              (size, layout, costs["store files"], runs["files"], costs["stat"], read, unchanged_floor,
               statistics.median(r[0] for r in runs["no change"]), read_floor,
               statistics.median(r[0] for r in runs["check"])))
    print("(stat and read: syscall-bench, one core, µs a file; the floors: the same calls for every "
          "file on every core at once, seconds; medians of 5 passes)")


def print_goals(results, sizes):
    """Issue 17's goals beside what was measured: a file per card as fast as one file."""
    def median_wall(size, layout, kind):
        return statistics.median(r[0] for r in results[size, layout][kind])

    rows = []
    for size in sizes:
        for layout in layouts():
            if layout != "array" and (size, "array") in results and (size, layout) in results:
                ratio = median_wall(size, layout, "cold") / median_wall(size, "array", "cold")
                rows.append(("cold build / array's", "%d" % size, layout, "%.2fx" % ratio, "≤ 1.30x", ratio <= 1.3))
    base = 10000 if 10000 in sizes else min(sizes)
    top = max(sizes)
    if top != base:
        for layout in layouts():
            # Per contact: the wall time over the size, so this is the same ratio as µs/contact's.
            ratio = (median_wall(top, layout, "cold") / top) / (median_wall(base, layout, "cold") / base)
            rows.append(("µs/contact %d / %d" % (top, base), "-", layout, "%.2fx" % ratio, "≤ 1.20x",
                         ratio <= 1.2))
    check_size = 100000 if 100000 in sizes else top
    for layout in layouts():
        wall = median_wall(check_size, layout, "check")
        rows.append(("check", "%d" % check_size, layout, "%.2f s" % wall, "≤ 1 s at 100000",
                     wall <= 1.0 if check_size == 100000 else None))
    print("\n== Issue 17's goals: a store of one file per card builds as fast as one file ==")
    print("%-22s  %9s  %-6s  %8s  %-15s  %4s" % ("figure", "contacts", "layout", "measured", "goal", "met"))
    for what, size, layout, figure, goal, met in rows:
        print("%-22s  %9s  %-6s  %8s  %-15s  %4s" %
              (what, size, layout, figure, goal, "-" if met is None else "yes" if met else "NO"))


WATCH_SAVES = int(os.environ.get("BENCH_WATCH_SAVES", "5"))
# The longest `rolodeck serve` may take to build and start watching (a million contacts cold).
STARTUP_SECONDS = 1800


class EventStream:
    """An open page's event stream: a thread that notes when each event arrives."""

    def __init__(self, port):
        self.connection = socket.create_connection(("127.0.0.1", port))
        self.connection.sendall(b"GET /.rolodeck-serve/events HTTP/1.1\r\nHost: localhost\r\n\r\n")
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


def watch_section(rolodeck, scratch, watch_sizes):
    """Section 5: `rolodeck serve` while one contact is saved, in each layout; prints the table."""
    rows = []
    for size in watch_sizes:
        for layout in layouts():
            site = make_store(scratch, size, layout)
            out = os.path.join(scratch, "out-%d-%s" % (size, layout))
            for kind in ("phone", "name"):
                sessions = []
                for _ in range(WATCH_RUNS):
                    # A phone row's serve builds the site whole; a name row's finds it up to date.
                    if kind == "phone":
                        shutil.rmtree(out, ignore_errors=True)
                    sessions.append(watch_bench(rolodeck, site, out, kind, layout))
                rows.append((size, layout, kind) + watch_medians(sessions))
            # One output at a time, as in the builds above.
            shutil.rmtree(out, ignore_errors=True)
    print("\n== Watch and serve: one contact saved (median of %d saves in each of %d serve sessions; the "
          "watcher waits 10 ms after a finished save for more) ==" % (WATCH_SAVES, WATCH_RUNS))
    print("%9s  %-6s  %-6s  %12s  %7s  %6s  %14s  %14s  %6s  %10s  %8s  %4s" %
          ("contacts", "layout", "edit", "save→disk s", "first s", "goal", "save→reload s", "reload−disk s",
           "goal", "rebuild s", "written", "met"))
    for size, layout, kind, disk, first, reload, after_disk, rebuild, written in rows:
        disk_goal = WATCH_DISK_GOALS[layout]
        met = disk <= disk_goal and after_disk <= WATCH_RELOAD_GOAL
        # The goals are set for 100,000 contacts; other sizes are shown beside them.
        verdict = ("yes" if met else "NO") if size == 100000 else "-"
        print("%9d  %-6s  %-6s  %12.3f  %7.3f  %6s  %14.3f  %14.3f  %6s  %10.3f  %8s  %4s" %
              (size, layout, kind, disk, first, "≤%.2f" % disk_goal, reload, after_disk,
               "≤%.2f" % WATCH_RELOAD_GOAL, rebuild, written, verdict))
    print("(phone: the first phone number, which moves no contact; name: the given name, which can move the\n"
          " contact in the list and renumber the search index. array saves store/contacts.json, files the contact's\n"
          " store/contacts/<id>.json, vcards its .vcf, vcf and export the one contacts.vcf (in export a name is the\n"
          " contact's id, so a name saved gives it another). first: the first of the saves, %.0f s after serve\n"
          " started watching, the median over the sessions (the phone row's serve built the site, the name row's\n"
          " found it up to date). The goals are issue 17's, set for 100,000 contacts: save→disk within 0.05 s\n"
          " for a file per card, 0.3 s for one file of them all; the reload within 0.1 s after the site is on disk)"
          % FIRST_SAVE_PAUSE)
    sys.stdout.flush()


FIRST_SAVE_PAUSE = 3.0
WATCH_DISK_GOALS = {"array": 0.3, "files": 0.05, "vcards": 0.05, "vcf": 0.3, "export": 0.3}
WATCH_RELOAD_GOAL = 0.1


def edited_json_contact(record, save, kind):
    """A contact's JSON object (one line) with its given name or its first phone number changed."""
    if kind == "name":
        return record.replace(b'"givenName":"', b'"givenName":"Bench%d ' % save, 1)
    edited = re.sub(rb'"phones":\[\{"label":"(\w+)","value":"', rb'"phones":[{"label":"\1","value":"+1 ', record,
                    count=1)
    if edited == record:
        edited = record.replace(b'"phones":[]', b'"phones":[{"label":"work","value":"+1 555"}]', 1)
    return edited


def edited_vcard(card, save, kind):
    """A vCard with its given name (in N, and FN with it) or its first TEL changed, folded anew."""
    lines = re.sub(rb"\r\n[ \t]", b"", card).decode("utf-8").split("\r\n")
    if kind == "name":
        for index, line in enumerate(lines):
            if line.startswith("N:"):
                # The given name follows the first semicolon that is not escaped.
                given = re.match(r"N:(?:[^\\;]|\\.)*;", line).end()
                lines[index] = line[:given] + "Bench%d " % save + line[given:]
            elif line.startswith("FN:"):
                lines[index] = "FN:Bench%d " % save + line[3:]
    else:
        phone = next((index for index, line in enumerate(lines) if re.match(r"(item\d+\.)?TEL[;:]", line)), None)
        if phone is None:
            lines.insert(lines.index("END:VCARD"), "TEL;TYPE=WORK:+1 555")
        else:
            value = lines[phone].index(":") + 1
            lines[phone] = lines[phone][:value] + "+1 " + lines[phone][value:]
    return b"".join(to_vdir.fold(line) for line in lines if line)


class StoreEdits:
    """Saves of one contact at a time in a store of a given layout, each as a file renamed over
    the old one, and the originals of every file saved, to put back."""

    def __init__(self, site, layout):
        self.layout = layout
        store = os.path.join(site, "store")
        if layout == "array":
            self.paths = [os.path.join(store, "contacts.json")]
        elif layout in ("vcf", "export"):
            self.paths = [os.path.join(store, "book", "contacts.vcf")]
        else:
            folder, suffix = (os.path.join(store, "contacts"), ".json") if layout == "files" else \
                (os.path.join(store, "book"), ".vcf")
            self.paths = [os.path.join(folder, name) for name in sorted(os.listdir(folder)) if name.endswith(suffix)]
        self.originals = {}
        self.current = {}

    def prepare(self, save, kind):
        """Writes the `save`th edit, of a contact near the middle of the store, to a temporary
        file beside the one it replaces; returns (temporary, path)."""
        if self.layout == "array":
            path = self.paths[0]
            current = self.read(path)
            start = current.index(b"\n{", len(current) // 2 + save * 997) + 1
            end = current.index(b"\n", start)
            edited = current[:start] + edited_json_contact(current[start:end], save, kind) + current[end:]
        elif self.layout in ("vcf", "export"):
            path = self.paths[0]
            current = self.read(path)
            start = current.index(b"BEGIN:VCARD\r\n", len(current) // 2 + save * 997)
            end = current.index(b"END:VCARD\r\n", start) + len(b"END:VCARD\r\n")
            edited = current[:start] + edited_vcard(current[start:end], save, kind) + current[end:]
        else:
            path = self.paths[(len(self.paths) // 2 + save * 997) % len(self.paths)]
            current = self.read(path)
            edited = edited_json_contact(current, save, kind) if self.layout == "files" else \
                edited_vcard(current, save, kind)
        self.current[path] = edited
        with open(path + ".tmp", "wb") as handle:
            handle.write(edited)
        return path + ".tmp", path

    def read(self, path):
        if path not in self.current:
            with open(path, "rb") as handle:
                self.originals[path] = self.current[path] = handle.read()
        return self.current[path]

    def restore(self):
        """Puts every file saved back as it was, all at once (one burst, so one rebuild)."""
        for path, original in self.originals.items():
            with open(path + ".tmp", "wb") as handle:
                handle.write(original)
        for path in self.originals:
            os.replace(path + ".tmp", path)


def rebuild_report(lines):
    """The match of the first of the watcher's lines that reports a rebuild (patched, or the
    whole site rebuilt), or None."""
    for line in lines:
        match = re.search(r"(?:: |whole site rebuilt, )(\d+) files? written, \d+ removed in ([\d.]+) s", line)
        if match:
            return match
    return None


def wait_for_line(process, reader, lines, pattern, seconds, failure):
    """The lines a process printed (gathered by the thread `reader`) up to the first that
    matches `pattern`; exits with `failure` and what it printed when the process ends or
    `seconds` pass first."""
    deadline = time.monotonic() + seconds
    while True:
        ended = process.poll() is not None
        if ended:
            reader.join(timeout=5)
        for index, line in enumerate(list(lines)):
            if re.search(pattern, line):
                return lines[:index + 1]
        if ended or time.monotonic() > deadline:
            if not ended:
                process.kill()
            sys.exit("%s:\n%s" % (failure, "".join(lines)))
        time.sleep(0.01)


def watch_bench(rolodeck, site, out, kind, layout):
    """One serve session's saves of one contact (its phone number, or its given name), in order:
    the seconds from each save to the site on disk being up to date, to the reload event, and
    from the first to the second; the watcher's own rebuild times; the files each wrote."""
    # One stream for both, so that a failed rebuild's message is seen and stderr never fills up.
    process = subprocess.Popen([rolodeck, "serve", "--site", site, "--out", out, "--port", "0"],
                               stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    lines = []
    reader = threading.Thread(target=lambda: [lines.append(line) for line in process.stdout], daemon=True)
    reader.start()
    # Every wait has a deadline: a server that stops answering fails the run with what it said,
    # instead of holding the benchmark (and CI) until it is killed.
    started = wait_for_line(process, reader, lines, r"^Watching ", STARTUP_SECONDS,
                            "rolodeck serve did not start watching")
    port = next((int(match.group(1)) for line in started
                 if (match := re.search(r"http://127\.0\.0\.1:(\d+)/", line))), None)
    if port is None:
        process.kill()
        sys.exit("rolodeck serve started watching without saying its address:\n%s" % "".join(started))
    stream = EventStream(port)
    stream.wait("hello", 0)
    # A person saves some seconds after starting serve, not within milliseconds: by then serve
    # has made what its first save would otherwise make (the cards of an output it found up to
    # date, its file lists, the spares of the large files: about 1.5 s at 100,000 contacts). The
    # first save is reported on its own.
    time.sleep(FIRST_SAVE_PAUSE)
    manifest = os.path.join(out, ".rolodeck")
    edits = StoreEdits(site, layout)
    disk, reload, after_disk, rebuild, written = [], [], [], [], []
    try:
        for save in range(WATCH_SAVES):
            temporary, path = edits.prepare(save, kind)
            before = os.stat(manifest).st_ino
            seen_events = len(stream.events)
            seen_lines = len(lines)
            saved = time.perf_counter()
            os.replace(temporary, path)
            deadline = time.monotonic() + 120
            while os.stat(manifest).st_ino == before:
                if time.monotonic() > deadline or any(re.search(r"(^|: )error: ", line)
                                                      for line in lines[seen_lines:]):
                    sys.exit("no rebuild after saving %s:\n%s" % (path, "".join(lines[seen_lines:])))
                time.sleep(0.001)
            on_disk = time.perf_counter()
            reloaded = stream.wait("reload", seen_events)
            disk.append(on_disk - saved)
            reload.append(reloaded - saved)
            after_disk.append(reloaded - on_disk)
            deadline = time.monotonic() + 120
            while not (match := rebuild_report(lines[seen_lines:])):
                if time.monotonic() > deadline:
                    sys.exit("no rebuild report after saving %s:\n%s" % (path, "".join(lines[seen_lines:])))
                time.sleep(0.01)
            written.append(int(match.group(1)))
            rebuild.append(float(match.group(2)))
            time.sleep(0.2)
    finally:
        # Put the store back while serve runs, so the output matches it for the next run.
        before = os.stat(manifest).st_ino
        edits.restore()
        deadline = time.monotonic() + 120
        while os.stat(manifest).st_ino == before and time.monotonic() < deadline:
            time.sleep(0.01)
        # Until the watcher has been quiet a while: the files put back may make more than one batch.
        while time.monotonic() < deadline:
            seen_lines = len(lines)
            time.sleep(0.3)
            if len(lines) == seen_lines:
                break
        process.send_signal(2)
        process.wait(timeout=60)
    return disk, reload, after_disk, rebuild, written


def watch_medians(sessions):
    """The medians a watch row reports over the saves of its serve `sessions` (each what
    `watch_bench` returns): save to disk, the first save to disk (the median of each session's
    first), save to reload, reload after disk, the watcher's rebuild time, files written."""
    every = [sum((session[part] for session in sessions), []) for part in range(5)]
    disk, reload, after_disk, rebuild, written = every
    return (statistics.median(disk), statistics.median(session[0][0] for session in sessions),
            statistics.median(reload), statistics.median(after_disk), statistics.median(rebuild),
            "%d" % statistics.median(written))


def photo_builds(rolodeck, scratch, size):
    """Section 7: cold and unchanged builds of a store where every contact has a photo, and a
    build after one contact is renamed, against the same store without."""
    plain = make_store(scratch, size, "array")
    with_photos = os.path.join(scratch, "site-%d-photos" % size)
    shutil.copytree(plain, with_photos)
    photos = os.path.join(with_photos, "store", "photos")
    os.makedirs(photos)
    # One picture with some detail (noise over a gradient), then a copy per contact with a JPEG
    # comment (COM) of its own after the start marker: distinct bytes, the same decoding work.
    base = os.path.join(scratch, "base.jpg")
    sh("vips", "gaussnoise", os.path.join(scratch, "noise.v"), "256", "256", "--sigma", "40", "--mean", "128")
    sh("vips", "jpegsave", os.path.join(scratch, "noise.v"), base, "--Q", "75", "--strip")
    picture = open(base, "rb").read()
    contacts_path = os.path.join(with_photos, "store", "contacts.json")
    contacts = json.load(open(contacts_path))
    for index, contact in enumerate(contacts):
        comment = ("contact %d" % index).encode()
        segment = b"\xff\xfe" + (len(comment) + 2).to_bytes(2, "big") + comment
        with open(os.path.join(photos, "%d.jpg" % index), "wb") as file:
            file.write(picture[:2] + segment + picture[2:])
        contact["photo"] = "photos/%d.jpg" % index
    json.dump(contacts, open(contacts_path, "w"), ensure_ascii=False)
    results = {}
    for run in range(RUNS):
        for name, site in (("without", plain), ("photos", with_photos)):
            out = os.path.join(scratch, "out-" + name)
            shutil.rmtree(out, ignore_errors=True)
            runs = results.setdefault(name, {"cold": [], "no change": [], "one name": []})
            runs["cold"].append(measured([rolodeck, "build", "--quiet", "--site", site, "--out", out]))
            runs["no change"].append(measured([rolodeck, "build", "--quiet", "--site", site, "--out", out]))
            # What a cron job pays after an edit: one contact renamed, every photo still there.
            path = os.path.join(site, "store", "contacts.json")
            edited = json.load(open(path))
            edited[0]["givenName"] = "Renamed %d" % run
            json.dump(edited, open(path, "w"), ensure_ascii=False)
            runs["one name"].append(measured([rolodeck, "build", "--quiet", "--site", site, "--out", out]))
    print("\n== Photos: %d contacts, each with a 256 x 256 JPEG of %.1f KB (median of %d runs) ==" %
          (size, len(picture) / 1024, RUNS))
    print("%-8s  %-9s  %8s  %8s  %8s  %9s" % ("store", "build", "wall s", "user s", "sys s", "peak MB"))
    for name in ("without", "photos"):
        for kind in ("cold", "no change", "one name"):
            runs = results[name][kind]
            print("%-8s  %-9s  %8.2f  %8.2f  %8.2f  %9.1f" % (
                name, kind, statistics.median(r[0] for r in runs), statistics.median(r[1] for r in runs),
                statistics.median(r[2] for r in runs), statistics.median(r[3] for r in runs)))
    sys.stdout.flush()


def hugo_builds(rolodeck, scratch, sizes):
    """Section 8: cold builds of the same store by Hugo and by rolodeck, taking turns; prints
    their medians and the ratios beside the claim (at least 10x in wall time and in memory)."""
    hugo = shutil.which("hugo")
    if not hugo:
        print("\nskipped the comparison with Hugo: no hugo command (apt-get install hugo)")
        return
    version = subprocess.run([hugo, "version"], check=True, capture_output=True, text=True).stdout.strip()
    results = {}  # (size, tool) -> measured() runs, and (size, tool, "pages") -> HTML files written
    for size in sizes:
        site = make_store(scratch, size, "array")
        source = os.path.join(scratch, "hugo-%d" % size)
        subprocess.run([sys.executable, HUGO_SITE, site, source], check=True)
        outs = {tool: os.path.join(scratch, "out-%d-%s" % (size, tool)) for tool in ("hugo", "rolodeck")}
        # Inside scratch, so that no run finds what another (or an earlier Hugo on this host) left.
        cache = os.path.join(scratch, "hugo-cache")
        commands = {
            "hugo": [hugo, "--quiet", "--source", source, "--destination", outs["hugo"], "--cacheDir", cache],
            "rolodeck": [rolodeck, "build", "--quiet", "--site", site, "--out", outs["rolodeck"]],
        }
        for _ in range(RUNS):
            for tool in ("hugo", "rolodeck"):
                shutil.rmtree(outs[tool], ignore_errors=True)
                if tool == "hugo":
                    # Hugo keeps processed resources in its cache and in the source's resources/;
                    # this site makes none, but deleting both keeps every run cold by construction.
                    shutil.rmtree(cache, ignore_errors=True)
                    shutil.rmtree(os.path.join(source, "resources"), ignore_errors=True)
                results.setdefault((size, tool), []).append(measured(commands[tool]))
        for tool, out in outs.items():
            results[size, tool, "pages"] = sum(name.endswith(".html") for _, _, names in os.walk(out) for name in names)
            shutil.rmtree(out)
        shutil.rmtree(source)
        shutil.rmtree(site)

    print("\n== Hugo against Rolodeck: cold builds of one contacts.json, taking turns (median of %d runs, "
          "files on %s) ==" % (RUNS, os.path.dirname(scratch)))
    print(version)
    print("%9s  %-8s  %8s  %8s  %8s  %9s  %7s" % ("contacts", "tool", "wall s", "user s", "sys s", "peak MB", "pages"))
    for size in sizes:
        medians = {}
        for tool in ("hugo", "rolodeck"):
            runs = results[size, tool]
            medians[tool] = [statistics.median(r[column] for r in runs) for column in range(4)]
            print("%9d  %-8s  %8.2f  %8.2f  %8.2f  %9.1f  %7d" % ((size, tool) + tuple(medians[tool]) +
                                                                 (results[size, tool, "pages"],)))
        wall = medians["hugo"][0] / medians["rolodeck"][0]
        memory = medians["hugo"][3] / medians["rolodeck"][3]
        print("%9d  Hugo / Rolodeck: wall %.1f×, memory %.1f×  (goal ≥ 10× and ≥ 10×: %s)" %
              (size, wall, memory, "met" if wall >= 10 and memory >= 10 else "NOT met"))
    print("(pages: the HTML files written. Rolodeck also writes vCards, calendars, a search index, QR codes\n"
          " and todo and birthday pages, which the Hugo site does without; Hugo's display names, sort keys\n"
          " and sections come ready-made in the front matter, written by Benchmarks/hugo_site.py)")
    sys.stdout.flush()


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
            for layout in layouts():
                site = make_store(scratch, size, layout)
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
                # CPU time (user and system) too: on a host busy with other work a process waits
                # for a core, which the wall time counts and the CPU time does not.
                old_cpu = statistics.median(r[1] + r[2] for r in results["old"])
                new_cpu = statistics.median(r[1] + r[2] for r in results["new"])
                old_peak = statistics.median(r[3] for r in results["old"])
                new_peak = statistics.median(r[3] for r in results["new"])
                rows.append((size, layout, old_wall, new_wall, new_wall / old_wall, old_cpu, new_cpu,
                             new_cpu / old_cpu, old_peak, new_peak, new_peak / old_peak,
                             "yes" if identical else "NO"))
    finally:
        shutil.rmtree(scratch, ignore_errors=True)
    print("\n== Cold builds, %s (old) against this checkout (new), alternating, medians of %d ==" %
          (baseline, runs))
    print("%9s  %-6s  %8s  %8s  %7s  %8s  %8s  %7s  %8s  %8s  %7s  %9s" %
          ("contacts", "layout", "old s", "new s", "new/old", "old cpu", "new cpu", "new/old",
           "old MB", "new MB", "new/old", "identical"))
    for row in rows:
        print("%9d  %-6s  %8.2f  %8.2f  %7.3f  %8.2f  %8.2f  %7.3f  %8.0f  %8.0f  %7.3f  %9s" % row)


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


def exit_on_signal(number, frame):
    """SIGTERM or SIGHUP (a `kill`, a closed terminal) ends the bench as Ctrl-C does: through the
    `finally` blocks, which stop the servers and watchers it started and remove its scratch
    folders. Without this, Python dies at once and leaves them: hundreds of thousands of files
    in /dev/shm, which slow every later run's file lookups."""
    raise SystemExit(128 + number)


if __name__ == "__main__":
    signal.signal(signal.SIGTERM, exit_on_signal)
    signal.signal(signal.SIGHUP, exit_on_signal)
    main()
