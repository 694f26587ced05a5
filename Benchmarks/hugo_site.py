#!/usr/bin/env python3
"""Writes a Hugo site that shows what Rolodeck shows of a gen-store store, for bench.py's
comparison with Hugo (section 8).

Usage: hugo_site.py SITE_FOLDER HUGO_FOLDER

Reads SITE_FOLDER/store/contacts.json (the array layout) and groups.json and writes into
HUGO_FOLDER, which must not exist yet:

  hugo.toml                          the site: the `groups` taxonomy; no RSS, sitemap or robots.txt
  content/contacts/<id>.md           a contact: its fields as front matter, its notes as the body
  content/groups/<id>/_index.md      a group's display name, for its term page
  layouts/...                        a page per contact, the directory on the home page, a page
                                     per group listing its members, the list of groups, a 404 page
  static/style.css                   a few lines of CSS

The front matter is JSON: Hugo supports it as well as TOML and YAML, parses it fastest, and
json.dumps writes any name or note correctly. Hugo is left its own way of doing everything
else: Goldmark for the notes (raw HTML left out, as Rolodeck neutralises it), pretty URLs
(contacts/<id>/index.html), its default number of workers.

What Rolodeck computes in its build and Hugo cannot is computed here, untimed: the display name
(family name first and no space for Korean, Chinese and Japanese names, as Rolodeck writes
them), and the key the directory is sorted by with the section it falls in, by the rules of
Rolodeck's default locale (`en`): A-Z with accents folded, then ㄱ-ㅎ for Hangul, then the kana
rows あ-わ, then `#`. The key approximates Rolodeck's ICU collation with case and accent
folding; the order within a section can differ a little, the amount of work Hugo does cannot.
"""

import json
import os
import sys
import unicodedata

CONFIG = """\
baseURL = "https://contacts.example/"
languageCode = "en"
title = "Contacts"
# Rolodeck writes none of these; everything else is Hugo's default.
disableKinds = ["RSS", "sitemap", "robotsTXT"]

[taxonomies]
  group = "groups"
"""

BASE = """\
<!DOCTYPE html>
<html lang="{{ site.LanguageCode }}">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>{{ if not .IsHome }}{{ .Title }} · {{ end }}{{ site.Title }}</title>
<link rel="stylesheet" href="{{ "style.css" | relURL }}">
</head>
<body>
<header class="site-header">
<a class="site-title" href="{{ "" | relURL }}">{{ site.Title }}</a>
<nav><a href="{{ "groups/" | relURL }}">Groups</a></nav>
</header>
<main>
{{ block "main" . }}{{ end }}
</main>
</body>
</html>
"""

# The directory of the home page and of a group's page: the contacts in sort-key order, a heading
# wherever the section changes. .GroupByParam would order the sections by their labels, which
# puts `#` first and the kana before Hangul; the sort key already has them in Rolodeck's order.
DIRECTORY = """\
{{- $section := "" -}}
{{- range . -}}
{{- if ne .Params.initial $section -}}
{{- if $section }}</ul></section>
{{ end -}}
{{- $section = .Params.initial -}}
<section class="letter"><h2>{{ $section }}</h2><ul>
{{ end -}}
<li><a href="{{ .RelPermalink }}">{{ .Title }}</a>{{ with .Params.organization }} <span class="organization">{{ . }}</span>{{ end }}</li>
{{ end -}}
{{- if $section }}</ul></section>{{ end -}}
"""

HOME = """\
{{ define "main" }}
{{ $contacts := (where site.RegularPages "Section" "contacts").ByParam "sortKey" }}
<h1>{{ site.Title }}</h1>
<p class="count">{{ len $contacts }} contacts</p>
{{ partial "directory.html" $contacts }}
{{ end }}
"""

