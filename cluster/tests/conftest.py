"""A real local Ray cluster for the tests: a head node with no CPUs (it schedules, it does
not work) and two worker nodes of one CPU each, all on this machine, made with
`ray.cluster_utils.Cluster` (each node its own raylet and object store, as `ray start` makes
them)."""

import os
import subprocess
import sys

import pytest

ROOT = os.path.abspath(os.path.join(os.path.dirname(__file__), "..", ".."))


def chariot_binary():
    path = os.environ.get("CHARIOT_BIN", os.path.join(ROOT, "target", "release", "chariot"))
    if not os.path.isfile(path):
        pytest.fail(f"no chariot binary at {path} (build it: cargo build --release, or set CHARIOT_BIN)")
    return path


@pytest.fixture(scope="session")
def chariot():
    return chariot_binary()


@pytest.fixture(scope="session")
def cluster():
    from ray.cluster_utils import Cluster

    c = Cluster(
        initialize_head=True,
        head_node_args={"num_cpus": 0, "object_store_memory": 80 * 1024 * 1024, "include_dashboard": False},
    )
    workers = [c.add_node(num_cpus=1, object_store_memory=80 * 1024 * 1024) for _ in range(2)]
    c.wait_for_nodes()
    c.workers = workers
    yield c
    c.shutdown()


def cli(args, timeout=300):
    """Runs `chariot-cluster` as its own driver process, as a user would."""
    cmd = [sys.executable, "-m", "chariot_cluster.cli", *args]
    return subprocess.run(cmd, capture_output=True, text=True, timeout=timeout, stdin=subprocess.DEVNULL)
