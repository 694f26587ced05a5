#!/usr/bin/env python3
"""Writes the screenshots in docs/screenshots/: the demo's index, a contact, a group and the
todos, on a desktop (1280×900) and a phone (390×844), light and dark, as headless Chromium
draws them. Not a test: run it after changing the theme, look at every picture, commit them.

Usage (from the repository root, after `make test-deps`):

    .build/test-venv/bin/python Tests/Browser/take_screenshots.py --rolodeck .build/debug/rolodeck

pngquant, when installed, makes the files about a third of their size.
"""

import argparse
import os
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
import run_tests  # noqa: E402 - the browser set-up is shared

OUT = run_tests.REPO_ROOT / "docs" / "screenshots"
PAGES = [
    ("index", "index.html"),
    ("contact", "contacts/kim-cheolsu.html"),
    ("group", run_tests.PREFERRED_GROUP),
    ("todos", "todos.html"),
]
SCREENS = [("desktop", 1280, 900), ("phone", 390, 844)]


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--rolodeck", required=True, type=Path)
    parser.add_argument("--out", type=Path, default=OUT)
    args = parser.parse_args()
    env = run_tests.Environment(args.rolodeck.resolve())
    run_tests.ENV = env
    work = Path(tempfile.mkdtemp(prefix="rolodeck-screenshots-"))
    env.set_work(work)
    env.build_site()
    args.out.mkdir(parents=True, exist_ok=True)
    d = env.driver
    pngquant = shutil.which("pngquant")
    try:
        for screen, width, height in SCREENS:
            d.execute_cdp_cmd("Emulation.setDeviceMetricsOverride",
                              {"width": width, "height": height, "deviceScaleFactor": 1, "mobile": width < 600})
            for name, rel in PAGES:
                for scheme in ("light", "dark"):
                    env.open(rel, scheme)
                    path = args.out / f"{name}-{screen}-{scheme}.png"
                    d.save_screenshot(str(path))
                    if pngquant:
                        subprocess.run([pngquant, "--force", "--skip-if-larger", "--quality", "70-95", "--strip",
                                        "--output", str(path), str(path)], check=False)
                    print(f"{path.relative_to(run_tests.REPO_ROOT)}: {os.path.getsize(path) // 1024} KB")
    finally:
        env.quit()
        shutil.rmtree(work, ignore_errors=True)


if __name__ == "__main__":
    main()
