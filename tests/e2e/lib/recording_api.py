#!/usr/bin/env python3
"""recording_api.py: an HTTPS stand-in for a Kubernetes API server that holds nothing, for e2e
tests of what kkadm sends (tests/e2e/token_ttl_test.sh). On 127.0.0.1 only.

  GET                 404 NotFound (a Status object): nothing exists yet
  POST, PUT, PATCH    201, the object sent echoed back; the object is appended, as one JSON line
                      {"method", "path", "body"}, to --record
usage: recording_api.py --cert F --key F --port-file F --record F
Binds an ephemeral port and writes it to --port-file once it listens.
"""

import argparse
import http.server
import json
import os
import ssl
import threading


def main():
    p = argparse.ArgumentParser()
    for flag in ("--cert", "--key", "--port-file", "--record"):
        p.add_argument(flag, required=True)
    args = p.parse_args()
    lock = threading.Lock()

    class Handler(http.server.BaseHTTPRequestHandler):
        protocol_version = "HTTP/1.1"

        def reply(self, status, body):
            out = json.dumps(body).encode()
            self.send_response(status)
            self.send_header("Content-Type", "application/json")
            self.send_header("Content-Length", str(len(out)))
            self.end_headers()
            self.wfile.write(out)

        def do_GET(self):
            self.reply(404, {"kind": "Status", "apiVersion": "v1", "status": "Failure",
                             "reason": "NotFound", "code": 404,
                             "message": self.path + " not found"})

        def write(self):
            length = int(self.headers.get("Content-Length") or 0)
            body = json.loads(self.rfile.read(length) or b"{}")
            with lock, open(args.record, "a") as f:
                f.write(json.dumps({"method": self.command, "path": self.path, "body": body}) + "\n")
            self.reply(201, body)

        do_POST = do_PUT = do_PATCH = write

        def log_message(self, *unused):
            pass

    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    server.daemon_threads = True
    ctx = ssl.SSLContext(ssl.PROTOCOL_TLS_SERVER)
    ctx.load_cert_chain(args.cert, args.key)
    server.socket = ctx.wrap_socket(server.socket, server_side=True)
    with open(args.port_file + ".tmp", "w") as f:
        f.write(str(server.server_address[1]))
    os.rename(args.port_file + ".tmp", args.port_file)
    server.serve_forever()


if __name__ == "__main__":
    main()