# A contact's page. Its groups are looked up one by one with site.GetPage: the obvious
# `.GetTerms "groups"` costs more on each page the more pages there are (Hugo 0.111, measured:
# 0.6 s more CPU time at 10,000 contacts, 15 s at 30,000), and made the build of 100,000
# contacts take 377 s instead of 47 s, which would measure that one call rather than Hugo.
SINGLE = """\
{{ define "main" -}}
<article class="card">
<h1>{{ with .Params.salutation }}<span class="salutation">{{ . }}</span> {{ end }}{{ .Title }}</h1>
{{ with .Params.organization }}<p class="organization">{{ . }}</p>
{{ end -}}
{{ with .Params.phones }}<section><h2>Phone</h2>
<dl>
{{ range . }}<div><dt>{{ .label }}</dt><dd><a href="tel:{{ replaceRE "[^0-9+]" "" .value }}">{{ .value }}</a></dd></div>
{{ end }}</dl>
</section>
{{ end -}}
{{ with .Params.emails }}<section><h2>Email</h2>
<dl>
{{ range . }}<div><dt>{{ .label }}</dt><dd><a href="mailto:{{ .value }}">{{ .value }}</a></dd></div>
{{ end }}</dl>
</section>
{{ end -}}
{{ with .Params.addresses }}<section><h2>Address</h2>
<dl>
{{ range . }}<div><dt>{{ .label }}</dt><dd><address>{{ with .street }}<span class="line">{{ . }}</span>{{ end -}}
<span class="line">{{ .postalCode }} {{ .city }}</span>{{ with .country }}<span class="line">{{ . }}</span>{{ end }}</address></dd></div>
{{ end }}</dl>
</section>
{{ end -}}
{{ with .Params.birthday }}<section><h2>Birthday</h2>
<p><time datetime="{{ . }}">{{ (time .).Format "January 2, 2006" }}</time></p>
</section>
{{ end -}}
{{ with .Params.groups }}<section><h2>Groups</h2>
<ul class="tags">
{{ range . }}{{ with site.GetPage (printf "/groups/%s" .) }}<li><a href="{{ .RelPermalink }}">{{ .LinkTitle }}</a></li>
{{ end }}{{ end }}</ul>
</section>
{{ end -}}
{{ with .Content }}<section class="notes"><h2>Notes</h2>
<div class="prose">
{{ . }}
</div>
</section>
{{ end -}}
</article>
<p class="back"><a href="{{ "" | relURL }}">All contacts</a></p>
{{ end }}
"""

# A group's page: its members, as the home page lists everyone.
TERM = """\
{{ define "main" }}
<h1>{{ .Title }}</h1>
<p class="count">{{ len .Pages }} members</p>
{{ partial "directory.html" (.Pages.ByParam "sortKey") }}
<p class="back"><a href="{{ "groups/" | relURL }}">Groups</a></p>
{{ end }}
"""

TAXONOMY = """\
{{ define "main" }}
<h1>{{ .Title }}</h1>
<ul>
{{ range .Data.Terms.Alphabetical }}<li><a href="{{ .Page.RelPermalink }}">{{ .Page.Title }}</a> <span class="count">{{ .Count }}</span></li>
{{ end }}
</ul>
{{ end }}
"""

# The contacts section's own page (the one list page without a template of its own), which
# Rolodeck has no counterpart of: the home page is the directory, so this one only points there
# rather than list everyone a second time.
SECTION = """\
{{ define "main" }}
<h1>{{ .Title }}</h1>
<p><a href="{{ "" | relURL }}">{{ len .Pages }} contacts</a></p>
{{ end }}
"""

NOT_FOUND = """\
{{ define "main" }}
<h1>Not found</h1>
<p><a href="{{ "" | relURL }}">All contacts</a></p>
{{ end }}
"""

STYLE = """\
body { font: 16px/1.5 system-ui, sans-serif; margin: 0 auto; max-width: 48rem; padding: 0 1rem; }
.site-header { display: flex; justify-content: space-between; padding: 1rem 0; }
dl div { display: flex; gap: 1rem; }
dt { color: #666; min-width: 6rem; }
address { font-style: normal; }
address .line { display: block; }
.letter h2 { border-bottom: 1px solid #ccc; }
.organization, .count { color: #666; }
"""

LAYOUTS = {
    "_default/baseof.html": BASE,
    "_default/single.html": SINGLE,
    "_default/term.html": TERM,
    "_default/taxonomy.html": TAXONOMY,
    "_default/list.html": SECTION,
    "partials/directory.html": DIRECTORY,
    "index.html": HOME,
    "404.html": NOT_FOUND,
}

LATIN_WITHOUT_DECOMPOSITION = {"ß": "S", "Æ": "A", "Ø": "O", "Œ": "O", "Ł": "L", "Đ": "D", "Þ": "T", "Ð": "D"}
# The 19 initial consonants of a Hangul syllable, in Unicode's order, and the section each is
# filed under: the doubled ones under their plain consonant.
HANGUL_SECTIONS = "ㄱㄱㄴㄷㄷㄹㅁㅂㅂㅅㅅㅇㅈㅈㅊㅋㅌㅍㅎ"
HANGUL_ORDER = "ㄱㄴㄷㄹㅁㅂㅅㅇㅈㅊㅋㅌㅍㅎ"
KANA_ROWS = ("あいうえお", "かきくけこ", "さしすせそ", "たちつてと", "なにぬねの", "はひふへほ",
             "まみむめも", "やゆよ", "らりるれろ", "わをん")
