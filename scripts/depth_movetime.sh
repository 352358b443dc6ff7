#!/bin/bash
# Usage: scripts/depth_movetime.sh ENGINE... (each engine on the four positions of docs/results.md)
# go movetime 3000 after ucinewgame, one thread, Hash 64: the last completed depth.
for pos in "startpos" "fen r1bakab1r/9/1cn3nc1/p1p1p1p1p/9/9/P1P1P1P1P/1CN1C1N2/9/R1BAKAB1R w - - 4 3" "fen 2bakab2/9/2n1c1n2/p1p3p1p/4p4/2P6/P3P1P1P/2N1C1N2/9/2BAKAB2 w - - 0 12" "fen 3k5/4a4/4b4/9/9/2n6/9/4B4/4A4/3AK1R2 w - - 0 40"; do
  for e in "$@"; do
    printf 'uci\nsetoption name Threads value 1\nsetoption name Hash value 64\nucinewgame\nisready\nposition %s\ngo movetime 3000\n' "$pos" | (cat; sleep 3.6; echo quit) | $e 2>&1 | grep "^info depth" | grep -v -e lowerbound -e upperbound | tail -1 | awk -v e=$(basename $e) -v p="${pos:0:20}" '{for(i=1;i<=NF;i++){if($i=="depth")d=$(i+1); if($i=="nodes")n=$(i+1)}; print p, e, "depth", d, "nodes", n}'
  done
done
