"""What datagen and match share: the manifest of finished work, atomic writes, running the
binary on a node (dying with the Ray worker that started it), and calling it on the driver."""

import ctypes
import hashlib
import json
import os
import signal
import subprocess
import sys
import tempfile
import time

MANIFEST = "manifest.json"


class ClusterError(Exception):
    """A fault that stops the run with one clear message."""


def atomic_write(path, data):
    """Writes bytes or text to `path` through a temporary file, fsync and rename, so that a
    reader (or a resumed driver) sees the old file or the new one, never half of one."""
    if isinstance(data, str):
        data = data.encode()
    d = os.path.dirname(os.path.abspath(path))
    os.makedirs(d, exist_ok=True)
    fd, tmp = tempfile.mkstemp(dir=d, prefix=".tmp-")
    try:
        with os.fdopen(fd, "wb") as f:
            f.write(data)
            f.flush()
            os.fsync(f.fileno())
        os.replace(tmp, path)
    except BaseException:
        if os.path.exists(tmp):
            os.unlink(tmp)
        raise


def sha256(data):
    return hashlib.sha256(data).hexdigest()


def file_sha256(path):
    h = hashlib.sha256()
    with open(path, "rb") as f:
        for block in iter(lambda: f.read(1 << 20), b""):
            h.update(block)
    return h.hexdigest()


class Manifest:
    """`DIR/manifest.json`: the run's parameters and every finished unit of work. Written
    atomically after each unit, so a driver stopped by Ctrl-C or killed resumes from it."""

    def __init__(self, work_dir, kind, params):
        self.path = os.path.join(work_dir, MANIFEST)
        self.work_dir = work_dir
        os.makedirs(work_dir, exist_ok=True)
        if os.path.exists(self.path):
            try:
                with open(self.path) as f:
                    data = json.load(f)
            except (OSError, ValueError) as e:
                raise ClusterError(f"{self.path}: cannot read the manifest: {e}")
            if data.get("kind") != kind or data.get("params") != params:
                raise ClusterError(
                    f"{self.path} belongs to another run (its parameters differ); "
                    "use another --work-dir or the same options"
                )
            self.data = data
        else:
            self.data = {"kind": kind, "params": params, "done": {}}
            self.save()

    @property
    def done(self):
        return self.data["done"]

    def finish(self, key, entry):
        if key in self.done:
            raise ClusterError(f"unit {key} finished twice (a bug: it would be counted twice)")
        self.done[key] = entry
        self.save()

    def drop(self, key):
        self.done.pop(key, None)
        self.save()

    def save(self):
        atomic_write(self.path, json.dumps(self.data, indent=1, sort_keys=True) + "\n")


_libc = None


def _die_with_parent():
    """In the child before exec: SIGKILL it when the Ray worker that started it dies (a node
    killed, a task cancelled), so no orphan keeps playing."""
    global _libc
    try:
        if _libc is None:
            _libc = ctypes.CDLL(None, use_errno=True)
        _libc.prctl(1, signal.SIGKILL)  # PR_SET_PDEATHSIG
    except Exception:
        pass


def spawn(cmd, **kw):
    """Starts `cmd` on this node, tied to the calling process's life (Linux)."""
    if sys.platform.startswith("linux"):
        kw["preexec_fn"] = _die_with_parent
    return subprocess.Popen(cmd, **kw)


def run_local(cmd):
    """Runs the binary on the driver; returns stdout, or raises ClusterError with its stderr."""
    try:
        p = subprocess.run(cmd, capture_output=True, text=True)
    except OSError as e:
        raise ClusterError(f"cannot run {cmd[0]}: {e}")
    if p.returncode != 0:
        raise ClusterError(f"{' '.join(cmd[:3])} … failed: {p.stderr.strip() or p.stdout.strip()}")
    return p.stdout


def scratch_dir(base, label):
    """A fresh folder for one attempt of one task on this node: `BASE/NODE_ID/LABEL-XXXX`."""
    import ray

    node = ray.get_runtime_context().get_node_id()
    root = os.path.join(base or os.path.join(tempfile.gettempdir(), "chariot-cluster"), node)
    os.makedirs(root, exist_ok=True)
    return node, tempfile.mkdtemp(prefix=label + "-", dir=root)


def fmt_secs(s):
    if s is None or s != s or s == float("inf"):
        return "-"
    s = int(s)
    return f"{s // 3600}h{s % 3600 // 60:02d}m" if s >= 3600 else f"{s // 60}m{s % 60:02d}s"


class Ticker:
    """Progress on stderr: one line rewritten in place on a terminal, else a line every
    `every` seconds."""

    def __init__(self, every=5.0):
        self.tty = sys.stderr.isatty()
        self.every = 0.5 if self.tty else every
        self.last = 0.0

    def show(self, text, force=False):
        now = time.monotonic()
        if not force and now - self.last < self.every:
            return
        self.last = now
        if self.tty:
            sys.stderr.write("\r\x1b[2K" + text)
            if force:
                sys.stderr.write("\n")
        else:
            sys.stderr.write(text + "\n")
        sys.stderr.flush()
