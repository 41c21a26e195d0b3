#!/usr/bin/env bash
# scripts/h200/run.sh: one call on a lent NVIDIA GPU host with no network
# (the H200 machine: nvcc, CMake and ninja, 16 cores), everything it writes
# under $OUT:
#
#   1. builds llama-server with CUDA (sm_90) from the llama.cpp source
#      carried in .h200/ (commit d32676d77, the build of the committed
#      H200 records; exported without .git, so its version is set here);
#   2. writes the synthetic models with the carried synthgguf;
#   3. runs the shipped demo scenario (llamacpp-speculative, as run on the
#      CPU development VM) with the carried decodebench: a record of the
#      same scenario hash on other hardware, with each arm's roofline
#      share (NVIDIA H200 from the bandwidth table) and the libraries its
#      engine loaded (libggml-cuda among them);
#   4. the decode rate on both clocks (issue 32 item 6): the chaotic
#      identity scenario as the committed H200 record ran it (no warmup
#      request) and again with one warmup request, three rounds each;
#   5. checks every record written and prints a summary.
#
# Prepare here (not on the device): scripts/h200/prepare.sh, which puts
# the binaries and the source into .h200/ (ignored). Then, on the device:
#
#   run: command "bash scripts/h200/run.sh", carry [".h200"], about 8
#   minutes (the build 4 to 5 of them).
#
# Each step is bounded so that the whole call stays under 10 minutes; a
# campaign cut short by its bound gets one SIGTERM (timeout --foreground:
# GNU timeout otherwise signals its whole process group too, and a second
# signal makes decodebench stop at once, without a record) and writes an
# INCOMPLETE record, which comes back like the others.
set -uo pipefail

root=$(cd "$(dirname "$0")/../.." && pwd)
out=${OUT:?OUT must name the folder whose files come back}
carry=$root/.h200
mkdir -p "$out"
exec > >(tee -a "$out/h200.log") 2>&1
t0=$(date +%s)
step() { echo "== $(date -u +%H:%M:%S) +$(($(date +%s) - t0))s $*"; }

step "facts"
{
	nvidia-smi -L
	nvidia-smi --query-gpu=name,driver_version,memory.total,clocks.max.sm,clocks.max.memory --format=csv
	nvcc --version | tail -2
	cmake --version | head -1
	ninja --version
	nproc
	sha256sum "$carry"/*
} >"$out/facts.txt" 2>&1
cat "$out/facts.txt"

# H200_LLAMA_SERVER names a llama-server to use instead of building one
# (a dry run of the other steps on a machine without CUDA).
server=${H200_LLAMA_SERVER:-}
if [ -z "$server" ]; then
	step "build llama-server (CUDA, sm_90)"
	src=/tmp/h200-llama.cpp
	build=/tmp/h200-build
	rm -rf "$src" "$build"
	mkdir -p "$src"
	tar -xzf "$carry/llama.cpp-d32676d77.tar.gz" -C "$src"
	# The source was exported without .git: its build number and commit are
	# those git gives the commit (as the committed H200 records' version says).
	sed -i 's/^set(BUILD_NUMBER 0)/set(BUILD_NUMBER 9749)/; s/^set(BUILD_COMMIT "unknown")/set(BUILD_COMMIT "d32676d77")/' "$src/cmake/build-info.cmake"
	gen=(-G Ninja)
	command -v ninja >/dev/null || gen=()
	# FlashAttention kernels off: they are most of the CUDA build's time
	# (the committed H200 records' logs say FlashAttention was not
	# supported on the GPU there either).
	if ! timeout 60 cmake -S "$src" -B "$build" "${gen[@]}" -DCMAKE_BUILD_TYPE=Release \
		-DGGML_CUDA=ON -DCMAKE_CUDA_ARCHITECTURES=90 -DGGML_CUDA_FA=OFF \
		-DLLAMA_BUILD_TESTS=OFF -DLLAMA_BUILD_EXAMPLES=OFF -DLLAMA_BUILD_APP=OFF \
		-DLLAMA_BUILD_UI=OFF -DLLAMA_USE_PREBUILT_UI=OFF -DLLAMA_OPENSSL=OFF >"$out/cmake.log" 2>&1; then
		tail -30 "$out/cmake.log"
		step "configure failed"
		exit 1
	fi
	if ! timeout 300 cmake --build "$build" --target llama-server -j "$(nproc)" >"$out/build.log" 2>&1; then
		tail -40 "$out/build.log"
		step "build failed or ran past 300 s"
		exit 1
	fi
	server=$build/bin/llama-server
fi
"$server" --version 2>&1 | tee "$out/llama-server-version.txt"

step "models"
models=/tmp/h200-models
"$carry/synthgguf" -out "$models" || exit 1
"$carry/synthgguf" -out "$models-chaotic" -layer-std 0.08 || exit 1

db=$carry/decodebench

step "the demo scenario (same scenario as the CPU record)"
LLAMA_SERVER=$server MODEL_DIR=$models timeout --foreground -k 10 -s TERM 150 "$db" run --out "$out/records" llamacpp-speculative
echo "exit $?"

step "both clocks, no warmup request (as the committed record)"
LLAMA_SERVER=$server MODEL_DIR=$models-chaotic timeout --foreground -k 10 -s TERM 45 "$db" run --out "$out/clocks" --rounds 3 llamacpp-identity-chaotic
echo "exit $?"
step "both clocks, one warmup request"
LLAMA_SERVER=$server MODEL_DIR=$models-chaotic timeout --foreground -k 10 -s TERM 45 "$db" run --out "$out/clocks" --rounds 3 --set schedule.warmup=1 llamacpp-identity-chaotic
echo "exit $?"

step "check"
"$db" check --no-cache "$out"/records/*.md "$out"/clocks/*.md

step "summary"
for f in "$out"/records/*.md "$out"/clocks/*.md; do
	[ -e "$f" ] || continue
	echo "### $(basename "$f")"
	head -1 "$f"
	grep -E '^Loaded by|^\| Backend |^Roofline|^\| `[a-z]+` \| [0-9.]+ \| `|first-token lag|^\| `[a-z]+` \| [0-9]+ \| [0-9.]+ \| [0-9.]+ \| [0-9.]+×|^- Clocks disagree' "$f"
	echo
done | tee "$out/summary.txt"
step "done"
