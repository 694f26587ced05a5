#!/usr/bin/python3
"""Checks the vCards and QR codes of the demo site with tools that are not Rolodeck's own.

Builds Examples/demo with the given rolodeck binary into a fresh temporary folder, then:

* Debian's python3-vobject reads every exported vCard file (contacts/<slug>.vcf,
  groups/<slug>.vcf, contacts.vcf): each contact's card has the UID, name parts, phones and
  emails of its record in Examples/demo/store/contacts.json, and the formatted name its page
  shows; a group's file has a card for each member its page lists; contacts.vcf one for
  every contact page.
* A contact given a photo (Tests/Photos/face-gps.jpg, a JPEG with an EXIF GPS position, added
  to a copy of the demo) has it in its card: vobject decodes the PHOTO to the bytes of the
  photo the site writes under photos/, a JPEG with no EXIF block left.
* Every contact page's QR code (a PNG of one pixel a module inside the page) is decoded by
  zbarimg (Debian zbar-tools): the vCard it holds, read by vobject, has the contact's name and
  first phone. (Tests/Browser/look_tests.py reads the code as Chromium shows it, scaled up.)

Run with Debian's Python, where python3-vobject is installed:

    /usr/bin/python3 Tests/Export/check_exports.py --rolodeck .build/debug/rolodeck

Exits 0 when every check passes, 1 when one fails, 2 when a tool is missing or the site cannot
be built.
"""

import argparse
import base64
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile
from html import unescape
from pathlib import Path

REPO_ROOT = Path(__file__).resolve().parent.parent.parent
DEMO_SITE = REPO_ROOT / "Examples" / "demo"
# A fixed date, so the build is the same on every run (ages, REV).
SOURCE_DATE_EPOCH = "1764806400"


def missing_tools():
    """What this machine lacks to run the checks, as Debian package names."""
    missing = []
    try:
        import vobject  # noqa: F401
    except ImportError:
        missing.append("python3-vobject")
    if shutil.which("zbarimg") is None:
        missing.append("zbar-tools")
    return missing


def read_cards(data):
    """Every card of a vCard file's text, as vobject reads it."""
    import vobject

    return list(vobject.readComponents(data))


def values(card, name):
    return [line.value for line in card.contents.get(name.lower(), [])]


def first(card, name):
    found = values(card, name)
    return found[0] if found else None


def name_parts(card):
    """The family and given name of a card's N, each as one string."""
    name = first(card, "n")
    if name is None:
        return None

    def text(part):
        return " ".join(part) if isinstance(part, list) else (part or "")

    return text(name.family), text(name.given)


class Page:
    """What a contact page shows that the checks compare: its name and its QR code's image."""

    def __init__(self, html):
        match = re.search(r'<span class="name"[^>]*>(.*?)</span>', html)
        self.name = unescape(match.group(1)) if match else None
        match = re.search(r'<img class="qr-code" src="data:image/png;base64,([A-Za-z0-9+/=]+)" '
                          r'width="(\d+)" height="(\d+)"', html)
        self.qr = (match.group(1), int(match.group(2))) if match and match.group(2) == match.group(3) else None
        self.has_vcard_link = re.search(r'<a href="[^"]+\.vcf" download type="text/vcard">', html) is not None


def decode_qr(qr, folder, stem):
    """The text a page's QR code holds, as zbarimg reads its PNG; None when it finds no code."""
    data, _ = qr
    png_path = folder / f"{stem}.png"
    png_path.write_bytes(base64.b64decode(data, validate=True))
    result = subprocess.run(["zbarimg", "--quiet", "--raw", str(png_path)], capture_output=True)
    if result.returncode != 0:
        return None
    # zbarimg ends its output with a newline of its own.
    return result.stdout.decode("utf-8").removesuffix("\n")


