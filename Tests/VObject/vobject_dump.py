#!/usr/bin/python3
"""Prints, as JSON, what Debian's python3-vobject reads from vCard files: per card the formatted
name, the structured name (five components, each a list of values), phones, emails,
categories, kind and members, all as vobject gives them.

Run with Debian's Python (/usr/bin/python3), where python3-vobject is installed:

    /usr/bin/python3 Tests/VObject/vobject_dump.py FILE.vcf ...

The Swift test VObjectDifferentialTests runs it and compares the result with what Rolodeck
reads. vobject takes text, not bytes, so a file is decoded here as UTF-8 (without a byte-order
mark), or as Latin-1 when it is not valid UTF-8.
"""

import json
import sys

import vobject


def text(value):
    """A vobject value as a string; lists (CATEGORIES, structured fields) stay lists."""
    if isinstance(value, list):
        return [text(item) for item in value]
    return "" if value is None else str(value)


def values(card, name):
    return [text(line.value) for line in card.contents.get(name.lower(), [])]


def first(card, name):
    found = values(card, name)
    return found[0] if found else None


def name_parts(card):
    lines = card.contents.get("n", [])
    if not lines:
        return None
    name = lines[0].value
    if isinstance(name, str):
        return [[name], [""], [""], [""], [""]]
    parts = [name.family, name.given, name.additional, name.prefix, name.suffix]
    return [[text(value) for value in part] if isinstance(part, list) else [text(part)] for part in parts]


def categories(card):
    result = []
    for value in values(card, "categories"):
        result += value if isinstance(value, list) else [value]
    return result


def dump(card):
    kind = first(card, "kind") or first(card, "x-addressbookserver-kind")
    return {
        "fn": first(card, "fn"),
        "n": name_parts(card),
        "phones": values(card, "tel"),
        "emails": values(card, "email"),
        "categories": categories(card),
        "kind": (kind or "").lower(),
        "members": values(card, "member") + values(card, "x-addressbookserver-member"),
    }


def read(path):
    with open(path, "rb") as handle:
        data = handle.read()
    try:
        source = data.decode("utf-8-sig")
    except UnicodeDecodeError:
        source = data.decode("latin-1")
    try:
        cards = [dump(card) for card in vobject.readComponents(source, allowQP=True, ignoreUnreadable=True)]
        return {"cards": cards, "error": None}
    except Exception as error:  # vobject raises many kinds; the comparison reports the message
        return {"cards": [], "error": "%s: %s" % (type(error).__name__, error)}


def main(paths):
    result = {path.rsplit("/", 1)[-1]: read(path) for path in paths}
    json.dump(result, sys.stdout, ensure_ascii=False, indent=1, sort_keys=True)
    sys.stdout.write("\n")


if __name__ == "__main__":
    main(sys.argv[1:])
