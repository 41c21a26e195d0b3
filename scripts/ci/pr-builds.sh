#!/usr/bin/env bash
# pr-builds.sh REPO BASE HEAD DIR: build the engine at a pull request's base
# and head, each in its own git worktree of REPO (DIR/base and DIR/head;
# the checkout in REPO is not touched), with the build command the
# engine's repository supplies: $BUILD, run with sh -c in each worktree,
# leaving the engine binary at $BIN (relative to the worktree). Prints the
# variables the base/head scenario takes, one NAME=VALUE a line, for
# $GITHUB_ENV: BASE_BIN, HEAD_BIN, BASE_SRC, HEAD_SRC. A build that fails
# stops the script, naming which side failed; its output is on stderr.
set -euo pipefail
repo=${1:?usage: pr-builds.sh REPO BASE HEAD DIR}
base=${2:?usage: pr-builds.sh REPO BASE HEAD DIR}
head=${3:?usage: pr-builds.sh REPO BASE HEAD DIR}
dir=${4:?usage: pr-builds.sh REPO BASE HEAD DIR}
: "${BUILD:?set BUILD to the engine's build command}"
: "${BIN:?set BIN to the engine binary's path inside the tree}"
case "$BIN" in
  /* | ../* | */../* | *$'\n'*) echo "pr-builds: BIN must be a plain path inside the tree: $BIN" >&2; exit 1 ;;
esac

mkdir -p "$dir"
dir=$(cd "$dir" && pwd)
for side in base head; do
  if [ "$side" = base ]; then rev=$base; else rev=$head; fi
  sha=$(git -C "$repo" rev-parse --verify --end-of-options "$rev^{commit}")
  tree=$dir/$side
  git -C "$repo" worktree add --force --detach "$tree" "$sha" >&2
  echo "pr-builds: building $side ($sha) in $tree" >&2
  if ! (cd "$tree" && sh -c "$BUILD") >&2; then
    echo "pr-builds: the $side build ($sha) failed" >&2
    exit 1
  fi
  if [ ! -x "$tree/$BIN" ]; then
    echo "pr-builds: the $side build ($sha) left no executable $BIN" >&2
    exit 1
  fi
  upper=$(printf '%s' "$side" | tr '[:lower:]' '[:upper:]')
  printf '%s_BIN=%s\n%s_SRC=%s\n' "$upper" "$tree/$BIN" "$upper" "$tree"
done
