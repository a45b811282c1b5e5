#!/usr/bin/env bash
# The browser version's figures (download size, first frame, ready to play from an invite link,
# the computer's answer time per level and the longest frame while it thinks, the tab's memory),
# in headless Chromium on this machine. Builds the web files first.
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/build-web.sh target/web >/dev/null
TAKHTE_WEB_DIR="$PWD/target/web" cargo test --test browser figures -- --ignored --nocapture 2>&1 \
    | grep -E '^(download|first frame|ready|level)'
