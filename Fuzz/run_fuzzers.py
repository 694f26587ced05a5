#!/usr/bin/env python3
"""Runs the libFuzzer targets of Fuzz/ for a set time each, and says what they found.

`make fuzz` builds the targets and calls this. For each target it gathers seeds into a scratch
folder under .build/fuzz/ (from ../shared/corpora beside the repository, the demo site, the docs,
the templates and the test sources: nothing third-party is copied into the repository), runs
the fuzzer for FUZZ_SECONDS with the target's dictionary, keeps the corpus it grows for the next
run, and prints the runs executed and the crashes found. It exits 1 when any target crashed.

Each run is also appended to .build/fuzz/history.tsv, so the time and executions of many runs
can be added up.
"""

import argparse
import hashlib
import json
import os
import re
import subprocess
import sys
import time
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
CORPORA = REPO.parent / "shared" / "corpora"
TARGETS = ["json", "vcard", "icalendar", "config", "mustache", "markdown", "http"]
# The longest input each target is given: long enough for a whole store file or spec example,
# short enough that the fuzzer spends its time on variety rather than on size.
MAX_LEN = {"json": 16384, "vcard": 16384, "icalendar": 16384, "config": 4096, "mustache": 8192,
           "markdown": 8192, "http": 20480}
# The fewest edges a target's binary may be instrumented on (libFuzzer's "inline 8-bit
# counters"). Rolodeck's few C files alone give about fifty; the Swift code each target feeds,
# thousands. A binary under this was built without coverage in its Swift code (as when swiftc was
# handed -sanitize=fuzzer and -sanitize=address apart, and kept only the last): its fuzzer
# mutates blind, its runs prove little, and the run says so instead of passing.
EDGE_FLOOR = 1000


def literals(path, marker):
    """The single-line Swift string literals in `path` that contain `marker`, unescaped."""
    text = path.read_text(encoding="utf-8", errors="replace")
    found = []
    for match in re.finditer(r'"((?:[^"\\\n]|\\.)*)"', text):
        body = match.group(1)
        if marker not in body:
            continue
        body = re.sub(r"\\u\{([0-9A-Fa-f]+)\}", lambda m: chr(int(m.group(1), 16)), body)
        body = (body.replace("\\r", "\r").replace("\\n", "\n").replace("\\t", "\t")
                .replace('\\"', '"').replace("\\\\", "\\"))
        found.append(body.encode("utf-8", errors="surrogatepass"))
    return found


def fenced(path, language):
    """The fenced code blocks of `language` in the Markdown file `path`."""
    text = path.read_text(encoding="utf-8")
    return [m.group(1).encode() for m in re.finditer(r"```" + language + r"\n(.*?)```", text, re.S)]


def files(folder, pattern):
    return [p.read_bytes() for p in sorted(folder.glob(pattern))] if folder.is_dir() else []


def test_sources(marker):
    return [seed for path in sorted((REPO / "Tests").rglob("*.swift")) for seed in literals(path, marker)]


def seeds_for(target):
    """The seed inputs of `target`, as bytes."""
    docs = sorted((REPO / "docs").glob("*.md"))
    if target == "json":
        seeds = files(REPO / "Examples" / "demo" / "store", "*.json")
        seeds += files(REPO / "Examples" / "demo", "rolodeck.json")
        seeds += [block for doc in docs for block in fenced(doc, "json")]
        seeds += files(REPO / "docs", "*.json") + files(CORPORA / "mustache-spec", "*.json")
        return seeds
    if target == "config":
        return files(REPO / "Examples" / "demo", "rolodeck.json") + fenced(REPO / "docs" / "configuration.md", "json")
    if target == "vcard":
        return files(CORPORA / "vcard", "*.vcf") + test_sources("BEGIN:VCARD")
    if target == "icalendar":
        return files(CORPORA / "ics", "*.ics") + test_sources("BEGIN:VCALENDAR")
    if target == "mustache":
        seeds = files(REPO / "Templates", "*.mustache")
        for spec in sorted((CORPORA / "mustache-spec").glob("*.json")):
            for test in json.loads(spec.read_text()).get("tests", []):
                partials = list(test.get("partials", {}).values())
                seeds.append("\0".join([test["template"]] + partials[:2]).encode())
        return seeds
    if target == "markdown":
        seeds = [p.read_bytes() for p in docs + [REPO / "README.md"]]
        spec = CORPORA / "commonmark" / "spec.json"
        if spec.is_file():
            seeds += [example["markdown"].encode() for example in json.loads(spec.read_text())]
        return seeds
    if target == "http":
        get = "GET {} HTTP/1.1\r\nHost: 127.0.0.1:8000\r\n{}\r\n"
        return [s.encode() for s in [
            get.format("/", ""), get.format("/contacts/ann.html", "Connection: close\r\n"),
            get.format("/style.css", 'If-None-Match: "1-2-3"\r\nIf-Modified-Since: Mon, 01 Jan 1995 00:00:00 GMT\r\n'),
            "HEAD /index.html HTTP/1.1\r\nHost: localhost\r\n\r\n" + get.format("/.rolodeck-serve/events", "Accept: text/event-stream\r\n"),
            get.format("/%2e%2e/etc/passwd", ""), "GET / HTTP/1.0\r\n\r\n",
            get.format("/", "Content-Length: 0\r\nTransfer-Encoding: chunked\r\n"),
        ]]
    raise ValueError(target)


