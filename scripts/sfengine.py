"""Starts Debian's Stockfish for the scripts that make the AI's data (make-tactics.py,
make-tuning-data.py, make-openings.py): one thread, a hash of the given size.
Needs `pip install chess` (python-chess, GPL-3.0: a tool of these scripts only, not shipped)."""

import shutil

import chess.engine


def stockfish(hash_mb):
    path = shutil.which("stockfish") or "/usr/games/stockfish"
    engine = chess.engine.SimpleEngine.popen_uci(path)
    engine.configure({"Threads": 1, "Hash": hash_mb})
    return engine
