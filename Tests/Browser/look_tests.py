"""Real-browser tests of the theme's look (issue 18), run by run_tests.py in the same Chromium.

* The jump bar lands: clicking each of its letters puts that section's heading fully in view,
  just below the sticky jump bar, on the demo (80 contacts) and on a store of 50,000 written by
  ../shared/tools/gen-store.py, at 1280×900 and 390×844, with and without reduced motion.
* The header does not eat the screen: at most 64 px on a desktop, the jump bar at most 15 % of a
  phone's height, the navigation on one row.
* The list reads like a contacts app: an avatar in every row, the title shown once, a small
  group without a heading per letter.
* The favicon is the site's own, and the 404 page has the search box.
* A contact's QR code, a PNG of one pixel a module, is shown pixelated and large enough to
  scan: Chromium's own rendering of it, at a desktop's and a phone's size and in both colour
  schemes, is read by zbarimg (Debian zbar-tools) back to the contact's name.
"""

import json
import os
import re
import shutil
import tempfile
import subprocess
import sys
import time
import unittest
from html import unescape
from pathlib import Path

import run_tests

GEN_STORE = run_tests.REPO_ROOT.parent / "shared" / "tools" / "gen-store.py"
# The large store: big enough that the page's sections are laid out only near the screen
# (content-visibility), where a smooth scroll missed by 149,000 px.
LARGE_CONTACTS = int(os.environ.get("ROLODECK_LOOK_CONTACTS", "50000"))

DESKTOP = (1280, 900)
PHONE = (390, 844)
MAX_DESKTOP_HEADER = 64
MAX_PHONE_JUMP_BAR_SHARE = 0.15
# How far below the jump bar a heading that was jumped to may start (the scroll padding's gap).
LANDING_SLACK = 16

# Clicks a jump bar link as a person does (the bar scrolled sideways to show it first) and
# reports, once the page has stopped scrolling, where the section's heading is.
LANDING = """
const anchor = arguments[0];
const done = arguments[arguments.length - 1];
const link = document.querySelector('nav.jump-bar a[href="#' + anchor + '"]');
const bar = link.closest('ul');
bar.scrollLeft = link.offsetLeft - bar.clientWidth / 2;
link.click();
let last = null, still = 0, frames = 0;
function measure() {
  const y = window.scrollY;
  still = (y === last) ? still + 1 : 0;
  last = y;
  frames += 1;
  if (still < 10 && frames < 600) { requestAnimationFrame(measure); return; }
  const heading = document.getElementById('heading-' + anchor).getBoundingClientRect();
  const jump = document.querySelector('nav.jump-bar').getBoundingClientRect();
  const max = document.documentElement.scrollHeight - window.innerHeight;
  done({top: heading.top, bottom: heading.bottom, barBottom: jump.bottom, height: window.innerHeight,
        scrollY: window.scrollY, atEnd: window.scrollY >= max - 1, frames: frames});
}
requestAnimationFrame(measure);
"""

HEADER = """
const header = document.querySelector('.site-header').getBoundingClientRect();
const jump = document.querySelector('nav.jump-bar');
const items = Array.from(document.querySelectorAll('.site-nav li'));
return {
  header: header.height,
  jump: jump ? jump.getBoundingClientRect().height : null,
  jumpRows: jump ? new Set(Array.from(jump.querySelectorAll('li')).map(li => li.offsetTop)).size : 0,
  navRows: new Set(items.map(li => li.offsetTop)).size,
  overflow: document.documentElement.scrollWidth - window.innerWidth,
  firstRow: (document.querySelector('.contact-row') || {getBoundingClientRect: () => ({top: null})})
    .getBoundingClientRect().top + window.scrollY,
};
"""


