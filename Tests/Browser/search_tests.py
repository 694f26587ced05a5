"""Real-browser tests of search (docs/search.md), run by run_tests.py in the same Chromium.

The site is a store written by ../shared/tools/gen-store.py with a few contacts added for
the rules the generator does not cover (a Straße, a nickname, a reading, a number written with
+82). Every finding rule is checked from file:// and over HTTP; then the keyboard, ?q=, the page
without JavaScript, the client's folding against the cases the Swift tests use, and axe-core,
the contrast check and the Nu validator on the page showing results.
"""

import http.server
import json
import os
import shutil
import subprocess
import sys
import threading
import time
import unittest
import urllib.parse
from functools import partial

import run_tests

GEN_STORE = run_tests.REPO_ROOT.parent / "shared" / "tools" / "gen-store.py"
FOLDING_CASES = run_tests.REPO_ROOT / "Tests" / "RolodeckSearchTests" / "folding-cases.json"
GENERATED_CONTACTS = 2000

# Contacts added to the generated store, one per rule it does not cover on its own.
EXTRA_CONTACTS = [
    {"id": "search-kim-cheolsu", "givenName": "철수", "familyName": "김",
     "phones": [{"label": "mobile", "value": "+82 10-1234-5678"}], "groups": ["search-club"]},
    {"id": "search-strasse", "givenName": "Quirin", "familyName": "Zwölfer", "organization": "Café an der Straße"},
    {"id": "search-mannheimer", "givenName": "Zeta", "familyName": "Mannheimer"},
    {"id": "search-nickname", "givenName": "Xaver", "familyName": "Quendt", "nickname": "Quaxi",
     "emails": [{"label": "work", "value": "zacharias.quux@firma.example"}]},
    {"id": "search-reading", "givenName": "花子", "familyName": "佐藤", "phoneticGivenName": "はなこ",
     "phoneticFamilyName": "さとう", "groups": ["search-club"]},
    {"id": "search-mueller", "givenName": "Wendelin", "familyName": "Mueller"},
]
EXTRA_GROUP = {"id": "search-club", "name": "Quokka-Freunde Ölbach"}

WAIT_FOR_SEARCH = """
const query = arguments[0];
const last = window.rolodeckSearch && window.rolodeckSearch.last;
if (!last || last.query !== query || (last.ms === null && !last.error)) return null;
return {
  last: last,
  status: document.querySelector('.search-status').textContent,
  results: Array.from(document.querySelectorAll('#search-listbox [role=option]')).map(a => ({
    name: a.querySelector('.search-option-name').textContent,
    lang: a.querySelector('.search-option-name').getAttribute('lang'),
    org: (a.querySelector('.search-option-org') || {}).textContent || '',
    detail: (a.querySelector('.search-option-detail') || {}).textContent || '',
    href: a.getAttribute('href'), id: a.id, selected: a.getAttribute('aria-selected')})),
  more: !!document.querySelector('.search-more:not([hidden])'),
  directoryHidden: document.getElementById('directory').hidden,
  resultsHidden: document.getElementById('search-results').hidden,
};
"""


class SearchSite:
    """The generated site, built once, and an HTTP server for it."""

    def __init__(self, env):
        self.env = env
        self.root = env.work / "search-site"
        self.out = self.root / "_site"
        self.server = None
        self.base_url = None
        self.contacts = []

    def build(self):
        if self.root.exists():
            shutil.rmtree(self.root)
        self.root.mkdir(parents=True)
        subprocess.run([sys.executable, str(GEN_STORE), "--contacts", str(GENERATED_CONTACTS), "--out", str(self.root)],
                       check=True, capture_output=True)
        store = self.root / "store"
        (store / "contacts").mkdir()
        (store / "groups").mkdir()
        for contact in EXTRA_CONTACTS:
            (store / "contacts" / f"{contact['id']}.json").write_text(json.dumps(contact, ensure_ascii=False),
                                                                       encoding="utf-8")
        (store / "groups" / "search-club.json").write_text(json.dumps(EXTRA_GROUP, ensure_ascii=False),
                                                           encoding="utf-8")
        self.contacts = json.loads((store / "contacts.json").read_text(encoding="utf-8")) + EXTRA_CONTACTS
        # One page: these tests read the whole directory off the index, which a paged index
        # (above pageSize, 1000 by default) leaves to its section pages; pages_tests.py checks those.
        (self.root / "rolodeck.json").write_text(json.dumps({"pageSize": GENERATED_CONTACTS + 100}), encoding="utf-8")
        run = subprocess.run([str(self.env.rolodeck), "build", "--quiet", "--site", str(self.root), "--out", str(self.out)],
                             capture_output=True, text=True, env=dict(os.environ, SOURCE_DATE_EPOCH=run_tests.SOURCE_DATE_EPOCH))
        if run.returncode != 0:
            raise RuntimeError(f"building the generated site failed:\n{run.stderr}")

    def serve(self):
        handler = partial(QuietHandler, directory=str(self.out))
        self.server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), handler)
        threading.Thread(target=self.server.serve_forever, daemon=True).start()
        self.base_url = f"http://127.0.0.1:{self.server.server_address[1]}/"

    def url(self, rel, over_http):
        return self.base_url + rel if over_http else (self.out / rel.split("?")[0]).as_uri() + (
            "?" + rel.split("?", 1)[1] if "?" in rel else "")

    def stop(self):
        if self.server:
            self.server.shutdown()
            self.server.server_close()


