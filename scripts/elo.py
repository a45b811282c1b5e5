#!/usr/bin/env python3
"""Scores, Elo differences and ratings from match results, with 95% intervals.

  scripts/elo.py score W D L
      the score of W wins, D draws and L losses, its 95% interval (normal approximation with
      the games' own variance, draws counted as such; the exact binomial bound when every game
      was won or every game lost), and the Elo difference of each.
  scripts/elo.py fit FILE
      ratings of every player from the matches in FILE, by maximum likelihood (each game a
      Bernoulli trial of the logistic Elo model, a draw half a win), with some players fixed:
          anchor NAME RATING           a player of known rating (Stockfish at UCI_Elo)
          match A B W D L              A's wins, draws and losses against B
      One virtual draw is added to every pair that met, so that a player who won or lost every
      game gets a finite rating (the usual prior of rating programs). Prints each player's
      rating with a 95% interval from the likelihood's curvature.
"""

import math
import sys

Z = 1.959964


def elo_of(score):
    score = min(max(score, 1e-6), 1 - 1e-6)
    return -400 * math.log10(1 / score - 1)


def score_line(w, d, l):
    n = w + d + l
    if n == 0:
        return "no games"
    s = (w + d / 2) / n
    var = (w * (1 - s) ** 2 + d * (0.5 - s) ** 2 + l * (0 - s) ** 2) / n
    half = Z * math.sqrt(var / n) if n > 1 else 0.5
    lo, hi = max(0.0, s - half), min(1.0, s + half)
    if var == 0 and s in (0.0, 1.0):  # all won or all lost: the exact (Clopper-Pearson) bound
        edge = 0.025 ** (1 / n)
        lo, hi = (edge, 1.0) if s == 1.0 else (0.0, 1 - edge)
    fmt = lambda e: "-inf" if e <= -2399 else ("+inf" if e >= 2399 else f"{e:+.0f}")
    return (f"{w}W {d}D {l}L: {100 * s:.1f}% [{100 * lo:.1f}%, {100 * hi:.1f}%], "
            f"Elo {fmt(elo_of(s))} [{fmt(elo_of(lo))}, {fmt(elo_of(hi))}]")


def fit(path):
    anchors, games = {}, []
    for raw in open(path):
        parts = raw.split("#")[0].split()
        if not parts:
            continue
        if parts[0] == "anchor":
            anchors[parts[1]] = float(parts[2])
        elif parts[0] == "match":
            a, b, w, d, l = parts[1], parts[2], *map(int, parts[3:6])
            games.append((a, b, w + 0.5, d + 1, l + 0.5))  # one virtual draw per match
        else:
            sys.exit(f"{path}: cannot read '{raw.strip()}'")
    players = sorted({p for g in games for p in g[:2]} | set(anchors))
    free = [p for p in players if p not in anchors]
    r = {p: anchors.get(p, 1500.0) for p in players}
    k = math.log(10) / 400

    def expected(a, b):
        return 1 / (1 + 10 ** ((r[b] - r[a]) / 400))

    for _ in range(2000):  # Newton steps on each free rating in turn
        moved = 0.0
        for p in free:
            grad, curv = 0.0, 0.0
            for a, b, w, d, l in games:
                if p not in (a, b):
                    continue
                n, s = w + d + l, w + d / 2
                e = expected(a, b)
                sign = 1 if p == a else -1
                grad += sign * k * (s - n * e)
                curv += k * k * n * e * (1 - e)
            step = max(-200.0, min(200.0, grad / curv)) if curv > 0 else 0.0
            r[p] += step
            moved = max(moved, abs(step))
        if moved < 0.01:
            break
    for p in players:
        if p in anchors:
            print(f"{p:<12} {r[p]:6.0f}  (anchor)")
            continue
        info = sum(k * k * (w + d + l) * expected(a, b) * (1 - expected(a, b))
                   for a, b, w, d, l in games if p in (a, b))
        half = Z / math.sqrt(info) if info > 0 else float("inf")
        print(f"{p:<12} {r[p]:6.0f}  [{r[p] - half:.0f}, {r[p] + half:.0f}]")


def main():
    if len(sys.argv) == 5 and sys.argv[1] == "score":
        print(score_line(*map(int, sys.argv[2:5])))
    elif len(sys.argv) == 3 and sys.argv[1] == "fit":
        fit(sys.argv[2])
    else:
        sys.exit(__doc__)


if __name__ == "__main__":
    main()
