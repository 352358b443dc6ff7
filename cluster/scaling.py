"""Measures `chariot-cluster datagen` on a local Ray cluster of 1 and then 2 one-CPU worker
nodes (a head node with no CPUs schedules): the same shards, seeds and budget each time.
Usage: python scaling.py CHARIOT [SHARDS] [GAMES] [NODES]"""

import re
import subprocess
import sys
import tempfile
import time

from ray.cluster_utils import Cluster


def run(chariot, workers, shards, games, nodes):
    c = Cluster(initialize_head=True, head_node_args={"num_cpus": 0, "object_store_memory": 80 << 20, "include_dashboard": False})
    for _ in range(workers):
        c.add_node(num_cpus=1, object_store_memory=80 << 20)
    c.wait_for_nodes()
    with tempfile.TemporaryDirectory() as d:
        t = time.monotonic()
        r = subprocess.run(
            [sys.executable, "-m", "chariot_cluster.cli", "datagen", "--address", c.address, "--chariot", chariot,
             "--out", f"{d}/o.bin", "--work-dir", f"{d}/w", "--shards", str(shards), "--games", str(games),
             "--seed", "1", "--nodes", str(nodes)],
            capture_output=True, text=True,
        )
        wall = time.monotonic() - t
    c.shutdown()
    m = re.search(r"(\d+) positions, .*?(\d+) new positions in ([\d.]+) s \((\d+) positions/s\)", r.stdout)
    if r.returncode != 0 or not m:
        raise SystemExit(r.stdout + r.stderr)
    print(f"{workers} worker node(s): {m.group(1)} positions, {m.group(3)} s in the driver's loop, {m.group(4)} positions/s; {wall:.1f} s with the driver's start", flush=True)


if __name__ == "__main__":
    chariot = sys.argv[1]
    shards, games, nodes = (int(x) for x in (sys.argv[2:5] + ["8", "80", "5000"][len(sys.argv[2:5]):]))
    for w in (1, 2):
        run(chariot, w, shards, games, nodes)
