#!/usr/bin/env python3
"""The library's layout, checked (docs/api.md, "Layout").

  check_layout.py SOURCE_ROOT [--objects ARCHIVE...] [LIBZENO [MODULE...]]
  check_layout.py --self-test SOURCE_ROOT   (the checker finds planted faults)

- src/ holds one folder per layer and front end, and no file of its own;
- a file includes headers of its own folder, of folders above it in the
  data flow (base -> scene -> dynamics -> sim -> maps -> analysis -> grid
  -> sos -> certify -> io), and public headers of those layers; front ends (plot,
  view, cli) include public headers and front ends only, never a library
  folder's private header;
- the public headers include only public headers of their own or higher
  layers, and each is implemented by src/*/NAME*.c;
- the program (cli) loads plot and view as modules: of their headers it
  includes only the module headers (MODULE_HEADERS), and neither it nor
  those headers include a drawing library's header (cairo, SDL2, libpng,
  fontconfig);
- no file in src/ has more than MAX_LINES lines, no folder more than
  MAX_FOLDER_LINES;
- every file of src/ and include/zeno/ is named in docs/api.md's list of
  files, under its folder;
- with --objects, the calls between the library's objects (nm of the
  static archives: which object's undefined symbols another defines): no
  call from a folder to a lower folder's function (a call back up), and no
  circle of calls among files, but among the hybrid loop's files
  (CIRCLE_FOLDERS: one simulator object, split by concern);
- with LIBZENO, the shared library exports only zeno_* symbols (nm -D);
- each MODULE, zeno-NAME.so, exports one symbol: zeno_NAME_module_get.

Prints every violation and exits 1 when there is one.
"""
import os
import re
import subprocess
import sys

LAYERS = ["base", "scene", "dynamics", "simn", "sim", "maps", "analysis", "grid", "sos", "certify",
          "io"]
FRONT_ENDS = {"plot": len(LAYERS), "view": len(LAYERS), "cli": len(LAYERS) + 1}
RANK = {name: i for i, name in enumerate(LAYERS)}
RANK.update(FRONT_ENDS)
# The layer of each public header (zeno.h includes them all: front ends only).
PUBLIC = {
    "api.h": "base", "error.h": "base", "version.h": "base", "sha256.h": "base",
    "interrupt.h": "base",
    "scene.h": "scene", "mode.h": "dynamics", "impact_law.h": "dynamics", "sim.h": "sim",
    "equilibrium.h": "analysis", "warnings.h": "analysis",
    "contact_problem.h": "analysis", "contact_set.h": "analysis",
    "pang_trinkle.h": "analysis", "jamming.h": "analysis",
    "poincare.h": "maps", "stability.h": "analysis", "regions.h": "grid",
    "sweep.h": "grid", "certify.h": "certify",
    "io.h": "io", "run_dir.h": "io", "zeno.h": "plot",
}
# Headers implemented by a file of another name: none but the umbrella ones.
NOT_IMPLEMENTED = {"api.h", "zeno.h"}
MAX_LINES = 600
MAX_FOLDER_LINES = 6000
# Folders whose files may call each other in a circle: the simulator's
# hybrid loop (sim.c), its contact state, impacts, Zeno completion, full
# model and fast kernels work on one struct zeno_sim, split by concern;
# likewise the N-contact engine's loop, state, Zeno completion and full
# model on one struct simn.
CIRCLE_FOLDERS = {"sim", "simn"}
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
        # A layer's subfolders (src/cli/batch/) are folders of that layer
        # with a job of their own: each is held to MAX_FOLDER_LINES.
        for sub, _, names in sorted(os.walk(directory)):
            check_folder(root, folder, os.path.relpath(sub, src), sorted(names), errors)


def check_folder(root, folder, place, names, errors):
    """The files of src/PLACE, a folder of the layer `folder`."""
    folder_lines = 0
    for name in names:
        if not name.endswith((".c", ".h")):
            continue
        rel = f"src/{place}/{name}"
        text = open(os.path.join(root, rel), encoding="utf-8").read()
        lines = text.count("\n")
        folder_lines += lines
        if lines > MAX_LINES:
            errors.append(f"{rel}: {lines} lines (at most {MAX_LINES})")
        for header in INCLUDE.findall(text):
            problem = include_problem(root, folder, place, header)
            if problem:
                errors.append(f'{rel}: #include "{header}": {problem}')
        if folder == "cli" or name in MODULE_HEADERS.get(folder, ()):
            for header in DRAWING_INCLUDE.findall(text):
                errors.append(f"{rel}: #include <{header}>: the program and the module "
                              "headers include no drawing library")
    if folder_lines > MAX_FOLDER_LINES:
        errors.append(f"src/{place}/: {folder_lines} lines (at most {MAX_FOLDER_LINES}): "
                      "split it by job")


def include_problem(root, folder, place, header):
    rank = RANK[folder]
    front_end = folder in FRONT_ENDS
    if "/" not in header:
        if os.path.isfile(os.path.join(root, "src", place, header)):
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


OBJECT = re.compile(r"src_([a-z]+)_(\w+)\.c\.o$")


