#!/usr/bin/env python3
"""Makes the positions the chess evaluation is tuned on (ai/tuning/positions.txt.gz).

Games: Stockfish plays itself at a few thousand nodes a move from seeded random openings, with
an occasional random move, so that the positions are varied and unbalanced (material up and
down, kings exposed, passed pawns). Positions are sampled from each game and labelled by
Stockfish at a fixed depth. Only quiet positions are kept: the side to move is not in check and
Stockfish's best move is neither a capture nor a promotion (the static evaluation is meant for
such positions; the search resolves the rest). Mates and scores beyond 20 pawns are left out.

Each line: FEN | Stockfish's score in centipawns from White's side | the game's result for White
(1, 0.5, 0).

Needs `pip install chess` (python-chess, GPL-3.0: a tool of this script only, not shipped) and
Stockfish (Debian: apt-get install stockfish). Seeded, and Stockfish is limited by nodes and
depth, not time, so a run repeats with the same Stockfish; the file is kept as made. Usage: scripts/make-tuning-data.py [--positions N] [--seed S] [--depth D] [--out FILE]
Then `scripts/tune-eval.sh` turns the positions into ai/src/chess/tuned.rs.

The file in the repository is two runs joined (gzip files concatenate; ~1 h on one core):
    scripts/make-tuning-data.py --positions 60000 --seed 2026 --out a.gz   # 2,530 games
    scripts/make-tuning-data.py --positions 80000 --seed 2027 --out b.gz   # 3,394 games
    cat a.gz b.gz > ai/tuning/positions.txt.gz

The neural correction (ai/examples/tune_net.rs) is fitted to those and to six more runs,
ai/tuning/net-positions.txt.gz (~100 min on two cores, one run a core):
    scripts/make-tuning-data.py --positions 100000 --seed 2028 --out c.gz  # 4,248 games
    scripts/make-tuning-data.py --positions 40000 --seed 2029 --out d.gz   # 1,692 games
    scripts/make-tuning-data.py --positions 120000 --seed 2030 --out e.gz  # 5,082 games
    scripts/make-tuning-data.py --positions 120000 --seed 2031 --out f.gz  # 5,068 games
    scripts/make-tuning-data.py --positions 120000 --seed 2032 --out g.gz  # ~5,080 games
    scripts/make-tuning-data.py --positions 120000 --seed 2033 --out h.gz  # ~5,080 games
    cat c.gz d.gz e.gz f.gz g.gz h.gz > ai/tuning/net-positions.txt.gz
(The last two were cut from longer runs of the same seeds at their first 120,000 lines, which
is what --positions 120000 writes; they were compressed again, so the bytes differ.)
"""

import argparse
import gzip
import random
import sys

import chess
import chess.engine

from sfengine import stockfish

HERE = __file__.rsplit("/", 2)[0]


def play_game(engine, rng, nodes):
    """One game: its positions (as boards) after the opening, and its result for White."""
    board = chess.Board()
    for _ in range(rng.randint(4, 9)):
        moves = list(board.legal_moves)
        if not moves:
            break
        board.push(rng.choice(moves))
    positions = []
    while not board.is_game_over(claim_draw=True) and board.ply() < 300:
        positions.append(board.copy(stack=False))
        moves = list(board.legal_moves)
        if rng.random() < 0.06:
            board.push(rng.choice(moves))
        else:
            board.push(engine.play(board, chess.engine.Limit(nodes=nodes)).move)
    result = board.result(claim_draw=True)
    white = {"1-0": 1.0, "0-1": 0.0}.get(result, 0.5)
    return positions, white


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--positions", type=int, default=40000)
    ap.add_argument("--seed", type=int, default=2026)
    ap.add_argument("--depth", type=int, default=8)
    ap.add_argument("--nodes", type=int, default=2000)
    ap.add_argument("--per-game", type=int, default=24)
    ap.add_argument("--out", default=f"{HERE}/ai/tuning/positions.txt.gz")
    args = ap.parse_args()
    rng = random.Random(args.seed)
    engine = stockfish(16)
    kept = 0
    games = 0
    with gzip.open(args.out, "wt") as out:
        while kept < args.positions:
            positions, result = play_game(engine, rng, args.nodes)
            games += 1
            rng.shuffle(positions)
            taken = 0
            for board in positions:
                if taken >= args.per_game or kept >= args.positions:
                    break
                if board.is_check() or board.is_game_over():
                    continue
                info = engine.analyse(board, chess.engine.Limit(depth=args.depth))
                score = info["score"].white()
                pv = info.get("pv") or []
                if score.is_mate() or not pv:
                    continue
                best = pv[0]
                if board.is_capture(best) or best.promotion:
                    continue
                cp = score.score()
                if abs(cp) > 2000:
                    continue
                out.write(f"{board.fen()} | {cp} | {result}\n")
                kept += 1
                taken += 1
            if games % 50 == 0:
                print(f"{games} games, {kept} positions", file=sys.stderr, flush=True)
    engine.quit()
    print(f"{games} games, {kept} positions -> {args.out}", file=sys.stderr)


if __name__ == "__main__":
    main()
