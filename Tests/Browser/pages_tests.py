"""Real-browser tests of paged lists (docs/configuration.md, pageSize), run by run_tests.py.

The site is a store written by ../shared/tools/gen-store.py, built with a small pageSize so
that the index, the groups and the todos are split into section and numbered pages. Checked:
every contact is reachable from index.html by plain links (no JavaScript), every page is
smaller than a page of pageSize contacts can be, search and ?q= work on a section page, and the
Nu validator and axe-core find nothing on the new kinds of page.
"""

import json
import re
import shutil
import subprocess
import sys
import unittest
import urllib.parse
from html.parser import HTMLParser

import run_tests

GEN_STORE = run_tests.REPO_ROOT.parent / "shared" / "tools" / "gen-store.py"
GENERATED_CONTACTS = 3000
PAGE_SIZE = 150
# The page size at PAGE_SIZE rows: about 0.3 KB a row and the page around them. A page over
# this has more on it than its rows.
MAX_PAGE_BYTES = 160 * 1024

WAIT_FOR_RESULTS = """
const query = arguments[0];
const last = window.rolodeckSearch && window.rolodeckSearch.last;
if (!last || last.query !== query || (last.ms === null && !last.error)) return null;
return {
  error: last.error || null,
  hrefs: Array.from(document.querySelectorAll('#search-listbox [role=option]')).map(a => a.href),
  names: Array.from(document.querySelectorAll('#search-listbox .search-option-name')).map(e => e.textContent),
  directoryHidden: document.getElementById('directory').hidden,
};
"""

# Where a section page's own letter is in its jump bar, and the bar's visible box.
CURRENT_LETTER = """
const current = document.querySelector('nav.jump-bar a[aria-current="page"]');
if (!current) return null;
const bar = current.closest('ul');
const letter = current.getBoundingClientRect(), box = bar.getBoundingClientRect();
return {left: letter.left, right: letter.right, barLeft: box.left, barRight: box.right, scrollLeft: bar.scrollLeft};
"""

SITE = None  # the PagedSite, set by setup()


class LinkParser(HTMLParser):
    """The href of every <a> of a page."""

    def __init__(self):
        super().__init__()
        self.links = []

    def handle_starttag(self, tag, attrs):
        if tag == "a":
            href = dict(attrs).get("href")
            if href:
                self.links.append(href)


class PagedSite:
    """The generated site, built once with a small pageSize."""

    def __init__(self, env):
        self.env = env
        self.root = env.work / "paged-site"
        self.out = self.root / "_site"
        self.store_contacts = []

    def build(self):
        if self.root.exists():
            shutil.rmtree(self.root)
        self.root.mkdir(parents=True)
        subprocess.run(
            [sys.executable, str(GEN_STORE), "--contacts", str(GENERATED_CONTACTS), "--out", str(self.root)],
            check=True, capture_output=True)
        config = {"title": "Paged Directory", "pageSize": PAGE_SIZE}
        (self.root / "rolodeck.json").write_text(json.dumps(config), encoding="utf-8")
        run = subprocess.run(
            [str(self.env.rolodeck), "build", "--site", str(self.root), "--out", str(self.out), "--quiet"],
            capture_output=True, text=True, timeout=600)
        if run.returncode != 0:
            raise RuntimeError(f"building the paged site failed:\n{run.stderr}")

    def rel(self, path):
        return path.relative_to(self.out).as_posix()

    def html(self):
        return sorted(self.rel(p) for p in self.out.rglob("*.html"))

    def section_pages(self):
        return sorted(self.rel(p) for p in (self.out / "sections").glob("*.html"))

    def contacts(self):
        return {self.rel(p) for p in (self.out / "contacts").glob("*.html")}

    def links(self, rel):
        """The site pages `rel` links to, as paths relative to the site (fragments and queries
        dropped, links out of the site and to other files left out)."""
        parser = LinkParser()
        parser.feed((self.out / rel).read_text(encoding="utf-8"))
        folder = rel.rsplit("/", 1)[0] + "/" if "/" in rel else ""
        found = set()
        for href in parser.links:
            parts = urllib.parse.urlsplit(href)
            if parts.scheme or parts.netloc or not parts.path.endswith(".html"):
                continue
            path = urllib.parse.unquote(parts.path)
            joined = []
            for piece in (folder + path).split("/"):
                if piece == "..":
                    if not joined:
                        raise AssertionError(f"{rel} links out of the site: {href}")
                    joined.pop()
                elif piece not in ("", "."):
                    joined.append(piece)
            found.add("/".join(joined))
        return found


