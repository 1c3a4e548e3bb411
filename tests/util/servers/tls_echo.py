#!/usr/bin/env python3
"""tls_echo.py: a tiny HTTP(S) server for kkadm's client tests, on 127.0.0.1 only.

Usage: tls_echo.py --port-file F --log L --responses R [--cert C --key K [--client-ca CA]]
Binds an ephemeral port and writes it to F. Answers request n with the n-th entry of the JSON
list in R ({"status": 200, "body": "...", "delay": 0.0}); the last entry repeats. Appends one JSON
line per request to L: method, path, headers, body and the client certificate's subject CN.
With --client-ca a client certificate signed by that CA is required.
"""
import argparse
import http.server
import json
import ssl
import os
import sys
import threading
import time


def parse_args():
    p = argparse.ArgumentParser()
    p.add_argument("--port-file", required=True)
    p.add_argument("--log", required=True)
    p.add_argument("--responses", required=True)
    p.add_argument("--cert")
    p.add_argument("--key")
    p.add_argument("--client-ca")
    return p.parse_args()


def load_responses(path):
    with open(path) as f:
        responses = json.load(f)
    # Refuse a malformed script up front: otherwise every request dies with an exception in the
    # handler and the client only sees the connection closed ("Empty reply from server").
    if (not isinstance(responses, list) or not responses
            or not all(isinstance(r, dict) for r in responses)):
        sys.exit("tls_echo.py: --responses must hold a non-empty JSON list of objects, got: "
                 + json.dumps(responses)[:200])
    return responses


def client_cn(connection):
    """The subject CN of the TLS client's certificate, or "" (plain HTTP, no certificate)."""
    if not hasattr(connection, "getpeercert"):
        return ""
    cn = ""
    for rdn in (connection.getpeercert() or {}).get("subject", ()):
        for key, value in rdn:
            if key == "commonName":
                cn = value
    return cn


def make_handler(responses, log_path):
    """A handler answering request n with responses[n] (the last repeats), logging each."""
    lock = threading.Lock()
    counter = [0]

    class Handler(http.server.BaseHTTPRequestHandler):
        protocol_version = "HTTP/1.1"

        def handle_any(self):
            length = int(self.headers.get("Content-Length") or 0)
            body = self.rfile.read(length).decode() if length else ""
            with lock:
                n = counter[0]
                counter[0] += 1
                with open(log_path, "a") as log:
                    log.write(json.dumps({"method": self.command, "path": self.path,
                                          "headers": {k.lower(): v for k, v in self.headers.items()},
                                          "body": body,
                                          "client_cn": client_cn(self.connection)}) + "\n")
            r = responses[min(n, len(responses) - 1)]
            time.sleep(r.get("delay", 0))
            body_out = r.get("body", "")
            # A body may be given as JSON (a Status object) or as text.
            out = (body_out if isinstance(body_out, str) else json.dumps(body_out)).encode()
            self.send_response(r.get("status", 200))
            self.send_header("Content-Type", "application/json")
            self.send_header("Content-Length", str(len(out)))
            self.end_headers()
            self.wfile.write(out)

        do_GET = do_POST = do_PUT = do_PATCH = do_DELETE = handle_any

        def log_message(self, *unused):
            pass

    return Handler


def main():
    args = parse_args()
    handler = make_handler(load_responses(args.responses), args.log)
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), handler)
    server.daemon_threads = True
    if args.cert:
        ctx = ssl.SSLContext(ssl.PROTOCOL_TLS_SERVER)
        ctx.load_cert_chain(args.cert, args.key)
        if args.client_ca:
            ctx.load_verify_locations(args.client_ca)
            ctx.verify_mode = ssl.CERT_REQUIRED
        server.socket = ctx.wrap_socket(server.socket, server_side=True)
    with open(args.port_file + ".tmp", "w") as f:
        f.write(str(server.server_address[1]))
    os.rename(args.port_file + ".tmp", args.port_file)
    server.serve_forever()


if __name__ == "__main__":
    main()
