#!/usr/bin/env bash
# pr-builds.sh REPO BASE HEAD DIR: build the engine at a pull request's base
# and head, each in its own git worktree of REPO (DIR/base and DIR/head;
# the checkout in REPO is not touched), with the build command the
# engine's repository supplies: $BUILD, run with sh -c in each worktree,
# leaving the engine binary at $BIN (relative to the worktree). Prints the
# variables the base/head scenario and pr-bench.sh take, one NAME=VALUE a
# line, for $GITHUB_ENV: BASE_BIN, HEAD_BIN, BASE_SRC, HEAD_SRC,
# BASE_SHA256, HEAD_SHA256 (each binary's hash, taken right after its
# build) and BUILD_SUMS (every file of both builds, hashed). A build that
# fails stops the script, naming which side failed; its output is on
# stderr.
#
# pr-builds.sh --check SUMS: hash the builds BUILD_SUMS lists again and
# fail, naming what changed, when any file was changed, added or removed
# since they were built (pr-bench.sh runs it before and after the
# campaign).
#
# pr-builds.sh --sandbox WRITABLE... -- COMMAND [ARGS...]: run COMMAND in
# the current folder in the builds' sandbox, every file system read-only
# but the WRITABLE paths (folders or files, which must exist), without
# the runner's file-command variables, as SANDBOX says where no sandbox
# works (require: exit 125 without running it; auto: run it unsandboxed
# after a warning; none: never sandboxed). It exits with COMMAND's status.
# pr-bench.sh runs the campaign so: the head build runs in it as an
# engine.
#
# The head is the pull request's code: nothing its build runs may reach
# the base build, the scripts, decodebench or anything the campaign uses
# later.
# - The script is read whole before it runs (main, at the end): a
#   process that rewrites its file while it runs does not change what it
#   does.
# - The base is built first, from the base commit, then the head.
# - Each build gets a TMPDIR and a HOME of its own (its caches are not
#   the runner's), removed after it.
# - Each build runs in a sandbox: every file system read-only but its own
#   worktree and those, in a process namespace of its own, without
#   capabilities or a way to gain them (no sudo). SANDBOX says what
#   happens where the kernel allows none (unshare and setpriv from
#   util-linux; user namespaces, for a runner that is not root): require
#   (the example workflow's) refuses to build, auto (the default) builds
#   without one after a warning, none builds without one.
# - Every process a build started is killed when its build command exits:
#   its process namespace (the sandbox's, or one of its own unsandboxed)
#   ends them all; where none can be made, its process group, its session
#   and every process carrying its marker in its environment are killed.
# - Each build's files are hashed right after it is built and all of them
#   again after the other build: a base the head build changed fails here.
#   The hashes take in each worktree's .git file and the commit git says
#   it is at, and the repository's shared git folder's config files,
#   hooks and info/, its submodules' too (hashed before each build): a build that pointed a worktree at a
#   git folder of its own (a record naming another commit, clean) or left
#   a hook or a configuration for a later git command fails here. A build
#   that changed its own .git fails right after it. The script's own git
#   commands run no hook and no file-system monitor.
# - A build gets none of the runner's file-command variables (GITHUB_ENV,
#   GITHUB_OUTPUT, GITHUB_PATH, GITHUB_STATE, GITHUB_STEP_SUMMARY).
set -euo pipefail
usage='usage: pr-builds.sh REPO BASE HEAD DIR, pr-builds.sh --check SUMS, or pr-builds.sh --sandbox WRITABLE... -- COMMAND...'

sha256() {
  if command -v sha256sum >/dev/null; then sha256sum "$@"; else shasum -a 256 "$@"; fi
}

# Git as this script runs it: no hook, no file-system monitor, whatever
# a build wrote into a repository's configuration or hooks.
safegit() { git -c core.hooksPath=/dev/null -c core.fsmonitor=false "$@"; }

# manifest TREE: every file under TREE but a .git folder with its sha256
# (a worktree's .git file included: it says which git folder, and so which
# commit, the tree is), every link with its target, sorted, and, for a
# tree with a .git, the commit git says it is at: what a build left.
manifest() {
  printf 'tree %s\n' "$1"
  find "$1" -path "$1/.git" -type d -prune -o -type f -exec bash -c 'sha256 "$@"' _ {} + | LC_ALL=C sort
  find "$1" -path "$1/.git" -type d -prune -o -type l -exec sh -c 'for l; do printf "link %s -> %s\n" "$l" "$(readlink "$l")"; done' _ {} + | LC_ALL=C sort
  if [ -e "$1/.git" ] || [ -L "$1/.git" ]; then printf 'at %s\n' "$(safegit -C "$1" rev-parse HEAD 2>&1)"; fi
}