class QuietHandler(http.server.SimpleHTTPRequestHandler):
    def log_message(self, *args):
        pass


class CachingHandler(QuietHandler):
    """Lets the browser keep every file for an hour, as a static host may, and notes each
    request's path and query (in `requests`, a list the handler class is given)."""
    requests = []

    def end_headers(self):
        self.send_header("Cache-Control", "max-age=3600")
        super().end_headers()

    def do_GET(self):
        self.requests.append(self.path)
        super().do_GET()


SITE = None  # the SearchSite, set by setup()


def setup(env):
    """Builds the generated site; returns the test cases, or a reason they cannot run."""
    global SITE
    if not GEN_STORE.is_file():
        return [], f"{GEN_STORE} not found beside the repository: search tests skipped"
    SITE = SearchSite(env)
    SITE.build()
    SITE.serve()
    return [T5SearchFinds, T6SearchKeyboard, T7SearchPage, T8SearchAccessibility, T9SearchCached], None


def teardown():
    if SITE:
        SITE.stop()


def open_index(over_http, query_string="", scheme="light"):
    d = run_tests.ENV.driver
    # Reduced motion: no smooth scrolling, which would move buttons while WebDriver clicks them.
    d.execute_cdp_cmd("Emulation.setEmulatedMedia", {"media": "", "features": [
        {"name": "prefers-color-scheme", "value": scheme}, {"name": "prefers-reduced-motion", "value": "reduce"}]})
    d.get(SITE.url("index.html" + query_string, over_http))
    return d


def wait_for(d, query, timeout=20):
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        state = d.execute_script(WAIT_FOR_SEARCH, query)
        if state:
            if state["last"].get("error"):
                raise AssertionError(f"search for {query!r} failed: {state['last']['error']}")
            return state
        time.sleep(0.02)
    raise AssertionError(f"no results for {query!r} within {timeout} s")


def search(d, query):
    """Types a query into the search box (key by key) and returns the state once it is shown."""
    box = d.find_element("id", "search-input")
    box.clear()
    box.send_keys(query)
    return wait_for(d, query)


def all_results(d, state):
    """Every result of the shown search, pressing "Show more" until there is no more."""
    query = state["last"]["query"]
    while state["more"]:
        shown = len(state["results"])
        d.find_element("css selector", ".search-more").click()
        deadline = time.monotonic() + 20
        while time.monotonic() < deadline:
            state = d.execute_script(WAIT_FOR_SEARCH, query)
            if state and len(state["results"]) > shown and (state["more"] or len(state["results"]) == state["last"]["count"]):
                break
            time.sleep(0.02)
        else:
            raise AssertionError(f"'Show more' did not add results for {query!r}")
    return state["results"]


def address_query(d, expected, timeout=5):
    """The query part of the page's address once it is `expected` (the client updates it a
    moment after typing stops), or what it is after `timeout` seconds."""
    deadline = time.monotonic() + timeout
    while True:
        query = d.execute_script("return location.search.slice(1)")
        if query == expected or time.monotonic() > deadline:
            return query
        time.sleep(0.05)


def href_of(contact_id):
    return f"contacts/{contact_id}.html"


