"""Flag parsing, --sandbox-rootfs path mapping and logging shared by the stand-ins."""
import logging
import os
import signal
import sys
import time


def parse_flags(argv, known, name):
    """Parses Go-style flags (--name=value, --name value, --bool) into a dict.

    `known` maps flag names the stand-in uses to a default (None: takes a value; False: boolean).
    Other flags are accepted and logged at debug level, like a component ignoring unused flags.
    Repeated flags keep the last value. argv[0] may be the real component's name; it is skipped.
    """
    flags = dict(known)
    ignored = []
    args = list(argv)
    if args and not args[0].startswith("-"):
        args = args[1:]
    i = 0
    while i < len(args):
        arg = args[i]
        i += 1
        if not arg.startswith("-"):
            ignored.append(arg)
            continue
        key, eq, value = arg.lstrip("-").partition("=")
        if not eq:
            is_bool = key in known and known[key] is False
            if not is_bool and i < len(args) and not args[i].startswith("--"):
                value = args[i]
                i += 1
            else:
                value = "true"
        if key in known:
            flags[key] = (value.lower() == "true") if known[key] is False else value
        else:
            ignored.append("--%s=%s" % (key, value))
    log = logging.getLogger(name)
    for arg in ignored:
        log.debug("stand-in ignores flag %s", arg)
    return flags


class Rootfs:
    """Maps node paths (/etc/kubernetes/...) into the node's --sandbox-rootfs directory."""

    def __init__(self, root):
        self.root = root or os.environ.get("KKADM_SANDBOX_ROOTFS", "")

    def path(self, node_path):
        if not node_path:
            return node_path
        if not self.root or not os.path.isabs(node_path):
            return node_path
        return os.path.join(self.root, node_path.lstrip("/"))


def setup_logging(name, verbose=False):
    logging.basicConfig(
        level=logging.DEBUG if verbose or os.environ.get("KKADM_SANDBOX_DEBUG") else logging.INFO,
        format="%(asctime)s " + name + " (sandbox stand-in) %(levelname)s %(message)s",
        stream=sys.stderr)
    return logging.getLogger(name)


_received = []


def install_signal_handlers():
    """Records SIGTERM/SIGINT. Call first thing in main, before any thread starts. The handler
    only appends to a list: taking a lock in a signal handler (threading.Event.set) can deadlock
    when the signal lands while the main thread holds that lock."""
    for sig in (signal.SIGTERM, signal.SIGINT):
        signal.signal(sig, lambda signum, _frame: _received.append(signum))


def terminating():
    return bool(_received)


def wait_for_termination():
    """Blocks until SIGTERM or SIGINT has arrived; returns so the caller can shut down cleanly."""
    while not _received:
        time.sleep(0.1)