# gitfolder COMMON: the sha256 of every file of a repository's shared git
# folder that makes git run something or read otherwise, sorted: each
# config and config.worktree, hooks/ and info/ (attributes, excludes), its
# submodules' (modules/) too; not its objects, refs, logs or worktrees.
gitfolder() {
  printf 'git %s\n' "$1"
  local -a skip=(\( -name objects -o -name refs -o -name logs -o -name worktrees \) -type d -prune -o)
  local -a pick=(\( -name config -o -name config.worktree -o -path '*/hooks/*' -o -path '*/info/*' \))
  # A link by its target, as manifest takes one (a dangling one, a hook a
  # tool left, is no error).
  (cd "$1" && find . "${skip[@]}" -type f "${pick[@]}" -exec bash -c 'sha256 "$@"' _ {} + &&
    find . "${skip[@]}" -type l "${pick[@]}" -exec sh -c 'for l; do printf "link %s -> %s\n" "$l" "$(readlink "$l")"; done' _ {} +) |
    LC_ALL=C sort
}
export -f sha256 safegit

# check SUMS: the trees SUMS lists hash as they did.
check() {
  local sums=$1 want now
  want=$(cat "$sums")
  now=$(while IFS= read -r line; do
    case $line in
      'tree '*) manifest "${line#tree }" ;;
      'git '*) gitfolder "${line#git }" ;;
    esac
  done <"$sums")
  if [ "$now" != "$want" ]; then
    echo "pr-builds: the builds changed since they were built (< as built, > now):" >&2
    diff <(printf '%s\n' "$want") <(printf '%s\n' "$now") | grep '^[<>]' | head -n 20 >&2 || true
    return 1
  fi
}

# The sandbox, run by unshare as its process namespace's first process:
# pr-builds-sandbox CWD N WRITABLE[1..N] COMMAND...: the N writable paths
# stay writable, every other mount is made read-only (a read-only one
# stays so), then COMMAND runs in CWD without capabilities and unable to
# gain any, and the sandbox exits with its status. It stays the
# namespace's first process (reaping what COMMAND leaves); when it exits,
# the kernel kills every process left in the namespace.
# shellcheck disable=SC2016
sandbox='set -eu
cwd=$1 n=$2
shift 2
writable=("${@:1:$n}")
shift "$n"
for w in "${writable[@]}"; do mount --bind "$w" "$w"; done
while read -r _ _ _ _ mp opts _; do
  mp=${mp//\\040/ }; mp=${mp//\\011/$'"'"'\t'"'"'}; mp=${mp//\\012/$'"'"'\n'"'"'}; mp=${mp//\\134/\\}
  for w in "${writable[@]}"; do [ "$mp" != "$w" ] || continue 2; done
  if ! err=$(mount -o remount,bind,ro "$mp" 2>&1); then
    case ",$opts," in *,ro,*) ;; *) echo "pr-builds: cannot make $mp read-only: $err" >&2; exit 125 ;; esac
  fi
done </proc/self/mountinfo
cd "$cwd"
rc=0
setpriv --bounding-set=-all --inh-caps=-all --no-new-privs -- "$@" || rc=$?
exit "$rc"'

userns=()
[ "$(id -u)" = 0 ] || userns=(--user --map-root-user)

# The runner's file-command variables, which nothing sandboxed gets.
clean=(env -u GITHUB_ENV -u GITHUB_OUTPUT -u GITHUB_PATH -u GITHUB_STATE -u GITHUB_STEP_SUMMARY)

# in_sandbox CWD WRITABLE... -- COMMAND...: COMMAND in CWD, sandboxed,
# the WRITABLE paths (their links followed) writable.
in_sandbox() {
  local cwd=$1
  local -a w=()
  shift
  while [ "$1" != -- ]; do
    w+=("$(readlink -f -- "$1")")
    shift
  done
  shift
  "${clean[@]}" unshare ${userns[@]+"${userns[@]}"} --mount --propagation private --pid --fork --kill-child --mount-proc \
    bash -c "$sandbox" pr-builds-sandbox "$cwd" "${#w[@]}" "${w[@]}" "$@"
}

