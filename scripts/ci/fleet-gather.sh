#!/usr/bin/env bash
# fleet-gather.sh DOWNLOADS DIR OUT: the gather job's work, run from the
# repository root. Every folder in DOWNLOADS is one runner's artifact (a
# record and its data folder, as fleet-stage.sh staged it); decodebench
# gather ($DECODEBENCH, default decodebench on PATH) checks each and places
# it in the records folder DIR, refusing a record that fails check or
# clashes with a different one of its name, and appends what it did and
# the regime tables of the gathered scenarios to the job summary
# ($GITHUB_STEP_SUMMARY, when set). Then decodebench index rewrites DIR's
# index, and every file the two added or changed under DIR is copied into
# OUT/records (at its path relative to DIR), with the summary in
# OUT/summary.md: the artifact the pull-request job commits, or the
# deliverable itself. A refused record fails the job after the summary is
# written; nothing is staged then.
set -euo pipefail
downloads=${1:?usage: fleet-gather.sh DOWNLOADS DIR OUT}
dir=${2:?usage: fleet-gather.sh DOWNLOADS DIR OUT}
out=${3:?usage: fleet-gather.sh DOWNLOADS DIR OUT}
db=${DECODEBENCH:-decodebench}
mkdir -p "$out/records"
summary=$out/summary.md
: >"$summary"

shopt -s nullglob
srcs=("$downloads"/*/)
if [ "${#srcs[@]}" -eq 0 ]; then
  echo "fleet-gather: no artifact in $downloads: no runner uploaded a record" | tee "$summary" >&2
  exit 1
fi
status=0
"$db" gather --dir "$dir" --github-summary="$summary" "${srcs[@]}" || status=$?
if [ -n "${GITHUB_STEP_SUMMARY:-}" ]; then
  cat "$summary" >>"$GITHUB_STEP_SUMMARY"
fi
if [ "$status" -ne 0 ]; then
  echo "fleet-gather: decodebench gather refused a record (exit $status): nothing staged" >&2
  exit "$status"
fi
"$db" index "$dir"
n=0
while IFS= read -r -d '' path; do
  case "$path" in
    *$'\n'* | *$'\r'*) echo "fleet-gather: a path with a line break: refusing" >&2; exit 1 ;;
  esac
  rel=${path#"$dir"/}
  mkdir -p "$out/records/$(dirname "$rel")"
  cp -p -- "$path" "$out/records/$rel"
  n=$((n + 1))
done < <(git ls-files -z --others --modified --exclude-standard -- "$dir")
echo "fleet-gather: $n file(s) of $dir staged in $out/records"
