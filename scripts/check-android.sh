#!/usr/bin/env bash
# The Android build check that this machine can do: all our code (rules, AI, store, i18n, UI
# adapters, the Android entry's own logic) compiles for aarch64-linux-android, with Slint's
# Android backend switched off (it needs the NDK, android.jar and Skia, which we do not have
# here). The APK build turns the `android-backend` feature on: see README.md.
set -uo pipefail
cd "$(dirname "$0")/.."

target=aarch64-linux-android
if ! rustup target list --installed 2>/dev/null | grep -qx "$target"; then
    if ! timeout 300 rustup target add "$target"; then
        echo "check-android: FAILED: the $target target could not be installed here (rustup target add failed or timed out); the check did not run" >&2
        exit 1
    fi
fi
echo "check-android: cargo check --target $target --no-default-features --lib"
cargo check --target "$target" --no-default-features --lib
status=$?
if [ $status -ne 0 ]; then
    echo "check-android: FAILED: the crate does not build for $target"
    exit $status
fi
echo "check-android: OK: the crate builds for $target (without the Android backend)"
