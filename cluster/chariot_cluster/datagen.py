"""`chariot-cluster datagen`: N shards, each one `chariot datagen` with its own seed and share
of the games (and positions), as Ray tasks; each shard checked (`chariot datagen --check`:
every chunk's checksum, the position count, a checksum of the whole file, and a SHA-256 of the
bytes that travelled) on the worker and again on the driver, recorded in the manifest, and
the shards joined in shard order into one file that `chariot train` reads."""

import json
import os
import re
import shutil
import subprocess
import time

import ray

from .common import ClusterError, Manifest, Ticker, atomic_write, file_sha256, fmt_secs, run_local, scratch_dir, sha256, spawn

PROGRESS = re.compile(r"datagen: (\d+) games (\d+) positions written")


@ray.remote(num_cpus=0)
class Progress:
    """Positions and games each running shard has written so far (set, not added: a retried
    shard starts again from nothing)."""

    def __init__(self):
        self.shards = {}

    def update(self, shard, games, positions):
        self.shards[shard] = (games, positions)

    def finish(self, shard):
        self.shards.pop(shard, None)

    def get(self):
        return dict(self.shards)


def shard_plan(shards, games, positions, seed):
    """Shard k plays seed + k, games // shards (one more for the first games % shards), and
    the same split of --positions."""

    def share(total, k):
        if total is None:
            return None
        return total // shards + (1 if k < total % shards else 0)

    return [{"shard": k, "seed": seed + k, "games": share(games, k), "positions": share(positions, k)} for k in range(shards)]


def shard_args(plan, threads, extra):
    args = ["--seed", str(plan["seed"]), "--threads", str(threads)]
    if plan["games"] is not None:
        args += ["--games", str(plan["games"])]
    if plan["positions"] is not None:
        args += ["--positions", str(plan["positions"])]
    return args + list(extra)


