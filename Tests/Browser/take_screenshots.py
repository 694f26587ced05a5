#!/usr/bin/env python3
"""Writes the screenshots in docs/screenshots/: the demo's index, a contact, a group, the
todos, the birthdays and a section page (of the demo built again with a pageSize of 4), on a desktop
(1280×900) and a phone (390×844), light and dark, as headless Chromium draws them. Not a test: run it after changing the theme, look at every picture, commit them.

Usage (from the repository root, after `make test-deps`):

    .build/test-venv/bin/python Tests/Browser/take_screenshots.py --rolodeck .build/debug/rolodeck

pngquant, when installed, makes the files about a third of their size.
"""

import argparse
import json
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
    ("birthdays", "birthdays.html"),
]
SCREENS = [("desktop", 1280, 900), ("phone", 390, 844)]
# The section page shown: the demo's ㄱ, which a pageSize of 4 splits into two pages.
SECTION_PAGE = "sections/ko-g.html"


def build_paged_demo(env, work):
    """Builds a copy of the demo with a pageSize of 4, so that its index lists the sections and
    each has a page of its own, beside the demo's output; returns the section page's path from
    the demo's output folder, as env.open takes it."""
    site = work / "paged-demo"
    shutil.copytree(run_tests.DEMO_SITE, site, ignore=shutil.ignore_patterns("_site"))
    config_path = site / "rolodeck.json"
    config = json.loads(config_path.read_text(encoding="utf-8"))
    config["pageSize"] = 4
    config_path.write_text(json.dumps(config, ensure_ascii=False, indent=2) + "\n", encoding="utf-8")
    out = env.site.parent / "paged-site"
    subprocess.run([str(env.rolodeck), "build", "--quiet", "--site", str(site), "--out", str(out)], check=True,
                   env=dict(os.environ, SOURCE_DATE_EPOCH=run_tests.SOURCE_DATE_EPOCH))
    return os.path.relpath(out / SECTION_PAGE, env.site)


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
    pages = PAGES + [("section", build_paged_demo(env, work))]
    args.out.mkdir(parents=True, exist_ok=True)
    d = env.driver
    pngquant = shutil.which("pngquant")
    try:
        for screen, width, height in SCREENS:
            d.execute_cdp_cmd("Emulation.setDeviceMetricsOverride",
                              {"width": width, "height": height, "deviceScaleFactor": 1, "mobile": width < 600})
            for name, rel in pages:
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
