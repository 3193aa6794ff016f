#!/bin/sh
# Installs a prebuilt olm-release from its GitHub release.
#
#   sh install.sh [--version X.Y.Z] [--to DIR] [--sha256 HEX]
#
#   --version X.Y.Z   the release to install (default: the latest release)
#   --to DIR          where the binary goes (default: $HOME/.local/bin)
#   --sha256 HEX      also require the archive to have this sha256 (pin it in CI)
#
# It picks the archive for this platform (x86_64 Linux with glibc >= 2.17: the one target built
# so far), downloads it with curl or wget, checks it against the release's SHA256SUMS (and
# --sha256), checks that the binary runs here, and only then puts it in place. On an unsupported
# platform, a checksum mismatch, a missing release or no network it says why, exits non-zero and
# installs nothing.
#
# OLM_RELEASE_INSTALL_BASE sets the releases URL (default
# https://github.com/olm-release/olm-release/releases): archives are read from
# BASE/download/vX.Y.Z/NAME, and BASE/latest redirects to BASE/tag/vX.Y.Z.
set -eu

base="${OLM_RELEASE_INSTALL_BASE:-https://github.com/olm-release/olm-release/releases}"
base="${base%/}"
version=""
to="${HOME:-}/.local/bin"
pin=""

say() { printf 'install.sh: %s\n' "$*" >&2; }
die() { say "error: $*"; exit 1; }

while [ $# -gt 0 ]; do
  case "$1" in
    --version) [ $# -ge 2 ] || die "--version needs X.Y.Z"; version="${2#v}"; shift 2 ;;
    --version=*) version="${1#--version=}"; version="${version#v}"; shift ;;
    --to) [ $# -ge 2 ] || die "--to needs a folder"; to="$2"; shift 2 ;;
    --to=*) to="${1#--to=}"; shift ;;
    --sha256) [ $# -ge 2 ] || die "--sha256 needs a hex digest"; pin="$2"; shift 2 ;;
    --sha256=*) pin="${1#--sha256=}"; shift ;;
    -h|--help) sed -n '2,19p' "$0" 2>/dev/null | sed 's/^# \{0,1\}//'; exit 0 ;;
    *) die "unknown argument '$1' (usage: install.sh [--version X.Y.Z] [--to DIR] [--sha256 HEX])" ;;
  esac
done
case "$version" in
  ''|[0-9]*.[0-9]*.[0-9]*) ;;
  *) die "--version '$version' is not X.Y.Z" ;;
esac

# --- platform ----------------------------------------------------------------------------------
os=$(uname -s 2>/dev/null || echo unknown)
arch=$(uname -m 2>/dev/null || echo unknown)
case "$os/$arch" in
  Linux/x86_64|Linux/amd64) ;;
  *) die "no prebuilt olm-release for $os/$arch yet (only x86_64 Linux with glibc >= 2.17); build it from source: cargo install --locked --path ." ;;
