#!/usr/bin/env bash
# Builds the browser version into a folder the game server serves (takhte-server --web DIR):
#
#   scripts/build-web.sh [OUT]      (OUT defaults to target/web)
#
# OUT/index.html is the page (for /, /join/CODE and /watch/CODE); OUT/app/<build>/ holds the
# app's loader and WebAssembly and the computer's worker (with .gz copies), in a folder named
# after a hash of them, so a browser never keeps an old build after an upgrade; OUT/sw.js, the
# manifests and OUT/icons/ make it an installable app that plays offline. Needs the wasm32-unknown-unknown target and
# wasm-bindgen-cli of the same version as the wasm-bindgen crate (the script says how to get
# them). PROFILE=dev builds a debug version (faster to build, larger and slower).
set -euo pipefail
cd "$(dirname "$0")/.."
out="${1:-target/web}"
profile="${PROFILE:-web-release}"
version=$(grep -A1 '^name = "wasm-bindgen"$' Cargo.lock | sed -n 's/^version = "\(.*\)"/\1/p')

if ! rustup target list --installed 2>/dev/null | grep -q '^wasm32-unknown-unknown$'; then
    rustup target add wasm32-unknown-unknown
fi
if ! command -v wasm-bindgen >/dev/null 2>&1 || [ "$(wasm-bindgen --version | awk '{print $2}')" != "$version" ]; then
    echo "build-web: installing wasm-bindgen-cli $version (once)"
    cargo install wasm-bindgen-cli --version "$version" --force
fi

cargo build --lib --target wasm32-unknown-unknown --profile "$profile"
# The computer's Web Worker: the searches and the rules, no UI (worker/).
cargo build -p takhte-worker --lib --target wasm32-unknown-unknown --profile "$profile"
dir=release
[ "$profile" = dev ] && dir=debug
[ "$profile" != dev ] && [ "$profile" != release ] && dir="$profile"
wasm="target/wasm32-unknown-unknown/$dir/takhte.wasm"
worker_wasm="target/wasm32-unknown-unknown/$dir/takhte_worker.wasm"

stage=$(mktemp -d)
trap 'rm -rf "$stage"' EXIT
# No names or producer notes in the shipped WebAssembly (a panic's message keeps its text).
strip=()
[ "$profile" != dev ] && strip=(--remove-name-section --remove-producers-section)
wasm-bindgen --target web --no-typescript "${strip[@]}" --out-dir "$stage" --out-name takhte "$wasm"
wasm-bindgen --target web --no-typescript "${strip[@]}" --out-dir "$stage" --out-name takhte_worker "$worker_wasm"
cp web/worker.js "$stage/"
build=$(cat "$stage"/*.js "$stage"/*.wasm web/index.html web/sw.js | sha256sum | cut -c1-16)

mkdir -p "$out/app"
# Earlier builds stay a while for pages still open on them; keep the last three.
ls -1t "$out/app" 2>/dev/null | tail -n +4 | while read -r old; do rm -rf "${out:?}/app/$old"; done
# A build's files never change under its name (browsers keep them a year): the same build again
# is left as it is, a new one is made beside it under a hidden name and then renamed.
if [ ! -d "$out/app/$build" ]; then
    tmp="$out/app/.tmp-$build"
    rm -rf "$tmp"
    mkdir -p "$tmp"
    cp "$stage"/*.js "$stage"/*.wasm "$tmp/"
    gzip -9 -k -f "$tmp"/*.js "$tmp"/*.wasm
    # Brotli beside gzip (the server sends it to browsers that take it: 2.0 MB, gzip 2.9 MB).
    if command -v brotli >/dev/null 2>&1; then
        brotli -q 11 -k -f "$tmp"/*.js "$tmp"/*.wasm
    else
        echo "build-web: no brotli here (Debian: apt install brotli): gzip only" >&2
    fi
    mv "$tmp" "$out/app/$build"
fi
# The installable app's files at the top of the site: its manifests and icons; then the page
# and the service worker that names this build (written last, each whole: a browser finds
# either the old build or the new one).
mkdir -p "$out/icons"
cp web/manifest.en.webmanifest web/manifest.fa.webmanifest "$out/"
cp web/icons/*.png "$out/icons/"
wasm_bytes=$(stat -c %s "$stage/takhte_bg.wasm")
sed -e "s|/app/BUILD/|/app/$build/|g" -e "s|WASM_BYTES|$wasm_bytes|g" web/index.html > "$out/index.html.tmp"
mv "$out/index.html.tmp" "$out/index.html"
sed -e "s|/app/BUILD/|/app/$build/|g" -e "s|\"BUILD\"|\"$build\"|" web/sw.js > "$out/sw.js.tmp"
mv "$out/sw.js.tmp" "$out/sw.js"
echo "build-web: $out (build $build)"
ls -l "$out/app/$build"
