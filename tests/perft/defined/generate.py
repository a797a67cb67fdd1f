#!/usr/bin/env python3
"""Random positions and their perft, counted by Fairy-Stockfish, as test data.

For each variant named, plays --count games of random moves from the start, each to a
random length, and writes `FEN | DEPTH | NODES` for the position reached, as
Fairy-Stockfish counts it, to standard output. The same --seed gives the same positions.

    generate.py --engine /tmp/fsf/src/stockfish --variant makruk --count 100 --depth 3

Fairy-Stockfish is built from its public source in a temporary folder (README,
"Variants as data"); nothing of it is kept in Ferry's repository but these figures.
"""
import argparse
import random
import re
import subprocess

MOVE_LINE = re.compile(r"^(\S+): (\d+)$")


class Engine:
    def __init__(self, path, variant):
        self.p = subprocess.Popen([path], stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)
        self.send("uci")
        self.until("uciok")
        self.send(f"setoption name UCI_Variant value {variant}")
        self.send("isready")
        self.until("readyok")

    def send(self, line):
        self.p.stdin.write(line + "\n")
        self.p.stdin.flush()

    def until(self, prefix):
        lines = []
        while True:
            line = self.p.stdout.readline()
            if not line:
                raise RuntimeError("the engine stopped")
            line = line.rstrip("\n")
            lines.append(line)
            if line.startswith(prefix):
                return lines

    def divide(self, fen, depth):
        self.send(f"position fen {fen}")
        self.send(f"go perft {depth}")
        lines = self.until("Nodes searched")
        moves = {}
        for line in lines[:-1]:
            m = MOVE_LINE.match(line)
            if m and not line.startswith(("Nodes", "info", "Checkers", "Chased")):
                moves[m.group(1)] = int(m.group(2))
        total = int(lines[-1].split(": ")[1])
        return moves, total

    def fen(self, fen, move):
        self.send(f"position fen {fen} moves {move}")
        self.send("d")
        for line in self.until("Checkers"):
            if line.startswith("Fen: "):
                return line[5:]
        raise RuntimeError("no Fen line")

    def start(self):
        self.send("position startpos")
        self.send("d")
        for line in self.until("Checkers"):
            if line.startswith("Fen: "):
                return line[5:]
        raise RuntimeError("no Fen line")


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--engine", required=True)
    ap.add_argument("--variant", required=True)
    ap.add_argument("--count", type=int, default=100)
    ap.add_argument("--depth", type=int, default=3)
    ap.add_argument("--plies", type=int, default=60, help="the longest random game")
    ap.add_argument("--seed", type=int, default=34)
    a = ap.parse_args()
    rng = random.Random(f"{a.seed}-{a.variant}")
    e = Engine(a.engine, a.variant)
    start = e.start()
    print(f"# {a.count} positions after random moves from the start (seed {a.seed}), "
          f"perft {a.depth} as Fairy-Stockfish counts it.")
    made = 0
    while made < a.count:
        fen = start
        for _ in range(rng.randint(1, a.plies)):
            moves, _ = e.divide(fen, 1)
            if not moves:
                break
            fen = e.fen(fen, rng.choice(sorted(moves)))
        _, total = e.divide(fen, a.depth)
        print(f"{fen} | {a.depth} | {total}")
        made += 1
    e.send("quit")


if __name__ == "__main__":
    main()