class LargeSite:
    """The 50,000-contact site, built once."""

    def __init__(self, env):
        self.root = env.work / "look-site"
        self.out = self.root / "_site"
        self.env = env
        self.seconds = None

    def build(self):
        started = time.monotonic()
        self.root.mkdir(parents=True, exist_ok=True)
        subprocess.run([sys.executable, str(GEN_STORE), "--contacts", str(LARGE_CONTACTS), "--out", str(self.root)],
                       check=True, capture_output=True)
        # One page, as a config with a pageSize this large makes it: the longest list whose
        # jump bar scrolls within the page (a paged index links to section pages instead,
        # which pages_tests.py checks).
        (self.root / "rolodeck.json").write_text(json.dumps({"pageSize": LARGE_CONTACTS}) + "\n", encoding="utf-8")
        run = subprocess.run(
            [str(self.env.rolodeck), "build", "--quiet", "--site", str(self.root), "--out", str(self.out)],
            capture_output=True, text=True, env=dict(os.environ, SOURCE_DATE_EPOCH=run_tests.SOURCE_DATE_EPOCH))
        if run.returncode != 0:
            raise RuntimeError(f"building the {LARGE_CONTACTS}-contact site failed:\n{run.stderr}")
        self.seconds = time.monotonic() - started


SITE = None  # the LargeSite, set by setup()


def setup(env):
    """Builds the large site; returns the test cases, and a note on what was left out."""
    global SITE
    cases = [T9Header, T10List, T12QRCode]
    if not GEN_STORE.is_file():
        return cases + [T11JumpBarLands], f"{GEN_STORE} not found: the jump bar is checked on the demo only"
    SITE = LargeSite(env)
    SITE.build()
    env.note("look", f"the {LARGE_CONTACTS}-contact site was generated and built in {SITE.seconds:.0f} s")
    return cases + [T11JumpBarLands], None


def set_screen(d, size, reduced_motion, scheme="light"):
    """Sets the viewport (a phone's when narrow) and the media features the theme reads."""
    width, height = size
    d.execute_cdp_cmd("Emulation.setDeviceMetricsOverride",
                      {"width": width, "height": height, "deviceScaleFactor": 1, "mobile": width < 600})
    d.execute_cdp_cmd("Emulation.setEmulatedMedia", {"media": "", "features": [
        {"name": "prefers-color-scheme", "value": scheme},
        {"name": "prefers-reduced-motion", "value": "reduce" if reduced_motion else "no-preference"}]})


def reset_screen(d):
    d.execute_cdp_cmd("Emulation.clearDeviceMetricsOverride", {})
    d.execute_cdp_cmd("Emulation.setEmulatedMedia", {"media": "", "features": []})


class T11JumpBarLands(unittest.TestCase):
    """Every letter of the jump bar puts its heading fully in view just below the sticky bar."""

    def check(self, site_folder, label):
        d = run_tests.ENV.driver
        worst = []
        try:
            for size in (DESKTOP, PHONE):
                for reduced in (False, True):
                    set_screen(d, size, reduced)
                    d.get((site_folder / "index.html").as_uri())
                    anchors = d.execute_script(
                        "return Array.from(document.querySelectorAll('nav.jump-bar a'))"
                        ".map(a => a.getAttribute('href').slice(1))")
                    self.assertGreater(len(anchors), 1, f"{label}: the index has no jump bar")
                    offsets = []
                    # Back and forth, as a person does: each jump starts where the last one ended.
                    for anchor in anchors[::2] + anchors[::-1]:
                        where = f"{label} {size[0]}×{size[1]} reduced-motion={reduced} #{anchor}"
                        with self.subTest(landing=where):
                            got = d.execute_async_script(LANDING, anchor)
                            self.assertGreaterEqual(got["top"], got["barBottom"] - 0.5,
                                                    f"{where}: the heading is under the jump bar: {got}")
                            self.assertLessEqual(got["bottom"], got["height"] + 0.5,
                                                 f"{where}: the heading is below the screen: {got}")
                            if not got["atEnd"]:
                                self.assertLessEqual(got["top"] - got["barBottom"], LANDING_SLACK,
                                                     f"{where}: the heading is not just below the jump bar: {got}")
                            offsets.append(round(got["top"] - got["barBottom"], 1))
                    worst.append(f"{size[0]}×{size[1]} reduced-motion={reduced}: {len(offsets)} jumps, "
                                 f"heading {min(offsets)}–{max(offsets)} px below the bar")
        finally:
            reset_screen(d)
        run_tests.ENV.note("look", f"jump bar, {label}:\n" + "\n".join(worst))

    def test_demo(self):
        self.check(run_tests.ENV.site, "demo")

    def test_large(self):
        if SITE is None:
            self.skipTest("no generated store")
        self.check(SITE.out, f"{LARGE_CONTACTS} contacts")


