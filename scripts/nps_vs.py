#!/usr/bin/env python3
"""Node rate and depth of Chariot beside another UCI engine, side by side.

Usage: nps_vs.py CHARIOT OTHER [MOVETIME_MS] [RUNS]

On each of the four positions of docs/results.md (start, opening, middlegame, endgame) the two
engines search `go movetime MOVETIME_MS` (3000) after `ucinewgame`, one after the other, one
thread and 16 MB each; the last `info` line before `bestmove` gives nodes, depth and time.
Prints per position both engines' nodes/s and depth and the ratio, then the geometric mean
of the ratios. Pause other work on the machine first: the figures are wall-clock rates."""
import math, re, subprocess, sys

POSITIONS = [
    ("start", "startpos"),
    ("opening", "fen r1bakab1r/9/1cn3nc1/p1p1p1p1p/9/9/P1P1P1P1P/1CN1C1N2/9/R1BAKAB1R w - - 4 3"),
    ("middlegame", "fen 2bakab2/9/2n1c1n2/p1p3p1p/4p4/2P6/P3P1P1P/2N1C1N2/9/2BAKAB2 w - - 0 12"),
    ("endgame", "fen 3k5/4a4/4b4/9/9/2n6/9/4B4/4A4/3AK1R2 w - - 0 40"),
]


class Engine:
    def __init__(self, cmd):
        self.p = subprocess.Popen([cmd], stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                  stderr=subprocess.DEVNULL, text=True, bufsize=1)
        self.send("uci")
        self.wait("uciok")
        self.send("setoption name Threads value 1")
        self.send("setoption name Hash value 16")

    def send(self, s):
        self.p.stdin.write(s + "\n")
        self.p.stdin.flush()

    def wait(self, token):
        lines = []
        while True:
            line = self.p.stdout.readline()
            if not line:
                raise RuntimeError("engine exited")
            lines.append(line)
            if line.split()[:1] == [token]:
                return lines

    def search(self, position, movetime):
        self.send("ucinewgame")
        self.send("position " + position)
        self.send("isready")
        self.wait("readyok")
        self.send(f"go movetime {movetime}")
        nodes = depth = ms = None
        for line in self.wait("bestmove"):
            m = re.search(r"\bdepth (\d+)", line)
            n = re.search(r"\bnodes (\d+)", line)
            t = re.search(r"\btime (\d+)", line)
            if m and n and t and " pv " in line and "bound" not in line:
                depth, nodes, ms = int(m.group(1)), int(n.group(1)), int(t.group(1))
        return nodes, depth, ms

    def quit(self):
        self.send("quit")
        self.p.wait(timeout=10)


def main():
    chariot, other = sys.argv[1], sys.argv[2]
    movetime = int(sys.argv[3]) if len(sys.argv) > 3 else 3000
    runs = int(sys.argv[4]) if len(sys.argv) > 4 else 1
    a, b = Engine(chariot), Engine(other)
    for run in range(runs):
        ratios = []
        for name, position in POSITIONS:
            na, da, ta = a.search(position, movetime)
            nb, db, tb = b.search(position, movetime)
            ra, rb = na * 1000 / max(ta, 1), nb * 1000 / max(tb, 1)
            ratios.append(ra / rb)
            print(f"run {run + 1} {name:10} chariot {ra:10.0f} nps depth {da:3}   "
                  f"other {rb:10.0f} nps depth {db:3}   ratio {ra / rb:.3f}")
        gm = math.exp(sum(map(math.log, ratios)) / len(ratios))
        print(f"run {run + 1} geometric mean {gm:.3f}, least {min(ratios):.3f}")
    a.quit()
    b.quit()


if __name__ == "__main__":
    main()
