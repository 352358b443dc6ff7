#!/usr/bin/env python3
"""How each engine of a `chariot match` PGN used its clock.

Usage: scripts/clock_use.py GAMES.pgn BASE_SECONDS INCREMENT_SECONDS

For every game and side: the time left at the end (base + increment per move played - the
time its moves took, as the `{score/depth time}` comments record them), then per engine the
median and the lowest time left, the median time per move, and how many games it lost on
time. Book moves (`{book}`) cost nothing.
"""
import re
import statistics
import sys


def games(text):
    for block in re.split(r"\n(?=\[Event )", text):
        if "[Red " in block:
            yield block


def tag(block, name):
    m = re.search(r'\[%s "([^"]*)"\]' % name, block)
    return m.group(1) if m else ""


def main():
    if len(sys.argv) != 4:
        sys.exit(__doc__)
    path, base, inc = sys.argv[1], float(sys.argv[2]), float(sys.argv[3])
    left = {}
    per_move = {}
    flags = {}
    for block in games(open(path, encoding="utf-8").read()):
        red, black = tag(block, "Red"), tag(block, "Black")
        fen = tag(block, "FEN")
        side = 1 if " b " in fen else 0
        movetext = block.split("\n\n", 1)[1] if "\n\n" in block else ""
        used = [0.0, 0.0]
        moves = [0, 0]
        for token in re.finditer(r"(\d+\.+\s*)?([a-i]\d[a-i]\d)\s*(\{([^}]*)\})?", movetext):
            note = token.group(4) or ""
            m = re.search(r"(\d+\.\d+)s", note)
            if note != "book":
                moves[side] += 1
                if m:
                    used[side] += float(m.group(1))
                    per_move.setdefault([red, black][side], []).append(float(m.group(1)))
            side = 1 - side
        for s, name in enumerate([red, black]):
            left.setdefault(name, []).append(base + inc * moves[s] - used[s])
        reason = block.lower()
        if "time" in tag(block, "Termination").lower() or "forfeit" in reason:
            result = tag(block, "Result")
            loser = red if result == "0-1" else black if result == "1-0" else None
            if loser:
                flags[loser] = flags.get(loser, 0) + 1
    for name in sorted(left):
        t = left[name]
        print(
            f"{name}: {len(t)} games, time left at the end median {statistics.median(t):.2f} s, "
            f"lowest {min(t):.2f} s; median per move {statistics.median(per_move.get(name, [0])):.3f} s; "
            f"lost on time {flags.get(name, 0)}"
        )


if __name__ == "__main__":
    main()
