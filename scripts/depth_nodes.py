#!/usr/bin/env python3
"""Nodes at each completed depth, two (or more) UCI engines side by side.

Usage: depth_nodes.py DEPTHS ENGINE [ENGINE ...]
  DEPTHS: one maximum depth for all four positions (e.g. 16) or four, comma-separated
  (start,opening,middlegame,endgame), e.g. 18,18,20,22.
  ENGINE: a path, or PATH:Option=Value;Option=Value to set UCI options (e.g. `Use NNUE=false`).

On each of the four positions of docs/results.md each engine searches `go depth D` after
`ucinewgame`, one thread, Hash 64; the nodes of the last exact `info depth N ... nodes M` line of
each depth are recorded. Node counts at a fixed depth do not depend on the machine's load.
Prints per position a table of nodes per depth and the effective branching factor
(nodes(d) / nodes(d-1)), then for each engine the geometric mean EBF over the last four depths.
An engine built with `--features stats` prints its `info string stats` lines after each search:
they are shown above the position's table."""
import math, re, subprocess, sys

# The positions and the engine's send/wait/quit are nps_vs.py's (beside this script).
from nps_vs import POSITIONS, Engine as UciEngine


class Engine(UciEngine):
    def __init__(self, spec):
        cmd, _, opts = spec.partition(":")
        self.name = spec
        self.p = subprocess.Popen([cmd], stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                  stderr=subprocess.DEVNULL, text=True, bufsize=1)
        self.send("uci")
        self.wait("uciok")
        self.send("setoption name Threads value 1")
        self.send("setoption name Hash value 64")
        for o in filter(None, opts.split(";")):
            k, _, v = o.partition("=")
            self.send(f"setoption name {k} value {v}")

    def search(self, position, depth):
        self.send("ucinewgame")
        self.send("position " + position)
        self.send("isready")
        self.wait("readyok")
        self.send(f"go depth {depth}")
        nodes = {}
        self.stats = []
        for line in self.wait("bestmove"):
            if line.startswith("info string stats "):
                self.stats.append(line[len("info string stats "):].rstrip())
            d = re.search(r"\bdepth (\d+)", line)
            n = re.search(r"\bnodes (\d+)", line)
            if d and n and " pv " in line and "bound" not in line:
                nodes[int(d.group(1))] = int(n.group(1))
        return nodes


def main():
    depths = [int(x) for x in sys.argv[1].split(",")]
    if len(depths) == 1:
        depths *= len(POSITIONS)
    engines = [Engine(s) for s in sys.argv[2:]]
    ebf_all = [[] for _ in engines]
    totals = [0 for _ in engines]
    for (name, position), maxd in zip(POSITIONS, depths):
        results = [e.search(position, maxd) for e in engines]
        for i, r in enumerate(results):
            totals[i] += r.get(maxd, 0)
        print(f"\n{name} ({position})")
        for i, e in enumerate(engines):
            for line in e.stats:
                print(f"  engine {i + 1} stats: {line}")
        print("depth " + "".join(f"| {'nodes':>12} {'EBF':>5} " for _ in engines))
        for d in range(1, maxd + 1):
            row = f"{d:5} "
            for i, r in enumerate(results):
                n, p = r.get(d), r.get(d - 1)
                ebf = f"{n / p:5.2f}" if n and p else "    -"
                row += f"| {n if n else '-':>12} {ebf} "
            print(row)
        for i, r in enumerate(results):
            ds = [d for d in range(maxd - 3, maxd + 1) if r.get(d) and r.get(d - 1)]
            if ds:
                g = math.exp(sum(math.log(r[d] / r[d - 1]) for d in ds) / len(ds))
                ebf_all[i].append(g)
                print(f"  engine {i + 1} ({engines[i].name}): EBF over depths {ds[0]}-{ds[-1]} {g:.2f}")
    for e, t in zip(engines, totals):
        print(f"{e.name}: nodes at the last depth, four positions together: {t}")
    for e, g in zip(engines, ebf_all):
        if g:
            print(f"{e.name}: EBF (geometric mean of the positions' last four depths) "
                  f"{math.exp(sum(map(math.log, g)) / len(g)):.2f}")
    for e in engines:
        e.quit()


if __name__ == "__main__":
    main()
