#!/usr/bin/env python3
"""Random edits of a store under `rolodeck watch`, each checked against a whole build.

`make fuzz-watch` runs this. For each layout it writes a synthetic store with
../shared/tools/gen-store.py (beside the repository), starts `rolodeck watch` on it, and then
makes random saves of one to four edits: names (to other contacts' names, to names that share
ids, to Hangul and to decomposed Unicode), phone numbers, emails, birthdays, groups, notes,
organizations, contacts added and removed, ids changed, todos done and linked, group names,
text saved again in the other Unicode normal form, a setting of rolodeck.json (title, locale,
sort, name order, page size, hidden fields and contacts), a template overridden or put back,
photos (set, taken away, their files changed, removed or cut short), todos of a task list of
`.ics` files (done, renamed, reordered, due, added as tasks or subtasks, removed) and, in the
vCard layouts, group cards (`KIND:group`: made, renamed, members added and taken away by UID
or email, removed), in the JSON layouts salutations (named by id or as text, changed, added),
and the name of a collection (`displayname`). After each save it waits for the rebuild and
compares every file of the watched output, but the manifest, with `rolodeck build` of the same
store into an empty folder. Where they differ it keeps the store before and after the save and
both outputs under the work folder (`fail-<step>/`), says what differs, and stops; it exits 1.

Layouts: `array` (one contacts.json), `files` (store/contacts/<n>.json), `vcards` (a vdir, a
card per file), `onevcf` (every card in one contacts.vcf) and `nouid` (the same without UIDs,
as phones export them, so ids are made from names). The edits follow from the seed alone, so a
failure is repeated by running the same layout, size and seed again. `--poll` runs
`watch --poll`.

Standard library only. The watcher and the builds read the store as any user's would; nothing
here reaches into Rolodeck but its command line.
"""

import argparse
import base64
import collections
import filecmp
import json
import os
import random
import shutil
import subprocess
import sys
import threading
import time
import unicodedata
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
GEN_STORE = REPO.parent / "shared" / "tools" / "gen-store.py"
sys.path.insert(0, str(REPO / "Benchmarks"))
import to_vdir  # noqa: E402  (the vCard writer the benchmarks use)

LAYOUTS = ["array", "files", "vcards", "onevcf", "nouid"]
KINDS = ["rename", "rename", "rename", "normalize", "phone", "email", "birthday", "group", "note", "org",
         "add", "remove", "id", "todo", "groupname", "config", "template", "photo", "photo", "ics", "ics",
         "groupcard", "groupcard", "salutation", "displayname", "private"]
JSON_LAYOUTS = ("array", "files")
VCARD_LAYOUTS = ("vcards", "onevcf", "nouid")
# Photos the tests use: every format a photo may have, and one cut short (a warning).
PHOTOS = {name: (REPO / "Tests" / "Photos" / name).read_bytes()
          for name in ["face.jpg", "face.png", "face.gif", "face.webp", "face-gps.jpg"]}
PHOTOS["short.jpg"] = PHOTOS["face.jpg"][:400]
# What a todo of the task list may be called, and a group card.
TITLES = ["Call Anna", "Zahnarzt", "우유 사기", "Ödön's party", "Buy milk", "Ju\u0308rgen anrufen"]
GROUP_CARD_NAMES = ["Family", "Tennis", "테니스", "Book club", "Nachbarn", "Zoë's friends"]
# Templates a site may override (Templates/<name>.mustache): pages, and partials many pages use.
TEMPLATES = ["contact", "group", "index", "section", "birthdays", "todos", "contact-list", "todo-item", "pager"]
# Names that collide: with each other, with the numbered ids of another ("Anna Kim 2"), across
# normal forms, in scripts that sort and section apart.
NAMES = [("Anna", "Kim"), ("Anna", "Kim 2"), ("Anna 3", ""), ("민준", "김"), ("花子", "佐藤"),
         ("Zoë", "Ångström"), ("Åsa", "Öberg"), ("Émile", "Zola"), ("aaron", "aa"), ("", "Zz"),
         ("Jürgen", "Müller"), ("Ju\u0308rgen", "Mu\u0308ller"), ("Juergen", "Mueller"), ("", "#1 Pizza"),
         ("Bob", "")]