# (query, what must be found, a description) — `finds` is checked by the function named.
FINDING_RULES = [
    ("muller", "first_name_contains:Müller", "accents ignored: muller finds Müller"),
    ("mueller", "page_names_contain:Müller", "German transliteration: mueller finds Müller"),
    ("MÜLLER", "contains:search-mueller", "and Müller finds Mueller"),
    ("strasse", "contains:search-strasse", "strasse finds Straße"),
    ("Straße", "contains:search-strasse", "Straße finds Straße"),
    ("ㄱㅊㅅ", "contains:search-kim-cheolsu", "Korean initial consonants"),
    ("ㅊㅅ", "contains:search-kim-cheolsu", "initials of consecutive syllables"),
    ("철수", "contains:search-kim-cheolsu", "the given name"),
    ("김철", "contains:search-kim-cheolsu", "the start of the full name"),
    ("김처", "contains:search-kim-cheolsu", "a half-typed last syllable"),
    ("1234", "detail:search-kim-cheolsu:+82 10-1234-5678", "a run of phone digits"),
    ("010-1234-5678", "contains:search-kim-cheolsu", "the number as dialled at home"),
    ("+82 10 1234 5678", "contains:search-kim-cheolsu", "with the country prefix"),
    ("1234 5678", "contains:search-kim-cheolsu", "whatever the separators"),
    ("quaxi", "detail:search-nickname:Nickname: Quaxi", "a nickname"),
    ("さとう", "contains:search-reading", "a phonetic name"),
    ("zacharias.quux", "detail:search-nickname:Email: zacharias.quux@firma.example", "an email"),
    ("quux", "contains:search-nickname", "a part of an email"),
    ("cafe an der", "contains:search-strasse", "the organization, word by word"),
    ("quokka", "detail:search-reading:Group: Quokka-Freunde Ölbach", "a group name"),
    ("olbach", "contains:search-kim-cheolsu", "a group name without its umlaut"),
    ("mann", "first:search-mannheimer", "prefix matches before matches inside words"),
    ("heimer", "contains:search-mannheimer", "matches inside words"),
]


class SearchCase(unittest.TestCase):
    def check_rule(self, state, rule, query):
        kind, _, rest = rule.partition(":")
        results = state["results"]
        names = [r["name"] for r in results]
        self.assertTrue(results, f"{query!r} found nothing (status {state['status']!r})")
        if kind == "first_name_contains":
            self.assertIn(rest, names[0], f"{query!r}: the first result is {names[0]!r}")
        elif kind == "page_names_contain":
            self.assertTrue(any(rest in name for name in names), f"{query!r}: no {rest} among {names}")
        elif kind == "first":
            self.assertEqual(results[0]["href"], href_of(rest), f"{query!r}: first results are {names[:5]}")
        elif kind == "contains":
            hrefs = [r["href"] for r in all_results(run_tests.ENV.driver, state)]
            self.assertIn(href_of(rest), hrefs, f"{query!r}: {len(hrefs)} results, not {rest}")
        elif kind == "detail":
            contact, _, detail = rest.partition(":")
            found = [r for r in all_results(run_tests.ENV.driver, state) if r["href"] == href_of(contact)]
            self.assertTrue(found, f"{query!r} did not find {contact}")
            self.assertIn(detail, found[0]["detail"], f"{query!r}: {found[0]}")
        else:
            raise AssertionError(f"unknown rule {rule}")


