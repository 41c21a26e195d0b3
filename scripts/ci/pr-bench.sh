#!/usr/bin/env bash
# pr-bench.sh OUT SCENARIO [ARGS...]: run the base/head campaign with
# decodebench ($DECODEBENCH, default decodebench on PATH) into OUT, keep
# its verdict and headline table in OUT/headline.md, append them to the
# job summary ($GITHUB_STEP_SUMMARY, when set) and write exit_code and the
# headline to $GITHUB_OUTPUT (when set) for the comment job. It exits 0
# whatever the verdict, so that the record is uploaded; a later step
# fails the job on exit_code 1 (an error or a FAILED campaign).
set -uo pipefail
out=${1:?usage: pr-bench.sh OUT SCENARIO [ARGS...]}
scenario=${2:?usage: pr-bench.sh OUT SCENARIO [ARGS...]}
shift 2
db=${DECODEBENCH:-decodebench}
mkdir -p "$out"
headline=$out/headline.md
: >"$headline"
GITHUB_STEP_SUMMARY=$headline "$db" run --out "$out" --github-summary "$@" -- "$scenario"
code=$?
if [ ! -s "$headline" ]; then
  printf 'decodebench run exited %d without a record: see the job log.\n' "$code" >"$headline"
fi
if [ -n "${GITHUB_STEP_SUMMARY:-}" ]; then
  cat "$headline" >>"$GITHUB_STEP_SUMMARY"
fi
if [ -n "${GITHUB_OUTPUT:-}" ]; then
  # A delimiter no line of the headline can be.
  eof="EOF_$(od -An -N8 -tx1 /dev/urandom | tr -d ' \n')"
  {
    printf 'exit_code=%d\n' "$code"
    printf 'headline<<%s\n' "$eof"
    cat "$headline"
    printf '%s\n' "$eof"
  } >>"$GITHUB_OUTPUT"
fi
exit 0
