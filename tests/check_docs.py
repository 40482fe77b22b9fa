#!/usr/bin/env python3
"""The docs say only what is true of this repository and this program.

  check_docs.py ZENO SOURCE_ROOT [--no-viewer] [--c LIBZENO INCLUDE CC [FLAGS...]]
  check_docs.py --self-test ZENO SOURCE_ROOT [--c ...]   (the checker finds
                                                         planted faults)

Over README.md and docs/*.md:

Commands. Every `zeno` command line in a shell code block (```sh, ```bash,
```shell, ```console; also `build/zeno-mpi` and `mpirun ... zeno-mpi`):
- names a subcommand that `zeno --help` lists, and only options that
  `zeno SUBCOMMAND --help` shows;
- runs for real, exit status 0, in a scratch folder that holds `scenes/` (the
  repository's) and an empty `docs/img/`, so that nothing in the repository
  is written. The lines of one page run in order in one scratch folder
  (`simulate --out out/x` before `replay out/x`). Three kinds are checked
  by their options only:
  - a window (`view`/`replay` without `--screenshot`), which needs a display;
  - an `mpirun` line;
  - a pipeline.

  `regions` runs with each axis cut to REGIONS_POINTS values: the same
  keys, ranges and options, at a cost the suite can afford (a 300 x 300
  map takes 20 s).
- `view`/`replay` lines are checked by their options only when the build
  has no viewer (--no-viewer).

Every `zeno ...` command in inline code (`zeno simulate --out DIR`) is
checked by its options too.

C programs. With --c, every ```c block that defines main() compiles with CC
and FLAGS against INCLUDE (the public headers) and LIBZENO, without
warnings (-Wall -Wextra -Werror). It runs with exit 0 in the scratch
folder. Run from an empty folder, where its scene does not load, it must
stop: exit status other than 0, and a message on stderr.

References. No page refers to a file the repository does not have:
- every Markdown link and image resolves to a file inside the repository,
  and its #anchor to a heading of the target page;
- every path in code that starts with a top folder of the repository
  (docs/, scenes/, src/, ...) exists;
- every NAME.md mentioned is a page of the repository;
- no path points into the project's planning folders (shared/, seeds/) or
  to an absolute location of a workspace (/work/, /root/, /home/).

Prints every problem (page:line: what) and exits 1 when there is one.
"""
import os
import re
import shlex
import subprocess
import sys
import tempfile

# Values per axis of a `regions` line when it runs (3 x 3 points: each
# region-7 point runs 32 short simulations; about a second in all).
REGIONS_POINTS = 3
# Seconds one documented command may take here (each takes well under one).
COMMAND_TIMEOUT = 60
SHELL_FENCES = {"sh", "bash", "shell", "console"}
PROGRAMS = {"zeno", "zeno-mpi"}
# Top-level entries of the repository that a path in the docs may start with.
REPO_FOLDERS = ("docs", "scenes", "src", "include", "examples", "python",
                "tests", "tools")
# Path starts that lie outside the repository: the project's planning
# folders beside it and absolute workspace paths.
OUTSIDE = re.compile(r"(?<![\w./-])(?:\.\./)*(?:shared|seeds)/|(?<![\w.-])/(?:work|root|home)/")
LINK = re.compile(r"!?\[[^\]]*\]\(([^)\s]+)(?:\s+\"[^\"]*\")?\)")
INLINE_CODE = re.compile(r"`([^`\n]+)`")
MD_NAME = re.compile(r"(?<![\w/.-])([\w./-]*[\w-]\.md)\b")
REPO_PATH = re.compile(r"(?<![\w./-])((?:%s)/[\w./-]*)" % "|".join(REPO_FOLDERS))
PLACEHOLDER = re.compile(r"[<>*{}…]|\.\.\.|(?:^|/)[A-Z][A-Z0-9_]*(?:/|\.|$)")
MD_PLACEHOLDER = re.compile(r"[<>*{}…]|\.\.\.")
GRID = re.compile(r"^([\w.+]+=[^:]+:[^:]+:)(\d+)$")