class T5SearchFinds(SearchCase):
    def run_rules(self, over_http):
        d = open_index(over_http)
        for query, rule, description in FINDING_RULES:
            with self.subTest(query=query, rule=description, http=over_http):
                state = search(d, query)
                self.check_rule(state, rule, query)
                count = state["last"]["count"]
                self.assertEqual(state["status"], "1 contact found" if count == 1 else f"{count:,} contacts found")
                self.assertTrue(state["directoryHidden"] and not state["resultsHidden"])

    def test_finding_rules_from_file_url(self):
        self.run_rules(over_http=False)

    def test_finding_rules_over_http(self):
        self.run_rules(over_http=True)

    def test_results_link_to_contact_pages(self):
        d = open_index(over_http=False)
        state = search(d, "ㄱㅊㅅ")
        for result in state["results"]:
            self.assertTrue((SITE.out / result["href"]).is_file(), f"{result['href']} is not a page of the site")
        kim = [r for r in state["results"] if r["href"] == href_of("search-kim-cheolsu")]
        self.assertEqual(kim[0]["lang"], "ko", "a Korean name on an English page carries lang=ko")

    def test_first_result_needs_at_most_three_pieces(self):
        for query in ["smith", "zendaya", "ㄱㅊㅅ", "1234", "m", "김"]:
            with self.subTest(query=query):
                # A linked query on a fresh page, so nothing is loaded before it.
                d = open_index(over_http=False, query_string="?q=" + urllib.parse.quote(query))
                state = wait_for(d, query)
                self.assertEqual(sorted(run_tests.ENV.driver.execute_script("return window.rolodeckSearch.loaded")),
                                 sorted(state["last"]["pieces"]), "a fresh page loads only what the query needs")
                pieces = state["last"]["firstResultPieces"]
                self.assertLessEqual(len(pieces), 3, f"{query!r} loaded {pieces} before its first result")
                size = sum((SITE.out / "search" / f"{p}.js").stat().st_size for p in pieces)
                self.assertLess(size, 150_000, f"{query!r} loaded {size} bytes before its first result")

    def test_nothing_found_is_announced(self):
        d = open_index(over_http=False)
        state = search(d, "qxqxqxqx")
        self.assertEqual(state["results"], [])
        self.assertEqual(state["status"], "No contacts found.")
        role = d.execute_script("return document.querySelector('.search-status').getAttribute('role')")
        self.assertEqual(role, "status", "the count is announced by a polite live region")

    def test_client_folds_like_the_index(self):
        d = open_index(over_http=False)
        cases = json.loads(FOLDING_CASES.read_text(encoding="utf-8"))
        keys = d.execute_script("return arguments[0].map(c => window.rolodeckSearch.fold.queryKeys(c.text))", cases)
        for case, got in zip(cases, keys):
            with self.subTest(text=case["text"], note=case["note"]):
                self.assertEqual(got, case["keys"])


class T6SearchKeyboard(SearchCase):
    def active(self, d):
        return d.execute_script("""
            const input = document.getElementById('search-input');
            const id = input.getAttribute('aria-activedescendant');
            return {id: id, expanded: input.getAttribute('aria-expanded'), focused: document.activeElement === input,
                    selected: Array.from(document.querySelectorAll('[role=option][aria-selected=true]')).map(o => o.id)};""")

    def test_arrow_keys_enter_and_escape(self):
        from selenium.webdriver.common.keys import Keys

        for over_http in (False, True):
            with self.subTest(http=over_http):
                d = open_index(over_http)
                state = search(d, "müller")
                self.assertGreater(len(state["results"]), 2)
                box = d.find_element("id", "search-input")
                self.assertEqual(self.active(d)["expanded"], "true")
                box.send_keys(Keys.ARROW_DOWN)
                self.assertEqual(self.active(d)["id"], state["results"][0]["id"])
                box.send_keys(Keys.ARROW_DOWN)
                now = self.active(d)
                self.assertEqual(now["id"], state["results"][1]["id"])
                self.assertEqual(now["selected"], [state["results"][1]["id"]], "exactly the active option is selected")
                self.assertTrue(now["focused"], "focus stays in the search box")
                box.send_keys(Keys.ARROW_UP)
                self.assertEqual(self.active(d)["id"], state["results"][0]["id"])

                box.send_keys(Keys.ESCAPE)
                after = d.execute_script("""return {value: document.getElementById('search-input').value,
                    directoryHidden: document.getElementById('directory').hidden,
                    resultsHidden: document.getElementById('search-results').hidden,
                    sections: Array.from(document.querySelectorAll('h2.letter')).filter(h => h.offsetParent).length,
                    expanded: document.getElementById('search-input').getAttribute('aria-expanded'),
                    search: location.search}""")
                self.assertEqual(after["value"], "")
                self.assertFalse(after["directoryHidden"], "Escape restores the sections")
                self.assertTrue(after["resultsHidden"])
                self.assertGreater(after["sections"], 0)
                self.assertEqual(after["expanded"], "false")
                if over_http:
                    self.assertEqual(address_query(d, ""), "", "Escape also clears ?q= from the address")

                state = search(d, "müller")
                target = urllib.parse.urljoin(d.current_url, state["results"][1]["href"])
                box.send_keys(Keys.ARROW_DOWN)
                box.send_keys(Keys.ARROW_DOWN)
                box.send_keys(Keys.ENTER)
                deadline = time.monotonic() + 10
                while d.current_url != target and time.monotonic() < deadline:
                    time.sleep(0.05)
                self.assertEqual(d.current_url, target, "Enter opens the active result")

    def test_keys_that_end_an_input_method_composition_are_left_to_it(self):
        d = open_index(over_http=False)
        search(d, "김철")
        before = d.current_url
        state = d.execute_script("""
            const input = document.getElementById('search-input');
            for (const key of ['ArrowDown', 'Enter', 'Escape']) {
              input.dispatchEvent(new KeyboardEvent('keydown', {key: key, isComposing: true, bubbles: true, cancelable: true}));
            }
            return {value: input.value, active: input.getAttribute('aria-activedescendant'),
                    resultsHidden: document.getElementById('search-results').hidden};""")
        self.assertEqual(state, {"value": "김철", "active": None, "resultsHidden": False})
        self.assertEqual(d.current_url, before, "Enter that confirms a composition must not open a result")

    def test_typing_follows_the_ime_half_way(self):
        d = open_index(over_http=False)
        box = d.find_element("id", "search-input")
        for typed in ["김", "김ㅊ", "김처", "김철", "김철ㅅ", "김철수"]:
            with self.subTest(typed=typed):
                box.clear()
                box.send_keys(typed)
                state = wait_for(d, typed)
                self.assertIn(href_of("search-kim-cheolsu"), [r["href"] for r in all_results(d, state)])


