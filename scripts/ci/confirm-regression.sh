#!/usr/bin/env bash
# confirm-regression.sh OLD NEW RERUN [REPRODUCE ARGS...]: gate the record
# NEW against OLD with decodebench ($DECODEBENCH, default decodebench on
# PATH): `diff --fail-on-regression`. One campaign is one session, and a
# session can move an arm's ratio by more than its interval says; so a
# first alarm is not the job's failure. On one, the script reruns NEW's
# campaign (`reproduce --yes` into the folder RERUN, with REPRODUCE ARGS
# such as --hw and --wait-lock) and gates again with the rerun as a second
# session (`diff --fail-on-regression --confirm`): it exits 1 only when the
# two sessions agree, or when a diff refuses (a record not fit to compare)
# or the rerun leaves no record. Each diff goes to the job summary
# ($GITHUB_STEP_SUMMARY, when set) as Markdown.
#
# Only for records this job produced from a scenario its dispatcher chose:
# reproduce --yes runs the commands NEW's stored scenario names.
set -uo pipefail
usage='usage: confirm-regression.sh OLD NEW RERUN [REPRODUCE ARGS...]'
old=${1:?$usage}
new=${2:?$usage}
rerun=${3:?$usage}
shift 3
db=${DECODEBENCH:-decodebench}
summary=${GITHUB_STEP_SUMMARY:-/dev/null}
first=$(mktemp)
trap 'rm -f "$first"' EXIT

"$db" diff --markdown --fail-on-regression "$old" "$new" >"$first"
code=$?
cat "$first" >>"$summary"
if [ "$code" -eq 0 ]; then
  echo "confirm-regression: no regression of $new against $old"
  exit 0
fi
# Exit 1 is an alarm (a ratio row marked worse), or a refusal or an error
# (a side not fit to compare, a record that cannot be read), which a rerun
# of NEW cannot mend.
alarm=$(awk '/ratio to its own baseline/ { r = 1 } r && /\| \*\*worse\*\* \|$/ { print "yes"; exit }' "$first")
if [ "$code" -ne 1 ] || [ "$alarm" != yes ]; then
  echo "confirm-regression: diff failed (exit $code) without an alarm to confirm" >&2
  exit 1
fi

echo "confirm-regression: a first alarm; rerunning the campaign of $new to confirm it"
mkdir -p "$rerun"
path_file="$rerun.record-path"
rm -f "$path_file"
"$db" reproduce --yes --out "$rerun" --record-path "$path_file" "$@" "$new"
echo "confirm-regression: the rerun exited $?"
if [ ! -s "$path_file" ]; then
  echo "confirm-regression: the rerun left no record: the alarm stands" >&2
  exit 1
fi
new2=$(cat "$path_file")
printf '\n### Rerun to confirm the alarm\n\n' >>"$summary"
"$db" diff --markdown --fail-on-regression --confirm "$new2" "$old" "$new" >>"$summary"
code=$?
if [ "$code" -eq 0 ]; then
  echo "confirm-regression: the rerun does not confirm the alarm"
else
  echo "confirm-regression: the rerun confirms the regression (or a diff refused): exit $code" >&2
fi
exit "$code"
