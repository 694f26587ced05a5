#!/usr/bin/env python3
"""Rewrites a JSON store's contacts as a vdir of vCard 3.0 files, one card per file.

Usage:
    python3 Benchmarks/to_vdir.py SITE OUT [--book NAME] [--displayname TEXT] [--one-file] [--no-uids]

SITE is a site folder whose store/ holds contacts.json, store/contacts/<id>.json, or both (what
gen-store.py writes in either layout). OUT receives a copy of SITE in which the contacts are
cards instead: OUT/store/<book>/<file>.vcf, one card per contact, in a vdir collection named by
OUT/store/<book>/displayname (default book "book", shown as "Contacts"). Everything else in SITE
is copied as it is: groups.json and todos.json stay JSON, so the only difference between the
two stores is how the contacts are kept, which is what `make bench` compares. With --one-file
the cards go one after another into OUT/store/<book>/contacts.vcf instead, as a phone exports
its whole address book. With --no-uids the cards have no UID, as Google Contacts and Android
phones export them: Rolodeck then gives each contact an id made from its name, which changes
with the name, so the todos' links to contacts are left out.

The cards are written as RFC 2426 asks: CRLF line ends; lines folded at 75 octets, never inside
a UTF-8 sequence; text values with backslash, comma, semicolon and newline escaped. Fields map
as docs/store-format.md's vCard table reads them back:

    id                    UID (so the contact keeps its id)
    salutation, givenName, familyName, additionalNames, suffix
                          N (family; given; additional; prefix; suffix), and FN
    nickname              NICKNAME
    phoneticGivenName, phoneticFamilyName
                          X-PHONETIC-FIRST-NAME, X-PHONETIC-LAST-NAME
    organization, title   ORG, TITLE
    emails, phones, urls  EMAIL, TEL, URL; the labels home, work, mobile (cell), fax, pager,
                          main, other as TYPE=, any other label as Apple's itemN.X-ABLabel
    addresses             ADR (;;street;city;region;postal code;country), labelled the same way
    birthday              BDAY; a birthday without a year as Apple writes one
                          (BDAY;X-APPLE-OMIT-YEAR=1604:1604-MM-DD)
    groups                CATEGORIES, each the group's name from groups.json (the group's id
                          where its name does not single it out), which joins that group
    notes                 NOTE

A contact with neither given nor family name gets FN = its organization (read back as an
organization) or else its nickname (read back as a given name: vCard has no name-less person).
Standard library only; contacts are streamed, so a million of them need little memory.
"""

import argparse
import hashlib
import json
import os
import re
import shutil
import sys

# Labels the reader translates; written as vCard TYPE words (mobile as vCard's CELL).
TYPE_WORDS = {"home": "HOME", "work": "WORK", "mobile": "CELL", "cell": "CELL", "fax": "FAX",
              "pager": "PAGER", "main": "MAIN", "other": "OTHER"}
# Hangul, kana and CJK ideographs: scripts whose names are written family name first.
EAST_ASIAN = re.compile("[\u1100-\u11ff\u3040-\u30ff\u3130-\u318f\u3400-\u4dbf\u4e00-\u9fff\uac00-\ud7af]")
SAFE_FILE_NAME = re.compile(r"[A-Za-z0-9_@-][A-Za-z0-9._@-]{0,200}")


def escape(text):
    """A text value as RFC 2426 and RFC 6350 escape it."""
    text = text.replace("\\", "\\\\").replace(",", "\\,").replace(";", "\\;")
    return text.replace("\r\n", "\\n").replace("\r", "\\n").replace("\n", "\\n")


def fold(line):
    """One content line as bytes: folded before it exceeds 75 octets, only between UTF-8
    sequences, each continuation line starting with a space; CRLF after each."""
    data = line.encode("utf-8")
    pieces = []
    start, limit = 0, 75
    while len(data) - start > limit:
        cut = start + limit
        while data[cut] & 0xC0 == 0x80:  # a continuation byte: back up to where its character starts
            cut -= 1
        pieces.append(data[start:cut])
        start, limit = cut, 74  # the leading space takes one octet of the next line
    pieces.append(data[start:])
    return b"\r\n ".join(pieces) + b"\r\n"