def setup(env):
    """Builds the paged site; returns the test cases, and why there are none when there are none."""
    global SITE
    if not GEN_STORE.is_file():
        return [], f"paged-list tests skipped: {GEN_STORE} is missing"
    SITE = PagedSite(env)
    SITE.build()
    return [PagedListTests], None


def teardown():
    pass


class PagedListTests(unittest.TestCase):
    def test_index_is_paged(self):
        """Above pageSize the index lists sections, not contacts, and every section has a page."""
        index = (SITE.out / "index.html").read_text(encoding="utf-8")
        self.assertNotIn('class="contact-row"', index)
        self.assertIn('class="section-index"', index)
        self.assertTrue(SITE.section_pages(), "no section pages were built")
        self.assertTrue(any(re.search(r"-\d+\.html$", p) for p in SITE.section_pages()),
                        f"no section is long enough for a second page at {PAGE_SIZE}: {SITE.section_pages()}")

    def test_every_contact_is_reachable_without_javascript(self):
        """Following plain links from index.html reaches every contact page."""
        seen, queue = {"index.html"}, ["index.html"]
        while queue:
            rel = queue.pop()
            if rel.startswith("contacts/"):
                continue
            for target in SITE.links(rel):
                self.assertTrue((SITE.out / target).is_file(), f"{rel} links to {target}, which was not built")
                if target not in seen:
                    seen.add(target)
                    queue.append(target)
        missing = SITE.contacts() - seen
        self.assertEqual(len(SITE.contacts()), GENERATED_CONTACTS)
        self.assertEqual(len(missing), 0, f"contacts not reachable by links, such as {sorted(missing)[:5]}")
        # Through the section pages: the index alone lists no contact.
        self.assertFalse({t for t in SITE.links("index.html") if t.startswith("contacts/")})

    def test_no_page_is_larger_than_its_rows(self):
        """No HTML page grows past what PAGE_SIZE rows make (the 100,000-contact check is `make bench`)."""
        sizes = {rel: (SITE.out / rel).stat().st_size for rel in SITE.html()}
        largest = max(sizes, key=sizes.get)
        self.env_note(f"largest page at {GENERATED_CONTACTS} contacts by {PAGE_SIZE}: {largest}, {sizes[largest]} bytes")
        over = {rel: size for rel, size in sizes.items() if size > MAX_PAGE_BYTES}
        self.assertFalse(over, f"pages over {MAX_PAGE_BYTES} bytes: {over}")

    def env_note(self, text):
        run_tests.ENV.note("paged lists", text)

    def search(self, url, query=None):
        """Opens `url`, types `query` unless the URL carries it, and returns what the search found."""
        from selenium.webdriver.support.ui import WebDriverWait

        d = run_tests.ENV.driver
        d.get(url)
        if query is None:
            query = urllib.parse.parse_qs(urllib.parse.urlsplit(url).query)["q"][0]
        else:
            box = d.find_element("css selector", "#search-input")
            WebDriverWait(d, 10).until(lambda _: box.is_displayed())
            box.send_keys(query)
        return WebDriverWait(d, 30).until(lambda _: d.execute_script(WAIT_FOR_RESULTS, query))

    def other_sections_contact(self, page):
        """A contact on a section page other than `page`: (its name, its page relative to the site)."""
        other = next(p for p in SITE.section_pages() if p != page)
        html = (SITE.out / other).read_text(encoding="utf-8")
        match = re.search(r'<a class="contact-link" href="\.\./(contacts/[^"]+)">.*?<span class="name"[^>]*>([^<]+)<', html)
        self.assertIsNotNone(match, f"no contact row on {other}")
        import html as markup
        return markup.unescape(match.group(2)), match.group(1)

    def test_search_from_a_section_page_finds_a_contact_of_another_section(self):
        page = SITE.section_pages()[-1]
        name, target = self.other_sections_contact(page)
        found = self.search((SITE.out / page).as_uri(), name)
        self.assertIsNone(found["error"])
        self.assertTrue(found["directoryHidden"], "the section's list stays shown under the results")
        expected = (SITE.out / target).as_uri()
        self.assertIn(expected, found["hrefs"], f"{name} not among {found['names'][:10]}")
        # The result's link leads to the contact's page from the section's folder.
        run_tests.ENV.driver.get(expected)
        self.assertIn(name.split()[0], run_tests.ENV.driver.find_element("css selector", "h1").text)

    def test_q_in_the_url_of_a_section_page_runs_the_search(self):
        page = SITE.section_pages()[0]
        name, target = self.other_sections_contact(page)
        url = (SITE.out / page).as_uri() + "?q=" + urllib.parse.quote(name)
        found = self.search(url)
        self.assertIsNone(found["error"])
        self.assertIn((SITE.out / target).as_uri(), found["hrefs"])
        value = run_tests.ENV.driver.execute_script("return document.getElementById('search-input').value")
        self.assertEqual(value, name)

    def test_a_section_pages_letter_is_in_view_on_a_phone(self):
        """On a phone the jump bar scrolls sideways; a section page shows its own letter in it."""
        d = run_tests.ENV.driver
        found = {}
        try:
            d.execute_cdp_cmd("Emulation.setDeviceMetricsOverride",
                              {"width": 390, "height": 844, "deviceScaleFactor": 1, "mobile": True})
            for rel in SITE.section_pages():
                with self.subTest(page=rel):
                    d.get((SITE.out / rel).as_uri())
                    got = d.execute_script(CURRENT_LETTER)
                    self.assertIsNotNone(got, f"{rel} marks no letter of its jump bar as its own")
                    found[rel] = got
                    self.assertGreaterEqual(got["left"], got["barLeft"] - 0.5, f"{rel}: its letter is off the bar's left: {got}")
                    self.assertLessEqual(got["right"], got["barRight"] + 0.5, f"{rel}: its letter is off the bar's right: {got}")
        finally:
            d.execute_cdp_cmd("Emulation.clearDeviceMetricsOverride", {})
        scrolled = sum(1 for got in found.values() if got["scrollLeft"] > 0)
        self.env_note(f"jump bar at 390 px: {len(found)} section pages show their letter, {scrolled} of them "
                      f"by scrolling the bar")
        # The bar is wider than a phone here, so the letters past its first screen need the scroll.
        self.assertGreater(scrolled, 0, "no section page needed the bar scrolled: the check proves nothing")

    def new_kinds(self):
        """One page of each new kind: the paged index, a section's first and second page, a paged
        group, its section page, and a later todo page and birthday page."""
        sections = SITE.section_pages()
        second = next(p for p in sections if re.search(r"-2\.html$", p))
        group_sections = sorted(SITE.rel(p) for p in (SITE.out / "groups").glob("*/*.html"))
        pages = ["index.html", sections[0], second]
        if group_sections:
            folder = group_sections[0].rsplit("/", 1)[0]
            pages += [folder + ".html", group_sections[0]]
        if (SITE.out / "todos-2.html").is_file():
            pages += ["todos.html", "todos-2.html"]
        if (SITE.out / "birthdays-2.html").is_file():
            pages += ["birthdays.html", "birthdays-2.html"]
        return pages

    def test_screenshots_of_the_new_kinds_of_page(self):
        """Screenshots for a person to look at (not compared): the paged index and a section page."""
        d = run_tests.ENV.driver
        for rel in self.new_kinds()[:3]:
            d.get((SITE.out / rel).as_uri())
            name = "paged-" + rel.replace("/", "-").replace(".html", ".png")
            self.assertTrue(d.save_screenshot(str(run_tests.ENV.screenshots / name)))

    def test_nu_validator_on_the_new_kinds_of_page(self):
        pages = self.new_kinds()
        run = subprocess.run(
            [run_tests.ENV.java, "-jar", str(run_tests.ENV.vnu_jar), "--format", "json", "--errors-only"] + pages,
            cwd=SITE.out, capture_output=True, text=True, timeout=300)
        report = json.loads(run.stderr or run.stdout)
        errors = [f"{m.get('url', '').rsplit('/_site/', 1)[-1]}:{m.get('lastLine')}: {m.get('message')}"
                  for m in report.get("messages", []) if m.get("type") in ("error", "non-document-error")]
        self.env_note(f"Nu validator on {len(pages)} paged pages: {len(errors)} errors")
        self.assertEqual(errors, [])

    def test_axe_on_the_new_kinds_of_page(self):
        env = run_tests.ENV
        d = env.driver
        for rel in self.new_kinds():
            for scheme in ("light", "dark"):
                with self.subTest(page=rel, scheme=scheme):
                    d.execute_cdp_cmd(
                        "Emulation.setEmulatedMedia",
                        {"media": "", "features": [{"name": "prefers-color-scheme", "value": scheme}]})
                    d.get((SITE.out / rel).as_uri())
                    d.execute_script(env.axe_source)
                    result = json.loads(d.execute_async_script(run_tests.AXE_RUN))
                    self.assertNotIn("error", result)
                    severe = [f"[{v['impact']}] {v['id']}: {v['help']}" for v in result["violations"]
                              if v["impact"] in run_tests.SEVERE_IMPACTS]
                    self.assertEqual(severe, [], f"axe-core on {rel} ({scheme})")