class T9Header(unittest.TestCase):
    """The header and the jump bar leave the screen to the list."""

    def measure(self, rel, size):
        d = run_tests.ENV.driver
        set_screen(d, size, True)
        d.get((run_tests.ENV.site / rel).as_uri())
        return d.execute_script(HEADER)

    def test_heights(self):
        d = run_tests.ENV.driver
        notes = []
        try:
            for rel in ("index.html", run_tests.PREFERRED_GROUP, "todos.html", "birthdays.html",
                        run_tests.ENV.browser_pages()[1][1]):
                for size in (DESKTOP, PHONE):
                    with self.subTest(page=rel, size=size):
                        got = self.measure(rel, size)
                        self.assertEqual(got["navRows"], 1, f"{rel} at {size}: the navigation wraps: {got}")
                        self.assertLessEqual(got["overflow"], 0, f"{rel} at {size}: wider than the screen: {got}")
                        if got["jump"] is not None:
                            self.assertEqual(got["jumpRows"], 1, f"{rel} at {size}: the jump bar wraps: {got}")
                        if size == DESKTOP:
                            self.assertLessEqual(got["header"], MAX_DESKTOP_HEADER, f"{rel}: header {got}")
                        elif got["jump"] is not None:
                            self.assertLessEqual(got["jump"], MAX_PHONE_JUMP_BAR_SHARE * size[1],
                                                 f"{rel}: jump bar {got}")
                        if rel == "index.html":
                            notes.append(f"index {size[0]}×{size[1]}: header {got['header']:.0f} px, jump bar "
                                         f"{got['jump']:.0f} px, first contact at {got['firstRow']:.0f} px")
        finally:
            reset_screen(d)
        run_tests.ENV.note("look", "\n".join(notes))


class T10List(unittest.TestCase):
    """Rows with avatars, the title once, small groups as one list, the favicon, the 404 page."""

    def test_avatar_in_every_row(self):
        env = run_tests.ENV
        for rel in ["index.html", "birthdays.html"] + env.groups():
            with self.subTest(page=rel):
                page = (env.site / rel).read_text(encoding="utf-8")
                rows = page.count('<li class="contact-row')
                if rel in ("index.html", "birthdays.html"):
                    # A group may have no members; these two list the demo's contacts.
                    self.assertGreater(rows, 0, f"{rel} has no rows")
                avatars = page.count('<span class="avatar')
                self.assertEqual(rows, avatars, f"{rel}: {rows} rows, {avatars} avatars")
        d = env.driver
        for rel in ("index.html", "birthdays.html"):
            with self.subTest(page=rel, drawn=True):
                env.open(rel)
                empty = d.execute_script(
                    "return Array.from(document.querySelectorAll('.contact-row')).filter(r => {"
                    " const a = r.querySelector('.avatar'); const box = a && a.getBoundingClientRect();"
                    " return !a || !(a.textContent.trim() || a.querySelector('img')) || box.width < 24; }).length")
                self.assertEqual(empty, 0, f"{rel}: rows whose avatar is missing, empty or not drawn")

    def test_title_shown_once(self):
        d = run_tests.ENV.open("index.html")
        texts = d.execute_script(
            "return [document.querySelector('.site-title').textContent.trim(), document.querySelector('h1').textContent.trim()]")
        self.assertNotEqual(texts[0], texts[1], "the index shows the site's title in the header and as its heading")

    def test_small_group_has_no_letter_headings(self):
        env = run_tests.ENV
        small = [rel for rel in env.groups()
                 if 0 < (env.site / rel).read_text(encoding="utf-8").count('<li class="contact-row">') <= 12]
        self.assertTrue(small, "the demo has no small group")
        for rel in small:
            page = (env.site / rel).read_text(encoding="utf-8")
            with self.subTest(page=rel):
                self.assertNotIn('class="letter"', page)
                self.assertNotIn('class="jump-bar"', page)

    def test_favicon_is_the_sites_own(self):
        env = run_tests.ENV
        for rel in ("index.html", run_tests.PREFERRED_GROUP):
            d = env.open(rel)
            href = d.execute_script("const l = document.querySelector('link[rel=icon]'); return l && l.href")
            self.assertTrue(href and href.startswith("file://"), f"{rel}: no icon of the site's own: {href}")
            self.assertTrue(Path(href[len("file://"):]).is_file(), f"{rel}: the icon {href} does not exist")

    def test_not_found_page_has_search(self):
        page = (run_tests.ENV.site / "404.html").read_text(encoding="utf-8")
        self.assertIn('role="search"', page)
        self.assertIn('id="search-input"', page)


