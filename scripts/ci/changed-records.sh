#!/usr/bin/env bash
# changed-records.sh BASE [HEAD]: the records a pull request touches, one
# path a line, for `decodebench check`. A record counts when its Markdown
# was added, modified, copied or renamed (under any similarity), or when
# anything in the data folder it names changed, a deletion included. A
# changed data folder that no record names is an error, as is a path that
# is not plain. Run from the repository root of the pull request's checkout;
# the review job runs the base branch's copy of this script, so a pull
# request cannot change which of its records are checked.
set -euo pipefail
base=${1:?usage: changed-records.sh BASE [HEAD]}
head=${2:-HEAD}
dir=docs/benchmark_results
out=$(mktemp)
trap 'rm -f "$out"' EXIT

# --no-renames: a rename or copy is its new path added (and the old one
# deleted), whatever its similarity.
git diff --no-renames --name-status -z "$base" "$head" -- "$dir" |
while IFS= read -r -d '' status && IFS= read -r -d '' path; do
  case "$path" in
    *$'\n'* | *$'\r'*) echo "changed-records: a path with a line break: refusing" >&2; exit 1 ;;
  esac
  rel=${path#"$dir"/}
  case "$rel" in
    README.md | index/*) ;;
    data/*/*)
      folder=${rel#data/}
      folder=data/${folder%%/*}
      # The records at HEAD that name this data folder.
      names=$(git grep -l -F "\"data_dir\": \"$folder\"" "$head" -- "$dir/*.md" | sed "s#^$head:##" || true)
      if [ -z "$names" ]; then
        if git cat-file -e "$head:$dir/$folder" 2>/dev/null; then
          echo "changed-records: $dir/$folder changed but no record names it" >&2
          exit 1
        fi
        continue # a folder deleted with its record
      fi
      printf '%s\n' "$names" >>"$out"
      ;;
    */*) ;;
    *.md)
      [ "$status" = D ] || printf '%s\n' "$path" >>"$out"
      ;;
  esac
done
sort -u "$out"
