#!/usr/bin/env bash
# fleet-stage.sh DIR OUT: copy what a campaign added to the records folder
# DIR of this checkout (the files git does not track: the new record and
# its data folder) into OUT, at the same paths relative to DIR, for the
# upload. The campaign ran with --out DIR in a checkout of the repository,
# so the record got the next free name among the records already there,
# and the host history compared it with this runner's earlier records. A
# path with a line break, a link or anything but a regular file is refused;
# no file at all is an error (the campaign wrote no record).
set -euo pipefail
dir=${1:?usage: fleet-stage.sh DIR OUT}
out=${2:?usage: fleet-stage.sh DIR OUT}
mkdir -p "$out"
n=0
while IFS= read -r -d '' path; do
  case "$path" in
    *$'\n'* | *$'\r'*) echo "fleet-stage: a path with a line break: refusing" >&2; exit 1 ;;
  esac
  if [ -L "$path" ] || [ ! -f "$path" ]; then
    echo "fleet-stage: $path is not a regular file: refusing" >&2
    exit 1
  fi
  rel=${path#"$dir"/}
  mkdir -p "$out/$(dirname "$rel")"
  cp -p -- "$path" "$out/$rel"
  n=$((n + 1))
done < <(git ls-files -z --others --exclude-standard -- "$dir")
if [ "$n" -eq 0 ]; then
  echo "fleet-stage: the campaign added nothing to $dir" >&2
  exit 1
fi
echo "fleet-stage: $n file(s) of $dir staged in $out"
find "$out" -maxdepth 1 -name '*.md' -print