def call_graph(archives):
    """file -> the files whose functions and data it uses, from nm -A."""
    out = subprocess.run(["nm", "-A"] + archives, check=True, capture_output=True,
                         text=True).stdout
    defined, used = {}, {}
    for line in out.splitlines():
        where, _, symbol = line.rpartition(":")
        match = OBJECT.search(where)
        fields = symbol.split()
        if not match or match.group(1) not in RANK:
            continue
        rel = f"src/{match.group(1)}/{match.group(2)}.c"
        if len(fields) == 3 and fields[1] in "TDBRC":
            defined[fields[2]] = rel
        elif len(fields) == 2 and fields[0] == "U":
            used.setdefault(rel, set()).add(fields[1])
    graph = {}
    for rel, symbols in used.items():
        graph[rel] = {defined[s] for s in symbols if s in defined and defined[s] != rel}
    return graph


def circles(graph):
    """The strongly connected components of more than one file (Tarjan)."""
    index, low, stack, on_stack, found = {}, {}, [], set(), []

    def visit(v):
        index[v] = low[v] = len(index)
        stack.append(v)
        on_stack.add(v)
        for w in sorted(graph.get(v, ())):
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in on_stack:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            component = []
            while True:
                w = stack.pop()
                on_stack.discard(w)
                component.append(w)
                if w == v:
                    break
            if len(component) > 1:
                found.append(sorted(component))

    sys.setrecursionlimit(max(1000, 10 * len(graph)))
    for v in sorted(graph):
        if v not in index:
            visit(v)
    return found


def folder_of(rel):
    return rel.split("/")[1]


def check_calls(graph, errors):
    for rel in sorted(graph):
        for callee in sorted(graph[rel]):
            if RANK[folder_of(callee)] > RANK[folder_of(rel)]:
                errors.append(f"{rel}: calls {callee}, of the lower folder "
                              f"'{folder_of(callee)}'")
    for component in circles(graph):
        if {folder_of(rel) for rel in component} <= CIRCLE_FOLDERS:
            continue
        errors.append("a circle of calls: " + " -> ".join(component))


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


def check_listed(root, errors):
    """Every source file named in docs/api.md under its folder's heading."""
    path = os.path.join(root, "docs", "api.md")
    if not os.path.isfile(path):
        return
    listed, folder = set(), None
    for line in open(path, encoding="utf-8"):
        heading = re.match(r"### `([^`]+)/`", line)
        if heading:
            folder = heading.group(1)
        item = re.match(r"- `([^`]+)`:", line)
        if item and folder:
            listed.add(f"{folder}/{item.group(1)}")
    for top in ("include/zeno", "src"):
        for folder, _, names in os.walk(os.path.join(root, top)):
            for name in names:
                if name.endswith((".c", ".h", ".map")):
                    rel = os.path.relpath(os.path.join(folder, name), root).replace(os.sep, "/")
                    if rel not in listed:
                        errors.append(f"{rel}: not in docs/api.md's list of files")


def problems(root):
    errors = []
    check_includes(root, errors)
    check_public(root, errors)
    check_listed(root, errors)
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
        os.makedirs(os.path.join(tmp, "docs"))
        shutil.copy(os.path.join(root, "docs", "api.md"), os.path.join(tmp, "docs"))
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
    if "src/stray.c: not in docs/api.md's list of files" not in found:
        missing.append("src/stray.c (the list of files)")
    # The calls: a circle between two folders' files, one of them a call
    # back up; a circle inside sim/ is allowed (CIRCLE_FOLDERS).
    calls = {"src/maps/poincare.c": {"src/grid/regions.c"},
             "src/grid/regions.c": {"src/maps/poincare.c"},
             "src/sim/sim.c": {"src/sim/sim_zeno.c"},
             "src/sim/sim_zeno.c": {"src/sim/sim.c"}}
    call_errors = []
    check_calls(calls, call_errors)
    expected = ["src/maps/poincare.c: calls src/grid/regions.c, of the lower folder 'grid'",
                "a circle of calls: src/grid/regions.c -> src/maps/poincare.c"]
    if call_errors != expected:
        missing.append("the planted calls (found: " + "; ".join(call_errors) + ")")
    for rel in missing:
        print(f"self-test: the fault planted in {rel} was not found")
    print(f"self-test: {len(faults) + 3 - len(missing)} of {len(faults) + 3} faults found")
    sys.exit(1 if missing else 0)


def main():
    if len(sys.argv) == 3 and sys.argv[1] == "--self-test":
        self_test(sys.argv[2])
    if len(sys.argv) < 2:
        sys.exit(__doc__)
    root, rest = sys.argv[1], sys.argv[2:]
    archives = []
    if rest[:1] == ["--objects"]:
        rest = rest[1:]
        while rest and rest[0].endswith(".a"):
            archives.append(rest.pop(0))
    errors = []
    check_includes(root, errors)
    check_public(root, errors)
    check_listed(root, errors)
    if archives:
        check_calls(call_graph(archives), errors)
    if rest:
        check_exports(rest[0], errors)
    for module in rest[1:]:
        check_module(module, errors)
    for error in errors:
        print(error)
    print(f"layout: {len(errors)} problem(s)")
    sys.exit(1 if errors else 0)


if __name__ == "__main__":
    main()
