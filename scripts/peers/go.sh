#!/usr/bin/env bash
# Go 1.19's text/template (and Debian's sprig 3.2.3) as the oracle of the template engine:
# builds crates/gotemplate/tests/go-oracle into $OLM_RELEASE_TOOLS/go-oracle, offline.
#
#   scripts/peers/go.sh install   # apt-get install the Go toolchain and the packaged sources
#   scripts/peers/go.sh start     # install, build (when the source changed), print the export line
#   scripts/peers/go.sh stop      # nothing to stop: the oracle is a command, not a server
#
# No module is downloaded: the build runs in GOPATH mode (GO111MODULE=off, GOPROXY=off) against
# the sources Debian installs under /usr/share/gocode. sprig v3 and semver v3 are imported by
# their `/v3` module paths, which GOPATH mode does not map, so a small GOPATH of symbolic links
# gives those two paths. `start` prints on stdout:
#   export GO_TEMPLATE_ORACLE=<dir>/template-oracle
# Everything else goes to stderr.
set -euo pipefail
. "$(dirname "$0")/lib.bash"
dir="$tools/go-oracle"
gocode=/usr/share/gocode/src
packages=(golang-go golang-github-masterminds-sprig-dev golang-gopkg-yaml.v2-dev golang-gopkg-yaml.v3-dev)

install() {
  if command -v go >/dev/null && [ -f "$gocode/github.com/Masterminds/sprig/functions.go" ] \
    && [ -d "$gocode/gopkg.in/yaml.v2" ] && [ -d "$gocode/gopkg.in/yaml.v3" ]; then
    return
  fi
  apt_install "${packages[@]}"
}

build() {
  local src="$root/crates/gotemplate/tests/go-oracle/main.go"
  local stamp
  stamp="$(sha256sum "$src" | cut -d' ' -f1) $(go version)"
  if [ -x "$dir/template-oracle" ] && stamped "$dir/.stamp" "$stamp"; then
    return
  fi
  log "building the template oracle with $(go version)"
  local gopath="$dir/gopath"
  rm -rf "$gopath"
  mkdir -p "$gopath/src/github.com/Masterminds/sprig" "$gopath/src/github.com/Masterminds/semver" \
    "$gopath/src/olm-release/template-oracle"
  ln -s "$gocode/github.com/Masterminds/sprig" "$gopath/src/github.com/Masterminds/sprig/v3"
  ln -s "$gocode/github.com/Masterminds/semver" "$gopath/src/github.com/Masterminds/semver/v3"
  cp "$src" "$gopath/src/olm-release/template-oracle/main.go"
  (cd "$gopath/src/olm-release/template-oracle" &&
    GO111MODULE=off GOPROXY=off GOFLAGS= GOPATH="$gopath:/usr/share/gocode" \
      GOCACHE="$dir/cache" go build -o "$dir/template-oracle" .) >&2
  echo "$stamp" > "$dir/.stamp"
}

case "${1:-}" in
  install) install ;;
  start)
    install
    mkdir -p "$dir"
    build
    echo "export GO_TEMPLATE_ORACLE=$dir/template-oracle"
    ;;
  stop) ;;
  *) echo "usage: $0 install|start|stop" >&2; exit 2 ;;
esac