def has_non_ascii(text):
    return any(ord(character) > 127 for character in text or "")


def other_form(text):
    """The text in NFD, or in NFC when it is in NFD already."""
    decomposed = unicodedata.normalize("NFD", text)
    return decomposed if decomposed != text else unicodedata.normalize("NFC", text)


class Store:
    """The store as records, and how to write them in one layout."""

    def __init__(self, site, layout, contacts, groups, todos, rng):
        self.site, self.layout, self.rng = site, layout, rng
        self.store = site / "store"
        self.book = self.store / "book"
        self.contacts, self.groups, self.todos = contacts, groups, todos
        self.config = {}
        self.serial = 0
        # The task list: UID -> the todo's fields; the group cards: UID -> name and members.
        self.tasks, self.group_cards = {}, {}
        # The store's salutations, which JSON contacts name by id.
        self.salutations = [{"id": "herr", "text": "Herr"}, {"id": "frau", "text": "Frau"}, {"id": "dr", "text": "Dr."}]
        if layout == "nouid":
            for todo in todos:
                todo.pop("contact", None)
        for contact in contacts:
            contact["_file"] = self.new_file()

    def new_file(self):
        self.serial += 1
        return "c%06d%s" % (self.serial, ".json" if self.layout == "files" else ".vcf")

    @staticmethod
    def record(contact):
        return {key: value for key, value in contact.items() if not key.startswith("_")}

    @staticmethod
    def put(path, data):
        temporary = path.with_name("." + path.name + ".tmp")
        temporary.write_bytes(data)
        os.replace(temporary, path)

    def put_list(self, path, records):
        self.put(path, ("[\n" + ",\n".join(json.dumps(r, ensure_ascii=False) for r in records) + "\n]\n").encode())

    def card(self, contact):
        names = to_vdir.category_names(self.store)
        categories = [names.get(group, group) for group in contact.get("groups") or []]
        card = to_vdir.card(self.record(contact), categories, self.layout != "nouid")
        if contact.get("_photo"):
            photo = to_vdir.fold("PHOTO;ENCODING=b:" + base64.b64encode(PHOTOS[contact["_photo"]]).decode())
            card = card.replace(b"END:VCARD", photo + b"END:VCARD")
        if contact.get("private"):
            card = card.replace(b"END:VCARD", b"CLASS:PRIVATE\r\nEND:VCARD")
        return card

    def group_card(self, uid):
        """A vCard 4.0 group card; members by UID, or by email where the layout has no UIDs."""
        group = self.group_cards[uid]
        lines = ["BEGIN:VCARD", "VERSION:4.0", "KIND:group", "FN:" + to_vdir.escape(group["name"])]
        if self.layout != "nouid":
            lines.append("UID:" + uid)
        if group.get("private"):
            lines.append("CLASS:CONFIDENTIAL")
        lines += ["MEMBER:" + member for member in group["members"]]
        lines.append("END:VCARD")
        return b"".join(to_vdir.fold(line) for line in lines)

    def member(self, contact):
        """How a group card names `contact`: by UID, or by its email address."""
        emails = [entry["value"] for entry in contact.get("emails") or [] if isinstance(entry, dict)]
        if self.layout == "nouid" or (emails and self.rng.random() < 0.3):
            return "mailto:" + emails[0] if emails else None
        return "urn:uuid:" + contact["id"]

    def task(self, uid):
        """A task list's todo as an .ics file."""
        todo = self.tasks[uid]
        lines = ["BEGIN:VCALENDAR", "VERSION:2.0", "PRODID:-//Rolodeck//watch_fuzz.py//EN", "BEGIN:VTODO",
                 "UID:" + uid, "DTSTAMP:20261201T090000Z", "CREATED:%s" % todo["created"],
                 "SUMMARY:" + todo["title"], "STATUS:" + ("COMPLETED" if todo["done"] else "NEEDS-ACTION")]
        if todo.get("order") is not None:
            lines.append("X-APPLE-SORT-ORDER:%d" % todo["order"])
        if todo.get("due"):
            lines.append("DUE;VALUE=DATE:" + todo["due"])
        if todo.get("parent"):
            lines.append("RELATED-TO:" + todo["parent"])
        if todo.get("private"):
            lines.append("CLASS:PRIVATE")
        lines += ["END:VTODO", "END:VCALENDAR"]
        return "".join(line + "\r\n" for line in lines).encode()

    def write_contact(self, contact):
        if self.layout == "files":
            self.put(self.store / "contacts" / contact["_file"], json.dumps(self.record(contact), ensure_ascii=False).encode())
        elif self.layout == "vcards":
            self.put(self.book / contact["_file"], self.card(contact))

    def remove_contact(self, contact):
        if self.layout == "files":
            (self.store / "contacts" / contact["_file"]).unlink()
        elif self.layout == "vcards":
            (self.book / contact["_file"]).unlink()

    def write_whole(self):
        if self.layout == "array":
            self.put_list(self.store / "contacts.json", [self.record(c) for c in self.contacts])
        elif self.layout in ("onevcf", "nouid"):
            self.put(self.book / "contacts.vcf", b"".join(self.card(c) for c in self.contacts)
                     + b"".join(self.group_card(uid) for uid in self.group_cards))

    def create(self):
        if self.layout == "files":
            (self.store / "contacts").mkdir()
        if self.layout in VCARD_LAYOUTS:
            self.book.mkdir()
            (self.book / "displayname").write_text("Contacts\n")
        (self.store / "photos").mkdir()
        (self.store / "tasks").mkdir()
        (self.store / "tasks" / "displayname").write_text("Errands\n")
        for _ in range(12):
            self.new_task()
        for uid in self.tasks:
            self.put(self.store / "tasks" / (uid + ".ics"), self.task(uid))
        if self.layout in VCARD_LAYOUTS:
            for _ in range(3):
                self.new_group_card()
            if self.layout == "vcards":
                for uid in self.group_cards:
                    self.put(self.book / (uid + ".vcf"), self.group_card(uid))
        self.put_list(self.store / "groups.json", self.groups)
        self.put_list(self.store / "todos.json", self.todos)
        self.put_list(self.store / "salutations.json", self.salutations)
        if self.layout in ("files", "vcards"):
            for contact in self.contacts:
                self.write_contact(contact)
        else:
            self.write_whole()

    def save(self, changed):
        """Writes what the edits `changed`: contacts, "groups", "todos", "salutations", ("task", uid)
        and ("groupcard", uid); a task or group card gone is removed. (Photos, the config, templates
        and names of collections are written by their edits.)"""
        for item in changed:
            if isinstance(item, tuple) and item[0] == "task":
                path = self.store / "tasks" / (item[1] + ".ics")
                self.put(path, self.task(item[1])) if item[1] in self.tasks else path.unlink()
            elif isinstance(item, tuple) and item[0] == "groupcard" and self.layout == "vcards":
                path = self.book / (item[1] + ".vcf")
                self.put(path, self.group_card(item[1])) if item[1] in self.group_cards else path.unlink()
        if "salutations" in changed:
            self.put_list(self.store / "salutations.json", self.salutations)
        if "groups" in changed:
            self.put_list(self.store / "groups.json", self.groups)
        if "todos" in changed:
            self.put_list(self.store / "todos.json", self.todos)
        if self.layout in ("files", "vcards"):
            for contact in changed:
                if isinstance(contact, dict) and any(contact is c for c in self.contacts):
                    self.write_contact(contact)
            if "groups" in changed and self.layout == "vcards":
                # A card lists its groups by name.
                for contact in self.contacts:
                    if contact.get("groups"):
                        self.write_contact(contact)
        else:
            self.write_whole()

    def some_name(self):
        r = self.rng.random()
        if r < 0.35:
            other = self.rng.choice(self.contacts)
            return other.get("givenName") or "", other.get("familyName") or ""
        if r < 0.75:
            return self.rng.choice(NAMES)
        return (self.rng.choice(["Xavier", "Yuki", "Ingrid", "Lee", "Ödön"]),
                self.rng.choice(["Abbott", "Zimmer", "Lee", "이", "Nakamura"])
                + ("" if self.rng.random() < 0.7 else " %d" % self.rng.randint(1, 4)))

    def edit(self, kind):
        """One random edit of `kind`; returns what it changed, for `save`."""
        rng = self.rng
        contact = rng.choice(self.contacts)
        if kind == "rename":
            contact["givenName"], contact["familyName"] = self.some_name()
            if not contact["givenName"] and not contact["familyName"]:
                contact["givenName"] = "Nobody"
        elif kind == "normalize":
            r = rng.random()
            if r < 0.2:
                group = rng.choice([g for g in self.groups if has_non_ascii(g["name"])] or self.groups)
                group["name"] = other_form(group["name"])
                return ["groups"]
            if r < 0.35:
                todo = rng.choice([t for t in self.todos if has_non_ascii(t["title"])] or self.todos)
                todo["title"] = other_form(todo["title"])
                return ["todos"]
            named = [c for c in self.contacts if has_non_ascii((c.get("givenName") or "") + (c.get("familyName") or ""))]
            if named:
                contact = rng.choice(named)
            for key in ("givenName", "familyName", "organization", "notes"):
                if contact.get(key):
                    contact[key] = other_form(contact[key])
        elif kind == "phone":
            contact["phones"] = (contact.get("phones") or []) + [
                {"label": rng.choice(["work", "mobile", "home"]), "value": "+1 555 01%02d" % rng.randint(0, 99)}]
        elif kind == "email":
            contact["emails"] = [{"label": "work", "value": "x%d@example.org" % rng.randint(0, 999)}]
        elif kind == "birthday":
            r = rng.random()
            if r < 0.4:
                contact.pop("birthday", None)
            elif r < 0.8:
                contact["birthday"] = "%04d-%02d-%02d" % (rng.randint(1940, 2020), rng.randint(1, 12), rng.randint(1, 28))
            else:
                contact["birthday"] = "--%02d-%02d" % (rng.randint(1, 12), rng.randint(1, 28))
        elif kind == "group":
            group = rng.choice(self.groups)["id"]
            groups = list(contact.get("groups") or [])
            groups.remove(group) if group in groups else groups.append(group)
            contact["groups"] = groups
        elif kind == "note":
            contact["notes"] = rng.choice(["", "Hello **world**", "- a\n- b", "Note %d" % rng.randint(0, 9)])
        elif kind == "org":
            contact["organization"] = rng.choice(["", "ACME", "회사", "Zeta GmbH"])
        elif kind == "add":
            given, family = self.some_name()
            new = {"id": "new-%d" % rng.randint(0, 10**9), "givenName": given or "New", "familyName": family,
                   "phones": [{"label": "mobile", "value": "010-1234-%04d" % rng.randint(0, 9999)}]}
            if rng.random() < 0.3:
                new["birthday"] = "1990-%02d-%02d" % (rng.randint(1, 12), rng.randint(1, 28))
            if rng.random() < 0.3:
                new["groups"] = [rng.choice(self.groups)["id"]]
            new["_file"] = self.new_file()
            self.contacts.insert(rng.randint(0, len(self.contacts)), new)
            return [new]
        elif kind == "remove" and len(self.contacts) > 10:
            self.contacts.remove(contact)
            self.remove_contact(contact)
            for todo in self.todos:
                if todo.get("contact") == contact["id"]:
                    todo.pop("contact")
            return ["todos"]
        elif kind == "id" and self.layout in JSON_LAYOUTS:
            old = contact["id"]
            contact["id"] = rng.choice(["zz-%d" % rng.randint(0, 999), "aa-%d" % rng.randint(0, 999), old + "-x"])
            if any(other is not contact and other["id"] == contact["id"] for other in self.contacts):
                contact["id"] = old
            for todo in self.todos:
                if todo.get("contact") == old:
                    todo["contact"] = contact["id"]
                    return [contact, "todos"]
        elif kind == "todo":
            todo = rng.choice(self.todos)
            todo["done"] = not todo.get("done")
            if self.layout != "nouid" and rng.random() < 0.5:
                todo["contact"] = rng.choice(self.contacts)["id"]
            return ["todos"]
        elif kind == "groupname":
            group = rng.choice(self.groups)
            group["name"] = rng.choice(["Family", "Tennis", "테니스", "Club %d" % rng.randint(0, 9)])
            return ["groups"]
        elif kind == "config":
            self.edit_config()
            return []
        elif kind == "template":
            self.edit_template()
            return []
        elif kind == "photo":
            return self.edit_photo(contact)
        elif kind == "ics":
            return self.edit_task()
        elif kind == "groupcard" and self.layout in VCARD_LAYOUTS:
            return self.edit_group_card()
        elif kind == "salutation" and self.layout in JSON_LAYOUTS:
            return self.edit_salutation(contact)
        elif kind == "private":
            return self.edit_private(contact)
        elif kind == "displayname":
            # A collection renamed: the task list, or the address book.
            folder = self.book if self.layout in VCARD_LAYOUTS and rng.random() < 0.5 else self.store / "tasks"
            self.put(folder / "displayname", (rng.choice(["Errands", "Besorgungen", "할 일", "Contacts", "Work"])
                                              + "\n").encode())
            return []
        return [contact]

    def edit_salutation(self, contact):
        """Names a salutation of the store (by id) for `contact`, gives it one as text, changes
        a salutation's text or adds one."""
        rng = self.rng
        r = rng.random()
        if r < 0.35:
            contact["salutation"] = {"id": rng.choice(self.salutations)["id"]}
            return [contact]
        if r < 0.5:
            contact["salutation"] = rng.choice(["Herr", "Frau", "Dr.", "Mx."])
            return [contact]
        if r < 0.85:
            salutation = rng.choice(self.salutations)
            salutation["text"] = rng.choice(["Herr", "Hr.", "Frau", "Fr.", "Dr.", "Prof. Dr.", "선생님"])
        else:
            self.serial += 1
            self.salutations.append({"id": "s%d" % self.serial, "text": rng.choice(["Mx.", "Sir", "Dame"])})
        return ["salutations"]

    def edit_photo(self, contact):
        """Gives `contact` a photo or takes it away; in the JSON layouts also changes, removes or
        cuts short a photo file that contacts name."""
        rng = self.rng
        if self.layout in VCARD_LAYOUTS:
            contact["_photo"] = None if contact.get("_photo") and rng.random() < 0.4 else rng.choice(sorted(PHOTOS))
            return [contact]
        photos = self.store / "photos"
        files = sorted(path.name for path in photos.iterdir())
        r = rng.random()
        if files and r < 0.25:
            # The file changes; the contacts that name it do not.
            self.put(photos / rng.choice(files), PHOTOS[rng.choice(sorted(PHOTOS))])
            return []
        if files and r < 0.35:
            (photos / rng.choice(files)).unlink()
            return []
        if contact.get("photo") and r < 0.5:
            del contact["photo"]
            return [contact]
        if files and r < 0.7:
            contact["photo"] = "photos/" + rng.choice(files)
            return [contact]
        self.serial += 1
        name = "p%d%s" % (self.serial, os.path.splitext(rng.choice(sorted(PHOTOS)))[1])
        self.put(photos / name, PHOTOS[rng.choice(sorted(PHOTOS))])
        contact["photo"] = "photos/" + name
        return [contact]

    def edit_private(self, contact):
        """Marks a contact, a group of groups.json, a group card, a todo of the task list or of
        todos.json private (`"private": true`, or CLASS in a card or task), or takes the mark away."""
        rng = self.rng

        def toggle(record):
            if record.get("private"):
                record.pop("private")
            else:
                record["private"] = True

        r = rng.random()
        if r < 0.4:
            toggle(contact)
            return [contact]
        if r < 0.55:
            toggle(rng.choice(self.groups))
            return ["groups"]
        if r < 0.7 and self.layout in VCARD_LAYOUTS and self.group_cards:
            uid = rng.choice(sorted(self.group_cards))
            toggle(self.group_cards[uid])
            return [("groupcard", uid)]
        if r < 0.85 and self.tasks:
            uid = rng.choice(sorted(self.tasks))
            toggle(self.tasks[uid])
            return [("task", uid)]
        toggle(rng.choice(self.todos))
        return ["todos"]

    def new_task(self):
        rng = self.rng
        self.serial += 1
        uid = "task-%d" % self.serial
        parents = [other for other, todo in self.tasks.items() if not todo.get("parent")]
        self.tasks[uid] = {
            "title": rng.choice(TITLES), "done": rng.random() < 0.3, "created": "202611%02dT120000Z" % rng.randint(1, 28),
            "order": rng.choice([None, rng.randint(-5, 50)]),
            "due": rng.choice([None, "2026-12-%02d" % rng.randint(1, 31)]),
            "parent": rng.choice(parents) if parents and rng.random() < 0.25 else None}
        return uid

    def edit_task(self):
        """Changes one todo of the task list, adds one or removes one."""
        rng = self.rng
        r = rng.random()
        if r < 0.15 or not self.tasks:
            return [("task", self.new_task())]
        uid = rng.choice(sorted(self.tasks))
        todo = self.tasks[uid]
        if r < 0.25:
            del self.tasks[uid]
            changed = [("task", uid)]
            for other, child in self.tasks.items():
                if child.get("parent") == uid:
                    child["parent"] = None
                    changed.append(("task", other))
            return changed
        if r < 0.45:
            todo["done"] = not todo["done"]
        elif r < 0.6:
            todo["title"] = other_form(todo["title"]) if has_non_ascii(todo["title"]) and rng.random() < 0.5 \
                else rng.choice(TITLES)
        elif r < 0.8:
            todo["order"] = rng.choice([None, rng.randint(-5, 50)])
        else:
            todo["due"] = rng.choice([None, "2026-12-%02d" % rng.randint(1, 31), "2027-01-%02d" % rng.randint(1, 31)])
        return [("task", uid)]

    def new_group_card(self):
        rng = self.rng
        self.serial += 1
        uid = "group-card-%d" % self.serial
        members = [self.member(contact) for contact in rng.sample(self.contacts, rng.randint(0, 6))]
        self.group_cards[uid] = {"name": rng.choice(GROUP_CARD_NAMES + [g["name"] for g in self.groups[:3]]),
                                 "members": [member for member in members if member]}
        return uid

    def edit_group_card(self):
        """Makes a group card, renames one, adds or takes away a member, or removes one."""
        rng = self.rng
        r = rng.random()
        if r < 0.15 or not self.group_cards:
            uid = self.new_group_card()
        else:
            uid = rng.choice(sorted(self.group_cards))
            group = self.group_cards[uid]
            if r < 0.25:
                del self.group_cards[uid]
            elif r < 0.4:
                group["name"] = rng.choice(GROUP_CARD_NAMES + [g["name"] for g in self.groups[:3]])
            elif r < 0.7 or not group["members"]:
                member = self.member(rng.choice(self.contacts))
                if member and member not in group["members"]:
                    group["members"].append(member)
            else:
                group["members"].remove(rng.choice(group["members"]))
        return [("groupcard", uid)]

    def edit_config(self):
        """Changes, adds or drops one setting of rolodeck.json, and saves it."""
        rng, config = self.rng, self.config
        before = dict(config)
        setting = rng.choice(["title", "locale", "sortBy", "nameOrder", "pageSize", "hiddenFields",
                              "hiddenContacts"])
        # Ids made from names (the export without UIDs) are not known here.
        if setting == "hiddenContacts" and self.layout == "nouid":
            setting = "hiddenFields"
        if setting in config and rng.random() < 0.3:
            del config[setting]
        elif setting == "title":
            config["title"] = rng.choice(["Contacts", "Kontakte", "연락처", "Club %d" % rng.randint(0, 9)])
        elif setting == "locale":
            config["locale"] = rng.choice(["en", "de", "sv", "ko", "ja"])
        elif setting == "sortBy":
            config["sortBy"] = rng.choice(["familyName", "givenName"])
        elif setting == "nameOrder":
            config["nameOrder"] = rng.choice(["givenFirst", "familyFirst"])
        elif setting == "pageSize":
            config["pageSize"] = rng.choice([20, 100, 500])
        elif setting == "hiddenFields":
            fields = ["phones", "emails", "birthday", "age", "notes", "organization", "groups", "addresses",
                      "photo", "salutation"]
            config["hiddenFields"] = sorted(rng.sample(fields, rng.randint(0, 3)))
        else:
            config["hiddenContacts"] = [rng.choice(self.contacts)["id"] for _ in range(rng.randint(1, 3))]
        if config == before:
            # A save that changes nothing is not rebuilt, and the wait for its rebuild times out.
            self.serial += 1
            config["title"] = "Title %d" % self.serial
        self.put(self.site / "rolodeck.json", (json.dumps(config, ensure_ascii=False, indent=2) + "\n").encode())

    def edit_template(self):
        """Overrides one of the bundled templates with a line added, or removes an override."""
        name = self.rng.choice(TEMPLATES)
        path = self.site / "Templates" / (name + ".mustache")
        if path.exists() and self.rng.random() < 0.3:
            path.unlink()
            return
        text = (REPO / "Templates" / (name + ".mustache")).read_text()
        self.serial += 1
        mark = '<p class="fuzz">%d</p>\n' % self.serial
        # Inside a page's main block, where it shows; at the top of a partial.
        text = text.replace("{{$main}}\n", "{{$main}}\n" + mark, 1) if "{{$main}}\n" in text else mark + text
        path.parent.mkdir(exist_ok=True)
        self.put(path, text.encode())


