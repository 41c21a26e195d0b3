#!/usr/bin/env bash
# pr-bench.sh OUT SCENARIO [ARGS...]: run the base/head campaign with
# decodebench ($DECODEBENCH, default decodebench on PATH) into OUT, keep
# its verdict and headline table in OUT/headline.md, append them to the
# job summary ($GITHUB_STEP_SUMMARY, when set) and write exit_code and the
# headline to $GITHUB_OUTPUT (when set) for the comment job. It exits 0
# whatever the verdict, so that the record is uploaded; a later step
# fails the job on exit_code 1 (an error or a FAILED campaign).
#
# With BUILD_SUMS (pr-builds.sh's hashes of both builds) the builds are
# checked before the campaign, which does not run when any file of them
# changed since it was built, and again after it; with BASE_SHA256 and
# HEAD_SHA256, the record must identify the binaries by those hashes.
# Either failing is exit_code 1, said in the headline.
set -uo pipefail
out=${1:?usage: pr-bench.sh OUT SCENARIO [ARGS...]}
scenario=${2:?usage: pr-bench.sh OUT SCENARIO [ARGS...]}
shift 2
db=${DECODEBENCH:-decodebench}
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
mkdir -p "$out"
headline=$out/headline.md
: >"$headline"

# intact: the builds are as pr-builds.sh hashed them; what changed is on
# stdout.
intact() {
  [ -z "${BUILD_SUMS:-}" ] || bash "$here/pr-builds.sh" --check "$BUILD_SUMS" 2>&1
}

if ! changed=$(intact); then
  code=1
  printf '%s\n' "$changed" >&2
  printf 'The builds changed between their build and the campaign: nothing was measured.\n\n```\n%s\n```\n' "$changed" >"$headline"
else
  # decodebench writes the headline where it is told; neither it nor the
  # builds it runs get the runner's file-command variables (decodebench
  # gives an engine none of them either).
  env -u GITHUB_ENV -u GITHUB_OUTPUT -u GITHUB_PATH -u GITHUB_STATE -u GITHUB_STEP_SUMMARY \
    "$db" run --out "$out" --github-summary="$headline" "$@" -- "$scenario"
  code=$?
  if [ ! -s "$headline" ]; then
    printf 'decodebench run exited %d without a record: see the job log.\n' "$code" >"$headline"
  fi
  if ! changed=$(intact); then
    code=1
    printf '%s\n' "$changed" >&2
    printf '\n**The builds changed during the campaign: this record does not measure them.**\n\n```\n%s\n```\n' "$changed" >>"$headline"
  fi
  record=$(find "$out" -maxdepth 1 -name '*.md' ! -name headline.md | head -n 1)
  for side in base head; do
    var=$(printf '%s_SHA256' "$side" | tr '[:lower:]' '[:upper:]')
    if [ -n "$record" ] && [ -n "${!var:-}" ] && ! grep -qF -- "${!var}" "$record"; then
      code=1
      printf '\n**The record does not identify the %s build by its sha256 %s: it measured another binary.**\n' "$side" "${!var}" | tee -a "$headline" >&2
    fi
  done
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
