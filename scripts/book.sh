#!/usr/bin/env bash
# Builds the book (docs/ into docs/book/) and checks its links: every relative link and #anchor
# of docs/src, README.md and CONTRIBUTING.md resolves (scripts/book_links.py). .ci/run calls it.
#
#   scripts/book.sh            # install mdBook if missing, build, check the links
#
# mdBook comes from, in this order: `mdbook` on the PATH; .tools/mdbook/bin/mdbook (git-ignored,
# reused); Debian's `mdbook` package when apt has one (as root); else `cargo install mdbook`
# of the pinned version below, without its serve and watch features, into .tools/mdbook (about
# three minutes once on a 2-core machine, then cached).
set -euo pipefail
cd "$(dirname "$0")/.."
MDBOOK_VERSION=0.5.4
tools="${OLM_RELEASE_TOOLS:-$PWD/.tools}"

find_mdbook() {
  if command -v mdbook >/dev/null; then command -v mdbook; return; fi
  local ours="$tools/mdbook/bin/mdbook"
  if [ -x "$ours" ] && "$ours" --version | grep -qF "v$MDBOOK_VERSION"; then echo "$ours"; fi
}

mdbook="$(find_mdbook)"
if [ -z "$mdbook" ] && [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null; then
  export DEBIAN_FRONTEND=noninteractive
  apt-get update -q >&2 || true
  if apt-cache policy mdbook 2>/dev/null | grep -q 'Candidate: [0-9]'; then
    echo "book.sh: installing mdbook from Debian" >&2
    apt-get install -y -q --no-install-recommends mdbook >&2
    mdbook="$(find_mdbook)"
  fi
fi
if [ -z "$mdbook" ]; then
  echo "book.sh: installing mdbook $MDBOOK_VERSION into $tools/mdbook (cargo install, once)" >&2
  build="$(mktemp -d)"
  trap 'rm -rf "$build"' EXIT
  cargo install mdbook --version "$MDBOOK_VERSION" --locked --no-default-features \
    --features search --root "$tools/mdbook" --target-dir "$build" --quiet
  mdbook="$tools/mdbook/bin/mdbook"
fi

echo "book.sh: $("$mdbook" --version), building docs/ into docs/book/" >&2
rm -rf docs/book
if ! out="$("$mdbook" build docs 2>&1)"; then
  echo "$out" >&2
  exit 1
fi
# mdBook builds a page with an unclosed HTML tag only with a warning: that fails here too.
if echo "$out" | grep -E '(^|[[:space:]])(WARN|ERROR)[[:space:]]' >&2; then
  echo "book.sh: mdbook warned; fix the pages" >&2
  exit 1
fi
scripts/book_links.py
