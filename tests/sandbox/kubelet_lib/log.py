"""One line per action on stderr, prefixed "[stand-in kubelet]" (stand-in kubelet)."""

import sys
import threading
import time

_lock = threading.Lock()
verbosity = 0


def log(msg, level=0):
    """Writes `msg` when the kubelet's --v is at least `level`."""
    if level > verbosity:
        return
    stamp = time.strftime("%H:%M:%S", time.gmtime()) + ".%03d" % (int(time.time() * 1000) % 1000)
    with _lock:
        sys.stderr.write("[stand-in kubelet] %s %s\n" % (stamp, msg))
        sys.stderr.flush()
