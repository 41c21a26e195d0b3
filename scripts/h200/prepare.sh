#!/usr/bin/env bash
# scripts/h200/prepare.sh puts into .h200/ (ignored) what scripts/h200/run.sh
# needs on a GPU host with no network, about 14 MiB in all:
#
#   decodebench, synthgguf   built here for linux/amd64 (static), from this
#                            checkout: commit it first, so the records name it
#   llama.cpp-d32676d77.tar.gz
#                            the llama.cpp source of the committed H200
#                            records, from a git repository holding commit
#                            d32676d77 (LLAMA_CPP_GIT), without .git, the
#                            tests, the docs, and the backends a CUDA build
#                            does not compile
#
# Usage: LLAMA_CPP_GIT=/path/to/llama.cpp/.git scripts/h200/prepare.sh
set -euo pipefail
root=$(cd "$(dirname "$0")/../.." && pwd)
carry=$root/.h200
commit=d32676d77
git_dir=${LLAMA_CPP_GIT:?LLAMA_CPP_GIT must name a llama.cpp git repository holding $commit}
mkdir -p "$carry"
cd "$root"
if [ -n "$(git status --porcelain --untracked-files=no)" ]; then
	echo "prepare: commit first: the records name the commit decodebench was built from" >&2
	exit 1
fi
# Stamped as the Makefile stamps it: the records name the commit.
ldflags="-X main.version=$(git describe --tags --always --dirty) -X main.commit=$(git rev-parse --short=12 HEAD)"
CGO_ENABLED=0 GOOS=linux GOARCH=amd64 go build -ldflags "$ldflags" -o "$carry/decodebench" ./cmd/decodebench
CGO_ENABLED=0 GOOS=linux GOARCH=amd64 go build -o "$carry/synthgguf" ./cmd/synthgguf
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
# Only what a build of llama-server reads (some blobs elsewhere in a
# partial clone may be missing).
git --git-dir="$git_dir" archive --format=tar "$commit" -- CMakeLists.txt CMakePresets.json cmake ggml src include \
	common tools vendor LICENSE licenses scripts/ui-assets.cmake | tar -x -C "$tmp"
rm -rf "$tmp"/tools/ui/{docs,src,static,tests,package-lock.json} \
	"$tmp"/ggml/src/ggml-{sycl,vulkan,opencl,hexagon,et,webgpu}
tar -C "$tmp" -czf "$carry/llama.cpp-$commit.tar.gz" .
ls -la "$carry"
sha256sum "$carry"/*