SMALL_KANA = str.maketrans("ぁぃぅぇぉっゃゅょゎ", "あいうえおつやゆよわ")


def folded(text):
    """Lower case, without accents, full-width letters as ASCII: what the sort key compares."""
    decomposed = unicodedata.normalize("NFKD", text)
    return "".join(c for c in decomposed if not unicodedata.combining(c)).casefold()


def section(name):
    """(position, label) of the section a name is filed under, in the `en` locale's order."""
    if not name:
        return 50, "#"
    first = unicodedata.normalize("NFKD", name[0])[0]
    letter = LATIN_WITHOUT_DECOMPOSITION.get(first.upper(), first.upper())
    if "A" <= letter <= "Z":
        return ord(letter) - ord("A"), letter
    code = ord(name[0])
    if 0xAC00 <= code <= 0xD7A3:
        consonant = HANGUL_SECTIONS[(code - 0xAC00) // 588]
        return 26 + HANGUL_ORDER.index(consonant), consonant
    if 0x30A1 <= ord(first) <= 0x30F6:
        first = chr(ord(first) - 0x60)  # katakana to hiragana
    first = first.translate(SMALL_KANA)
    for row, kana in enumerate(KANA_ROWS):
        if first in kana:
            return 40 + row, kana[0]
    return 50, "#"


def is_east_asian(text):
    return any(0x1100 <= ord(c) <= 0x11FF or 0x3040 <= ord(c) <= 0x30FF or 0x3400 <= ord(c) <= 0x9FFF
               or 0xAC00 <= ord(c) <= 0xD7A3 for c in text)


def display_name(contact):
    given = contact.get("givenName", "").strip()
    family = contact.get("familyName", "").strip()
    if given and family:
        return family + given if is_east_asian(given + family) else given + " " + family
    return given or family or contact.get("organization", "").strip() or contact["id"]


def front_matter(contact):
    """The contact's front matter: its fields, its display name as the title, and the sort key
    and section that Hugo sorts and heads the directory by."""
    given = contact.get("givenName", "").strip()
    family = contact.get("familyName", "").strip()
    primary, secondary = (family, given) if family else (given, "")
    if not primary:
        primary = contact.get("organization", "").strip()
    position, label = section(primary)
    fields = {"title": display_name(contact)}
    for key in ("givenName", "familyName", "organization", "salutation", "phones", "emails", "addresses",
                "birthday", "groups"):
        if contact.get(key):
            fields[key] = contact[key]
    fields["sortKey"] = "%02d %s %s %s" % (position, folded(primary), folded(secondary), contact["id"])
    fields["initial"] = label
    return fields


def write(path, text):
    os.makedirs(os.path.dirname(path), exist_ok=True)
    with open(path, "w", encoding="utf-8") as file:
        file.write(text)


def main():
    if len(sys.argv) != 3:
        sys.exit("usage: hugo_site.py SITE_FOLDER HUGO_FOLDER")
    site, hugo = sys.argv[1:]
    if os.path.exists(hugo):
        sys.exit("hugo_site.py: %s exists already" % hugo)
    with open(os.path.join(site, "store", "contacts.json"), encoding="utf-8") as file:
        contacts = json.load(file)
    with open(os.path.join(site, "store", "groups.json"), encoding="utf-8") as file:
        groups = json.load(file)

    write(os.path.join(hugo, "hugo.toml"), CONFIG)
    for name, text in LAYOUTS.items():
        write(os.path.join(hugo, "layouts", name), text)
    write(os.path.join(hugo, "static", "style.css"), STYLE)
    write(os.path.join(hugo, "content", "_index.md"), json.dumps({"title": "Contacts"}) + "\n")
    write(os.path.join(hugo, "content", "groups", "_index.md"), json.dumps({"title": "Groups"}) + "\n")
    for group in groups:
        write(os.path.join(hugo, "content", "groups", group["id"], "_index.md"),
              json.dumps({"title": group["name"]}, ensure_ascii=False) + "\n")
    folder = os.path.join(hugo, "content", "contacts")
    os.makedirs(folder)
    for contact in contacts:
        with open(os.path.join(folder, contact["id"] + ".md"), "w", encoding="utf-8") as file:
            file.write(json.dumps(front_matter(contact), ensure_ascii=False))
            file.write("\n\n")
            file.write(contact.get("notes", ""))
            file.write("\n")


if __name__ == "__main__":
    main()
