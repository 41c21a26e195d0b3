#!/usr/bin/env bash
# fleet-pr.sh GATHERED DIR BRANCH: commit the gather job's artifact
# (GATHERED/records, every file it added or changed under the records
# folder DIR, and GATHERED/summary.md) to a new branch BRANCH and open a
# pull request against the branch checked out, its body the summary. Run
# from the repository root of a checkout that keeps no credentials: the
# push authenticates with $GH_TOKEN through a credential helper given on
# the command line (nothing is written to the git configuration), and gh
# reads $GH_TOKEN itself. Nothing of the records is executed.
set -euo pipefail
gathered=${1:?usage: fleet-pr.sh GATHERED DIR BRANCH}
dir=${2:?usage: fleet-pr.sh GATHERED DIR BRANCH}
branch=${3:?usage: fleet-pr.sh GATHERED DIR BRANCH}
base=${GITHUB_REF_NAME:-$(git rev-parse --abbrev-ref HEAD)}
if [ ! -d "$gathered/records" ] || [ -z "$(ls -A "$gathered/records")" ]; then
  echo "fleet-pr: $gathered/records is empty: nothing to commit" >&2
  exit 1
fi
mkdir -p "$dir"
cp -R -- "$gathered/records/." "$dir/"
git switch -q -c "$branch"
git add -- "$dir"
n=$(git diff --cached --name-only -- "$dir" | grep -c '\.md$' || true)
git -c user.name="${GIT_AUTHOR_NAME:-decodebench-fleet}" -c user.email="${GIT_AUTHOR_EMAIL:-decodebench-fleet@users.noreply.github.com}" \
  commit -q -m "docs/benchmark_results: fleet campaign ${GITHUB_RUN_ID:-local}: the gathered records and the index regenerated" \
  -m "$(cat "$gathered/summary.md")"
echo "fleet-pr: committed $n Markdown file(s) on $branch"
# shellcheck disable=SC2016 # the helper expands $GH_TOKEN when git runs it
git -c credential.helper= -c 'credential.helper=!f() { echo username=x-access-token; echo "password=$GH_TOKEN"; }; f' \
  push -q origin "HEAD:refs/heads/$branch"
gh pr create --base "$base" --head "$branch" --title "Fleet campaign ${GITHUB_RUN_ID:-local}: records of every runner" --body-file "$gathered/summary.md"
