#!/usr/bin/env bash
# pr-bench.sh OUT SCENARIO [ARGS...]: run the base/head campaign with
# decodebench ($DECODEBENCH, default decodebench on PATH) into OUT (a new
# or empty folder), keep its verdict and headline table in
# OUT/headline.md, append them to the job summary ($GITHUB_STEP_SUMMARY,
# when set) and write exit_code and the headline to $GITHUB_OUTPUT (when
# set) for the comment job. It exits 0 whatever the verdict, so that the
# record is uploaded; a later step fails the job on exit_code 1 (an error
# or a FAILED campaign).
#
# The campaign runs the head build, the pull request's code, as an engine:
# decodebench runs in pr-builds.sh's sandbox (SANDBOX, as for the builds:
# require refuses to run the campaign where none works), every file
# system read-only but OUT, a scratch folder of its own (its TMPDIR and
# user cache folder, removed after it) and the host lock's file; its
# process namespace ends with it. Nothing the campaign runs can change
# this script, decodebench, the builds or the runner's files. The verdict
# and headline come only from the record, after the campaign, through
# `decodebench check --headline`: a record that does not pass check is
# exit_code 1, whatever the campaign wrote or exited with. SANDBOX=none
# (tests, or code you trust) runs the campaign unsandboxed: then its
# engines can reach whatever the runner's user can.
#
# With BUILD_SUMS (pr-builds.sh's hashes of both builds) the builds are
# checked before the campaign, which does not run when any file of them
# changed since it was built, and again after it; with BASE_SHA256 and
# HEAD_SHA256, the record must identify the binaries by those hashes, and
# when they are equal (a pull request that does not change the build)
# nothing is measured: "no change", exit_code 0.
# Either check failing is exit_code 1, said in the headline.
#
# The headline is read as Markdown (the job summary, the pull request's
# comment): nothing the campaign or a build leaves (a file's name or
# contents) goes into it but through decodebench's own escaping (check
# --headline). A record that fails check is named only when its name is
# one decodebench gives a record (named), else "a file in OUT"; the
# files of a changed build are listed in the job log only.
#
# The script is read whole before it runs (main, at the end).
set -uo pipefail

# intact: the builds are as pr-builds.sh hashed them; what changed is on
# stdout.
intact() {
  [ -z "${BUILD_SUMS:-}" ] || bash "$here/pr-builds.sh" --check "$BUILD_SUMS" 2>&1
}

# named FILE: FILE's name as the headline shows it: in a code span when
# it is a name decodebench gives a record (letters, digits, ._-, ending
# .md; checked byte by byte), else "a file in OUT", whatever it holds.
named() {
  local LC_ALL=C base=${1##*/}
  if [[ $base =~ ^[A-Za-z0-9][A-Za-z0-9._-]*\.md$ ]]; then
    printf 'The record `%s`' "$base"
  else
    printf 'A file in OUT (its name is not one decodebench gives a record)'
  fi
}

# lockfile: the host lock decodebench would take here (machine.LockPath),
# made when missing: the sandboxed campaign takes the same one.
lockfile() {
  local dir
  if [ -n "${DECODEBENCH_LOCK:-}" ]; then
    printf '%s\n' "$DECODEBENCH_LOCK"
    [ -e "$DECODEBENCH_LOCK" ] || (umask 077 && : >>"$DECODEBENCH_LOCK")
    return
  fi
  dir=/tmp/decodebench-$(id -u)
  mkdir -p -m 700 "$dir" && (umask 077 && : >>"$dir/decodebench.lock") && printf '%s\n' "$dir/decodebench.lock"
}

# campaign ARGS...: run decodebench in the sandbox; say on stdout what
# went wrong when it did not run.
campaign() {
  local own lock cache f rc=0
  own=$(mktemp -d "${TMPDIR:-/tmp}/pr-bench.XXXXXX") || return 1
  mkdir -p "$own/tmp" "$own/cache/decodebench"
  # The user's caches of file hashes and host bandwidth, copied in: the
  # campaign's own copy, never written back.
  cache=${XDG_CACHE_HOME:-${HOME:-/nonexistent}/.cache}/decodebench
  for f in file-hashes.json host-bandwidth.json; do
    if [ -f "$cache/$f" ] && [ ! -L "$cache/$f" ]; then cp -- "$cache/$f" "$own/cache/decodebench/$f"; fi
  done
  if ! lock=$(lockfile); then
    rm -rf "$own"
    echo "the host lock could not be made"
    return 1
  fi
  # decodebench writes the headline where it is told, in its scratch
  # folder (the one read is check's); neither it nor the builds it runs
  # get the runner's file-command variables.
  env -u GITHUB_ENV -u GITHUB_OUTPUT -u GITHUB_PATH -u GITHUB_STATE -u GITHUB_STEP_SUMMARY \
    "TMPDIR=$own/tmp" "XDG_CACHE_HOME=$own/cache" "DECODEBENCH_LOCK=$lock" \
    bash "$here/pr-builds.sh" --sandbox "$out" "$own" "$lock" -- \
    "$db" run --out "$out" --github-summary="$own/run-headline.md" "$@" -- "$scenario" >&2 || rc=$?
  rm -rf "$own"
  case $rc in
    125) echo "SANDBOX=$sandbox_mode, and no sandbox works here for the campaign: nothing was measured (see the job log)" ;;
    *) [ "$rc" = 0 ] || echo "decodebench run exited $rc" ;;
  esac
}