class T7SearchPage(SearchCase):
    def test_query_in_the_url_runs_the_search(self):
        for over_http in (False, True):
            with self.subTest(http=over_http):
                d = open_index(over_http, "?q=" + urllib.parse.quote("ㄱㅊㅅ"))
                state = wait_for(d, "ㄱㅊㅅ")
                self.assertIn(href_of("search-kim-cheolsu"), [r["href"] for r in all_results(d, state)])
                self.assertEqual(d.find_element("id", "search-input").get_attribute("value"), "ㄱㅊㅅ")
                self.assertTrue(state["directoryHidden"])

    def test_typing_keeps_the_query_in_the_url(self):
        d = open_index(over_http=True)
        search(d, "quaxi")
        self.assertEqual(address_query(d, "q=quaxi"), "q=quaxi")

    def test_without_javascript_the_directory_is_all_there_is(self):
        d = run_tests.ENV.driver
        d.execute_cdp_cmd("Emulation.setScriptExecutionDisabled", {"value": True})
        try:
            d.get(SITE.url("index.html", False))
            state = d.execute_script("""return {
                boxShown: !!(document.querySelector('form.search') || {}).offsetParent,
                resultsShown: !!document.getElementById('search-results').offsetParent,
                rows: document.querySelectorAll('.contact-row').length,
                jump: Array.from(document.querySelectorAll('nav.jump-bar a')).filter(a => a.offsetParent).length,
                sections: document.querySelectorAll('h2.letter').length,
                ran: !!window.rolodeckSearch}""")
        finally:
            d.execute_cdp_cmd("Emulation.setScriptExecutionDisabled", {"value": False})
        self.assertFalse(state["ran"], "scripts were not disabled")
        self.assertFalse(state["boxShown"], "without JavaScript the search box must not show")
        self.assertFalse(state["resultsShown"])
        self.assertEqual(state["rows"], len(SITE.contacts))
        self.assertGreater(state["jump"], 10)
        self.assertEqual(state["jump"], state["sections"])


