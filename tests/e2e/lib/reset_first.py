#!/usr/bin/python3
"""A TCP proxy for the tests that resets the first N connections as soon as they are accepted,
before any byte is read (so TLS clients fail in their handshake, as against a server that is
restarting), then forwards the rest to an upstream: the API server or etcd of a test, flaky for a
moment. On 127.0.0.1 only.

Usage: reset_first.py --upstream HOST:PORT --fail N --port-file F --log F
  Listens on 127.0.0.1 on a free port, written to --port-file once it listens. One line per
  connection goes to --log: "reset" or "forward".
"""
import argparse
import os
import socket
import struct
import threading


def pipe(src, dst):
    try:
        while True:
            chunk = src.recv(65536)
            if not chunk:
                break
            dst.sendall(chunk)
    except OSError:
        pass
    finally:
        for s in (src, dst):
            try:
                s.shutdown(socket.SHUT_RDWR)
            except OSError:
                pass


def forward(conn, upstream):
    try:
        up = socket.create_connection(upstream)
    except OSError:
        conn.close()
        return
    threading.Thread(target=pipe, args=(conn, up), daemon=True).start()
    threading.Thread(target=pipe, args=(up, conn), daemon=True).start()


def main():
    p = argparse.ArgumentParser()
    p.add_argument("--upstream", required=True)
    p.add_argument("--fail", type=int, required=True)
    p.add_argument("--port-file", required=True)
    p.add_argument("--log", required=True)
    args = p.parse_args()
    host, port = args.upstream.rsplit(":", 1)
    upstream = (host, int(port))
    server = socket.socket()
    server.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    server.bind(("127.0.0.1", 0))
    server.listen(64)
    with open(args.port_file + ".tmp", "w") as f:
        f.write(str(server.getsockname()[1]))
    os.rename(args.port_file + ".tmp", args.port_file)
    failed = 0
    while True:
        conn, _ = server.accept()
        with open(args.log, "a") as log:
            if failed < args.fail:
                failed += 1
                log.write("reset\n")
                # SO_LINGER with a zero timeout: close() sends a TCP RST.
                conn.setsockopt(socket.SOL_SOCKET, socket.SO_LINGER, struct.pack("ii", 1, 0))
                conn.close()
                continue
            log.write("forward\n")
        forward(conn, upstream)


if __name__ == "__main__":
    main()
