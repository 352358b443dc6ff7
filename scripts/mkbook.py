#!/usr/bin/env python3
"""Makes a balanced openings file for `chariot match --openings` and `chariot datagen --openings`.

Usage: mkbook.py ENGINE COUNT SEED [EXCLUDE] > book.txt

From the start position, each ply is drawn at random among the moves a MultiPV 8, depth-7
search scores within MARGIN centipawns of its best; the end position (6-10 plies) is kept when
a depth-9 search scores it within +-KEEP centipawns and no earlier opening has the same moves
(each side's in any order). With EXCLUDE, an openings file, its openings count as earlier
ones: the new book shares none with it."""
import subprocess, random, sys, re
eng, n, seed = sys.argv[1], int(sys.argv[2]), int(sys.argv[3])
exclude = sys.argv[4] if len(sys.argv) > 4 else None
MARGIN, KEEP = 35, 60
rng = random.Random(seed)
p = subprocess.Popen([eng], stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True, bufsize=1)
def send(s): p.stdin.write(s + "\n"); p.stdin.flush()
def search(moves, depth, multipv):
    send(f"setoption name MultiPV value {multipv}")
    send("position startpos" + (" moves " + " ".join(moves) if moves else ""))
    send(f"go depth {depth}")
    best = {}
    while True:
        l = p.stdout.readline()
        if l.startswith("bestmove"): return best
        m = re.search(r" depth (\d+) .*multipv (\d+) score (cp|mate) (-?\d+).* pv (\S+)", l)
        if m and int(m.group(1)) == depth:
            sc = int(m.group(4)) if m.group(3) == "cp" else (30000 if int(m.group(4)) > 0 else -30000)
            best[m.group(5)] = sc
send("uci"); send("setoption name Hash value 16"); send("isready")
while p.stdout.readline().strip() != "readyok": pass
def key(moves): return " ".join(sorted(moves[0::2])) + "|" + " ".join(sorted(moves[1::2]))
seen, out = set(), []
if exclude:
    for line in open(exclude):
        if line.startswith("startpos moves "): seen.add(key(line.split()[2:]))
while len(out) < n:
    moves = []
    plies = rng.choice([6, 7, 8, 8, 9, 10])
    ok = True
    for _ in range(plies):
        sc = search(moves, 7, 8)
        if not sc: ok = False; break
        top = max(sc.values())
        cands = [m for m, s in sc.items() if s >= top - MARGIN]
        moves.append(rng.choice(cands))
    if not ok: continue
    k = key(moves)
    if k in seen: continue
    sc = search(moves, 9, 1)
    if not sc or abs(list(sc.values())[0]) > KEEP: continue
    seen.add(k)
    out.append("startpos moves " + " ".join(moves))
    print(out[-1], flush=True)
send("quit")
