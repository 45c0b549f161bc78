#!/usr/bin/env bash
# Builds the browser bundle into the site folder and the server binary.
#
#   scripts/build.sh            debug build (fast to compile)
#   scripts/build.sh --release  size-optimised wasm (wasm-opt -Oz) and a release server
#
# The site folder (default target/site, AIVET_SITE_ROOT) gets pkg/aivet.js,
# pkg/aivet_bg.wasm, pkg/aivet.css and the files of public/.
set -euo pipefail
cd "$(dirname "$0")/.."
. scripts/tools.sh env

release=0
[ "${1:-}" = "--release" ] && release=1
target_dir=${CARGO_TARGET_DIR:-target}
site=${AIVET_SITE_ROOT:-target/site}
mkdir -p "$site/pkg"

if [ $release = 1 ]; then wasm_profile=wasm-release; else wasm_profile=dev; fi
wasm_dir=$([ $wasm_profile = dev ] && echo debug || echo $wasm_profile)

echo "[build] browser bundle ($wasm_profile)" >&2
cargo build --quiet -p aivet-frontend --target wasm32-unknown-unknown --profile "$wasm_profile"
wasm-bindgen --target web --no-typescript --out-dir "$site/pkg" --out-name aivet \
  "$target_dir/wasm32-unknown-unknown/$wasm_dir/aivet_frontend.wasm"
if [ $release = 1 ]; then
  wasm-opt -Oz --enable-bulk-memory --enable-nontrapping-float-to-int --enable-sign-ext \
    --enable-reference-types --enable-multivalue --enable-mutable-globals \
    "$site/pkg/aivet_bg.wasm" -o "$site/pkg/aivet_bg.wasm"
fi
cp app/web/style/main.css "$site/pkg/aivet.css"
cp -r public/. "$site/"
# Pre-compressed copies, served to browsers that accept gzip.
for f in "$site/pkg/aivet.js" "$site/pkg/aivet_bg.wasm" "$site/pkg/aivet.css"; do
  gzip -9 -k -f "$f"
done

echo "[build] server" >&2
if [ $release = 1 ]; then
  cargo build --quiet -p aivet-server --release
else
  cargo build --quiet -p aivet-server
fi