class Page:
    """One Markdown file: its prose lines, shell blocks and inline code."""

    def __init__(self, root, rel):
        self.root, self.rel = root, rel
        self.lines = open(os.path.join(root, rel), encoding="utf-8").read().splitlines()
        self.blocks = []   # (first line number, fence language, [lines])
        self.prose = []    # (line number, text) outside code blocks
        fence, lang, start, body = None, "", 0, []
        for n, line in enumerate(self.lines, 1):
            m = re.match(r"^(\s*)(```+|~~~+)\s*([\w-]*)", line)
            if m and fence is None:
                fence, lang, start, body = m.group(2), m.group(3).lower(), n + 1, []
            elif m and fence is not None and line.strip().startswith(fence):
                self.blocks.append((start, lang, body))
                fence = None
            elif fence is not None:
                body.append(line)
            else:
                self.prose.append((n, line))


def slug(heading):
    """GitHub's anchor of a Markdown heading."""
    text = re.sub(r"`", "", heading.strip().lower())
    text = re.sub(r"[^\w\- ]", "", text)
    return text.replace(" ", "-")


def anchors(root, rel):
    page = Page(root, rel)
    found, seen = set(), {}
    for _, line in page.prose:
        m = re.match(r"^#{1,6}\s+(.*?)\s*#*\s*$", line)
        if m:
            base = slug(m.group(1))
            count = seen.get(base, 0)
            seen[base] = count + 1
            found.add(base if count == 0 else f"{base}-{count}")
    return found


def command_lines(block):
    """(line offset, text) of each logical line: `\\` continuations joined."""
    out, acc, first = [], "", None
    for i, line in enumerate(block):
        if first is None:
            first = i
        if line.rstrip().endswith("\\"):
            acc += line.rstrip()[:-1] + " "
            continue
        out.append((first, acc + line))
        acc, first = "", None
    if acc:
        out.append((first, acc))
    return out


def split_commands(text):
    """Simple commands of a shell line, and whether it is a pipeline."""
    lexer = shlex.shlex(text, posix=True, punctuation_chars=";&|")
    lexer.whitespace_split = True
    lexer.commenters = "#"
    commands, current, piped = [], [], False
    for token in lexer:
        if token in (";", "&&", "||", "&", "|"):
            piped |= token == "|"
            commands.append(current)
            current = []
        else:
            current.append(token)
    commands.append(current)
    return [c for c in commands if c], piped


def zeno_call(tokens):
    """(program, arguments, via mpirun) of a zeno command, else None."""
    mpirun = bool(tokens) and os.path.basename(tokens[0]) == "mpirun"
    for i, token in enumerate(tokens):
        if os.path.basename(token) in PROGRAMS:
            if i == 0 or mpirun:
                return os.path.basename(token), tokens[i + 1:], mpirun
            return None
        if not mpirun and "=" not in token:  # VAR=value before a command is fine
            return None
    return None


