#!/usr/bin/env python3
"""The library's layout, checked (docs/api.md, "Layout").

  check_layout.py SOURCE_ROOT [LIBZENO [MODULE...]]
  check_layout.py --self-test SOURCE_ROOT   (the checker finds planted faults)

- src/ holds one folder per layer and front end, and no file of its own;
- a file includes headers of its own folder, of folders above it in the
  data flow (base -> scene -> dynamics -> sim -> analysis -> io), and public
  headers of those layers; front ends (plot, view, cli) include public
  headers and front ends only, never a library folder's private header;
- the public headers include only public headers of their own or higher
  layers, and each is implemented by src/*/NAME*.c;
- the program (cli) loads plot and view as modules: of their headers it
  includes only the module headers (MODULE_HEADERS), and neither it nor
  those headers include a drawing library's header (cairo, SDL2, libpng,
  fontconfig);
- no file in src/ has more than MAX_LINES lines;
- with LIBZENO, the shared library exports only zeno_* symbols (nm -D);
- each MODULE, zeno-NAME.so, exports one symbol: zeno_NAME_module_get.

Prints every violation and exits 1 when there is one.
"""
import os
import re
import subprocess
import sys

LAYERS = ["base", "scene", "dynamics", "sim", "analysis", "io"]
FRONT_ENDS = {"plot": 6, "view": 6, "cli": 7}
RANK = {name: i for i, name in enumerate(LAYERS)}
RANK.update(FRONT_ENDS)
# The layer of each public header (zeno.h includes them all: front ends only).
PUBLIC = {
    "api.h": "base", "error.h": "base", "version.h": "base",
    "scene.h": "scene", "mode.h": "dynamics", "sim.h": "sim",
    "equilibrium.h": "analysis", "contact_problem.h": "analysis",
    "pang_trinkle.h": "analysis", "jamming.h": "analysis",
    "poincare.h": "analysis", "stability.h": "analysis", "regions.h": "analysis",
    "sweep.h": "analysis", "certify.h": "analysis",
    "io.h": "io", "run_dir.h": "io", "zeno.h": "plot",
}
# Headers implemented by a file of another name: none but the umbrella ones.
NOT_IMPLEMENTED = {"api.h", "zeno.h"}
MAX_LINES = 600
INCLUDE = re.compile(r'^\s*#\s*include\s+"([^"]+)"', re.M)
# What the program sees of the front ends it loads (dlopen) on demand.
MODULE_HEADERS = {"plot": {"plot.h", "plot_module.h"}, "view": {"view_module.h"}}
DRAWING_INCLUDE = re.compile(
    r'^\s*#\s*include\s+<((?:cairo|SDL|png|fontconfig)[^>]*)>', re.M)


def check_includes(root, errors):
    src = os.path.join(root, "src")
    for entry in sorted(os.listdir(src)):
        path = os.path.join(src, entry)
        if os.path.isfile(path):
            errors.append(f"src/{entry}: files belong in a layer's folder")
        elif entry not in RANK:
            errors.append(f"src/{entry}/: not a layer or front end of the layout")
    for folder in sorted(RANK):
        directory = os.path.join(src, folder)
        if not os.path.isdir(directory):
            errors.append(f"src/{folder}/: missing")
            continue
        for name in sorted(os.listdir(directory)):
            if not name.endswith((".c", ".h")):
                continue
            rel = f"src/{folder}/{name}"
            text = open(os.path.join(directory, name), encoding="utf-8").read()
            lines = text.count("\n")
            if lines > MAX_LINES:
                errors.append(f"{rel}: {lines} lines (at most {MAX_LINES})")
            for header in INCLUDE.findall(text):
                problem = include_problem(root, folder, header)
                if problem:
                    errors.append(f'{rel}: #include "{header}": {problem}')
            if folder == "cli" or name in MODULE_HEADERS.get(folder, ()):
                for header in DRAWING_INCLUDE.findall(text):
                    errors.append(f"{rel}: #include <{header}>: the program and the module "
                                  "headers include no drawing library")


def include_problem(root, folder, header):
    rank = RANK[folder]
    front_end = folder in FRONT_ENDS
    if "/" not in header:
        if os.path.isfile(os.path.join(root, "src", folder, header)):
            return None
        return "a header of another folder needs its folder's name"
    where, name = header.split("/", 1)
    if where == "zeno":
        if name not in PUBLIC:
            return "not a public header"
        layer = PUBLIC[name]
        if RANK[layer] > rank:
            return f"public header of the lower layer '{layer}'"
        return None
    if where not in RANK:
        return "unknown folder"
    if not os.path.isfile(os.path.join(root, "src", where, name)):
        return "no such header"
    if front_end and where in LAYERS:
        return "a front end uses the public API only (include/zeno)"
    if folder == "cli" and where in MODULE_HEADERS and name not in MODULE_HEADERS[where]:
        return f"the program loads {where} as a module: include its module header only"
    if RANK[where] > rank:
        return f"header of the lower folder '{where}'"
    return None