# choose_sandbox UNSANDBOXED REFUSED: set use_sandbox when a sandbox
# works (writing outside its writable folder must fail); where none does,
# warn that what runs runs UNSANDBOXED, or fail saying REFUSED when
# SANDBOX=require.
use_sandbox=
choose_sandbox() {
  [ "$sandbox_mode" != none ] || return 0
  local probe
  probe=$(mktemp -d "${TMPDIR:-/tmp}/pr-builds-probe.XXXXXX")
  mkdir -p "$probe/tree" "$probe/tmp"
  if command -v unshare >/dev/null && command -v setpriv >/dev/null &&
    in_sandbox "$probe/tree" "$probe/tree" "$probe/tmp" -- sh -c ": >ok && ! (: >../outside)" 2>/dev/null &&
    [ -e "$probe/tree/ok" ] && [ ! -e "$probe/outside" ]; then
    use_sandbox=1
  fi
  rm -rf "$probe"
  if [ -z "$use_sandbox" ] && [ "$sandbox_mode" = require ]; then
    echo "pr-builds: SANDBOX=require, and no build sandbox works here (it needs unshare and setpriv from util-linux, and user namespaces for a runner that is not root); $2" >&2
    return 1
  elif [ -z "$use_sandbox" ]; then
    echo "pr-builds: warning: no build sandbox works here: $1 (SANDBOX=require refuses instead)" >&2
  fi
}

# sandboxed WRITABLE... -- COMMAND...: pr-builds.sh --sandbox.
sandboxed() {
  choose_sandbox "it runs unsandboxed" "nothing was run" || return 125
  if [ -n "$use_sandbox" ]; then
    in_sandbox "$PWD" "$@"
    return
  fi
  while [ "$1" != -- ]; do shift; done
  shift
  "${clean[@]}" "$@"
}

# Unsandboxed, a process namespace of its own still ends every process a
# build left, where one can be made (main sets use_pidns).
pidns=(unshare ${userns[@]+"${userns[@]}"} --mount --pid --fork --kill-child --mount-proc)
use_pidns=

# reap PID MARKER: kill what a build without a process namespace left:
# its process group (and session, where it has its own), and every
# process whose environment carries MARKER (one that clears its
# environment and leaves its session escapes this).
reap() {
  kill -KILL -- "-$1" 2>/dev/null || true
  if [ -n "$own_session" ] && command -v pkill >/dev/null; then pkill -KILL -s "$1" 2>/dev/null || true; fi
  [ -d /proc/self ] || return 0
  # Until two rounds in a row find none: a process caught in exec, whose
  # environment cannot be read for that instant, is found the next round.
  local round p found quiet=0
  for round in 1 2 3 4 5 6 7 8 9 10; do
    found=
    for p in /proc/[0-9]*; do
      if grep -qxzF "PR_BUILDS_MARK=$2" "$p/environ" 2>/dev/null; then
        kill -KILL "${p#/proc/}" 2>/dev/null && found=1
      fi
    done
    if [ -n "$found" ]; then quiet=0; else quiet=$((quiet + 1)); fi
    [ "$quiet" -lt 2 ] || return 0
    sleep 0.05
  done
}

# build TREE: run $BUILD in TREE, sandboxed when it can be, without the
# runner's file-command variables, and kill whatever it left running.
own_session=
build() {
  local tree=$1 tmp=$1.tmp rc=0 pid marker
  mkdir -p "$tmp/tmp" "$tmp/home"
  local -a own=("TMPDIR=$tmp/tmp" "HOME=$tmp/home" "XDG_CACHE_HOME=$tmp/home/.cache")
  if [ -n "$use_sandbox" ]; then
    in_sandbox "$tree" "$tree" "$tmp" -- env "${own[@]}" sh -c "$BUILD" || rc=$?
  elif [ -n "$use_pidns" ]; then
    (cd "$tree" && exec "${clean[@]}" "${own[@]}" "${pidns[@]}" sh -c "$BUILD") || rc=$?
  else
    marker=$$-$RANDOM$RANDOM
    if command -v setsid >/dev/null; then
      own_session=1
      (cd "$tree" && exec "${clean[@]}" "${own[@]}" "PR_BUILDS_MARK=$marker" setsid sh -c "$BUILD") &
    else
      set -m # its own process group
      (cd "$tree" && exec "${clean[@]}" "${own[@]}" "PR_BUILDS_MARK=$marker" sh -c "$BUILD") &
      set +m
    fi
    pid=$!
    wait "$pid" || rc=$?
    reap "$pid" "$marker"
  fi
  rm -rf "$tmp"
  return "$rc"
}