esac
glibc=$(getconf GNU_LIBC_VERSION 2>/dev/null | awk '{print $2}') || glibc=""
[ -n "$glibc" ] || die "this Linux has no glibc (musl or another C library?): the prebuilt olm-release needs glibc >= 2.17; build it from source"
glibc_major=${glibc%%.*}
glibc_minor=${glibc#*.}
glibc_minor=${glibc_minor%%.*}
if [ "$glibc_major" -lt 2 ] || { [ "$glibc_major" -eq 2 ] && [ "$glibc_minor" -lt 17 ]; }; then
  die "glibc $glibc is older than 2.17, which the prebuilt olm-release needs"
fi
target=x86_64-unknown-linux-gnu

# --- tools -------------------------------------------------------------------------------------
if command -v curl >/dev/null 2>&1; then
  fetch() { curl --proto '=https,http' -fsSL --retry 3 --connect-timeout 20 -o "$2" "$1"; }
  final_url() { curl --proto '=https,http' -fsSLI --retry 3 --connect-timeout 20 -o /dev/null -w '%{url_effective}' "$1"; }
elif command -v wget >/dev/null 2>&1; then
  fetch() { wget -q --tries=3 --timeout=20 -O "$2" "$1"; }
  final_url() { wget --tries=3 --timeout=20 -S -O /dev/null "$1" 2>&1 | awk 'tolower($1) == "location:" {print $2}' | tail -n 1 | tr -d '\r'; }
else
  die "neither curl nor wget is installed: install one of them"
fi
if command -v sha256sum >/dev/null 2>&1; then
  sha256() { sha256sum "$1" | awk '{print $1}'; }
elif command -v shasum >/dev/null 2>&1; then
  sha256() { shasum -a 256 "$1" | awk '{print $1}'; }
elif command -v openssl >/dev/null 2>&1; then
  sha256() { openssl dgst -sha256 "$1" | awk '{print $NF}'; }
else
  die "no sha256sum, shasum or openssl to check the download"
fi
for tool in tar gzip mktemp; do
  command -v "$tool" >/dev/null 2>&1 || die "$tool is not installed"
done

# Says why a download failed: the host cannot be reached, or the file is not there.
explain() { # url what
  host=$(printf '%s' "$1" | sed -n 's|^[a-z]*://\([^/]*\).*|\1|p')
  if fetch "$base/" /dev/null 2>/dev/null || final_url "$base/" >/dev/null 2>&1; then
    die "$2 is not there: $1 (is $version a released version? see $base)"
  fi
  die "cannot reach $host to download $2 ($1): no network, a proxy, or a firewall?"
}

tmp=$(mktemp -d 2>/dev/null || mktemp -d -t olm-release)
trap 'rm -rf "$tmp"' EXIT INT TERM

# --- version -----------------------------------------------------------------------------------
if [ -z "$version" ]; then
  latest=$(final_url "$base/latest" 2>/dev/null) || latest=""
  version=$(printf '%s' "$latest" | sed -n 's|.*/tag/v\{0,1\}\([0-9][^/]*\)$|\1|p')
  [ -n "$version" ] || explain "$base/latest" "the latest release"
fi

name="olm-release-$version-$target"
url="$base/download/v$version"
say "installing olm-release $version ($target) from $url"
fetch "$url/SHA256SUMS" "$tmp/SHA256SUMS" 2>/dev/null || explain "$url/SHA256SUMS" "release v$version"
fetch "$url/$name.tar.gz" "$tmp/$name.tar.gz" 2>/dev/null || explain "$url/$name.tar.gz" "the archive $name.tar.gz"

# --- checks ------------------------------------------------------------------------------------
want=$(awk -v f="$name.tar.gz" '$2 == f || $2 == "*" f {print $1}' "$tmp/SHA256SUMS" | head -n 1)
[ -n "$want" ] || die "SHA256SUMS of v$version has no line for $name.tar.gz"
got=$(sha256 "$tmp/$name.tar.gz")
[ "$got" = "$want" ] || die "checksum mismatch for $name.tar.gz: SHA256SUMS says $want, the download is $got; nothing installed"
if [ -n "$pin" ] && [ "$got" != "$pin" ]; then
  die "checksum mismatch for $name.tar.gz: --sha256 says $pin, the download is $got; nothing installed"
fi
(cd "$tmp" && gzip -dc "$name.tar.gz" | tar -xf -) || die "cannot unpack $name.tar.gz"
bin="$tmp/$name/olm-release"
[ -f "$bin" ] || die "$name.tar.gz has no $name/olm-release"
chmod 0755 "$bin"
ran=$("$bin" --version 2>&1) || die "the downloaded binary does not run here: $ran"

# --- install -----------------------------------------------------------------------------------
mkdir -p "$to" || die "cannot create $to"
cp "$bin" "$to/.olm-release.$$" || die "cannot write into $to"
chmod 0755 "$to/.olm-release.$$"
mv -f "$to/.olm-release.$$" "$to/olm-release" || { rm -f "$to/.olm-release.$$"; die "cannot write $to/olm-release"; }
say "installed $ran at $to/olm-release"
case ":${PATH:-}:" in
  *":$to:"*) ;;
  *) say "note: $to is not on PATH; add it: export PATH=\"$to:\$PATH\"" ;;
esac
