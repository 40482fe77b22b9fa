#!/usr/bin/env python3
"""CITATION.cff is valid Citation File Format 1.2.0 and agrees with the project.

  check_citation.py SOURCE_ROOT               check SOURCE_ROOT/CITATION.cff
  check_citation.py --self-test SOURCE_ROOT   the checker finds planted faults

Debian 12 packages no CFF validator (cffconvert), so this applies the rules
of the CFF 1.2.0 schema (citation-file-format.github.io/1.2.0/schema) that
matter for the keys a file can use: the required keys, no key the schema
does not define (it allows no others), the type enumerations, integers for
years, volumes and pages, and the patterns of URLs, DOIs and dates. Then the
project's own facts: version and license as meson.build declares them, a
LICENSE file, and every reference listed in docs/references.md.

Prints every problem and exits 1 when there is one. Needs python3-yaml.
"""
import copy
import datetime
import os
import re
import sys

try:
    import yaml
except ImportError:
    print("check_citation.py: python3-yaml is missing (tools/setup installs it)")
    sys.exit(1)

# Keys of the schema's root object and of its definitions (additionalProperties
# false everywhere).
ROOT_KEYS = {
    "abstract", "authors", "cff-version", "commit", "contact", "date-released",
    "doi", "identifiers", "keywords", "license", "license-url", "message",
    "preferred-citation", "references", "repository", "repository-artifact",
    "repository-code", "title", "type", "url", "version",
}
ROOT_REQUIRED = ["authors", "cff-version", "message", "title"]
PERSON_KEYS = {
    "address", "affiliation", "alias", "city", "country", "email",
    "family-names", "fax", "given-names", "name-particle", "name-suffix",
    "orcid", "post-code", "region", "tel", "website",
}
ENTITY_KEYS = {
    "address", "alias", "city", "country", "date-end", "date-start", "email",
    "fax", "location", "name", "orcid", "post-code", "region", "tel", "website",
}
REFERENCE_KEYS = {
    "abbreviation", "abstract", "authors", "collection-doi", "collection-title",
    "collection-type", "commit", "conference", "contact", "copyright",
    "data-type", "database", "database-provider", "date-accessed",
    "date-downloaded", "date-published", "date-released", "department", "doi",
    "edition", "editors", "editors-series", "end", "entry", "filename",
    "format", "identifiers", "institution", "isbn", "issn", "issue",
    "issue-date", "issue-title", "journal", "keywords", "languages", "license",
    "license-url", "loc-end", "loc-start", "location", "medium", "month",
    "nihmsid", "notes", "number", "number-volumes", "pages", "patent-states",
    "pmcid", "publisher", "recipients", "repository", "repository-artifact",
    "repository-code", "scope", "section", "senders", "start", "status", "term",
    "thesis-type", "title", "translators", "type", "url", "version", "volume",
    "volume-title", "year", "year-original",
}
REFERENCE_REQUIRED = ["authors", "title", "type"]
REFERENCE_TYPES = {
    "art", "article", "audiovisual", "bill", "blog", "book", "catalogue",
    "conference-paper", "conference", "data", "database", "dictionary",
    "edited-work", "encyclopedia", "film-broadcast", "generic",
    "government-document", "grant", "hearing", "historical-work", "legal-case",
    "legal-rule", "magazine-article", "manual", "map", "multimedia", "music",
    "newspaper-article", "pamphlet", "patent", "personal-communication",
    "proceedings", "report", "serial", "slides", "software-code",
    "software-container", "software-executable", "software-virtual-machine",
    "software", "sound-recording", "standard", "statute", "thesis",
    "unpublished", "video", "website",
}
REFERENCE_INTEGERS = {"end", "loc-end", "loc-start", "month", "number-volumes",
                      "pages", "start", "volume", "year", "year-original"}
REFERENCE_STATUS = {"abstract", "advance-online", "in-preparation", "in-press",
                    "preprint", "submitted"}
PEOPLE_LISTS = {"authors", "contact", "editors", "editors-series", "recipients",
                "senders", "translators"}
ENTITY_FIELDS = {"conference", "database-provider", "institution", "location",
                 "publisher"}
URL_FIELDS = {"license-url", "repository", "repository-artifact",
              "repository-code", "url"}
DOI_FIELDS = {"doi", "collection-doi"}
DATE_FIELDS = {"date-released", "date-accessed", "date-downloaded",
               "date-published", "date-start", "date-end"}
URL = re.compile(r"^(https|http|ftp|sftp)://.+")
DOI = re.compile(r"^10\.\d{4,9}(\.\d+)?/[A-Za-z0-9:/_;\-\.\(\)\[\]\\]+$")
DATE = re.compile(r"^[0-9]{4}-(0[1-9]|1[012])-(0[1-9]|[12][0-9]|3[01])$")
ORCID = re.compile(r"https://orcid\.org/[0-9]{4}-[0-9]{4}-[0-9]{4}-[0-9]{3}[0-9X]")
# Licenses this project may declare (SPDX identifiers of the schema's list).
SPDX = {"MIT", "BSD-2-Clause", "BSD-3-Clause", "Apache-2.0", "Zlib",
        "GPL-3.0-only", "GPL-3.0-or-later", "LGPL-3.0-or-later"}


