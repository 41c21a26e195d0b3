#!/usr/bin/env bash
# install-llama-server.sh provides a working `llama-server` without root
# privileges on the system and without downloading anything but distribution
# packages.
#
# Usage: scripts/install-llama-server.sh [PREFIX]
#   PREFIX defaults to .cache/llama.cpp under the repository root.
#
# On success it prints the path of a wrapper that behaves like llama-server
# (PREFIX/bin/llama-server); wrappers for llama-completion, llama-cli and
# llama-bench sit beside it.
#
# Strategy, in order:
#   1. llama-server already on PATH: print its path, install nothing.
#   2. macOS: `brew install llama.cpp`.
#   3. Debian/Ubuntu: fetch Debian unstable's llama.cpp packages (and the
#      newer glibc/libstdc++ they were built against) with `apt-get download`
#      into a private prefix, unpacked with `dpkg -x`, and run them through
#      the prefix's own dynamic loader. Nothing under / is modified.
#
# The Debian mirror is DEBIAN_MIRROR when set (a URI such as the one in a
# `deb URI SUITE main` line), else the URI of the first Debian archive entry
# in the machine's own apt sources (/etc/apt/sources.list, and the *.list and
# deb822 *.sources files under /etc/apt/sources.list.d): a company mirror, a
# runner's local mirror and apt's proxy settings are all respected. No host
# is named here.
#
# Every package the binary needs is mandatory: a package the mirror does not
# list is looked up again after a second update, then the install fails
# naming it. Only llama.cpp-examples and libmtmd0 are optional.
set -euo pipefail

root=$(cd "$(dirname "$0")/.." && pwd)
prefix=${1:-$root/.cache/llama.cpp}

if [ -z "${DECODEBENCH_FORCE_INSTALL:-}" ] && command -v llama-server >/dev/null 2>&1; then
  command -v llama-server
  exit 0
fi
if [ -x "$prefix/bin/llama-server" ] && "$prefix/bin/llama-server" --version >/dev/null 2>&1; then
  echo "$prefix/bin/llama-server"
  exit 0
fi

case "$(uname -s)" in
Darwin)
  command -v brew >/dev/null 2>&1 || { echo "install-llama-server: Homebrew is required on macOS" >&2; exit 1; }
  brew install llama.cpp >&2
  command -v llama-server
  exit 0
  ;;
esac

command -v apt-get >/dev/null 2>&1 || { echo "install-llama-server: no llama-server on PATH and no apt-get to fetch one; install llama.cpp and put llama-server on PATH" >&2; exit 1; }
command -v dpkg >/dev/null 2>&1 || { echo "install-llama-server: dpkg is required" >&2; exit 1; }

arch=$(dpkg --print-architecture)
case "$arch" in
amd64) triplet=x86_64-linux-gnu; loader=ld-linux-x86-64.so.2 ;;
arm64) triplet=aarch64-linux-gnu; loader=ld-linux-aarch64.so.1 ;;
*) echo "install-llama-server: unsupported architecture $arch" >&2; exit 1 ;;
esac

# debian_mirror prints the URI of the first Debian archive entry (not the
# security archive) in the machine's apt sources, one-line or deb822 format.
debian_mirror() {
  local files=()
  for f in /etc/apt/sources.list /etc/apt/sources.list.d/*.list /etc/apt/sources.list.d/*.sources; do
    [ -r "$f" ] && files+=("$f")
  done
  [ ${#files[@]} -gt 0 ] || return 0
  awk '
    function debian(suite, uri) {
      sub(/-(updates|backports|proposed-updates)$/, "", suite)
      if (suite ~ /-security$/ || uri ~ /security/) return 0
      return suite ~ /^(sid|unstable|experimental|testing|stable|oldstable|oldoldstable|forky|trixie|bookworm|bullseye|buster|stretch|duke)$/
    }
    function flush() {
      if (types ~ /(^| )deb( |$)/ && enabled !~ /^no$/) {
        n = split(uris, u, " "); m = split(suites, su, " ")
        for (i = 1; i <= n; i++) for (j = 1; j <= m; j++) if (!done && debian(su[j], u[i])) { print u[i]; done = 1; exit }
      }
      types = uris = suites = enabled = ""
    }
    FNR == 1 { flush() }
    /^[ \t]*#/ { next }
    FILENAME ~ /\.sources$/ {
      if ($0 ~ /^[ \t]*$/) { flush(); next }
      key = tolower($1); val = $0; sub(/^[^:]*:[ \t]*/, "", val)
      if (key == "types:") types = val
      else if (key == "uris:") uris = val
      else if (key == "suites:") suites = val
      else if (key == "enabled:") enabled = tolower(val)
      next
    }
    $1 == "deb" {
      line = $0; gsub(/\[[^]]*\]/, "", line); split(line, f, /[ \t]+/)
      if (!done && debian(f[3], f[2])) { print f[2]; done = 1; exit }
    }
    END { if (!done) flush() }
  ' "${files[@]}"
}

