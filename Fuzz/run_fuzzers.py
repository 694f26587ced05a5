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
    """Runs one target for `seconds`; returns (seconds run, runs executed, crash files)."""
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
    # A fuzzer that failed without saving an input (it could not start, say) is a failure too,
    # and so is one that saw no coverage: it ran blind, and its runs prove nothing.
    if (status != 0 and not found) or "Is the code instrumented for coverage?" in text:
        found = [log]
    return elapsed, int(runs[-1]) if runs else 0, found, seed_count


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
        elapsed, runs, found, seed_count = run(target, Path(args.bin).resolve() / f"fuzz-{target}", args.seconds, scratch)
        rows.append((target, elapsed, runs, found))
        with open(scratch / "history.tsv", "a") as history:
            stamp = time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime())
            history.write(f"{stamp}\t{target}\t{elapsed:.0f}\t{runs}\t{len(found)}\t{seed_count}\n")
    print(f"\n{'target':<12}{'seconds':>9}{'runs':>14}{'crashes':>9}")
    for target, elapsed, runs, found in rows:
        print(f"{target:<12}{elapsed:>9.0f}{runs:>14}{len(found):>9}")
        for path in found:
            print(f"  {path.relative_to(REPO) if path.is_relative_to(REPO) else path}")
    if any(found for *_, found in rows):
        print(f"\nCrashes found; each log is in {scratch.relative_to(REPO) if scratch.is_relative_to(REPO) else scratch}/logs/.")
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
