#!/usr/bin/python3
"""Validates scene files against schema/scene.schema.json with an outside validator (Python's
jsonschema, draft 2020-12; Debian's python3-jsonschema, installed by `make setup`).

Usage: Tools/validate-scenes.py [FILE...]  (default: Examples/*.json, Fixtures/cli/*.json and
every fixture case: the .json files of each Fixtures/ folder holding a CASES file). Files named
bad-* must be invalid, every other one valid. Prints one line per problem and a count; exits 1
if any file is not as it should be."""
import json, os, sys
from jsonschema import Draft202012Validator

root = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))

def scenes():
    for folder in ["Examples", "Fixtures/cli"]:
        for name in sorted(os.listdir(os.path.join(root, folder))):
            if name.endswith(".json"):
                yield os.path.join(folder, name)
    for here, _, files in sorted(os.walk(os.path.join(root, "Fixtures"))):
        if "CASES" in files:
            for name in sorted(files):
                if name.endswith(".json"):
                    yield os.path.relpath(os.path.join(here, name), root)

def main():
    with open(os.path.join(root, "schema/scene.schema.json")) as f:
        schema = json.load(f)
    Draft202012Validator.check_schema(schema)
    validator = Draft202012Validator(schema)
    files = sys.argv[1:] or list(scenes())
    wrong = 0
    for path in files:
        with open(os.path.join(root, path)) as f:
            errors = sorted(validator.iter_errors(json.load(f)), key=lambda e: list(e.absolute_path))
        bad = os.path.basename(path).startswith("bad")
        if bad and not errors:
            wrong += 1
            print(f"{path}: valid, but a bad-* file must not be")
        elif errors and not bad:
            wrong += 1
            e = errors[0]
            print(f"{path}: $" + "".join(f"[{p}]" if isinstance(p, int) else f".{p}" for p in e.absolute_path) + f": {e.message[:300]}")
    print(f"{len(files)} scene files, {wrong} not as they should be")
    return 1 if wrong else 0

if __name__ == "__main__":
    sys.exit(main())
