"""`chariot-cluster match`: the match's schedule (fixed by --seed, the openings and --rounds)
cut into tasks of --pairs-per-task opening pairs, each one `chariot match --pairs A..B
--result-json` on a worker; every finished task's result joined by `chariot match --combine`
(the same counting, Elo and SPRT code as one `chariot match`); the remaining tasks cancelled
as soon as the SPRT decides; one PGN of all counted games."""

import json
import os
import subprocess
import time

import ray

from .common import ClusterError, Manifest, Ticker, atomic_write, run_local, scratch_dir, sha256, spawn


class IncompleteResult(ClusterError):
    """A task's match did not finish every game of its pairs: the task is retried (its pairs
    played again whole), never counted in part."""


def count_openings(path):
    """Openings in a file, counted as `chariot match` counts them (a line that is neither
    blank nor a `#` comment is one opening; `chariot match` itself checks each)."""
    if path is None:
        return 1
    with open(path, encoding="utf-8") as f:
        n = sum(1 for line in f if line.strip() and not line.strip().startswith("#"))
    if n == 0:
        raise ClusterError(f"{path}: no openings")
    return n


def run_pairs(chariot, first, end, match_args, openings_text, scratch):
    """One attempt at pairs first..end on a worker: plays them with `chariot match` and
    returns its result file and PGN. A result that is not complete (a game cut off) fails the
    attempt: the pairs are played again, never counted in part."""
    node, d = scratch_dir(scratch, f"pairs-{first}-{end}")
    cmd = [chariot, "match", *match_args]
    if openings_text is not None:
        op = os.path.join(d, "openings.txt")
        with open(op, "w", encoding="utf-8") as f:
            f.write(openings_text)
        cmd += ["--openings", op]
    rj, pgn = os.path.join(d, "result.json"), os.path.join(d, "games.pgn")
    cmd += ["--pairs", f"{first}..{end}", "--result-json", rj, "--pgn", pgn]
    p = spawn(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    out, err = p.communicate()
    if p.returncode != 0:
        raise ClusterError(f"pairs {first}..{end} on node {node}: chariot match failed: {err.strip()[-500:]}")
    with open(rj) as f:
        text = f.read()
    r = json.loads(text)
    if not r["complete"]:
        raise IncompleteResult(f"pairs {first}..{end} on node {node}: the match did not finish every game")
    pgn_text = open(pgn, encoding="utf-8").read() if os.path.exists(pgn) else ""
    import shutil

    shutil.rmtree(d, ignore_errors=True)
    return {"first": first, "end": end, "node": node, "result": text, "pgn": pgn_text}


def combine(chariot, manifest, sprt):
    """`chariot match --combine` over every recorded task; returns (joined result, its text)."""
    files = [os.path.join(manifest.work_dir, e["result"]) for _, e in sorted(manifest.done.items(), key=lambda kv: int(kv[0]))]
    out = os.path.join(manifest.work_dir, "combined.json")
    cmd = [chariot, "match", "--combine", *files, "--result-json", out]
    if sprt:
        cmd += ["--sprt", *sprt]
    text = run_local(cmd)
    with open(out) as f:
        return json.load(f), text


def run(args, extra):
    if not args.engine or len(args.engine) != 2:
        raise ClusterError("give exactly two --engine")
    if args.pairs_per_task < 1:
        raise ClusterError("--pairs-per-task must be at least 1")
    if args.rounds < 1:
        raise ClusterError("--rounds must be at least 1")
    work = args.work_dir
    seed = args.seed
    mpath = os.path.join(work, "manifest.json")
    if seed is None and os.path.exists(mpath):
        with open(mpath) as f:
            seed = json.load(f).get("params", {}).get("seed")
    if seed is None:
        seed = int(time.time()) % 1_000_000_007
    openings_text = None
    if args.openings is not None:
        try:
            with open(args.openings, encoding="utf-8") as f:
                openings_text = f.read()
        except OSError as e:
            raise ClusterError(f"cannot read openings file {args.openings}: {e}")
    total = count_openings(args.openings) * args.rounds
    match_args = []
    for group in args.engine:
        match_args += ["--engine", *group]
    match_args += ["--tc", args.tc, "--rounds", str(args.rounds), "--seed", str(seed), "--concurrency", str(args.concurrency)]
    match_args += list(extra)
    params = {
        "match_args": match_args,
        "openings_sha256": sha256(openings_text.encode()) if openings_text is not None else None,
        "pairs_total": total,
        "pairs_per_task": args.pairs_per_task,
        "seed": seed,
    }
    manifest = Manifest(work, "match", params)
    chunks = [(a, min(a + args.pairs_per_task, total)) for a in range(0, total, args.pairs_per_task)]
    todo = [c for c in chunks if str(c[0]) not in manifest.done]
    print(
        f"chariot-cluster match: {total} pairs ({2 * total} games) in {len(chunks)} tasks, seed {seed}, "
        f"{len(chunks) - len(todo)} tasks already done in {work}",
        flush=True,
    )
    verdict = manifest.data.get("verdict")
    joined = None
    if manifest.done:
        joined, _ = combine(args.chariot, manifest, args.sprt)
        verdict = (joined.get("sprt") or {}).get("verdict")
    pending = {}
    if verdict in (None, "continue") and todo:
        ray.init(address=args.address, log_to_driver=False, logging_level="WARNING")
        task = ray.remote(run_pairs).options(num_cpus=args.concurrency, max_retries=args.max_retries, retry_exceptions=[IncompleteResult])
        for a, b in todo:
            pending[task.remote(args.chariot, a, b, match_args, openings_text, args.scratch)] = (a, b)
    tick = Ticker(args.progress_secs)
    start = time.monotonic()
    try:
        while pending:
            ready, _ = ray.wait(list(pending), num_returns=1, timeout=1.0)
            for ref in ready:
                a, b = pending.pop(ref)
                try:
                    r = ray.get(ref)
                except ray.exceptions.RayError as e:
                    raise ClusterError(f"pairs {a}..{b} failed after their retries: {str(e).strip().splitlines()[-1]}")
                rel = os.path.join("results", f"pairs-{a}-{b}.json")
                atomic_write(os.path.join(work, rel), r["result"])
                pgn_rel = os.path.join("pgn", f"pairs-{a}-{b}.pgn")
                atomic_write(os.path.join(work, pgn_rel), r["pgn"])
                manifest.finish(str(a), {"end": b, "result": rel, "pgn": pgn_rel, "node": r["node"]})
                joined, _ = combine(args.chariot, manifest, args.sprt)
                sp = joined.get("sprt")
                elo = joined.get("elo")
                tick.show(
                    f"match: {len(manifest.done)}/{len(chunks)} tasks, {joined['wins'] + joined['draws'] + joined['losses']} games, "
                    f"W/D/L {joined['wins']}/{joined['draws']}/{joined['losses']}, "
                    f"Elo {'n/a' if elo is None else f'{elo:+.1f}'}"
                    + (f", LLR {sp['llr']:.2f} [{sp['lower']:.2f}, {sp['upper']:.2f}]" if sp else "")
                    + f", {time.monotonic() - start:.0f} s",
                    force=not pending,
                )
                if sp and sp["verdict"] != "continue":
                    verdict = sp["verdict"]
                    for other in pending:
                        ray.cancel(other, force=True)
                    print(f"\nchariot-cluster: SPRT {verdict} accepted; {len(pending)} tasks cancelled", flush=True)
                    pending = {}
                    break
    except KeyboardInterrupt:
        for ref in pending:
            ray.cancel(ref, force=True)
        print(
            f"\nchariot-cluster: interrupted; {len(manifest.done)}/{len(chunks)} tasks are recorded in "
            f"{manifest.path}; run the same command again to resume",
            flush=True,
        )
        return 130
    except BaseException:
        for ref in pending:
            ray.cancel(ref, force=True)
        raise
    manifest.data["verdict"] = verdict
    manifest.save()
    if not manifest.done:
        raise ClusterError("no task finished")
    joined, text = combine(args.chariot, manifest, args.sprt)
    if args.result_json:
        atomic_write(args.result_json, json.dumps(joined, indent=1) + "\n")
    if args.pgn:
        parts = []
        for _, e in sorted(manifest.done.items(), key=lambda kv: int(kv[0])):
            with open(os.path.join(work, e["pgn"]), encoding="utf-8") as f:
                parts.append(f.read())
        atomic_write(args.pgn, "".join(parts))
    print(text, end="", flush=True)
    return 0
