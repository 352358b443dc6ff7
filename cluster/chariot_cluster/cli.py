"""The command line: `chariot-cluster datagen|match --address RAY_ADDRESS --chariot PATH …`.

Options not listed here are handed to `chariot datagen` / `chariot match` unchanged (for
example `--nodes 300 --random-plies 2-8` or `--max-plies 200 --margin 200`), so they keep the
names those commands give them; paths among them must exist on every node."""

import argparse
import os
import sys

from .common import ClusterError


def common(p):
    p.add_argument("--address", required=True, help="the Ray cluster (e.g. ray://host:10001, host:6379 or auto)")
    p.add_argument("--chariot", required=True, help="the chariot binary: the same path on every node")
    p.add_argument("--work-dir", help="shard files and manifest.json (resume by running the same command again)")
    p.add_argument("--max-retries", type=int, default=3, help="retries of a task whose worker died (default 3)")
    p.add_argument("--scratch", help="folder on each node for a task's files (default: the system's temp folder)")
    p.add_argument("--progress-secs", type=float, default=5.0, help="seconds between progress lines off a terminal")


def parser():
    top = argparse.ArgumentParser(prog="chariot-cluster", description=__doc__)
    sub = top.add_subparsers(dest="command", required=True)
    d = sub.add_parser("datagen", help="self-play data in shards over the cluster, joined into one file")
    common(d)
    d.add_argument("--out", required=True, help="the joined data file")
    d.add_argument("--shards", type=int, required=True, help="how many `chariot datagen` runs")
    d.add_argument("--games", type=int, help="games in all (split over the shards)")
    d.add_argument("--positions", type=int, help="positions in all (split over the shards)")
    d.add_argument("--seed", type=int, help="shard k plays seed SEED+k (default: from the clock, printed)")
    d.add_argument("--threads", type=int, default=1, help="threads (and Ray CPUs) per shard; 1 keeps a shard's file reproducible")
    m = sub.add_parser("match", help="a match over the cluster, split by opening pairs")
    common(m)
    m.add_argument("--engine", nargs="+", action="append", metavar="KEY=VALUE", help="as chariot match (give two)")
    m.add_argument("--tc", default="movetime=100")
    m.add_argument("--openings", help="openings file (read here and sent to the tasks)")
    m.add_argument("--rounds", type=int, default=1)
    m.add_argument("--seed", type=int, help="the schedule's seed (default: from the clock, printed)")
    m.add_argument("--sprt", nargs="+", metavar="KEY=VALUE", help="elo0=X elo1=Y [alpha=A] [beta=B]")
    m.add_argument("--pgn", help="one PGN of every counted game, in game order")
    m.add_argument("--result-json", help="the joined result (chariot match --combine's JSON)")
    m.add_argument("--concurrency", type=int, default=1, help="games at once within a task (and its Ray CPUs)")
    m.add_argument("--pairs-per-task", type=int, default=1, help="opening pairs per task (default 1)")
    return top


def main(argv=None):
    args, extra = parser().parse_known_args(argv)
    try:
        if not os.path.isfile(args.chariot):
            raise ClusterError(f"--chariot {args.chariot}: no such file here (it must be at this path on every node)")
        args.chariot = os.path.abspath(args.chariot)
        if args.command == "datagen":
            from . import datagen

            return datagen.run(args, extra)
        if not args.work_dir:
            raise ClusterError("match needs --work-dir DIR (its results and manifest)")
        from . import match

        return match.run(args, extra)
    except ClusterError as e:
        print(f"chariot-cluster: error: {e}", file=sys.stderr)
        return 1


if __name__ == "__main__":
    sys.exit(main())