def is_nonempty_text(value):
    return isinstance(value, str) and value.strip() != ""


def as_date_text(value):
    # YAML reads an unquoted 2026-01-31 as a date; the schema wants its text.
    return value.isoformat() if isinstance(value, datetime.date) else value


def check_scalar_fields(where, data, errors):
    for key, value in data.items():
        if key in URL_FIELDS and not (isinstance(value, str) and URL.match(value)):
            errors.append(f"{where}.{key}: not an http(s)/ftp URL: {value!r}")
        if key in DOI_FIELDS and not (isinstance(value, str) and DOI.match(value)):
            errors.append(f"{where}.{key}: not a DOI (10.NNNN/...): {value!r}")
        if key in DATE_FIELDS and not (isinstance(as_date_text(value), str)
                                       and DATE.match(as_date_text(value))):
            errors.append(f"{where}.{key}: not a YYYY-MM-DD date: {value!r}")
        if key == "orcid" and not (isinstance(value, str) and ORCID.match(value)):
            errors.append(f"{where}.orcid: not an ORCID URL: {value!r}")
        if key == "license":
            values = value if isinstance(value, list) else [value]
            for item in values:
                if item not in SPDX:
                    errors.append(f"{where}.license: {item!r} is not an SPDX "
                                  "identifier this check knows")


def check_entity(where, entity, errors):
    if not isinstance(entity, dict):
        errors.append(f"{where}: not a mapping")
        return
    for key in sorted(set(entity) - ENTITY_KEYS):
        errors.append(f"{where}: key {key!r} is not defined for an entity")
    if not is_nonempty_text(entity.get("name")):
        errors.append(f"{where}: an entity needs a name")
    check_scalar_fields(where, entity, errors)


def check_people(where, people, errors):
    if not isinstance(people, list) or not people:
        errors.append(f"{where}: not a non-empty list")
        return
    for i, one in enumerate(people):
        spot = f"{where}[{i}]"
        if not isinstance(one, dict) or not one:
            errors.append(f"{spot}: not a person or entity mapping")
            continue
        if "name" in one:  # an entity
            check_entity(spot, one, errors)
            continue
        for key in sorted(set(one) - PERSON_KEYS):
            errors.append(f"{spot}: key {key!r} is not defined for a person")
        if not is_nonempty_text(one.get("family-names")):
            errors.append(f"{spot}: a person needs family-names")
        check_scalar_fields(spot, one, errors)
    keys = [yaml.safe_dump(one, sort_keys=True) for one in people]
    if len(set(keys)) != len(keys):
        errors.append(f"{where}: the same person or entity twice (items must be unique)")


def check_reference(where, ref, errors):
    if not isinstance(ref, dict):
        errors.append(f"{where}: not a mapping")
        return
    for key in REFERENCE_REQUIRED:
        if key not in ref:
            errors.append(f"{where}: required key {key!r} missing")
    for key in sorted(set(ref) - REFERENCE_KEYS):
        errors.append(f"{where}: key {key!r} is not defined for a reference")
    if "type" in ref and ref["type"] not in REFERENCE_TYPES:
        errors.append(f"{where}.type: {ref['type']!r} is not a CFF reference type")
    if "title" in ref and not is_nonempty_text(ref["title"]):
        errors.append(f"{where}.title: empty")
    for key in sorted(REFERENCE_INTEGERS & set(ref)):
        if not isinstance(ref[key], int) or isinstance(ref[key], bool):
            errors.append(f"{where}.{key}: {ref[key]!r} is not an integer")
    if "issue" in ref and not (isinstance(ref["issue"], (int, float))
                               or is_nonempty_text(ref["issue"])):
        errors.append(f"{where}.issue: {ref['issue']!r} is neither text nor a number")
    if "status" in ref and ref["status"] not in REFERENCE_STATUS:
        errors.append(f"{where}.status: {ref['status']!r} is not a CFF status")
    for key in sorted(PEOPLE_LISTS & set(ref)):
        check_people(f"{where}.{key}", ref[key], errors)
    for key in sorted(ENTITY_FIELDS & set(ref)):
        check_entity(f"{where}.{key}", ref[key], errors)
    check_scalar_fields(where, ref, errors)


def meson_project(root):
    """The version and license of meson.build's project() call."""
    text = open(os.path.join(root, "meson.build"), encoding="utf-8").read()
    head = text[:text.find(")") + 1]
    version = re.search(r"version\s*:\s*'([^']+)'", head)
    license_ = re.search(r"license\s*:\s*'([^']+)'", head)
    return (version.group(1) if version else None,
            license_.group(1) if license_ else None)


def normalised(text):
    return " ".join(text.split()).lower()


