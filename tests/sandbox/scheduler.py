#!/usr/bin/python3
"""kkadm sandbox: STAND-IN kube-scheduler (not the real one). Schedules nothing; serves https /healthz
and /livez on --bind-address:--secure-port (10259) with a self-signed certificate, so kubelet probes
and kkadm's wait-control-plane see a healthy scheduler. Accepts kube-scheduler's flags."""
import os
import sys
import tempfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from lib import common, openssl, tlsserver  # noqa: E402

FLAGS = {"bind-address": "127.0.0.1", "secure-port": "10259", "sandbox-rootfs": ""}

log = common.setup_logging("kube-scheduler")


def main(argv):
    common.install_signal_handlers()
    flags = common.parse_flags(argv, FLAGS, "kube-scheduler")
    with tempfile.TemporaryDirectory(prefix="kkadm-scheduler-") as tmp:
        crt, key = openssl.self_signed(tmp, "kube-scheduler@sandbox", [flags["bind-address"], "localhost"])
        context = tlsserver.server_context(crt, key)
    servers = tlsserver.serve_in_threads([(flags["bind-address"], int(flags["secure-port"]))],
                                         tlsserver.HealthHandler, context)
    log.info("stand-in kube-scheduler: healthz on https://%s:%s", flags["bind-address"], flags["secure-port"])
    common.wait_for_termination()
    tlsserver.stop_all(servers)
    log.info("stand-in kube-scheduler stopped")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