# builds REPO BASE HEAD DIR: build both sides, print their variables.
builds() {
  local repo=${1:?$usage} base=${2:?$usage} head=${3:?$usage} dir=${4:?$usage}
  local sums trees side rev sha tree upper hash common gitfile
  local -a vars=()
  : "${BUILD:?set BUILD to the engine's build command}"
  : "${BIN:?set BIN to the engine binary's path inside the tree}"
  case "$BIN" in
    /* | ../* | */../* | *$'\n'*) echo "pr-builds: BIN must be a plain path inside the tree: $BIN" >&2; exit 1 ;;
  esac
  mkdir -p "$dir"
  dir=$(cd "$dir" && pwd -P)
  choose_sandbox "the builds run unsandboxed, checked only by their hashes" "nothing was built" || exit 1
  if [ -z "$use_sandbox" ] && command -v unshare >/dev/null && "${pidns[@]}" true 2>/dev/null; then
    use_pidns=1
  fi
  sums=$dir/builds.sha256
  trees=$dir/builds.trees
  : >"$trees"
  # The repository's shared git folder stays as it was before each build
  # (a hook or a configuration a build left would run in a later git
  # command, outside any sandbox: the next job's checkout). It is taken
  # after each worktree is added: adding one may write the shared config.
  common=$(cd "$repo" && cd "$(safegit rev-parse --git-common-dir)" && pwd -P)
  for side in base head; do
    if [ "$side" = base ]; then rev=$base; else rev=$head; fi
    sha=$(safegit -C "$repo" rev-parse --verify --end-of-options "$rev^{commit}")
    tree=$dir/$side
    safegit -C "$repo" worktree add --force --detach "$tree" "$sha" >&2
    gitfile=$(cat "$tree/.git")
    { gitfolder "$common"; cat "$trees"; } >"$sums"
    echo "pr-builds: building $side ($sha) in $tree${use_sandbox:+, sandboxed}" >&2
    if ! build "$tree" >&2; then
      echo "pr-builds: the $side build ($sha) failed" >&2
      exit 1
    fi
    # The tree is still the worktree of the commit it was checked out at:
    # a build that pointed its .git elsewhere (a git folder of its own
    # saying another commit, clean) would have the record name that one.
    if [ -L "$tree/.git" ] || [ ! -f "$tree/.git" ] || [ "$(cat "$tree/.git")" != "$gitfile" ] ||
      [ "$(safegit -C "$tree" rev-parse HEAD 2>&1)" != "$sha" ]; then
      echo "pr-builds: the $side build ($sha) changed its worktree's .git (it is no longer the worktree of $sha): nothing is measured" >&2
      exit 1
    fi
    if [ ! -x "$tree/$BIN" ]; then
      echo "pr-builds: the $side build ($sha) left no executable $BIN" >&2
      exit 1
    fi
    manifest "$tree" >>"$trees"
    { sed -n '/^tree /q;p' "$sums"; cat "$trees"; } >"$sums.new" && mv "$sums.new" "$sums"
    # Every build so far is as it was built: the base, after the head's.
    if ! check "$sums"; then
      echo "pr-builds: a build changed while the $side was built ($sha): nothing is measured" >&2
      exit 1
    fi
    upper=$(printf '%s' "$side" | tr '[:lower:]' '[:upper:]')
    read -r hash _ < <(sha256 <"$tree/$BIN")
    vars+=("${upper}_BIN=$tree/$BIN" "${upper}_SRC=$tree" "${upper}_SHA256=$hash")
  done
  rm -f "$trees"
  printf '%s\n' "${vars[@]}" "BUILD_SUMS=$sums"
}

main() {
  sandbox_mode=${SANDBOX:-auto}
  case "$sandbox_mode" in
    auto | require | none) ;;
    *) echo "pr-builds: SANDBOX must be auto, require or none, not $sandbox_mode" >&2; exit 1 ;;
  esac
  case "${1:-}" in
    --check) check "${2:?$usage}" ;;
    --sandbox)
      shift
      local a
      for a; do [ "$a" != -- ] || break; done
      [ "${a:-}" = -- ] && [ "${!#}" != -- ] || { echo "$usage" >&2; exit 2; }
      sandboxed "$@"
      ;;
    *) builds "$@" ;;
  esac
}

# Read whole before anything runs: nothing after this line is read.
main "$@"; exit