QR_IMAGE = """
const img = document.querySelector('img.qr-code');
if (!img) return null;
img.scrollIntoView({block: 'center'});
const box = img.getBoundingClientRect();
return {complete: img.complete, natural: img.naturalWidth, attribute: Number(img.getAttribute('width')),
        width: box.width, height: box.height, rendering: getComputedStyle(img).imageRendering};
"""


class T12QRCode(unittest.TestCase):
    """The QR code as Chromium draws it can be scanned."""

    def test_scannable_as_shown(self):
        if shutil.which("zbarimg") is None:
            self.skipTest("zbarimg is missing (Debian zbar-tools; make test-deps installs it)")
        env = run_tests.ENV
        pages = env.contacts()
        # The largest code of the demo (the most modules a side) and two others.
        sizes = {rel: int(re.search(r'class="qr-code"[^>]* width="(\d+)"',
                                    (env.site / rel).read_text(encoding="utf-8")).group(1))
                 for rel in pages}
        chosen = [max(pages, key=lambda rel: sizes[rel]), pages[0], pages[-1]]
        d = env.driver
        notes = []
        with tempfile.TemporaryDirectory(prefix="rolodeck-qr-") as folder:
            try:
                for rel in chosen:
                    page = (env.site / rel).read_text(encoding="utf-8")
                    shown = re.search(r'<span class="name"[^>]*>(.*?)</span>', page).group(1)
                    for size in (DESKTOP, PHONE):
                        for scheme in ("light", "dark"):
                            with self.subTest(page=rel, size=size, scheme=scheme):
                                set_screen(d, size, True, scheme)
                                d.get((env.site / rel).as_uri())
                                got = d.execute_script(QR_IMAGE)
                                self.assertIsNotNone(got, f"{rel}: no QR code")
                                self.assertTrue(got["complete"], f"{rel}: the QR image did not load: {got}")
                                self.assertEqual(got["natural"], got["attribute"], f"{rel}: {got}")
                                self.assertEqual(got["rendering"], "pixelated", f"{rel}: {got}")
                                # At least two and a half screen pixels a module (the theme's 14rem
                                # for the 77 modules of the largest code the 300-byte card makes).
                                self.assertGreaterEqual(got["width"] / got["natural"], 2.5, f"{rel}: {got}")
                                shot = Path(folder) / f"{Path(rel).stem}-{size[0]}-{scheme}.png"
                                shot.write_bytes(d.find_element("css selector", "img.qr-code").screenshot_as_png)
                                result = subprocess.run(["zbarimg", "--quiet", "--raw", str(shot)],
                                                        capture_output=True)
                                text = result.stdout.decode("utf-8")
                                self.assertEqual(result.returncode, 0, f"{rel} at {size}, {scheme}: zbarimg read nothing")
                                self.assertIn("\nFN:" + unescape(shown) + "\r\n", text, f"{rel}: {text!r}")
                                notes.append(f"{rel} {size[0]}×{size[1]} {scheme}: {got['natural']} modules "
                                             f"drawn at {got['width']:.0f} px, read back")
            finally:
                reset_screen(d)
        run_tests.ENV.note("look", "QR codes as shown:\n" + "\n".join(notes))
