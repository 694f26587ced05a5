#!/usr/bin/env python3
"""Checks docs/rolodeck-store.schema.json against real stores, so the shipped schema and the
store Rolodeck reads cannot drift apart.

- every record of the demo store (Examples/demo/store) is valid;
- every record of a store written by ../shared/tools/gen-store.py is valid (skipped, and said
  so, when that tool is not beside the repository);
- records Rolodeck rejects are rejected by the schema too.

Usage: .build/test-venv/bin/python Tests/Schema/check_schema.py
"""

import json
import re
import subprocess
import sys
import tempfile
import unittest
from pathlib import Path

import jsonschema

ROOT = Path(__file__).resolve().parent.parent.parent
SCHEMA = json.loads((ROOT / "docs" / "rolodeck-store.schema.json").read_text(encoding="utf-8"))
GEN_STORE = ROOT.parent / "shared" / "tools" / "gen-store.py"


def validator(kind):
    """A validator for one record kind ("contact", "group", "todo", "salutation") of the schema."""
    schema = dict(SCHEMA)
    schema["$ref"] = "#/$defs/" + kind
    return jsonschema.Draft202012Validator(schema, format_checker=jsonschema.FormatChecker())


def check_store(test, folder):
    for kind, file in (("contact", "contacts.json"), ("group", "groups.json"), ("todo", "todos.json")):
        records = json.loads((folder / file).read_text(encoding="utf-8"))
        test.assertGreater(len(records), 0, file)
        check = validator(kind)
        for record in records:
            with test.subTest(file=file, id=record.get("id")):
                errors = [error.message for error in check.iter_errors(record)]
                test.assertEqual(errors, [])


class SchemaTests(unittest.TestCase):
    def test_schema_is_a_valid_draft_2020_12_schema(self):
        jsonschema.Draft202012Validator.check_schema(SCHEMA)

    def test_demo_store_is_valid(self):
        check_store(self, ROOT / "Examples" / "demo" / "store")

    @unittest.skipUnless(GEN_STORE.exists(), "../shared/tools/gen-store.py not found beside the repository")
    def test_generated_store_is_valid(self):
        with tempfile.TemporaryDirectory() as folder:
            subprocess.run([sys.executable, str(GEN_STORE), "--contacts", "2000", "--out", folder], check=True,
                           stderr=subprocess.DEVNULL)
            check_store(self, Path(folder) / "store")

    def test_salutation_records_and_contacts_naming_them_are_valid(self):
        good = [
            ("salutation", {"id": "herr", "text": "Herr"}),
            ("contact", {"id": "x", "givenName": "A", "salutation": {"id": "herr"}}),
            ("contact", {"id": "x", "givenName": "A", "salutation": "Prof. Dr."}),
            ("contact", {"id": "x", "givenName": "A", "age": 42}),
        ]
        for kind, record in good:
            with self.subTest(kind=kind, record=record):
                self.assertEqual([error.message for error in validator(kind).iter_errors(record)], [])

    def test_records_rolodeck_rejects_are_rejected(self):
        bad = [
            ("contact", {"givenName": "No id"}),
            ("contact", {"id": "x", "emails": ["a@example.com"]}),
            ("contact", {"id": "x", "givenName": "   "}),
            ("contact", {"id": "x", "givenName": "A", "birthday": "30.02.1990"}),
            ("contact", {"id": "x", "givenName": "A", "givenName2": 1, "groups": "family"}),
            ("contact", {"id": "", "givenName": "A"}),
            ("contact", {"id": "x", "givenName": "A", "age": 42.5}),
            ("contact", {"id": "x", "givenName": "A", "age": -1}),
            ("contact", {"id": "x", "givenName": "A", "age": "42"}),
            ("contact", {"id": "x", "givenName": "A", "salutation": {"text": "Herr"}}),
            ("contact", {"id": "x", "givenName": "A", "salutation": {"id": ""}}),
            ("contact", {"id": "x", "givenName": "A", "salutation": ["Herr"]}),
            ("salutation", {"id": "herr"}),
            ("salutation", {"id": "herr", "text": " "}),
            ("salutation", {"text": "Herr"}),
            ("group", {"id": "g"}),
            ("todo", {"id": "t", "title": "x", "priority": "urgent"}),
            ("todo", {"id": "t", "title": "x", "done": "yes"}),
            ("todo", {"id": "t", "title": "x", "due": "2026-12-01 09:30"}),
        ]
        for kind, record in bad:
            with self.subTest(kind=kind, record=record):
                self.assertFalse(validator(kind).is_valid(record))


CONFIG_SCHEMA = json.loads((ROOT / "docs" / "rolodeck-config.schema.json").read_text(encoding="utf-8"))


class ConfigSchemaTests(unittest.TestCase):
    """docs/rolodeck-config.schema.json against the configs Rolodeck reads and the keys it knows."""

    def check(self, config):
        validator = jsonschema.Draft202012Validator(CONFIG_SCHEMA)
        return [error.message for error in validator.iter_errors(config)]

    def test_schema_is_a_valid_draft_2020_12_schema(self):
        jsonschema.Draft202012Validator.check_schema(CONFIG_SCHEMA)

    def test_the_demo_and_the_documented_example_are_valid(self):
        self.assertEqual(self.check(json.loads((ROOT / "Examples" / "demo" / "rolodeck.json").read_text("utf-8"))), [])
        docs = (ROOT / "docs" / "configuration.md").read_text(encoding="utf-8")
        example = docs.split("```json\n", 1)[1].split("```", 1)[0]
        self.assertEqual(self.check(json.loads(example)), [])

    def test_every_documented_key_is_in_the_schema_and_no_other(self):
        # The table of keys, before the table of locales.
        docs = (ROOT / "docs" / "configuration.md").read_text(encoding="utf-8").split("## Sections by locale")[0]
        documented = set(re.findall(r"^\| `(\w+)` \|", docs, flags=re.MULTILINE))
        self.assertEqual(documented, set(CONFIG_SCHEMA["properties"]))

    def test_configs_rolodeck_rejects_are_rejected(self):
        for config in ({"mapLinks": "bing"}, {"mapLink": "none"}, {"sortBy": "lastName"},
                       {"hiddenFields": ["shoeSize"]}, {"store": " "}, {"noindex": "no"}):
            with self.subTest(config=config):
                self.assertNotEqual(self.check(config), [])


if __name__ == "__main__":
    result = unittest.main(exit=False, verbosity=1).result
    skipped = len(result.skipped)
    print("Schema: %d run, %d failed, %d skipped%s" % (
        result.testsRun, len(result.failures) + len(result.errors), skipped,
        "".join("\n  skipped: %s" % reason for _, reason in result.skipped)))
    sys.exit(0 if result.wasSuccessful() else 1)
