#!/usr/bin/env bash
# tools/clear_omp_registrations on a folder of planted registrations:
#   tests/check_clear_omp.sh SOURCE_ROOT
# It removes exactly the empty one of a gone process, and keeps the empty
# one of a live process (this shell), the full one of a gone process
# (libomp's own to judge), another user's, and any other file.
set -euo pipefail
root=$1
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
uid=$(id -u)
# Larger than any pid (pid_max is at most 2^22): a process that is gone.
gone=99999999
: > "$dir/__KMP_REGISTERED_LIB_${gone}_$uid"
: > "$dir/__KMP_REGISTERED_LIB_$$_$uid"
head -c 1024 /dev/zero > "$dir/__KMP_REGISTERED_LIB_$((gone - 1))_$uid"
: > "$dir/__KMP_REGISTERED_LIB_$((gone - 2))_$((uid + 1))"
: > "$dir/other"
"$root/tools/clear_omp_registrations" "$dir"
kept=$(cd "$dir" && ls | sort | tr '\n' ' ')
want=$(printf '%s\n' "__KMP_REGISTERED_LIB_$$_$uid" "__KMP_REGISTERED_LIB_$((gone - 1))_$uid" \
         "__KMP_REGISTERED_LIB_$((gone - 2))_$((uid + 1))" other | sort | tr '\n' ' ')
if [ "$kept" != "$want" ]; then
  echo "kept: $kept"
  echo "want: $want"
  exit 1
fi
echo "clear_omp_registrations: removed the empty registration of a gone process, kept the other four"