class Labels:
    """A card's TYPE parameters, or the property groups that carry Apple's custom labels."""

    def __init__(self):
        self.groups = 0
        self.lines = []

    def add(self, name, label, value, always=()):
        """Adds `name:value` labelled `label`; `always` are TYPE words it has whatever its label."""
        label = label or ""
        words = list(always)
        if label in TYPE_WORDS:
            words.append(TYPE_WORDS[label])
        elif label:
            self.groups += 1
            group = "item%d" % self.groups
            self.lines.append("%s.%s%s:%s" % (group, name, type_parameter(words), value))
            self.lines.append("%s.X-ABLabel:%s" % (group, escape(label)))
            return
        self.lines.append("%s%s:%s" % (name, type_parameter(words), value))


def type_parameter(words):
    return ";TYPE=" + ",".join(words) if words else ""


def labelled(entry):
    """(label, value) of an email, phone or URL written as an object or as just its value."""
    if isinstance(entry, str):
        return "", entry
    return entry.get("label") or "", entry.get("value") or ""


def formatted_name(contact):
    """What FN says: the name as a person reads it, else the organization, else the nickname."""
    given, family = contact.get("givenName") or "", contact.get("familyName") or ""
    if family and EAST_ASIAN.match(family):
        name = family + given
    else:
        name = " ".join(part for part in (given, contact.get("additionalNames") or "", family) if part)
    return name or contact.get("organization") or contact.get("nickname") or contact["id"]


def card(contact, categories, uid=True):
    """The vCard 3.0 of one contact, as bytes; without a UID when not `uid`."""
    lines = ["BEGIN:VCARD", "VERSION:3.0", "PRODID:-//Rolodeck//to_vdir.py//EN"]
    if uid:
        lines.append("UID:" + escape(contact["id"]))
    lines.append("FN:" + escape(formatted_name(contact)))
    lines.append("N:" + ";".join(escape(contact.get(key) or "") for key in
                                 ("familyName", "givenName", "additionalNames", "salutation", "suffix")))
    for key, name in (("nickname", "NICKNAME"), ("phoneticGivenName", "X-PHONETIC-FIRST-NAME"),
                      ("phoneticFamilyName", "X-PHONETIC-LAST-NAME"), ("organization", "ORG"),
                      ("title", "TITLE")):
        if contact.get(key):
            lines.append("%s:%s" % (name, escape(contact[key])))
    labels = Labels()
    for entry in contact.get("emails") or []:
        label, value = labelled(entry)
        labels.add("EMAIL", label, escape(value), always=("INTERNET",))
    for entry in contact.get("phones") or []:
        label, value = labelled(entry)
        labels.add("TEL", label, escape(value))
    for address in contact.get("addresses") or []:
        parts = ("", "", address.get("street"), address.get("city"), address.get("region"),
                 address.get("postalCode"), address.get("country"))
        labels.add("ADR", address.get("label"), ";".join(escape(part or "") for part in parts))
    for entry in contact.get("urls") or []:
        label, value = labelled(entry)
        # A URI is not text: it is written as it is (it has no newline, comma or backslash to speak of).
        labels.add("URL", label, re.sub(r"[\r\n]+", " ", value))
    lines += labels.lines
    birthday = contact.get("birthday")
    if birthday:
        if birthday.startswith("--"):
            lines.append("BDAY;X-APPLE-OMIT-YEAR=1604:1604-" + birthday[2:])
        else:
            lines.append("BDAY:" + birthday)
    if categories:
        lines.append("CATEGORIES:" + ",".join(escape(name) for name in categories))
    if contact.get("notes"):
        lines.append("NOTE:" + escape(contact["notes"]))
    lines.append("END:VCARD")
    return b"".join(fold(line) for line in lines)


def records(store, kind):
    """The records of store/<kind>.json (streamed when it has one record per line, as gen-store
    writes it), then those of store/<kind>/*.json in name order."""
    path = os.path.join(store, kind + ".json")
    if os.path.exists(path):
        yield from array_records(path)
    folder = os.path.join(store, kind)
    if os.path.isdir(folder):
        for name in sorted(os.listdir(folder)):
            if name.endswith(".json") and not name.startswith("."):
                with open(os.path.join(folder, name), encoding="utf-8") as handle:
                    yield json.load(handle)


def array_records(path):
    """A JSON array's records: line by line when its first record is a line of its own (so a
    million contacts are never in memory at once), else the whole array at once."""
    with open(path, encoding="utf-8") as handle:
        lines = (line.strip().rstrip(",") for line in handle)
        if next(lines, None) == "[":
            first = next(lines, "]")
            try:
                record = json.loads(first) if first != "]" else None
            except ValueError:
                record = None  # a record spread over several lines
            if first == "]" or isinstance(record, dict):
                if record is not None:
                    yield record
                for line in lines:
                    if line not in ("]", ""):
                        yield json.loads(line)
                return
    with open(path, encoding="utf-8") as handle:
        yield from json.load(handle)