class Checker:
    def __init__(self, zeno, root, viewer=True, c_build=None):
        self.zeno, self.root, self.viewer = zeno, root, viewer
        self.c_build = c_build  # (libzeno, include folder, compiler command)
        self.problems = []
        self.help_cache = {}
        self.runs = 0
        self.md_names = None
        top = self.help("")
        section = top.split("Commands:", 1)[1] if "Commands:" in top else ""
        self.subcommands = set(re.findall(r"^\s{2}([a-z][\w-]*)\s", section, re.M))
        if not self.subcommands:
            self.problems.append(f"{zeno} --help lists no commands")

    def help(self, sub):
        if sub not in self.help_cache:
            args = [self.zeno] + ([sub] if sub else []) + ["--help"]
            r = subprocess.run(args, capture_output=True, text=True, timeout=COMMAND_TIMEOUT)
            self.help_cache[sub] = r.stdout if r.returncode == 0 else ""
        return self.help_cache[sub]

    def problem(self, page, line, text):
        self.problems.append(f"{page.rel}:{line}: {text}")

    def check_options(self, page, line, args, shown):
        """The subcommand of `zeno ARGS` exists and takes every option named."""
        if not args or args[0] in ("--help", "-h", "--version"):
            return None
        sub = args[0]
        if sub not in self.subcommands:
            self.problem(page, line, f"`{shown}`: zeno has no command {sub!r}")
            return None
        text = self.help(sub)
        for arg in args[1:]:
            if not arg.startswith("-") or arg == "-" or re.match(r"^-[\d.]", arg):
                continue
            option = arg.split("=", 1)[0]
            if not re.search(r"(?<![\w-])%s(?![\w-])" % re.escape(option), text):
                self.problem(page, line, f"`{shown}`: `zeno {sub}` has no option {option}")
        return sub

    def run(self, page, line, args, scratch):
        """Runs `zeno ARGS` in the scratch folder; problems on failure."""
        args = list(args)
        if args and args[0] == "regions":
            for i, arg in enumerate(args[:-1]):
                if arg in ("--x", "--y"):
                    args[i + 1] = GRID.sub(r"\g<1>%d" % REGIONS_POINTS, args[i + 1])
        self.runs += 1
        try:
            r = subprocess.run([self.zeno] + args, cwd=scratch, capture_output=True,
                               text=True, stdin=subprocess.DEVNULL, timeout=COMMAND_TIMEOUT)
        except subprocess.TimeoutExpired:
            self.problem(page, line, f"`zeno {' '.join(args)}` ran over {COMMAND_TIMEOUT} s")
            return
        if r.returncode != 0:
            err = (r.stderr.strip() or r.stdout.strip()).splitlines()[-1:] or [""]
            self.problem(page, line, f"`zeno {' '.join(args)}` exits {r.returncode}: {err[0]}")

    def check_commands(self, page, scratch):
        for start, lang, block in page.blocks:
            if lang not in SHELL_FENCES:
                continue
            for offset, text in command_lines(block):
                line = start + offset
                try:
                    commands, piped = split_commands(text)
                except ValueError as e:
                    self.problem(page, line, f"`{text.strip()}` does not parse as shell: {e}")
                    continue
                for tokens in commands:
                    call = zeno_call(tokens)
                    if call is None:
                        continue
                    program, args, mpirun = call
                    shown = " ".join([program] + args)
                    sub = self.check_options(page, line, args, shown)
                    window = sub in ("view", "replay") and "--screenshot" not in args
                    no_viewer = sub in ("view", "replay") and not self.viewer
                    if mpirun or piped or window or no_viewer or program != "zeno":
                        continue
                    self.run(page, line, args, scratch)
        for n, text in page.prose:
            for code in INLINE_CODE.findall(text):
                words = code.split()
                if len(words) >= 2 and os.path.basename(words[0]) in PROGRAMS \
                        and not words[0].endswith(".so"):
                    self.check_options(page, n, words[1:], code)

    def check_c_programs(self, page, scratch):
        if self.c_build is None:
            return
        libzeno, include, cc = self.c_build
        env = dict(os.environ, LD_LIBRARY_PATH=os.path.dirname(libzeno))
        for start, lang, block in page.blocks:
            source = "\n".join(block) + "\n"
            if lang != "c" or not re.search(r"\bint\s+main\s*\(", source):
                continue
            with tempfile.TemporaryDirectory(prefix="zeno-docs-c-") as tmp:
                src, exe = os.path.join(tmp, "snippet.c"), os.path.join(tmp, "snippet")
                with open(src, "w", encoding="utf-8") as f:
                    f.write(source)
                r = subprocess.run(cc + ["-Wall", "-Wextra", "-Werror", "-I", include, src,
                                         libzeno, "-o", exe],
                                   capture_output=True, text=True, timeout=COMMAND_TIMEOUT)
                if r.returncode != 0:
                    first = (r.stderr.strip().splitlines() or [""])[0]
                    self.problem(page, start, f"the C program does not compile: {first}")
                    continue
                self.runs += 1
                ok = subprocess.run([exe], cwd=scratch, capture_output=True, text=True,
                                    env=env, timeout=COMMAND_TIMEOUT)
                if ok.returncode != 0:
                    self.problem(page, start, f"the C program exits {ok.returncode}: "
                                 f"{ok.stderr.strip()[:200]}")
                empty = os.path.join(tmp, "empty")
                os.mkdir(empty)
                bad = subprocess.run([exe], cwd=empty, capture_output=True, text=True,
                                     env=env, timeout=COMMAND_TIMEOUT)
                if bad.returncode == 0 or not bad.stderr.strip():
                    self.problem(page, start, "the C program does not stop with a message "
                                 f"when its scene does not load (exit {bad.returncode})")

    def check_references(self, page):
        here = os.path.dirname(os.path.join(self.root, page.rel))
        root = os.path.realpath(self.root)
        for n, text in page.prose:
            for target in LINK.findall(text):
                if re.match(r"^[a-z][\w+.-]*:", target):
                    continue  # http:, https:, mailto:
                path, _, anchor = target.partition("#")
                full = os.path.realpath(os.path.join(here, path)) if path else \
                    os.path.realpath(os.path.join(self.root, page.rel))
                if not (full == root or full.startswith(root + os.sep)):
                    self.problem(page, n, f"link {target!r} leads outside the repository")
                    continue
                if not os.path.exists(full):
                    self.problem(page, n, f"link {target!r}: no such file")
                    continue
                if anchor and full.endswith(".md"):
                    rel = os.path.relpath(full, root)
                    if anchor not in anchors(self.root, rel):
                        self.problem(page, n, f"link {target!r}: {rel} has no heading #{anchor}")
        block_lines = [(first + i, t) for first, _, block in page.blocks
                       for i, t in enumerate(block)]
        for n, text in page.prose + block_lines:
            outside = OUTSIDE.search(text)
            if outside:
                self.problem(page, n, f"refers outside the repository: {outside.group(0)!r}")
            for name in MD_NAME.findall(re.sub(r"\b[a-z][\w+.-]*://\S+", "", text)):
                # Upper-case names are real pages here (README.md, SPEC.md).
                if MD_PLACEHOLDER.search(name):
                    continue
                candidates = [os.path.join(here, name), os.path.join(self.root, name)]
                if not any(os.path.isfile(c) for c in candidates) and \
                        os.path.basename(name) not in self.md_pages():
                    self.problem(page, n, f"{name}: no such page in the repository")
        # Paths: in inline code of the prose, and anywhere in code blocks.
        spans = [(n, span) for n, text in page.prose for span in INLINE_CODE.findall(text)]
        for n, span in spans + block_lines:
            for path in REPO_PATH.findall(span):
                path = path.rstrip(".,;:")
                if PLACEHOLDER.search(path):
                    continue
                if not os.path.exists(os.path.join(self.root, path)):
                    self.problem(page, n, f"{path}: no such file in the repository")

    def md_pages(self):
        """Names of the Markdown files of the repository (build trees left out)."""
        if self.md_names is None:
            self.md_names = set()
            for _, dirs, files in os.walk(self.root):
                dirs[:] = [d for d in dirs if not d.startswith((".", "build"))]
                self.md_names |= {f for f in files if f.endswith(".md")}
        return self.md_names


