#!/usr/bin/env python3
"""Makes the chess AI's test positions (ai/tests/data/mate_in_two.txt, ai/tests/data/tactics.txt).

Positions come from games Stockfish plays against itself at a low skill level from seeded random
openings (so that mistakes, and with them mates and hanging pieces, happen). Then:

* mate in two: Stockfish reports a mate in two for the side to move, and this script checks it
  exhaustively with python-chess (no mate in one; some move after which every reply allows a mate
  in one). Each line: FEN | the mating first moves (UCI, every one that works).
* tactics: positions where the choice matters: a trap (the move Stockfish likes at depth 1
  loses 200 centipawns or more at depth 11) or an only move (the best is 150 centipawns or more
  above the second); Stockfish then scores every legal move at depth 11 (multipv). Each line: FEN | the moves within 60 centipawns of the best (UCI) | the moves 200
  centipawns or more below it (the shallow choice among them) | the best score (cp, side to
  move).

Needs `pip install chess` (python-chess, GPL-3.0: a tool of this script only, not shipped) and
Stockfish (Debian: apt-get install stockfish). The openings are seeded, but Stockfish's low skill
level picks its mistakes at random, so each run finds other positions: the files are kept as made.
Usage: scripts/make-tactics.py [--mates N] [--tactics N] [--seed S]
"""

import argparse
import random
import sys

import chess
import chess.engine

from sfengine import stockfish

HERE = __file__.rsplit("/", 2)[0]


def mates_in_one(board):
    found = []
    for mv in board.legal_moves:
        board.push(mv)
        if board.is_checkmate():
            found.append(mv)
        board.pop()
    return found


def mating_firsts(board):
    """The first moves that mate in two (every reply allows a mate in one), exhaustively."""
    firsts = []
    for mv in list(board.legal_moves):
        board.push(mv)
        replies = list(board.legal_moves)
        ok = bool(replies) or board.is_checkmate()
        if board.is_checkmate():
            ok = False  # a mate in one, not two
        for r in replies:
            board.push(r)
            if not mates_in_one(board):
                ok = False
            board.pop()
            if not ok:
                break
        board.pop()
        if ok:
            firsts.append(mv)
    return firsts


def games(engine, rng, count):
    """Positions of `count` low-skill self-play games, each from four random opening plies."""
    engine.configure({"Skill Level": 3})
    for _ in range(count):
        board = chess.Board()
        for _ in range(4):
            board.push(rng.choice(list(board.legal_moves)))
        while not board.is_game_over() and board.ply() < 160:
            yield board.copy()
            result = engine.play(board, chess.engine.Limit(time=0.01))
            board.push(result.move)
    engine.configure({"Skill Level": 20})


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--mates", type=int, default=40)
    ap.add_argument("--tactics", type=int, default=40)
    ap.add_argument("--seed", type=int, default=2026)
    args = ap.parse_args()
    rng = random.Random(args.seed)
    sample = random.Random(args.seed + 1)
    engine = stockfish(64)
    mates, tactics, seen = [], [], set()
    for board in games(engine, rng, 400):
        if len(mates) >= args.mates and len(tactics) >= args.tactics:
            break
        key = board.board_fen() + board.turn.__str__()
        if key in seen or board.ply() < 12:
            continue
        seen.add(key)
        info = engine.analyse(board, chess.engine.Limit(depth=8))
        score = info["score"].relative
        if len(mates) < args.mates and score.mate() == 2 and not mates_in_one(board):
            firsts = mating_firsts(board)
            if firsts:
                mates.append((board.fen(), firsts))
                print(f"mate {len(mates)}: {board.fen()}", file=sys.stderr)
            continue
        if len(tactics) >= args.tactics or score.is_mate() or abs(score.score()) > 250:
            continue
        n = board.legal_moves.count()
        if n < 8:
            continue
        deep = chess.engine.Limit(depth=11)
        two = engine.analyse(board, deep, multipv=2)
        first, second = (l["score"].relative.score(mate_score=100000) for l in two)
        shallow = engine.analyse(board, chess.engine.Limit(depth=1))["pv"][0]
        trap = engine.analyse(board, deep, root_moves=[shallow])["score"].relative
        only_move = first - second >= 150
        trapped = trap.score(mate_score=100000) <= first - 200
        if not (only_move or trapped):
            continue
        lines = engine.analyse(board, deep, multipv=n)
        scored = [(l["pv"][0], l["score"].relative.score(mate_score=100000)) for l in lines]
        best = max(s for _, s in scored)
        losing = [m for m, s in scored if s <= best - 200]
        good = [m for m, s in scored if s >= best - 60]
        if losing and abs(best) <= 300 and sample.random() < 0.5:
            tactics.append((board.fen(), good, losing, best))
            kind = "trap" if trapped else "only move"
            print(f"tactic {len(tactics)} ({kind}): {board.fen()} {len(good)}/{n}", file=sys.stderr)
    engine.quit()
    sf = "Stockfish 15.1"
    with open(f"{HERE}/ai/tests/data/mate_in_two.txt", "w") as f:
        f.write("# Mates in two, made by scripts/make-tactics.py from low-skill "
                f"{sf} self-play (seed {args.seed});\n# each checked exhaustively: "
                "no mate in one, and every reply to each listed first move allows a mate.\n"
                "# FEN | every first move that mates in two (UCI)\n")
        for fen, firsts in mates:
            f.write(f"{fen} | {' '.join(m.uci() for m in firsts)}\n")
    with open(f"{HERE}/ai/tests/data/tactics.txt", "w") as f:
        f.write("# Tactical positions, made by scripts/make-tactics.py from low-skill "
                f"{sf} self-play (seed {args.seed}):\n# {sf} scored every legal move (depth 11); "
                "a trap (its choice at depth 1 loses 200 cp or more) or an only move (150 cp above the "
                "second).\n"
                "# FEN | the moves within 60 cp of the best (UCI) | the moves 200 cp or more below "
                "it | best score (cp, side to move)\n")
        for fen, good, losing, best in tactics:
            f.write(f"{fen} | {' '.join(m.uci() for m in good)} | "
                    f"{' '.join(m.uci() for m in losing)} | {best}\n")


if __name__ == "__main__":
    main()
