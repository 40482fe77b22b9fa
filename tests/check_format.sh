#!/usr/bin/env bash
# The C sources are in the project's style (.clang-format, clang-format 14):
#   tests/check_format.sh SOURCE_ROOT CLANG_FORMAT
# Lists every file clang-format would change and exits 1 when there is one;
# `clang-format-14 -i FILE` formats it. Hand-laid tables (option lists,
# column names, labels) are marked `// clang-format off` where they stand.
set -euo pipefail
root=$1
format=$2
cd "$root"
mapfile -d '' files < <(find src include tests tools python examples -name '*.[ch]' -print0 | sort -z)
# One run over every file: it names each file it would change.
report=$("$format" --style=file --dry-run "${files[@]}" 2>&1 || true)
mapfile -t bad < <(grep -o '^[^:]*\.[ch]:[0-9]*:[0-9]*: warning: code should be clang-formatted' \
                     <<<"$report" | cut -d: -f1 | sort -u)
for f in "${bad[@]}"; do echo "$f: not in the project's style (clang-format-14 -i $f)"; done
echo "format: ${#files[@]} files, ${#bad[@]} not in the project's style"
[ "${#bad[@]}" -eq 0 ]
