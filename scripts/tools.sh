#!/usr/bin/env bash
# Installs the pinned build and test tools aivet needs, into a folder outside the
# clone so that every clone on this machine shares them. Each step is skipped when
# the pinned version is already there, so a second run takes a moment.
#
#   scripts/tools.sh build   wasm target, wasm-bindgen CLI, wasm-opt (npm binaryen)
#   scripts/tools.sh test    the above plus Chromium + ChromeDriver and poppler-utils
#   scripts/tools.sh bench   the build tools plus wrk (an outside load generator)
#   scripts/tools.sh profile valgrind (callgrind), for ./dev profile
#
# Source it (". scripts/tools.sh env") to get PATH set up without installing.
set -euo pipefail

WASM_BINDGEN_VERSION=0.2.130
BINARYEN_VERSION=132.0.0
AIVET_TOOLS_DIR=${AIVET_TOOLS_DIR:-$HOME/.cache/aivet/tools}
export AIVET_TOOLS_DIR
export PATH="$AIVET_TOOLS_DIR/bin:$AIVET_TOOLS_DIR/npm/node_modules/.bin:$PATH"

log() { printf '\033[1m[tools]\033[0m %s\n' "$*" >&2; }

need_wasm_target() {
  if ! rustup target list --installed | grep -qx wasm32-unknown-unknown; then
    log "adding rust target wasm32-unknown-unknown"
    rustup target add wasm32-unknown-unknown
  fi
}

need_wasm_bindgen() {
  if [ "$(wasm-bindgen --version 2>/dev/null | awk '{print $2}')" != "$WASM_BINDGEN_VERSION" ]; then
    log "installing wasm-bindgen-cli $WASM_BINDGEN_VERSION (about 2 minutes, once)"
    # --locked fails for this version: a locked dependency is missing from the registry.
    cargo install wasm-bindgen-cli --version "$WASM_BINDGEN_VERSION" --root "$AIVET_TOOLS_DIR" --quiet
  fi
}

need_wasm_opt() {
  # Debian's binaryen (version 108) miscompiled our earlier leptos bundle; the npm
  # package carries a current wasm-opt.
  if [ "$(wasm-opt --version 2>/dev/null | awk '{print $3}')" != "${BINARYEN_VERSION%%.*}" ]; then
    log "installing wasm-opt from npm binaryen@$BINARYEN_VERSION"
    mkdir -p "$AIVET_TOOLS_DIR/npm"
    npm install --prefix "$AIVET_TOOLS_DIR/npm" --no-audit --no-fund --silent "binaryen@$BINARYEN_VERSION"
  fi
}

need_chromium() {
  if ! command -v chromium >/dev/null || ! command -v chromedriver >/dev/null; then
    log "installing chromium and chromium-driver from Debian"
    export DEBIAN_FRONTEND=noninteractive
    sudo_ apt-get update -qq
    sudo_ apt-get install -y -qq chromium chromium-driver >/dev/null
  fi
}

# need_debian COMMAND WHY PACKAGE...: installs the packages when COMMAND is missing.
need_debian() {
  local cmd=$1 why=$2
  shift 2
  if ! command -v "$cmd" >/dev/null; then
    log "installing $* from Debian ($why)"
    export DEBIAN_FRONTEND=noninteractive
    sudo_ apt-get update -qq
    sudo_ apt-get install -y -qq "$@" >/dev/null
  fi
}

need_wrk() { need_debian wrk "the benchmark's outside load generator" wrk; }

need_valgrind() { need_debian valgrind "instruction counts per request" valgrind; }

# Debian's poppler-utils (pdftotext, pdftoppm): the report's tests read the
# text of the PDFs it makes.
need_poppler() { need_debian pdftotext "reading the report's PDFs in its tests" poppler-utils; }

sudo_() { if [ "$(id -u)" = 0 ]; then "$@"; else sudo "$@"; fi; }

case "${1:-build}" in
  env) ;;
  build) need_wasm_target; need_wasm_bindgen; need_wasm_opt ;;
  test) need_wasm_target; need_wasm_bindgen; need_wasm_opt; need_chromium; need_poppler ;;
  bench) need_wasm_target; need_wasm_bindgen; need_wasm_opt; need_wrk ;;
  profile) need_valgrind ;;
  *) echo "usage: scripts/tools.sh [env|build|test|bench|profile]" >&2; exit 2 ;;
esac
