#!/usr/bin/env bash
# The web app's icons (web/icons/), drawn from the app's own icon (android/icon.svg) with
# rsvg-convert (Debian librsvg2-bin): 192 and 512 px as drawn (rounded), and a 512 px
# "maskable" one (the whole square filled, the board shrunk into the middle 80 % that every
# launcher's mask keeps). Run after changing the icon; the PNGs are committed.
set -euo pipefail
cd "$(dirname "$0")/.."
out=web/icons
mkdir -p "$out"
rsvg-convert -w 192 -h 192 android/icon.svg -o "$out/icon-192.png"
rsvg-convert -w 512 -h 512 android/icon.svg -o "$out/icon-512.png"
sed -e 's/rx="42"/rx="0"/' \
    -e 's|<g transform="translate(36,36)">|<g transform="translate(45,45) scale(0.85)">|' \
    android/icon.svg > "$out/.maskable.svg"
rsvg-convert -w 512 -h 512 "$out/.maskable.svg" -o "$out/maskable-512.png"
rm "$out/.maskable.svg"
ls -l "$out"
