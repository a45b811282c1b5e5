#!/usr/bin/env python3
"""Makes the chess openings the strength matches start from (ai/tuning/openings.txt).

Each opening: two random plies, then six plies each picked at random among Stockfish's three
best moves (depth 10), kept when Stockfish scores the position within 50 centipawns of equal
and it differs from every other. One FEN a line, for `takhte match chess --start FILE` (each
pair of games, colours swapped, takes the next line), so that a match of 200 games plays 100
different balanced openings rather than repeating the runner's 16.

Needs `pip install chess` (python-chess, GPL-3.0: a tool of this script only, not shipped) and
Stockfish (Debian: apt-get install stockfish). Seeded, depth-limited: a run repeats.
Usage: scripts/make-openings.py [--count N] [--seed S] [--out FILE]
"""

import argparse
import random

import chess
import chess.engine

from sfengine import stockfish

HERE = __file__.rsplit("/", 2)[0]


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--count", type=int, default=100)
    ap.add_argument("--seed", type=int, default=31)
    ap.add_argument("--out", default=f"{HERE}/ai/tuning/openings.txt")
    args = ap.parse_args()
    rng = random.Random(args.seed)
    engine = stockfish(16)
    seen = set()
    out = []
    while len(out) < args.count:
        board = chess.Board()
        for _ in range(2):
            board.push(rng.choice(list(board.legal_moves)))
        ok = True
        for _ in range(6):
            infos = engine.analyse(board, chess.engine.Limit(depth=10), multipv=3)
            moves = [i["pv"][0] for i in infos if i.get("pv")]
            if not moves:
                ok = False
                break
            board.push(rng.choice(moves))
        if not ok or board.is_game_over():
            continue
        score = engine.analyse(board, chess.engine.Limit(depth=12))["score"].white()
        if score.is_mate() or abs(score.score()) > 50:
            continue
        key = board.epd()
        if key in seen:
            continue
        seen.add(key)
        out.append(board.fen())
    engine.quit()
    with open(args.out, "w") as f:
        f.write("\n".join(out) + "\n")
    print(f"{len(out)} openings -> {args.out}")


if __name__ == "__main__":
    main()