class T8SearchAccessibility(SearchCase):
    """axe-core, the contrast check and the Nu validator on the page while it shows results."""

    def results_page(self, scheme):
        from selenium.webdriver.common.keys import Keys

        d = open_index(over_http=False, scheme=scheme)
        state = search(d, "müller")
        self.assertTrue(state["results"])
        d.find_element("id", "search-input").send_keys(Keys.ARROW_DOWN)  # an active option, too
        return d

    def run_axe(self, scheme):
        d = self.results_page(scheme)
        d.execute_script(run_tests.ENV.axe_source)
        result = json.loads(d.execute_async_script(run_tests.AXE_RUN))
        if "error" in result:
            self.fail(f"axe-core failed: {result['error']}")
        severe = []
        for v in result["violations"]:
            if v["impact"] not in run_tests.SEVERE_IMPACTS:
                continue
            targets = [n["target"][-1] for n in v["nodes"]]
            severe.append(f"[{v['impact']}] {v['id']}: {v['help']} — " + ", ".join(targets[:8]))
        for v in result["violations"]:
            if v["impact"] not in run_tests.SEVERE_IMPACTS:
                run_tests.ENV.note("axe info", f"{scheme} search results: [{v['impact']}] {v['id']}: {v['help']}")
        self.assertEqual(severe, [], f"axe-core on the search results ({scheme})")
        contrast = json.loads(d.execute_script(run_tests.CONTRAST_CHECK))
        self.assertGreater(contrast["checked"], 0)
        self.assertEqual(contrast["failures"], [], f"text below WCAG AA contrast on the search results ({scheme})")

    def test_axe_and_contrast_light(self):
        self.run_axe("light")

    def test_axe_and_contrast_dark(self):
        self.run_axe("dark")

    def test_nu_validator_on_the_results(self):
        d = self.results_page("light")
        html = d.execute_script("return '<!DOCTYPE html>\\n' + document.documentElement.outerHTML")
        page = run_tests.ENV.work / "search-results.html"
        page.write_text(html, encoding="utf-8")
        run = subprocess.run([run_tests.ENV.java, "-jar", str(run_tests.ENV.vnu_jar), "--format", "json", str(page)],
                             capture_output=True, text=True, timeout=300)
        report = json.loads(run.stderr or run.stdout)
        errors = [f"{m.get('firstLine', m.get('lastLine'))}: {m['message']}" for m in report.get("messages", [])
                  if m.get("type") == "error"]
        self.assertIn('role="option"', html)
        self.assertEqual(errors, [], "the page showing search results is not valid HTML")


class T9SearchCached(SearchCase):
    """The pages name the index's root without its version (so that a change of the index leaves
    them alone); the client asks for the root afresh on every page load, past any cache, and
    for each piece with the version the root names. A page served from a cache after the
    index changed still searches the new index."""

    def test_a_cached_page_searches_the_rebuilt_index(self):
        root = run_tests.ENV.work / "cached-search-site"
        if root.exists():
            shutil.rmtree(root)
        shutil.copytree(SITE.root / "store", root / "store")
        shutil.copy(SITE.root / "rolodeck.json", root / "rolodeck.json")
        out = root / "_site"

        def build():
            run = subprocess.run([str(run_tests.ENV.rolodeck), "build", "--quiet", "--site", str(root), "--out", str(out)],
                                 capture_output=True, text=True)
            self.assertEqual(run.returncode, 0, run.stderr)

        build()
        requests = []
        handler = partial(type("Logged", (CachingHandler,), {"requests": requests}), directory=str(out))
        server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), handler)
        threading.Thread(target=server.serve_forever, daemon=True).start()
        try:
            url = f"http://127.0.0.1:{server.server_address[1]}/index.html"
            d = run_tests.ENV.driver
            d.get(url)
            self.assertIn(href_of("search-nickname"), [r["href"] for r in search(d, "quaxi")["results"]])
            # The nickname changes: the index's version changes, the index page does not.
            page_before = (out / "index.html").read_bytes()
            contact = root / "store" / "contacts" / "search-nickname.json"
            data = json.loads(contact.read_text(encoding="utf-8"))
            data["nickname"] = "Quibbo"
            contact.write_text(json.dumps(data, ensure_ascii=False), encoding="utf-8")
            build()
            self.assertEqual((out / "index.html").read_bytes(), page_before, "the index page names no version")
            version = json.loads((out / "search" / "root.js").read_text(encoding="utf-8")
                                 .split("'", 3)[3].rsplit("'", 1)[0])["version"]
            first_load = len(requests)
            d.get(url)
            self.assertIn(href_of("search-nickname"), [r["href"] for r in search(d, "quibbo")["results"]])
            self.assertEqual(search(d, "quaxi")["results"], [], "the old nickname is gone")
            roots = [r for r in requests if r.startswith("/search/root.js?")]
            self.assertEqual(len(roots), 2, f"the root once per page load: {roots}")
            self.assertNotEqual(roots[0], roots[1])
            pieces = [r for r in requests[first_load:] if r.startswith("/search/") and "/root.js" not in r]
            self.assertTrue(pieces, "the second page loaded pieces")
            for piece in pieces:
                self.assertTrue(piece.endswith("?v=" + version), f"{piece} is not asked for with {version}")
        finally:
            server.shutdown()
            server.server_close()