def check_public(root, errors):
    include = os.path.join(root, "include", "zeno")
    sources = [name for folder in RANK for name in
               os.listdir(os.path.join(root, "src", folder))
               if os.path.isdir(os.path.join(root, "src", folder))]
    for name in sorted(os.listdir(include)):
        rel = f"include/zeno/{name}"
        if name not in PUBLIC:
            errors.append(f"{rel}: not in the layout's list of public headers")
            continue
        text = open(os.path.join(include, name), encoding="utf-8").read()
        for header in INCLUDE.findall(text):
            where, _, other = header.partition("/")
            if where != "zeno" or other not in PUBLIC:
                errors.append(f'{rel}: #include "{header}": public headers include '
                              "public headers only")
            elif RANK[PUBLIC[other]] > RANK[PUBLIC[name]] and name != "zeno.h":
                errors.append(f'{rel}: #include "{header}": a lower layer')
        stem = name[:-2]
        if name not in NOT_IMPLEMENTED and not any(
                s.startswith(stem) and s.endswith(".c") for s in sources):
            errors.append(f"{rel}: no src/*/{stem}*.c implements it")


def check_exports(library, errors):
    out = subprocess.run(["nm", "-D", "--defined-only", library], check=True,
                         capture_output=True, text=True).stdout
    symbols = [line.split()[-1] for line in out.splitlines() if line.strip()]
    if not symbols:
        errors.append(f"{library}: exports nothing")
    for symbol in symbols:
        # clang's lock of an unnamed `#pragma omp critical`, which every
        # library sharing the section must see (gcc keeps it in libgomp).
        if symbol == ".gomp_critical_user_.var":
            continue
        if not symbol.startswith("zeno_"):
            errors.append(f"{library}: exports {symbol}, not part of the zeno_* API")


def check_module(module, errors):
    out = subprocess.run(["nm", "-D", "--defined-only", module], check=True,
                         capture_output=True, text=True).stdout
    symbols = [line.split()[-1] for line in out.splitlines() if line.strip()]
    name = os.path.basename(module)
    match = re.fullmatch(r"zeno-(\w+)\.so", name)
    expected = [f"zeno_{match.group(1)}_module_get"] if match else []
    if symbols != expected:
        errors.append(f"{module}: exports {', '.join(symbols) or 'nothing'}; a module "
                      f"zeno-NAME.so exports zeno_NAME_module_get only")


def problems(root):
    errors = []
    check_includes(root, errors)
    check_public(root, errors)
    return errors


def self_test(root):
    """Plants one fault of each kind in a copy of the tree; each is found."""
    import shutil
    import tempfile
    faults = {
        "src/dynamics/flow_zod.h": ('#include "zeno/sim.h"\n',
                                    "public header of the lower layer 'sim'"),
        "src/scene/scene.c": ('#include "sim/sim_internal.h"\n',
                              "header of the lower folder 'sim'"),
        "src/plot/plot_maps.c": ('#include "base/util.h"\n',
                                 "a front end uses the public API only"),
        "src/io/io_csv.c": ('#include "util.h"\n',
                            "needs its folder's name"),
        "include/zeno/mode.h": ('#include "zeno/sim.h"\n', "a lower layer"),
        "src/base/util.c": ("\n" * (MAX_LINES + 1), "lines (at most"),
        "src/cli/cmd_view.c": ('#include "view/view.h"\n',
                               "include its module header only"),
        "src/view/view_module.h": ("#include <SDL.h>\n", "include no drawing library"),
    }
    with tempfile.TemporaryDirectory() as tmp:
        for part in ("src", "include"):
            shutil.copytree(os.path.join(root, part), os.path.join(tmp, part))
        if problems(tmp):
            sys.exit("self-test: the copy has problems before any fault")
        for rel, (text, _) in faults.items():
            with open(os.path.join(tmp, rel), "a", encoding="utf-8") as f:
                f.write(text)
        open(os.path.join(tmp, "src", "stray.c"), "w").close()
        found = "\n".join(problems(tmp))
    missing = [rel for rel, (_, what) in faults.items()
               if not any(rel in line and what in line for line in found.splitlines())]
    if "src/stray.c" not in found:
        missing.append("src/stray.c")
    for rel in missing:
        print(f"self-test: the fault planted in {rel} was not found")
    print(f"self-test: {len(faults) + 1 - len(missing)} of {len(faults) + 1} faults found")
    sys.exit(1 if missing else 0)


def main():
    if len(sys.argv) == 3 and sys.argv[1] == "--self-test":
        self_test(sys.argv[2])
    if len(sys.argv) < 2:
        sys.exit(__doc__)
    root = sys.argv[1]
    errors = []
    check_includes(root, errors)
    check_public(root, errors)
    if len(sys.argv) >= 3:
        check_exports(sys.argv[2], errors)
    for module in sys.argv[3:]:
        check_module(module, errors)
    for error in errors:
        print(error)
    print(f"layout: {len(errors)} problem(s)")
    sys.exit(1 if errors else 0)


if __name__ == "__main__":
    main()
