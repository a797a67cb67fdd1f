#!/usr/bin/env python3
"""Plays random games with Fairy-Stockfish and checks each ply against `ferry replay`.

Each game starts from --fen and picks, by --seed, among Fairy-Stockfish's legal moves (a
capture with chance --captures, so that material comes off and endings such as the
counting rules are reached). After every ply Ferry replays the game from the start and
must write Fairy-Stockfish's FEN; the game stops at a mate or stalemate (Ferry must say
so), when Fairy-Stockfish's count passes its limit (Ferry must call it drawn by the
counting rule), or where Ferry ends it by repetition or its move rule (the latter only
after 100 plies with no capture or pawn move). Prints each mismatch and the totals.

    compare_games.py --engine /tmp/fsf/src/stockfish --ferry target/debug/ferry \\
        --fsf-variant asean --variant asean --games 30 --seed 34

With --folder the variant comes from that FERRY_VARIANTS folder (a definition of one's
own against a Fairy-Stockfish built-in, as cambodian's counting).
"""
import argparse
import os
import random
import re
import subprocess
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import generate  # noqa: E402  (beside this file)

MOVE = re.compile(r"^([a-l])([0-9]+)([a-l])([0-9]+)[a-z+]*: ")


class Engine(generate.Engine):
    """generate.py's Fairy-Stockfish, asked for a whole position at a time."""

    def state(self, fen, moves):
        """The FEN, whether the side to move is in check, and the legal moves."""
        self.send(f"position fen {fen}" + (f" moves {' '.join(moves)}" if moves else ""))
        self.send("d")
        out = self.until("Checkers:")
        now = next(line[5:] for line in out if line.startswith("Fen: "))
        checked = bool(out[-1][len("Checkers:"):].strip())
        self.send("go perft 1")
        legal = [line.split(":")[0] for line in self.until("Nodes searched") if MOVE.match(line + " ")]
        return now, checked, legal


def ferry(path, variant, fen, moves, env):
    r = subprocess.run([path, "replay", variant, "--fen", fen], input=" ".join(moves),
                       capture_output=True, text=True, env=env)
    out = dict(line.split(": ", 1) for line in r.stdout.splitlines() if ": " in line)
    return out.get("position"), out.get("result"), r.stderr.strip()


def board(fen):
    rows = fen.split()[0].split("/")
    cells = {}
    for r, row in enumerate(rows):
        f = 0
        for run in re.findall(r"\d+|.", row):
            if run.isdigit():
                f += int(run)
            else:
                cells[(f, len(rows) - 1 - r)] = run
                f += 1
    return cells


def cell(file, rank):
    return ord(file) - 97, int(rank) - 1


def main():
    a = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    a.add_argument("--engine", required=True)
    a.add_argument("--ferry", required=True)
    a.add_argument("--fsf-variant", required=True)
    a.add_argument("--variant", required=True)
    a.add_argument("--folder")
    a.add_argument("--fen", default="rnbqkbnr/8/pppppppp/8/8/PPPPPPPP/8/RNBQKBNR w - - 0 1")
    a.add_argument("--games", type=int, default=30)
    a.add_argument("--seed", type=int, default=34)
    a.add_argument("--captures", type=float, default=0.6)
    args = a.parse_args()
    env = dict(os.environ)
    if args.folder:
        env["FERRY_VARIANTS"] = args.folder
    rng = random.Random(args.seed)
    engine = Engine(args.engine, args.fsf_variant)
    plies = mismatches = 0
    endings = {}
    for g in range(args.games):
        moves, quiet = [], 0
        while True:
            fen, checked, legal = engine.state(args.fen, moves)
            pos, res, err = ferry(args.ferry, args.variant, args.fen, moves, env)
            plies += 1
            fields = fen.split()
            counting = fields[3].isdigit()
            over = counting and int(fields[3]) > 0 and int(fields[4]) > int(fields[3])
            ending, fine = None, True
            if pos != fen:
                ending, fine = "position", False
                print(f"game {g} ply {len(moves)}: Fairy-Stockfish {fen}, Ferry {pos} {err}")
            elif not legal:
                ending = "checkmate" if checked else "stalemate"
                fine = ending in (res or "")
            elif over:
                ending, fine = "counting", "count" in (res or "")
            elif res != "ongoing":
                ending = res
                fine = "repetition" in res or ("move-count" in res and quiet >= 100)
            elif len(moves) > 600:
                ending = "long"
            if ending:
                endings[ending] = endings.get(ending, 0) + 1
                if not fine:
                    mismatches += 1
                    print(f"game {g} ply {len(moves)} {fen}: Fairy-Stockfish {ending}, Ferry {res}")
                break
            cells = board(fen)
            captures = [m for m in legal if cell(*MOVE.match(m + ": ").groups()[2:]) in cells]
            m = rng.choice(captures) if captures and rng.random() < args.captures else rng.choice(legal)
            f, r, tf, tr = MOVE.match(m + ": ").groups()
            pawn = cells.get(cell(f, r), "").lower() == "p"
            quiet = 0 if cell(tf, tr) in cells or pawn else quiet + 1
            moves.append(m)
    print(f"{args.games} games, {plies} plies compared, {mismatches} mismatches, endings {endings}")
    raise SystemExit(1 if mismatches else 0)


if __name__ == "__main__":
    main()