def check(data, root):
    """The problems of the parsed CITATION.cff `data`, one line each."""
    errors = []
    if not isinstance(data, dict):
        return ["CITATION.cff: not a YAML mapping"]
    for key in ROOT_REQUIRED:
        if key not in data:
            errors.append(f"CITATION.cff: required key {key!r} missing")
    for key in sorted(set(data) - ROOT_KEYS):
        errors.append(f"CITATION.cff: key {key!r} is not defined by CFF 1.2.0")
    if data.get("cff-version") != "1.2.0":
        errors.append(f"cff-version: {data.get('cff-version')!r}, not the text '1.2.0'")
    for key in ("message", "title", "abstract"):
        if key in data and not is_nonempty_text(data[key]):
            errors.append(f"{key}: empty or not text")
    if data.get("type", "software") not in ("software", "dataset"):
        errors.append(f"type: {data['type']!r} is neither software nor dataset")
    if "authors" in data:
        check_people("authors", data["authors"], errors)
    check_scalar_fields("CITATION.cff", data, errors)
    if "preferred-citation" in data:
        check_reference("preferred-citation", data["preferred-citation"], errors)
    references = data.get("references", [])
    if not isinstance(references, list) or not references:
        errors.append("references: not a non-empty list (the papers zeno implements)")
        references = []
    for i, ref in enumerate(references):
        check_reference(f"references[{i}]", ref, errors)

    version, license_ = meson_project(root)
    if str(data.get("version")) != version:
        errors.append(f"version: {data.get('version')!r}, meson.build says {version!r}")
    if data.get("license") != license_:
        errors.append(f"license: {data.get('license')!r}, meson.build says {license_!r}")
    if not os.path.isfile(os.path.join(root, "LICENSE")):
        errors.append("LICENSE: missing")
    listed_path = os.path.join(root, "docs", "references.md")
    listed = (normalised(open(listed_path, encoding="utf-8").read())
              if os.path.isfile(listed_path) else "")
    for i, ref in enumerate(references):
        if isinstance(ref, dict) and is_nonempty_text(ref.get("title")) and \
                normalised(ref["title"]) not in listed:
            errors.append(f"references[{i}]: {ref['title']!r} is not in docs/references.md")
    return errors


def load(root):
    with open(os.path.join(root, "CITATION.cff"), encoding="utf-8") as f:
        return yaml.safe_load(f)


def self_test(root):
    """Each planted fault is reported; the real file is clean."""
    good = load(root)
    faults = {
        "required key 'title' missing": lambda d: d.pop("title"),
        "key 'colour' is not defined by CFF": lambda d: d.update(colour="blue"),
        "cff-version: '1.1.0'": lambda d: d.update({"cff-version": "1.1.0"}),
        "cff-version: 1.2": lambda d: d.update({"cff-version": 1.2}),
        "version: '9.9.9', meson.build says": lambda d: d.update(version="9.9.9"),
        "license: 'GPL-3.0-or-later', meson.build says":
            lambda d: d.update(license="GPL-3.0-or-later"),
        "references[0]: required key 'type' missing":
            lambda d: d["references"][0].pop("type"),
        "references[0].year: '2017' is not an integer":
            lambda d: d["references"][0].update(year="2017"),
        "references[0].type: 'paper' is not a CFF reference type":
            lambda d: d["references"][0].update(type="paper"),
        "references[0]: key 'pages-range' is not defined":
            lambda d: d["references"][0].update({"pages-range": "363-393"}),
        "references[0].doi: not a DOI": lambda d: d["references"][0].update(doi="doi:123"),
        "references[0].url: not an http(s)/ftp URL":
            lambda d: d["references"][0].update(url="arxiv.org/abs/1603.09672"),
        "is not in docs/references.md":
            lambda d: d["references"][0].update(title="A paper nobody listed"),
        "authors[0]: a person needs family-names":
            lambda d: d.update(authors=[{"given-names": "Ann"}]),
        "date-released: not a YYYY-MM-DD date":
            lambda d: d.update({"date-released": "25 Nov 2026"}),
    }
    failures = []
    clean = check(copy.deepcopy(good), root)
    if clean:
        failures.append("the real CITATION.cff has problems: " + "; ".join(clean))
    for expected, plant in faults.items():
        data = copy.deepcopy(good)
        plant(data)
        found = check(data, root)
        if not any(expected in line for line in found):
            failures.append(f"planted fault not reported: {expected!r} (got {found})")
    for line in failures:
        print("FAIL:", line)
    if failures:
        return 1
    print(f"PASS: {len(faults)} planted faults each reported, the real file clean")
    return 0


def main(argv):
    if len(argv) == 3 and argv[1] == "--self-test":
        return self_test(argv[2])
    if len(argv) != 2:
        print(__doc__)
        return 2
    errors = check(load(argv[1]), argv[1])
    for line in errors:
        print(line)
    if errors:
        return 1
    print("CITATION.cff: valid CFF 1.2.0; version, license and references agree")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
