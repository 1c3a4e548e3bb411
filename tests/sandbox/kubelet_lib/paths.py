"""Node paths under the sandbox rootfs, and private atomic file writes (stand-in kubelet)."""

import os
import tempfile


class Rootfs:
    """Maps node paths (/etc/kubernetes/...) to host paths under the sandbox root R."""

    def __init__(self, root):
        root = os.path.abspath(root) if root else ""
        self.root = "" if root == "/" else root.rstrip("/")

    def host(self, node_path):
        if not node_path or not os.path.isabs(node_path):
            return node_path
        return self.root + node_path


def write_atomic(path, data, mode=0o600):
    """Writes `data` (bytes or str) to `path` via a temp file + rename, with `mode`."""
    if isinstance(data, str):
        data = data.encode()
    d = os.path.dirname(path) or "."
    os.makedirs(d, exist_ok=True)
    fd, tmp = tempfile.mkstemp(dir=d, prefix="." + os.path.basename(path) + ".")
    try:
        os.fchmod(fd, mode)
        with os.fdopen(fd, "wb") as f:
            f.write(data)
            f.flush()
            os.fsync(f.fileno())
        os.rename(tmp, path)
    except BaseException:
        if os.path.exists(tmp):
            os.unlink(tmp)
        raise
    dfd = os.open(d, os.O_RDONLY)
    try:
        os.fsync(dfd)
    finally:
        os.close(dfd)
