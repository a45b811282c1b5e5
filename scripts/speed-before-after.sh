#!/usr/bin/env bash
# Speed before and after: runs one of the engine's speed benches on an older commit and on the
# working tree, alternately, ROUNDS times each, so that both see the same machine.
#   scripts/speed-before-after.sh perft [BASE]          move generation (rules/benches/perft.rs:
#       the standard chess suite against shakmaty in the same run, and the other three games)
#   scripts/speed-before-after.sh search [BASE]         the top level's nodes per second at a
#       fixed depth in chess, draughts, minesweeper chess and dice chess
#       (ai/benches/search_speed.rs; SEARCH_DEPTH 8, DRAUGHTS_DEPTH 12, MINE_DEPTH 7, DICE_DEPTH 3)
# BASE defaults to dc245c6, the last commit before the engine work. The older tree gets today's
# bench file, with the lines whose API changed since dc245c6 replaced (see the bench's head);
# BASE_API=today gives it the bench file as it is, for a base that already has today's API
# (fc8510e or later). Knobs: ROUNDS (2), PERFT_QUICK=1.
set -euo pipefail
cd "$(dirname "$0")/.."
case "${1:-}" in
perft) PKG=takhte-rules BENCH=perft DIR=rules ;;
search) PKG=takhte-ai BENCH=search_speed DIR=ai ;;
*)
    echo "usage: $0 perft|search [BASE_COMMIT]" >&2
    exit 2
    ;;
esac
BASE=${2:-dc245c6}
ROUNDS=${ROUNDS:-2}
TARGET="${CARGO_TARGET_DIR:-$PWD/target}"
WT="$TARGET/speed-base"
if [ ! -d "$WT" ]; then
    git worktree add --detach "$WT" "$BASE" >/dev/null
else
    git -C "$WT" checkout -q --force --detach "$BASE"
fi
# Lines of the bench ending in "// base: CODE" become CODE there (an empty CODE drops the line).
if [ "${BASE_API:-}" = today ]; then
    cp "$DIR/benches/$BENCH.rs" "$WT/$DIR/benches/$BENCH.rs"
else
    sed -E -e '/\/\/ base:[[:space:]]*$/d' -e 's|^([[:space:]]*).*// base: (.*)$|\1\2|' \
        "$DIR/benches/$BENCH.rs" >"$WT/$DIR/benches/$BENCH.rs"
fi
if ! grep -q "name = \"$BENCH\"" "$WT/$DIR/Cargo.toml"; then
    printf '\n[[bench]]\nname = "%s"\nharness = false\n' "$BENCH" >>"$WT/$DIR/Cargo.toml"
fi
bench() { # builds the bench of the tree in $1 into target dir $2; prints the path of its binary
    (cd "$1" && CARGO_TARGET_DIR="$2" cargo bench -q -p "$PKG" --bench "$BENCH" --no-run \
        --message-format=json 2>/dev/null) |
        sed -n 's/.*"executable":"\([^"]*\)".*/\1/p' | tail -n 1
}
# The older tree builds into its own folder: both trees' bench binaries would have one name,
# and sharing one folder made cargo take the older library as fresh.
OLD=$(bench "$WT" "$TARGET/speed-base-target")
NEW=$(bench "$PWD" "$TARGET")
for round in $(seq "$ROUNDS"); do
    echo "== round $round: before ($BASE)"
    "$OLD"
    echo "== round $round: after (working tree)"
    "$NEW"
done
