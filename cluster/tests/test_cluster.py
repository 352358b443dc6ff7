"""The cluster runner on a real local Ray cluster (see conftest.py): its joined data equals
the same seeds run by `chariot datagen` alone; its match equals the same schedule played by
one `chariot match`; a worker node killed mid-shard, or the driver killed mid-run, costs
nothing and counts nothing twice."""

import json
import os
import signal
import subprocess
import sys
import time

from conftest import ROOT, cli

NODES = "300"
OPENINGS = os.path.join(ROOT, "tests", "data", "openings.txt")


def standalone(chariot, tmp, seed, shards, games):
    """The files of shard seeds seed..seed+shards-1 made by `chariot datagen` alone, joined
    with `cat` (a data file is only chunks), as bytes."""
    out = b""
    for k in range(shards):
        share = games // shards + (1 if k < games % shards else 0)
        path = os.path.join(tmp, f"alone-{seed}-{k}.bin")
        subprocess.run(
            [chariot, "datagen", "--out", path, "--seed", str(seed + k), "--games", str(share), "--threads", "1", "--nodes", NODES],
            check=True,
            capture_output=True,
        )
        with open(path, "rb") as f:
            out += f.read()
    return out


def positions(chariot, path):
    return json.loads(subprocess.run([chariot, "datagen", "--check", path], check=True, capture_output=True, text=True).stdout)


def datagen_args(cluster, chariot, out, work, seed, shards, games, scratch=None):
    a = ["datagen", "--address", cluster.address, "--chariot", chariot, "--out", out, "--work-dir", work]
    a += ["--shards", str(shards), "--games", str(games), "--seed", str(seed), "--nodes", NODES, "--progress-secs", "2"]
    return a + (["--scratch", scratch] if scratch else [])


def manifest_shards(work):
    with open(os.path.join(work, "manifest.json")) as f:
        return json.load(f)["done"]


def test_distributed_datagen_equals_the_same_seeds_alone(cluster, chariot, tmp_path):
    out, work = str(tmp_path / "joined.bin"), str(tmp_path / "work")
    r = cli(datagen_args(cluster, chariot, out, work, 100, 4, 240))
    assert r.returncode == 0, r.stdout + r.stderr
    with open(out, "rb") as f:
        joined = f.read()
    alone = standalone(chariot, str(tmp_path), 100, 4, 240)
    assert joined == alone, "the joined file differs from the shards' seeds run alone"
    check = positions(chariot, out)
    assert check["games"] == 240
    done = manifest_shards(work)
    assert sorted(done) == ["0", "1", "2", "3"]
    assert sum(e["positions"] for e in done.values()) == check["positions"]
    # The work spread over both worker nodes.
    assert len({e["node"] for e in done.values()}) == 2, done
    assert "positions/s over the cluster" in r.stderr and "ETA" in r.stderr, r.stderr
    # Run again: everything is in the manifest, nothing is played or counted again.
    r = cli(datagen_args(cluster, chariot, out, work, 100, 4, 240))
    assert r.returncode == 0, r.stdout + r.stderr
    assert "4 already done" in r.stdout and "shard 0 done" not in r.stdout, r.stdout
    with open(out, "rb") as f:
        assert f.read() == alone
    # Another run's options in the same work folder are refused.
    r = cli(datagen_args(cluster, chariot, out, work, 101, 4, 240))
    assert r.returncode == 1 and "belongs to another run" in r.stderr, r.stderr


def match_args(cluster, chariot, work, extra=()):
    a = ["match", "--address", cluster.address, "--chariot", chariot, "--work-dir", work]
    a += ["--engine", f"cmd={chariot}", "name=a", "--engine", f"cmd={chariot}", "name=b"]
    a += ["--tc", f"nodes={NODES}", "--openings", OPENINGS, "--seed", "5", "--max-plies", "80"]
    return a + list(extra)


def test_distributed_match_equals_one_chariot_match(cluster, chariot, tmp_path):
    # The first 8 pairs of the shipped openings' schedule, one task per pair.
    few = tmp_path / "openings.txt"
    lines = [l for l in open(OPENINGS, encoding="utf-8") if l.strip() and not l.startswith("#")][:8]
    few.write_text("".join(lines))
    work, res, pgn = str(tmp_path / "work"), str(tmp_path / "cluster.json"), str(tmp_path / "all.pgn")
    args = match_args(cluster, chariot, work, ["--result-json", res, "--pgn", pgn])
    args[args.index(OPENINGS)] = str(few)
    r = cli(args)
    assert r.returncode == 0, r.stdout + r.stderr
    one = str(tmp_path / "one.json")
    subprocess.run(
        [chariot, "match", "--engine", f"cmd={chariot}", "name=a", "--engine", f"cmd={chariot}", "name=b",
         "--tc", f"nodes={NODES}", "--openings", str(few), "--seed", "5", "--max-plies", "80", "--result-json", one],
        check=True,
        capture_output=True,
    )
    c, o = json.load(open(res)), json.load(open(one))
    for key in ("wins", "draws", "losses", "penta", "elo", "pairs", "complete"):
        assert c[key] == o[key], key
    assert c["games"] == o["games"]
    assert len(c["games"]) == 16
    assert "Results of a vs b (16 games" in r.stdout, r.stdout
    text = open(pgn, encoding="utf-8").read()
    assert text.count("[Event ") == 16
    assert len(set(json.load(open(os.path.join(work, "manifest.json")))["done"])) == 8