main() {
  out=${1:?usage: pr-bench.sh OUT SCENARIO [ARGS...]}
  scenario=${2:?usage: pr-bench.sh OUT SCENARIO [ARGS...]}
  shift 2
  db=${DECODEBENCH:-decodebench}
  sandbox_mode=${SANDBOX:-auto}
  here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
  mkdir -p "$out"
  out=$(cd "$out" && pwd -P)
  # The headline is written where the campaign never could, then copied
  # into OUT.
  work=$(mktemp -d "${TMPDIR:-/tmp}/pr-bench-headline.XXXXXX")
  headline=$work/headline.md
  : >"$headline"
  local code=0 changed said record side var
  local -a records=()

  if [ -n "$(ls -A "$out")" ]; then
    code=1
    printf 'pr-bench: %s is not empty: the campaign needs a new or empty folder; nothing was measured.\n' "$out" | tee -a "$headline" >&2
  elif ! changed=$(intact); then
    code=1
    printf '%s\n' "$changed" >&2
    printf 'The builds changed between their build and the campaign (the files are in the job log): nothing was measured.\n' >"$headline"
  elif [ -n "${BASE_SHA256:-}" ] && [ "${BASE_SHA256:-}" = "${HEAD_SHA256:-}" ]; then
    printf 'No change: the head build is the base build byte for byte (sha256 %s); nothing was measured.\n' "$BASE_SHA256" >"$headline"
  else
    said=$(campaign "$@")
    mapfile -t records < <(find "$out" -maxdepth 1 -type f -name '*.md' ! -name headline.md)
    if [ "${#records[@]}" != 1 ]; then
      code=1
      printf '%s without a record (%d found in %s): see the job log.\n' "${said:-decodebench run}" "${#records[@]}" "$out" >"$headline"
    else
      record=${records[0]}
      "$db" check --no-cache --headline "$headline" "$record" >&2
      code=$?
      if [ ! -s "$headline" ]; then
        code=1
        printf '%s does not pass `decodebench check` (see the job log): its verdict is not reported.%s\n' "$(named "$record")" "${said:+ ($said)}" >"$headline"
      fi
    fi
    if ! changed=$(intact); then
      code=1
      printf '%s\n' "$changed" >&2
      printf '\n**The builds changed during the campaign (the files are in the job log): this record does not measure them.**\n' >>"$headline"
    fi
    for side in base head; do
      var=$(printf '%s_SHA256' "$side" | tr '[:lower:]' '[:upper:]')
      if [ -n "${record:-}" ] && [ -n "${!var:-}" ] && ! grep -qF -- "${!var}" "$record"; then
        code=1
        printf '\n**The record does not identify the %s build by its sha256 %s: it measured another binary.**\n' "$side" "${!var}" | tee -a "$headline" >&2
      fi
    done
  fi
  rm -rf "$out/headline.md"
  cp -- "$headline" "$out/headline.md"
  if [ -n "${GITHUB_STEP_SUMMARY:-}" ]; then
    cat "$headline" >>"$GITHUB_STEP_SUMMARY"
  fi
  if [ -n "${GITHUB_OUTPUT:-}" ]; then
    # A delimiter no line of the headline can be.
    local eof
    eof="EOF_$(od -An -N8 -tx1 /dev/urandom | tr -d ' \n')"
    {
      printf 'exit_code=%d\n' "$code"
      printf 'headline<<%s\n' "$eof"
      cat "$headline"
      printf '%s\n' "$eof"
    } >>"$GITHUB_OUTPUT"
  fi
  rm -rf "$work"
  exit 0
}

# Read whole before anything runs: nothing after this line is read.
main "$@"; exit