def category_names(store):
    """Each group id's CATEGORIES value: the group's name when no other group has that name
    (ignoring case, as the reader merges them), else its id."""
    groups = list(records(store, "groups"))
    counts = {}
    for group in groups:
        key = (group.get("name") or "").strip().lower()
        counts[key] = counts.get(key, 0) + 1
    names = {}
    for group in groups:
        name = (group.get("name") or "").strip()
        names[group["id"]] = name if name and counts[name.lower()] == 1 else group["id"]
    return names


def file_name(contact_id, taken):
    """A file name for a card: the id when it is a safe, unused name, else a hash of it."""
    if SAFE_FILE_NAME.fullmatch(contact_id) and contact_id.lower() not in taken:
        name = contact_id
    else:
        name = hashlib.sha1(contact_id.encode("utf-8")).hexdigest()
    taken.add(name.lower())
    return name + ".vcf"


def unlink_todos(store_out):
    """Takes the links to contacts out of the todos of store_out (todos.json, todos/*.json):
    they name contacts by id, and a contact without a UID has an id made from its name, which
    changes with it."""
    def unlinked(todo):
        todo.pop("contact", None)
        return todo
    path = os.path.join(store_out, "todos.json")
    if os.path.exists(path):
        todos = [unlinked(todo) for todo in array_records(path)]
        with open(path, "w", encoding="utf-8") as handle:
            handle.write("[\n" + ",\n".join(json.dumps(todo, ensure_ascii=False) for todo in todos) + "\n]\n")
    folder = os.path.join(store_out, "todos")
    if os.path.isdir(folder):
        for name in sorted(os.listdir(folder)):
            if name.endswith(".json") and not name.startswith("."):
                with open(os.path.join(folder, name), encoding="utf-8") as handle:
                    todo = unlinked(json.load(handle))
                with open(os.path.join(folder, name), "w", encoding="utf-8") as handle:
                    json.dump(todo, handle, ensure_ascii=False)


def convert(site, out, book="book", displayname="Contacts", one_file=False, uids=True):
    """Writes OUT as a copy of SITE whose contacts are cards, a file each or all in one, with
    UIDs or without; returns how many."""
    store = os.path.join(site, "store")
    if not os.path.isdir(store):
        sys.exit("%s has no store/ folder" % site)
    if os.path.exists(out):
        sys.exit("%s exists; give a new folder" % out)
    store_out = os.path.join(out, "store")

    def ignored(folder, names):
        if os.path.abspath(folder) == os.path.abspath(store):
            return [name for name in names if name in ("contacts.json", "contacts")]
        return []

    shutil.copytree(site, out, ignore=ignored)
    collection = os.path.join(store_out, book)
    if os.path.exists(collection):
        sys.exit("%s/store already has %s/; pick another --book" % (site, book))
    os.makedirs(collection)
    with open(os.path.join(collection, "displayname"), "w", encoding="utf-8") as handle:
        handle.write(displayname + "\n")
    names = category_names(store)
    taken = set()
    count = 0
    export = open(os.path.join(collection, "contacts.vcf"), "wb") if one_file else None
    for contact in records(store, "contacts"):
        categories = [names.get(group, group) for group in contact.get("groups") or []]
        if export:
            export.write(card(contact, categories, uids))
        else:
            with open(os.path.join(collection, file_name(contact["id"], taken)), "wb") as handle:
                handle.write(card(contact, categories, uids))
        count += 1
    if export:
        export.close()
    if not uids:
        unlink_todos(store_out)
    return count


def main(argv=None):
    parser = argparse.ArgumentParser(description="Rewrite a JSON store's contacts as a vdir of vCard 3.0 files.")
    parser.add_argument("site", help="site folder with store/contacts.json or store/contacts/*.json")
    parser.add_argument("out", help="new folder: a copy of SITE with the contacts as cards")
    parser.add_argument("--book", default="book", help="the collection folder under store/ (default book)")
    parser.add_argument("--displayname", default="Contacts", help="the collection's name (default Contacts)")
    parser.add_argument("--one-file", action="store_true", help="every card in one contacts.vcf")
    parser.add_argument("--no-uids", action="store_true",
                        help="cards without UID, as Google Contacts and Android export them")
    args = parser.parse_args(argv)
    count = convert(args.site, args.out, args.book, args.displayname, args.one_file, not args.no_uids)
    print("wrote %d cards to %s" % (count, os.path.join(args.out, "store", args.book)), file=sys.stderr)


if __name__ == "__main__":
    main()