def run_shard(chariot, shard, args, scratch, progress):
    """One attempt at one shard, on a worker: runs `chariot datagen` into a fresh folder,
    checks the file and returns its bytes with the check."""
    node, d = scratch_dir(scratch, f"shard-{shard}")
    out = os.path.join(d, "shard.bin")
    cmd = [chariot, "datagen", "--out", out, "--progress-secs", "1", *args]
    _tell(progress, "update", shard, 0, 0)
    try:
        p = spawn(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
    except OSError as e:
        raise ClusterError(f"shard {shard} on node {node}: cannot run {chariot}: {e}")
    tail = []
    for line in p.stderr:
        tail = (tail + [line.rstrip()])[-5:]
        m = PROGRESS.search(line)
        if m:
            _tell(progress, "update", shard, int(m.group(1)), int(m.group(2)))
    if p.wait() != 0:
        raise ClusterError(f"shard {shard} on node {node}: chariot datagen failed: {' | '.join(tail)}")
    check = subprocess.run([chariot, "datagen", "--check", out], capture_output=True, text=True)
    if check.returncode != 0:
        raise ClusterError(f"shard {shard} on node {node}: its file does not check: {check.stderr.strip()}")
    with open(out, "rb") as f:
        data = f.read()
    shutil.rmtree(d, ignore_errors=True)
    return {"shard": shard, "node": node, "check": json.loads(check.stdout), "sha256": sha256(data), "data": data}


def _tell(actor, method, *args):
    if actor is not None:
        try:
            getattr(actor, method).remote(*args)
        except Exception:
            pass  # progress is for people; a lost actor costs only the display


def accept(result, manifest, chariot, plan):
    """On the driver: checks a shard's bytes against what the worker reported, writes it to
    the work folder, checks it again there, and records it in the manifest."""
    k = result["shard"]
    data = result["data"]
    if sha256(data) != result["sha256"]:
        raise ClusterError(f"shard {k}: the bytes that arrived do not match the worker's SHA-256")
    path = os.path.join(manifest.work_dir, "shards", f"shard-{k}.bin")
    atomic_write(path, data)
    check = json.loads(run_local([chariot, "datagen", "--check", path]))
    w = result["check"]
    for key in ("games", "positions", "bytes", "fnv1a"):
        if check[key] != w[key]:
            raise ClusterError(f"shard {k}: {key} {check[key]} here, {w[key]} on the worker")
    if plan["games"] is not None and plan["positions"] is None and check["games"] != plan["games"]:
        raise ClusterError(f"shard {k}: {check['games']} games, {plan['games']} asked for")
    manifest.finish(
        str(k),
        {
            "file": os.path.relpath(path, manifest.work_dir),
            "games": check["games"],
            "positions": check["positions"],
            "bytes": check["bytes"],
            "fnv1a": check["fnv1a"],
            "sha256": result["sha256"],
            "node": result["node"],
        },
    )


def still_good(manifest, key, chariot):
    """A shard the manifest lists counts only if its file is still there, byte for byte."""
    e = manifest.done[key]
    path = os.path.join(manifest.work_dir, e["file"])
    return os.path.exists(path) and file_sha256(path) == e["sha256"]


def join(manifest, shards, chariot, out):
    """Concatenates the shards in shard order (a data file is only chunks) and checks that the
    joined file holds every shard's positions exactly once."""
    tmp = out + ".joining"
    with open(tmp, "wb") as f:
        for k in range(shards):
            with open(os.path.join(manifest.work_dir, manifest.done[str(k)]["file"]), "rb") as s:
                shutil.copyfileobj(s, f)
        f.flush()
        os.fsync(f.fileno())
    check = json.loads(run_local([chariot, "datagen", "--check", tmp]))
    want = sum(manifest.done[str(k)]["positions"] for k in range(shards))
    if check["positions"] != want:
        os.unlink(tmp)
        raise ClusterError(f"the joined file holds {check['positions']} positions, the shards {want}")
    os.replace(tmp, out)
    return check


def run(args, extra):
    if args.shards < 1:
        raise ClusterError("--shards must be at least 1")
    if args.games is None and args.positions is None:
        raise ClusterError("give --games or --positions (a cluster run needs an end)")
    if args.threads < 1:
        raise ClusterError("--threads must be at least 1")
    work = args.work_dir or (args.out + ".work")
    seed = args.seed
    manifest_path = os.path.join(work, "manifest.json")
    if seed is None and os.path.exists(manifest_path):
        with open(manifest_path) as f:
            seed = json.load(f).get("params", {}).get("seed")
    if seed is None:
        seed = int(time.time()) % 1_000_000_007
    plans = shard_plan(args.shards, args.games, args.positions, seed)
    params = {
        "shards": args.shards,
        "games": args.games,
        "positions": args.positions,
        "seed": seed,
        "threads": args.threads,
        "datagen_args": list(extra),
    }
    manifest = Manifest(work, "datagen", params)
    for key in list(manifest.done):
        if not still_good(manifest, key, args.chariot):
            print(f"chariot-cluster: shard {key}: its file is missing or changed; it is played again", flush=True)
            manifest.drop(key)
    todo = [p for p in plans if str(p["shard"]) not in manifest.done]
    print(
        f"chariot-cluster datagen: {args.shards} shards, seed {seed} (shard k plays seed {seed}+k), "
        f"{len(plans) - len(todo)} already done in {work}, {len(todo)} to run",
        flush=True,
    )
    ray.init(address=args.address, log_to_driver=False, logging_level="WARNING")
    here = ray.get_runtime_context().get_node_id()
    progress = Progress.options(
        scheduling_strategy=ray.util.scheduling_strategies.NodeAffinitySchedulingStrategy(here, soft=True)
    ).remote()
    task = ray.remote(run_shard).options(num_cpus=args.threads, max_retries=args.max_retries, retry_exceptions=False)
    pending = {}
    for p in todo:
        ref = task.remote(args.chariot, p["shard"], shard_args(p, args.threads, extra), args.scratch, progress)
        pending[ref] = p
    tick = Ticker(args.progress_secs)
    start = time.monotonic()
    base_positions = sum(e["positions"] for e in manifest.done.values())
    base_games = sum(e["games"] for e in manifest.done.values())
    target_pos = args.positions
    target_games = args.games
    try:
        while pending:
            ready, _ = ray.wait(list(pending), num_returns=1, timeout=1.0)
            for ref in ready:
                p = pending.pop(ref)
                try:
                    result = ray.get(ref)
                except ray.exceptions.RayError as e:
                    raise ClusterError(f"shard {p['shard']} failed after its retries: {_short(e)}")
                accept(result, manifest, args.chariot, p)
                _tell(progress, "finish", p["shard"])
                e = manifest.done[str(p["shard"])]
                print(
                    f"chariot-cluster: shard {p['shard']} done on node {e['node'][:8]}: "
                    f"{e['games']} games, {e['positions']} positions, checked (fnv1a {e['fnv1a']})",
                    flush=True,
                )
            try:
                running = ray.get(progress.get.remote(), timeout=5)
            except Exception:
                running = {}
            done_pos = sum(e["positions"] for e in manifest.done.values())
            done_games = sum(e["games"] for e in manifest.done.values())
            pos = done_pos + sum(v[1] for v in running.values())
            games = done_games + sum(v[0] for v in running.values())
            el = time.monotonic() - start
            rate = (pos - base_positions) / el if el > 0 else 0.0
            grate = (games - base_games) / el if el > 0 else 0.0
            eta = None
            if target_pos is not None and rate > 0:
                eta = max(0, target_pos - pos) / rate
            if target_games is not None and grate > 0:
                g_eta = max(0, target_games - games) / grate
                eta = g_eta if eta is None else min(eta, g_eta)
            tick.show(
                f"datagen: {len(manifest.done)}/{args.shards} shards, {games} games, {pos} positions written, "
                f"{rate:.0f} positions/s over the cluster, elapsed {fmt_secs(el)}, ETA {fmt_secs(eta)}",
                force=not pending,
            )
    except KeyboardInterrupt:
        for ref in pending:
            ray.cancel(ref, force=True)
        print(
            f"\nchariot-cluster: interrupted; {len(manifest.done)}/{args.shards} shards are done and recorded in "
            f"{manifest.path}; run the same command again to resume",
            flush=True,
        )
        return 130
    except BaseException:
        for ref in pending:
            ray.cancel(ref, force=True)
        raise
    check = join(manifest, args.shards, args.chariot, args.out)
    el = time.monotonic() - start
    new_pos = check["positions"] - base_positions
    print(
        f"chariot-cluster datagen: joined {args.shards} shards into {args.out}: {check['games']} games, "
        f"{check['positions']} positions, {check['bytes']} bytes (fnv1a {check['fnv1a']}); "
        f"{new_pos} new positions in {el:.1f} s ({new_pos / max(el, 1e-9):.0f} positions/s)",
        flush=True,
    )
    return 0


def _short(e):
    text = str(e).strip().splitlines()
    return " ".join(t.strip() for t in text[-3:]) if text else type(e).__name__