def test_sprt_decision_cancels_the_remaining_tasks(cluster, chariot, tmp_path):
    broken = os.path.join(os.path.dirname(chariot), "broken-engine")
    work = str(tmp_path / "work")
    args = ["match", "--address", cluster.address, "--chariot", chariot, "--work-dir", work,
            "--engine", f"cmd={broken} good", "name=good", "--engine", f"cmd={broken} illegal", "name=bad",
            "--tc", "depth=1", "--rounds", "400", "--sprt", "elo0=0", "elo1=10", "--pairs-per-task", "2"]
    r = cli(args)
    assert r.returncode == 0, r.stdout + r.stderr
    assert "H1 accepted" in r.stdout + r.stderr, r.stdout + r.stderr
    done = json.load(open(os.path.join(work, "manifest.json")))["done"]
    assert 0 < len(done) < 200, len(done)
    assert "tasks cancelled" in r.stdout


def wait_for(cond, timeout, what):
    end = time.monotonic() + timeout
    while time.monotonic() < end:
        if cond():
            return
        time.sleep(0.1)
    raise AssertionError(f"timed out waiting for {what}")


# Games of the kill test: enough that a shard (a sixth of them) still runs when the victim
# node is removed, also on a quiet machine (30 games a shard finished before the kill there).
KILL_GAMES = 600


def test_a_killed_worker_node_loses_no_shard_and_counts_none_twice(cluster, chariot, tmp_path):
    victim = cluster.add_node(num_cpus=1, object_store_memory=80 * 1024 * 1024)
    cluster.wait_for_nodes()
    out, work, scratch = str(tmp_path / "joined.bin"), str(tmp_path / "work"), str(tmp_path / "scratch")
    p = subprocess.Popen(
        [sys.executable, "-m", "chariot_cluster.cli", *datagen_args(cluster, chariot, out, work, 300, 6, KILL_GAMES, scratch)],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        stdin=subprocess.DEVNULL,
    )
    victim_dir = os.path.join(scratch, victim.node_id)

    def victim_is_writing():
        if not os.path.isdir(victim_dir):
            return False
        return any(
            os.path.exists(os.path.join(victim_dir, d, "shard.bin")) and os.path.getsize(os.path.join(victim_dir, d, "shard.bin")) > 0
            for d in os.listdir(victim_dir)
        )

    try:
        wait_for(victim_is_writing, 120, "a shard running on the victim node")
        cluster.remove_node(victim, allow_graceful=False)
        stdout, stderr = p.communicate(timeout=240)
    finally:
        if p.poll() is None:
            p.kill()
    assert p.returncode == 0, stdout + stderr
    # The killed attempt's half-written shard is left behind on the dead node; it was not used.
    cut = [d for d in os.listdir(victim_dir) if os.path.exists(os.path.join(victim_dir, d, "shard.bin"))]
    assert cut, "the victim's shard finished before the kill"
    done = manifest_shards(work)
    assert sorted(done, key=int) == [str(k) for k in range(6)]
    for k in range(6):
        assert stdout.count(f"shard {k} done") == 1, stdout
    with open(out, "rb") as f:
        assert f.read() == standalone(chariot, str(tmp_path), 300, 6, KILL_GAMES)


def test_a_killed_driver_resumes_from_its_manifest(cluster, chariot, tmp_path):
    out, work = str(tmp_path / "joined.bin"), str(tmp_path / "work")
    args = [sys.executable, "-m", "chariot_cluster.cli", *datagen_args(cluster, chariot, out, work, 500, 6, 180)]
    p = subprocess.Popen(args, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True, stdin=subprocess.DEVNULL)
    try:
        wait_for(lambda: os.path.exists(os.path.join(work, "manifest.json")) and len(manifest_shards(work)) >= 1, 120, "a finished shard")
        p.send_signal(signal.SIGKILL)
        p.wait(timeout=30)
    finally:
        if p.poll() is None:
            p.kill()
    before = manifest_shards(work)
    assert 1 <= len(before) < 6, before
    assert not os.path.exists(out)
    r = cli(datagen_args(cluster, chariot, out, work, 500, 6, 180))
    assert r.returncode == 0, r.stdout + r.stderr
    assert f"{len(before)} already done" in r.stdout, r.stdout
    for k in before:
        assert f"shard {k} done" not in r.stdout, r.stdout
    after = manifest_shards(work)
    assert sorted(after, key=int) == [str(k) for k in range(6)]
    for k, e in before.items():
        assert after[k] == e
    with open(out, "rb") as f:
        assert f.read() == standalone(chariot, str(tmp_path), 500, 6, 180)
