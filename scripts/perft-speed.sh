#!/usr/bin/env bash
# Move generation speed, before and after: runs the perft bench (rules/benches/perft.rs: the
# standard chess suite against shakmaty in the same run, and the other three games) on an older
# commit and on the working tree, alternately, ROUNDS times each, so that both see the same
# machine. The older commit gets today's bench file (the games' perft API has not changed).
#   scripts/perft-speed.sh [BASE_COMMIT]   (default: dc245c6, the last commit before the engine work)
# Knobs: ROUNDS (2), PERFT_QUICK=1 (one depth less everywhere).
set -euo pipefail
cd "$(dirname "$0")/.."
BASE=${1:-dc245c6}
ROUNDS=${ROUNDS:-2}
TARGET="${CARGO_TARGET_DIR:-$PWD/target}"
WT="$TARGET/perft-base"
if [ ! -d "$WT" ]; then
    git worktree add --detach "$WT" "$BASE" >/dev/null
else
    git -C "$WT" checkout -q --detach "$BASE"
fi
cp rules/benches/perft.rs "$WT/rules/benches/perft.rs"
bench() { # builds the bench of the tree in $1 into target dir $2; prints the path of its binary
    (cd "$1" && CARGO_TARGET_DIR="$2" cargo bench -q -p takhte-rules --bench perft --no-run \
        --message-format=json 2>/dev/null) |
        sed -n 's/.*"executable":"\([^"]*\)".*/\1/p' | tail -n 1
}
# The older tree builds into its own folder: both trees' bench binaries would have one name.
OLD=$(bench "$WT" "$TARGET/perft-base-target")
NEW=$(bench "$PWD" "$TARGET")
for round in $(seq "$ROUNDS"); do
    echo "== round $round: before ($BASE)"
    "$OLD"
    echo "== round $round: after (working tree)"
    "$NEW"
done