def pages(root):
    found = ["README.md"]
    docs = os.path.join(root, "docs")
    if os.path.isdir(docs):
        found += sorted(os.path.join("docs", f) for f in os.listdir(docs) if f.endswith(".md"))
    return [p for p in found if os.path.isfile(os.path.join(root, p))]


def check_tree(zeno, root, viewer=True, c_build=None):
    checker = Checker(os.path.abspath(zeno), root, viewer, c_build)
    for rel in pages(root):
        page = Page(root, rel)
        checker.check_references(page)
        with tempfile.TemporaryDirectory(prefix="zeno-docs-") as scratch:
            os.symlink(os.path.join(os.path.realpath(root), "scenes"),
                       os.path.join(scratch, "scenes"))
            os.makedirs(os.path.join(scratch, "docs", "img"))
            checker.check_commands(page, scratch)
            checker.check_c_programs(page, scratch)
    return checker


def self_test(zeno, root, c_build=None):
    """A planted page with one fault of each kind: each is reported, and the
    same page without them is clean."""
    clean = """# Page

## A section

See [the scenes](scenes.md#a-section) and [this](#a-section).

```sh
build/zeno simulate scenes/example2.yaml --json
```
"""
    # A correct C program (compiled in the clean check only: compiles are
    # the slow part under the sanitizers).
    clean_c = """
```c
#include <stdio.h>
#include <zeno/zeno.h>

int main(void) {
  zeno_scene scene;
  zeno_error err;
  if (zeno_scene_load("scenes/example2.yaml", NULL, 0, &scene, &err) != ZENO_OK) {
    fprintf(stderr, "%s\\n", err.message);
    return 2;
  }
  return 0;
}
```
"""
    faults = {
        "zeno has no command 'simulat'": "```sh\nbuild/zeno simulat scenes/example2.yaml\n```\n",
        "has no option --jsn": "```sh\nbuild/zeno simulate scenes/example2.yaml --jsn\n```\n",
        "has no option --frobnicate": "Run `zeno check --frobnicate`.\n",
        "exits 2": "```sh\nbuild/zeno simulate scenes/no-such-scene.yaml\n```\n",
        "leads outside the repository": "[up](../outside.md)\n",
        "link 'missing.md': no such file": "[m](missing.md)\n",
        "has no heading #nowhere": "[s](scenes.md#nowhere)\n",
        "SPEC.md: no such page": "Conventions (SPEC.md).\n",
        "refers outside the repository: 'shared/'": "(`shared/seeds/paper.txt`)\n",
        "docs/absent.png: no such file": "Figure: `docs/absent.png`.\n",
    }
    if c_build is not None:
        faults["does not stop with a message when its scene does not load"] = (
            "```c\n#include <zeno/zeno.h>\n\nint main(void) {\n  zeno_scene scene;\n"
            "  zeno_error err;\n  zeno_scene_load(\"scenes/example2.yaml\", NULL, 0, &scene, "
            "&err);\n  return 0;\n}\n```\n")
        faults["the C program does not compile"] = (
            "```c\nint main(void) { return undeclared; }\n```\n")
    failures = []
    with tempfile.TemporaryDirectory(prefix="zeno-docs-self-") as tree:
        os.symlink(os.path.join(os.path.realpath(root), "scenes"), os.path.join(tree, "scenes"))
        os.makedirs(os.path.join(tree, "docs"))
        with open(os.path.join(tree, "docs", "scenes.md"), "w", encoding="utf-8") as f:
            f.write("# Scenes\n\n## A section\n\nBack to [the README](../README.md).\n")

        def write(text):
            with open(os.path.join(tree, "README.md"), "w", encoding="utf-8") as f:
                f.write(text.replace("](scenes.md", "](docs/scenes.md"))

        write(clean + (clean_c if c_build is not None else ""))
        found = check_tree(zeno, tree, c_build=c_build).problems
        if found:
            failures.append(f"the clean page has problems: {found}")
        for expected, planted in faults.items():
            write(clean + planted)
            found = check_tree(zeno, tree, c_build=c_build).problems
            if not any(expected in p for p in found):
                failures.append(f"planted fault not reported: {expected!r} (got {found})")
    for line in failures:
        print("FAIL:", line)
    if failures:
        return 1
    print(f"PASS: {len(faults)} planted faults each reported, the clean page clean")
    return 0


def main(argv):
    args, c_build = argv[1:], None
    if "--c" in args:
        i = args.index("--c")
        rest = args[i + 1:]
        if len(rest) < 3:
            print(__doc__)
            return 2
        c_build = (os.path.abspath(rest[0]), os.path.abspath(rest[1]), rest[2:])
        args = args[:i]
    if len(args) == 3 and args[0] == "--self-test":
        return self_test(os.path.abspath(args[1]), args[2], c_build)
    viewer = "--no-viewer" not in args
    args = [a for a in args if a != "--no-viewer"]
    if len(args) != 2:
        print(__doc__)
        return 2
    checker = check_tree(os.path.abspath(args[0]), args[1], viewer, c_build)
    for line in checker.problems:
        print(line)
    if checker.problems:
        return 1
    print(f"PASS: {len(pages(args[1]))} pages: every zeno command parses, "
          f"{checker.runs} commands and programs ran; every link and path is in "
          "the repository")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