mirror=${DEBIAN_MIRROR:-$(debian_mirror)}
if [ -z "$mirror" ]; then
  echo "install-llama-server: no Debian archive in this machine's apt sources; set DEBIAN_MIRROR to the URI of a Debian mirror (as in a 'deb URI unstable main' line)" >&2
  exit 1
fi

work=$prefix/apt
mkdir -p "$work/lists/partial" "$work/cache/archives/partial" "$work/debs" "$prefix/root" "$prefix/bin"
# Packages of an earlier attempt must not be unpacked with this one's.
rm -f "$work"/debs/*.deb
keyring=/usr/share/keyrings/debian-archive-keyring.gpg
if [ -f "$keyring" ]; then signed="[signed-by=$keyring]"; else signed="[trusted=yes]"; fi
echo "deb $signed $mirror unstable main" >"$work/sources.list"
opts=(-o "Dir::Etc::SourceList=$work/sources.list" -o "Dir::Etc::SourceParts=/dev/null"
      -o "Dir::State::Lists=$work/lists" -o "Dir::Cache=$work/cache"
      -o "APT::Architecture=$arch" -o "Debug::NoLocking=1" -o "APT::Sandbox::User=root")
update() {
  echo "install-llama-server: fetching Debian unstable package lists from $mirror" >&2
  apt-get "${opts[@]}" -qq update >&2
}
# listed reads apt-cache's whole answer first: `apt-cache show | grep -q`
# under pipefail fails when grep stops reading early and apt-cache dies of
# SIGPIPE, which once dropped libllama0 from an install.
listed() {
  local info
  info=$(apt-cache "${opts[@]}" show "$1" 2>/dev/null) || return 1
  grep -q '^Package:' <<<"$info"
}
update
required=(llama.cpp-tools libllama0 libggml0 libc6 libgcc-s1 libstdc++6 libgomp1 libssl3t64 libcurl4t64)
# Optional packages come and go between versions.
optional=(llama.cpp-examples libmtmd0)
missing=()
for p in "${required[@]}"; do listed "$p" || missing+=("$p"); done
if [ ${#missing[@]} -gt 0 ]; then
  echo "install-llama-server: ${missing[*]} not listed; updating the package lists once more" >&2
  update
  still=()
  for p in "${missing[@]}"; do listed "$p" || still+=("$p"); done
  if [ ${#still[@]} -gt 0 ]; then
    echo "install-llama-server: required package(s) ${still[*]} not found in Debian unstable at $mirror; llama-server cannot run without them (set DEBIAN_MIRROR to another mirror, or install llama.cpp and put llama-server on PATH)" >&2
    exit 1
  fi
fi
avail=("${required[@]}")
for p in "${optional[@]}"; do listed "$p" && avail+=("$p"); done
echo "install-llama-server: downloading ${avail[*]}" >&2
(cd "$work/debs" && apt-get "${opts[@]}" -qq download "${avail[@]}" >&2)
for p in "${required[@]}"; do
  ls "$work"/debs/"${p}"_*.deb >/dev/null 2>&1 || { echo "install-llama-server: required package $p was not downloaded" >&2; exit 1; }
done
for deb in "$work"/debs/*.deb; do dpkg -x "$deb" "$prefix/root"; done

lib=$prefix/root/usr/lib/$triplet
ld=$lib/$loader
[ -x "$ld" ] || ld=$prefix/root/lib/$triplet/$loader
[ -e "$ld" ] || { echo "install-llama-server: loader $loader not found in the unpacked packages" >&2; exit 1; }
# ggml looks for its CPU backends beside the executable; run through the
# loader, that is the loader's folder.
for so in "$lib"/ggml/backends*/*.so; do
  [ -e "$so" ] && ln -sf "$so" "$(dirname "$ld")/$(basename "$so")"
done
libpath=$lib:$lib/llama:$lib/ggml
for tool in llama-server llama-completion llama-cli llama-bench llama-speculative llama-speculative-simple; do
  bin=$prefix/root/usr/bin/$tool
  [ -x "$bin" ] || continue
  cat >"$prefix/bin/$tool" <<WRAP
#!/bin/sh
# Generated by scripts/install-llama-server.sh: runs Debian unstable's $tool
# through its own loader and libraries.
# decodebench-real-binary: $bin
exec "$ld" --library-path "$libpath" "$bin" "\$@"
WRAP
  chmod +x "$prefix/bin/$tool"
done
dpkg-deb -f "$(ls "$work"/debs/llama.cpp-tools_*.deb)" Version >"$prefix/VERSION"
if ! "$prefix/bin/llama-server" --version >&2; then
  echo "install-llama-server: the installed llama-server does not run (a library missing from the packages above?)" >&2
  exit 1
fi
echo "$prefix/bin/llama-server"