def digits(phone):
    return re.sub(r"[^0-9+]", "", phone)


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--rolodeck", required=True, help="the rolodeck binary to build the demo with")
    parser.add_argument("--keep", help="build into this folder and keep it")
    args = parser.parse_args()

    lacking = missing_tools()
    if lacking:
        print(f"check_exports: missing Debian packages: {' '.join(lacking)} (make test-deps installs them)")
        return 2

    work = Path(tempfile.mkdtemp(prefix="rolodeck-exports-"))
    out = Path(args.keep) if args.keep else work / "site"
    env = dict(os.environ, SOURCE_DATE_EPOCH=SOURCE_DATE_EPOCH)
    # The demo with a photo for its first contact.
    demo = work / "demo"
    shutil.copytree(DEMO_SITE, demo)
    (demo / "store" / "photos").mkdir()
    shutil.copy(REPO_ROOT / "Tests" / "Photos" / "face-gps.jpg", demo / "store" / "photos" / "first.jpg")
    contacts_path = demo / "store" / "contacts.json"
    contacts = json.loads(contacts_path.read_text(encoding="utf-8"))
    contacts[0]["photo"] = "photos/first.jpg"
    contacts_path.write_text(json.dumps(contacts, ensure_ascii=False), encoding="utf-8")
    build = subprocess.run(
        [args.rolodeck, "build", "--quiet", "--site", str(demo), "--out", str(out)],
        env=env, capture_output=True, text=True)
    if build.returncode != 0:
        print(f"check_exports: the demo did not build:\n{build.stderr}")
        return 2

    store = json.loads(contacts_path.read_text(encoding="utf-8"))
    records = {record["id"]: record for record in store}
    failures = []
    checked = {"cards": 0, "qr": 0, "group files": 0}

    def expect(condition, message):
        if not condition:
            failures.append(message)

    pages = sorted((out / "contacts").glob("*.html"))
    for page_path in pages:
        slug = page_path.stem
        page = Page(page_path.read_text(encoding="utf-8"))
        where = f"contacts/{slug}"
        expect(page.has_vcard_link, f"{where}.html: no “Add to contacts” link")
        vcf = page_path.with_suffix(".vcf")
        if not vcf.exists():
            failures.append(f"{where}.vcf: missing")
            continue
        cards = read_cards(vcf.read_text(encoding="utf-8"))
        expect(len(cards) == 1, f"{where}.vcf: {len(cards)} cards")
        card = cards[0]
        checked["cards"] += 1
        uid = first(card, "uid")
        record = records.get(uid)
        if record is None:
            failures.append(f"{where}.vcf: UID {uid!r} is no contact of the store")
            continue
        expect(first(card, "fn") == page.name, f"{where}.vcf: FN {first(card, 'fn')!r}, page {page.name!r}")
        expect(name_parts(card) == (record.get("familyName", ""), record.get("givenName", "")),
               f"{where}.vcf: N {name_parts(card)}, store {record.get('familyName')!r} {record.get('givenName')!r}")
        phones = [phone["value"] for phone in record.get("phones", [])]
        emails = [email["value"] for email in record.get("emails", [])]
        expect(values(card, "tel") == phones, f"{where}.vcf: TEL {values(card, 'tel')}, store {phones}")
        expect(values(card, "email") == emails, f"{where}.vcf: EMAIL {values(card, 'email')}, store {emails}")

        if page.qr is None:
            failures.append(f"{where}.html: no QR code")
            continue
        text = decode_qr(page.qr, work, slug)
        if text is None:
            failures.append(f"{where}.html: zbarimg found no QR code")
            continue
        checked["qr"] += 1
        scanned = read_cards(text)
        expect(len(scanned) == 1, f"{where}.html: the QR code holds {len(scanned)} cards")
        scanned = scanned[0]
        expect(first(scanned, "fn") == page.name, f"{where}.html: QR FN {first(scanned, 'fn')!r}, page {page.name!r}")
        expect(name_parts(scanned) == name_parts(card), f"{where}.html: QR N {name_parts(scanned)}")
        scanned_phones = values(scanned, "tel")
        expect((scanned_phones[:1] == phones[:1]),
               f"{where}.html: QR first phone {scanned_phones[:1]}, store {phones[:1]}")
        expect(all(digits(phone) for phone in scanned_phones), f"{where}.html: an empty phone in the QR code")

    with_photo = [card for card in (read_cards(page.with_suffix(".vcf").read_text(encoding="utf-8"))[0]
                                    for page in pages) if first(card, "uid") == contacts[0]["id"]]
    written = sorted((out / "photos").glob("*.jpg"))
    expect(len(with_photo) == 1 and len(written) == 1, f"the photo's card {len(with_photo)}, files {written}")
    if with_photo and written:
        photo = with_photo[0].contents.get("photo", [None])[0]
        data = photo.value if photo is not None else None
        expect(data == written[0].read_bytes(), "the card's PHOTO is not the photo written under photos/")
        expect(data is not None and b"Exif" not in data and b"RolodeckTestCam" not in data,
               "the card's PHOTO carries EXIF metadata")
        checked["photos"] = 1

    expect(len(pages) > 50, f"only {len(pages)} contact pages")
    whole = read_cards((out / "contacts.vcf").read_text(encoding="utf-8"))
    expect(len(whole) == len(pages), f"contacts.vcf: {len(whole)} cards for {len(pages)} contact pages")
    expect(sorted(first(card, "uid") for card in whole) == sorted(
        first(read_cards(page.with_suffix(".vcf").read_text(encoding="utf-8"))[0], "uid") for page in pages),
        "contacts.vcf: not the contacts' cards")
    for group_page in sorted((out / "groups").glob("*.html")):
        html = group_page.read_text(encoding="utf-8")
        members = len(re.findall(r'class="contact-row', html))
        vcf = group_page.with_suffix(".vcf")
        cards = read_cards(vcf.read_text(encoding="utf-8")) if vcf.exists() else []
        expect(len(cards) == members, f"groups/{vcf.name}: {len(cards)} cards for {members} members")
        checked["group files"] += 1

    shutil.rmtree(work, ignore_errors=True)
    print(f"check_exports: vobject read {checked['cards']} contact cards, contacts.vcf ({len(whole)} cards) "
          f"and {checked['group files']} group files, {checked.get('photos', 0)} photo; zbarimg decoded {checked['qr']} QR codes")
    if failures:
        print(f"check_exports: {len(failures)} failures:")
        for failure in failures:
            print("  " + failure)
        return 1
    print("check_exports: all checks passed")
    return 0


if __name__ == "__main__":
    sys.exit(main())
