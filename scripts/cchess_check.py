#!/usr/bin/env python3
"""Cross-checks `chariot analyse` against the independent `cchess` Python package
(github.com/walker8088/cchess; its PGN reader reads Chinese moves, comments and variations).

For each game file it compares the main line cchess reads from the file with the one Chariot
reads, as cchess reads it back from the annotated PGN that `chariot analyse --depth 1
--notation chinese` writes (tags, `[%eval]` comments and NAGs included). cchess 1.26.1 plays a
variation's moves onto its main line (it replays them from the position after the move they
replace), so the variations are taken out of the annotated PGN first; the script also says
whether cchess's reading of the full file differs, which it does wherever a variation is.
Pawns in tandem on two files are written the WXF way in Chinese (`前五进一`, the file's number
in the place of 兵), which cchess does not read: such a game shows as DIFFERENT although both
read the file alike (compare with `--notation iccs`).

    PYTHONPATH=path/to/cchess/src python3 scripts/cchess_check.py target/release/chariot FILE...

Prints one line per file and exits 1 if any differs or Chariot refuses one (a file with a
move that is not legal, which cchess skips and Chariot reports).
"""
import re
import subprocess
import sys
import tempfile

import cchess


def main_line(path):
    """The start FEN (board and side) and ICCS moves of the main line as cchess reads it."""
    game = cchess.Game.read_from(path)
    lines = game.dump_iccs_moves()
    moves = [m.lower() for m in lines[0]] if lines else []
    return " ".join(game.init_board.to_fen().split()[:2]), moves


class Refused(Exception):
    """Chariot would not read the file (its error line)."""


def chariot_line(chariot, path):
    """Chariot's reading of the file, as cchess reads the annotated PGN it writes: without
    the variations, and whole."""
    with tempfile.TemporaryDirectory() as tmp:
        full, plain = f"{tmp}/full.pgn", f"{tmp}/plain.pgn"
        run = subprocess.run(
            [chariot, "analyse", "--depth", "1", "--quiet", "--notation", "chinese", "--out", full, path],
            stdout=subprocess.DEVNULL,
            stderr=subprocess.PIPE,
            text=True,
        )
        if run.returncode != 0:
            raise Refused(run.stderr.splitlines()[0] if run.stderr else f"exit {run.returncode}")
        with open(full, encoding="utf-8") as f:
            text = f.read()
        with open(plain, "w", encoding="utf-8") as f:
            f.write(re.sub(r"\([^()]*\)", "", text))
        return main_line(plain), main_line(full)


def main():
    chariot, files = sys.argv[1], sys.argv[2:]
    bad = 0
    for path in files:
        expected = main_line(path)
        try:
            got, whole = chariot_line(chariot, path)
        except Refused as e:
            # cchess skips a move that is not legal and reads on; Chariot names it and stops.
            bad += 1
            print(f"REFUSED\t{path}\tcchess reads {len(expected[1])} moves; {e}")
            continue
        same = expected == got
        bad += not same
        note = "" if whole == expected else " (cchess misreads the variations of the full file)"
        print(f"{'same' if same else 'DIFFERENT'}\t{path}\t{len(expected[1])} moves\t{expected[0]}{note}")
        if not same:
            print(f"  cchess:  {expected}\n  chariot: {got}")
    sys.exit(1 if bad else 0)


main()