def differing(left, right):
    """The files of two output folders that differ, or are in one only; the manifest left out."""
    found = []

    def walk(a, b, relative):
        compared = filecmp.dircmp(a, b)
        found.extend(os.path.join(relative, name) for name in compared.left_only + compared.right_only)
        for name in compared.common_files:
            if not filecmp.cmp(os.path.join(a, name), os.path.join(b, name), shallow=False):
                found.append(os.path.join(relative, name))
        for name in compared.common_dirs:
            walk(os.path.join(a, name), os.path.join(b, name), os.path.join(relative, name))

    walk(left, right, "")
    return sorted(name for name in found if name != ".rolodeck")


def run(binary, layout, size, steps, seed, work, poll=False, only=None, made=None):
    """Runs one layout; returns the number of the step whose output differed, or None."""
    rng = random.Random(seed)
    shutil.rmtree(work, ignore_errors=True)
    work.mkdir(parents=True)
    generated = work / "generated"
    subprocess.run([sys.executable, str(GEN_STORE), "--contacts", str(size), "--seed", str(seed),
                    "--out", str(generated), "--layout", "array"], check=True, capture_output=True)
    source = generated / "store"
    site, out, fresh = work / "site", work / "out", work / "fresh"
    shutil.copytree(generated, site, ignore=lambda folder, names: ["contacts.json"] if Path(folder) == source else [])
    store = Store(site, layout, list(to_vdir.records(str(source), "contacts")),
                  list(to_vdir.records(str(source), "groups")), list(to_vdir.records(str(source), "todos")), rng)
    store.create()
    kinds = [kind for kind in KINDS if not (kind in ("id", "salutation") and layout not in JSON_LAYOUTS)
             and not (kind == "groupcard" and layout not in VCARD_LAYOUTS) and (not only or kind in only)]
    if not kinds:
        sys.exit("no kind of save among %s applies to the %s layout" % (", ".join(sorted(only)), layout))

    said = []
    watch = subprocess.Popen([binary, "watch", "--site", str(site), "--out", str(out)] + (["--poll"] if poll else []),
                             stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    threading.Thread(target=lambda: [said.append(line) for line in watch.stdout], daemon=True).start()

    def settle(before, timeout=30):
        """Waits for the watch to report a rebuild after `before` lines, then for it to go quiet."""
        start = time.time()
        while len(said) == before and time.time() - start < timeout:
            time.sleep(0.02)
        last = len(said)
        while True:
            time.sleep(0.4)
            if len(said) == last:
                return
            last = len(said)

    try:
        while not any("Watching" in line for line in said):
            if watch.poll() is not None:
                sys.exit("rolodeck watch stopped:\n" + "".join(said))
            time.sleep(0.05)
        for step in range(steps):
            before_store = work / "before"
            shutil.rmtree(before_store, ignore_errors=True)
            shutil.copytree(site / "store", before_store)
            changed, outside = [], False
            for _ in range(1 if rng.random() < 0.7 else rng.randint(2, 4)):
                kind = rng.choice(kinds)
                changed += store.edit(kind)
                if made is not None:
                    made[kind] += 1
                outside = outside or kind in ("config", "template")
            before = len(said)
            store.save(changed)
            # An edit that left the store's bytes as they were (a birthday taken from a card that
            # had none) is no change: no rebuild is reported, so it is not waited for as long.
            same = not outside and not differing(before_store, site / "store")
            settle(before, timeout=1.5 if same else 30)
            shutil.rmtree(fresh, ignore_errors=True)
            built = subprocess.run([binary, "build", "--quiet", "--site", str(site), "--out", str(fresh)],
                                   capture_output=True, text=True)
            if built.returncode != 0:
                print("%s seed %d step %d: the whole build failed: %s" % (layout, seed, step, built.stderr.strip()))
                return step
            differ = differing(out, fresh)
            if differ:
                # A save the watcher saw as two (a contact file, then groups.json) rebuilds twice;
                # the second may still be writing. Only a difference that stays is one.
                settle(len(said), timeout=3)
                differ = differing(out, fresh)
            if differ:
                kept = work / ("fail-%d" % step)
                shutil.copytree(before_store, kept / "store-before")
                shutil.copytree(site / "store", kept / "store-after")
                if (site / "Templates").exists():
                    shutil.copytree(site / "Templates", kept / "Templates-after")
                if (site / "rolodeck.json").exists():
                    shutil.copy(site / "rolodeck.json", kept / "rolodeck-after.json")
                shutil.copytree(out, kept / "watched")
                shutil.copytree(fresh, kept / "built")
                (kept / "watch.log").write_text("".join(said))
                print("%s seed %d step %d: the watched output differs from a whole build in %s; kept in %s"
                      % (layout, seed, step, ", ".join(differ[:8]) + (" …" if len(differ) > 8 else ""), kept))
                return step
    finally:
        watch.terminate()
        watch.wait()
    return None


def main():
    parser = argparse.ArgumentParser(description="Random saves under rolodeck watch, each checked against a whole build.")
    parser.add_argument("--bin", required=True, help="the rolodeck binary")
    parser.add_argument("--layouts", default=",".join(LAYOUTS), help="comma-separated, of " + ", ".join(LAYOUTS))
    parser.add_argument("--contacts", type=int, default=1500)
    parser.add_argument("--steps", type=int, default=100, help="saves per layout and seed")
    parser.add_argument("--seeds", default="1", help="comma-separated seeds")
    parser.add_argument("--work", default=str(REPO / ".build" / "fuzz-watch"), help="scratch folder")
    parser.add_argument("--poll", action="store_true", help="run watch --poll (look every second, no inotify)")
    parser.add_argument("--kinds", help="comma-separated kinds of save to make, of " + ", ".join(sorted(set(KINDS)))
                        + " (all by default)")
    args = parser.parse_args()
    only = set(args.kinds.split(",")) if args.kinds else None
    if only and not only <= set(KINDS):
        sys.exit("unknown kinds %s" % ", ".join(sorted(only - set(KINDS))))
    if not GEN_STORE.exists():
        sys.exit("%s not found: the store generator lies beside the repository" % GEN_STORE)
    failed = 0
    for seed in (int(s) for s in args.seeds.split(",")):
        for layout in args.layouts.split(","):
            if layout not in LAYOUTS:
                sys.exit("unknown layout %s" % layout)
            start = time.time()
            work = Path(args.work) / ("%s-%d" % (layout, seed))
            made = collections.Counter()
            step = run(args.bin, layout, args.contacts, args.steps, seed, work, poll=args.poll, only=only, made=made)
            if step is None:
                # Only a failing run's stores and outputs are worth their room (tens of MB).
                shutil.rmtree(work, ignore_errors=True)
                print("%s seed %d: %d saves, every output the same as a whole build's (%.0f s); edits: %s"
                      % (layout, seed, args.steps, time.time() - start,
                         ", ".join("%s %d" % item for item in sorted(made.items()))), flush=True)
            else:
                failed += 1
    sys.exit(1 if failed else 0)


if __name__ == "__main__":
    main()
