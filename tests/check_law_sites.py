#!/usr/bin/env python3
"""The impact laws are told apart in one place (docs/model.md, "Adding an
impact law").

  check_law_sites.py SOURCE_ROOT
  check_law_sites.py --self-test SOURCE_ROOT   (the checker finds planted faults)

A law is named (an enumerator ZENO_LAW_*, or its spelling as a string) in
the library, the programs, the tools and the Python extension only:
- in the table of laws, src/dynamics/impact_law.c;
- in the laws' spellings, src/scene/scene_names.c (indexed by enumerator);
- in the enum itself (include/zeno/scene.h, not scanned);
- in a case label of a switch over laws with no default, elsewhere: the
  compiler (-Wswitch) then lists every such switch when a law is added.
ZENO_LAW_COUNT and ZENO_LAW_DEFAULT name no law. Prints every violation and
the switch sites, and exits 1 when there is a violation.
"""
import os
import re
import sys

SCANNED = ["src", "tools", os.path.join("python", "zeno", "_ext")]
TABLE = {"src/dynamics/impact_law.c", "src/scene/scene_names.c"}
NAMED = re.compile(r'\bZENO_LAW_(?!COUNT\b|DEFAULT\b)[A-Z_]+\b|"(?:inelastic|newton|chatterjee-ruina)"')
CASE = re.compile(r"^\s*case ZENO_LAW_[A-Z_]+:")
SWITCH = re.compile(r"\bswitch\s*\(")


def strip_comments(text):
    """Comments blanked, line breaks kept (so line numbers hold)."""
    def blank(m):
        return re.sub(r"[^\n]", " ", m.group(0))
    return re.sub(r"/\*.*?\*/|//[^\n]*", blank, text, flags=re.S)


def enclosing_switch(text, pos):
    """The body (from its brace to the matching one) of the innermost switch
    whose body holds pos, or None."""
    best = None
    for m in SWITCH.finditer(text, 0, pos):
        brace = text.find("{", m.end())
        if brace < 0 or brace > pos:
            continue
        depth, end = 0, None
        for k in range(brace, len(text)):
            if text[k] == "{":
                depth += 1
            elif text[k] == "}":
                depth -= 1
                if depth == 0:
                    end = k
                    break
        if end is not None and end > pos:
            best = (brace, end)
    return best


def switch_has_default(body):
    """A default label at the switch's own level (not in a nested switch)."""
    depth = 0
    for m in re.finditer(r"[{}]|\bswitch\b|\bdefault\s*:", body):
        token = m.group(0)
        if token == "{":
            depth += 1
        elif token == "}":
            depth -= 1
        elif token.startswith("default") and depth == 1:
            return True
    return False


def check_file(rel, text, errors, sites):
    code = strip_comments(text)
    for m in NAMED.finditer(code):
        line = code.count("\n", 0, m.start()) + 1
        line_text = code.splitlines()[line - 1]
        if rel in TABLE:
            continue
        if not CASE.match(line_text):
            errors.append(f"{rel}:{line}: names a law outside the table and outside a case "
                          f"label: {line_text.strip()}")
            continue
        where = enclosing_switch(code, m.start())
        if where is None:
            errors.append(f"{rel}:{line}: a law's case label outside a switch")
        elif switch_has_default(code[where[0]:where[1] + 1]):
            errors.append(f"{rel}:{line}: a switch over laws with a default: a new law "
                          "would pass it without a word")
        else:
            sites.add(f"{rel}:{code.count(chr(10), 0, where[0]) + 1}")


def problems(root):
    errors, sites = [], set()
    for top in SCANNED:
        for folder, _, names in sorted(os.walk(os.path.join(root, top))):
            for name in sorted(names):
                if name.endswith((".c", ".h")):
                    path = os.path.join(folder, name)
                    rel = os.path.relpath(path, root).replace(os.sep, "/")
                    check_file(rel, open(path, encoding="utf-8").read(), errors, sites)
    return errors, sites


def self_test(root):
    import shutil
    import tempfile
    planted = {
        "src/sim/sim_ties.c": ("\nstatic int law_test(const zeno_scene *s) {\n"
                               "  return s->impact_law == ZENO_LAW_NEWTON;\n}\n",
                               "outside the table"),
        "src/sim/sim_names.c": ("\nstatic int law_switch(zeno_impact_law l) {\n"
                                "  switch (l) {\n    case ZENO_LAW_NEWTON: return 1;\n"
                                "    default: return 0;\n  }\n}\n", "with a default"),
        "src/sim/sim_query.c": ('\nstatic const char *LAW = "newton";\n', "outside the table"),
    }
    with tempfile.TemporaryDirectory() as tmp:
        for top in SCANNED:
            shutil.copytree(os.path.join(root, top), os.path.join(tmp, top))
        errors, _ = problems(tmp)
        if errors:
            sys.exit("self-test: the copy has problems before any fault:\n" + "\n".join(errors))
        for rel, (text, _) in planted.items():
            with open(os.path.join(tmp, rel), "a", encoding="utf-8") as f:
                f.write(text)
        errors, _ = problems(tmp)
    missing = [rel for rel, (_, what) in planted.items()
               if not any(e.startswith(rel) and what in e for e in errors)]
    for rel in missing:
        print(f"self-test: the fault planted in {rel} was not found")
    print(f"self-test: {len(planted) - len(missing)} of {len(planted)} faults found")
    sys.exit(1 if missing else 0)


def main():
    if len(sys.argv) == 3 and sys.argv[1] == "--self-test":
        self_test(sys.argv[2])
    if len(sys.argv) != 2:
        sys.exit(__doc__)
    errors, sites = problems(sys.argv[1])
    for error in errors:
        print(error)
    for site in sorted(sites):
        print(f"switch over laws: {site}")
    print(f"law sites: {len(errors)} problem(s)")
    sys.exit(1 if errors else 0)


if __name__ == "__main__":
    main()
