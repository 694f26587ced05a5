#!/usr/bin/env python3
"""Random edits of a store under `rolodeck watch`, each checked against a whole build.

`make fuzz-watch` runs this. For each layout it writes a synthetic store with
../shared/tools/gen-store.py (beside the repository), starts `rolodeck watch` on it, and then
makes random saves of one to four edits: names (to other contacts' names, to names that share
ids, to Hangul and to decomposed Unicode), phone numbers, emails, birthdays, groups, notes,
organizations, contacts added and removed, ids changed, todos done and linked, group names,
text saved again in the other Unicode normal form, a setting of rolodeck.json (title, locale,
sort, name order, page size, hidden fields and contacts) and a template overridden or put back. After each save it waits for the rebuild and
compares every file of the watched output, but the manifest, with `rolodeck build` of the same
store into an empty folder. Where they differ it keeps the store before and after the save and
both outputs under the work folder (`fail-<step>/`), says what differs, and stops; it exits 1.

Layouts: `array` (one contacts.json), `files` (store/contacts/<n>.json), `vcards` (a vdir, a
card per file), `onevcf` (every card in one contacts.vcf) and `nouid` (the same without UIDs,
as phones export them, so ids are made from names). The edits follow from the seed alone, so a
failure is repeated by running the same layout, size and seed again.

Standard library only. The watcher and the builds read the store as any user's would; nothing
here reaches into Rolodeck but its command line.
"""

import argparse
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
         "add", "remove", "id", "todo", "groupname", "config", "template"]
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
        return to_vdir.card(self.record(contact), categories, self.layout != "nouid")

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
            self.put(self.book / "contacts.vcf", b"".join(self.card(c) for c in self.contacts))

    def create(self):
        if self.layout == "files":
            (self.store / "contacts").mkdir()
        if self.layout in ("vcards", "onevcf", "nouid"):
            self.book.mkdir()
            (self.book / "displayname").write_text("Contacts\n")
        self.put_list(self.store / "groups.json", self.groups)
        self.put_list(self.store / "todos.json", self.todos)
        if self.layout in ("files", "vcards"):
            for contact in self.contacts:
                self.write_contact(contact)
        else:
            self.write_whole()

    def save(self, changed):
        """Writes what the edits `changed`: contacts, "groups", "todos"."""
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
        elif kind == "id" and self.layout in ("array", "files"):
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
        return [contact]

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
            fields = ["phones", "emails", "birthday", "age", "notes", "organization", "groups", "addresses"]
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


def run(binary, layout, size, steps, seed, work):
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
    kinds = [kind for kind in KINDS if not (kind == "id" and layout not in ("array", "files"))]

    said = []
    watch = subprocess.Popen([binary, "watch", "--site", str(site), "--out", str(out)],
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
    args = parser.parse_args()
    if not GEN_STORE.exists():
        sys.exit("%s not found: the store generator lies beside the repository" % GEN_STORE)
    failed = 0
    for seed in (int(s) for s in args.seeds.split(",")):
        for layout in args.layouts.split(","):
            if layout not in LAYOUTS:
                sys.exit("unknown layout %s" % layout)
            start = time.time()
            work = Path(args.work) / ("%s-%d" % (layout, seed))
            step = run(args.bin, layout, args.contacts, args.steps, seed, work)
            if step is None:
                # Only a failing run's stores and outputs are worth their room (tens of MB).
                shutil.rmtree(work, ignore_errors=True)
                print("%s seed %d: %d saves, every output the same as a whole build's (%.0f s)"
                      % (layout, seed, args.steps, time.time() - start), flush=True)
            else:
                failed += 1
    sys.exit(1 if failed else 0)


if __name__ == "__main__":
    main()