def gather(target, folder):
    """Writes the seeds of `target` into `folder`, one file each, named by content."""
    folder.mkdir(parents=True, exist_ok=True)
    for old in folder.iterdir():
        old.unlink()
    seeds = [s for s in seeds_for(target) if len(s) <= MAX_LEN[target]]
    for seed in seeds:
        (folder / hashlib.sha1(seed).hexdigest()).write_bytes(seed)
    return len(seeds)


def run(target, binary, seconds, scratch):
    """Runs one target for `seconds`; returns (seconds run, runs executed, crash files, seeds,
    edges instrumented, whether it ran blind)."""
    seeds = scratch / "seeds" / target
    corpus = scratch / "corpus" / target
    crashes = scratch / "crashes" / target
    log = scratch / "logs" / f"{target}.log"
    for folder in (corpus, crashes, log.parent):
        folder.mkdir(parents=True, exist_ok=True)
    seed_count = gather(target, seeds)
    before = set(crashes.iterdir())
    command = [
        str(binary), f"-max_total_time={seconds}", f"-max_len={MAX_LEN[target]}", "-timeout=25",
        "-rss_limit_mb=3072", "-print_final_stats=1", f"-artifact_prefix={crashes}/",
        f"-dict={REPO / 'Fuzz' / 'Dictionaries' / (target + '.dict')}", str(corpus), str(seeds),
    ]
    # Swift's own backtracer would catch the trap first and then trip over AddressSanitizer;
    # libFuzzer's report of a crash is the one wanted.
    environment = dict(os.environ, SWIFT_BACKTRACE="enable=no")
    start = time.monotonic()
    with open(log, "w") as output:
        status = subprocess.call(command, stdout=output, stderr=subprocess.STDOUT, cwd=scratch, env=environment)
    elapsed = time.monotonic() - start
    text = log.read_text(errors="replace")
    runs = re.findall(r"stat::number_of_executed_units:\s*(\d+)", text)
    if not runs:
        runs = re.findall(r"#(\d+)\s", text)
    found = sorted(set(crashes.iterdir()) - before)
    # A fuzzer that failed without saving an input (it could not start, say) is a failure too.
    if status != 0 and not found:
        found = [log]
    # So is one that saw no coverage, or too little to be the Swift code's: it ran blind.
    counters = re.findall(r"Loaded \d+ modules?\s+\((\d+) inline 8-bit counters\)", text)
    edges = int(counters[0]) if counters else 0
    blind = edges < EDGE_FLOOR or "Is the code instrumented for coverage?" in text
    return elapsed, int(runs[-1]) if runs else 0, found, seed_count, edges, blind


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--bin", required=True, help="the folder holding the fuzz-* executables")
    parser.add_argument("--seconds", type=int, default=int(os.environ.get("FUZZ_SECONDS", "300")))
    parser.add_argument("--scratch", default=str(REPO / ".build" / "fuzz"))
    parser.add_argument("targets", nargs="*", default=None, help=f"some of {', '.join(TARGETS)} (default: all)")
    args = parser.parse_args()
    targets = args.targets or os.environ.get("FUZZ_TARGETS", "").split() or TARGETS
    unknown = [t for t in targets if t not in TARGETS]
    if unknown:
        parser.error(f"unknown target {', '.join(unknown)}; the targets are {', '.join(TARGETS)}")
    scratch = Path(args.scratch).resolve()
    scratch.mkdir(parents=True, exist_ok=True)
    rows = []
    for target in targets:
        print(f"fuzz-{target}: {args.seconds} s ...", flush=True)
        binary = Path(args.bin).resolve() / f"fuzz-{target}"
        elapsed, runs, found, seed_count, edges, blind = run(target, binary, args.seconds, scratch)
        rows.append((target, elapsed, runs, found, edges, blind))
        with open(scratch / "history.tsv", "a") as history:
            stamp = time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime())
            history.write(f"{stamp}\t{target}\t{elapsed:.0f}\t{runs}\t{len(found)}\t{seed_count}\n")
    print(f"\n{'target':<12}{'seconds':>9}{'runs':>14}{'edges':>9}{'crashes':>9}")
    for target, elapsed, runs, found, edges, blind in rows:
        print(f"{target:<12}{elapsed:>9.0f}{runs:>14}{edges:>9}{len(found):>9}" + ("  ran blind" if blind else ""))
        for path in found:
            print(f"  {path.relative_to(REPO) if path.is_relative_to(REPO) else path}")
    logs = f"{scratch.relative_to(REPO) if scratch.is_relative_to(REPO) else scratch}/logs/"
    failed = False
    if any(row[5] for row in rows):
        print(f"\nA fuzzer ran blind: its binary is instrumented on fewer than {EDGE_FLOOR} edges, so the Swift"
              " code it feeds was built without coverage (see the Makefile's fuzz target).")
        failed = True
    if any(row[3] for row in rows):
        print(f"\nCrashes found; each log is in {logs}.")
        failed = True
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
