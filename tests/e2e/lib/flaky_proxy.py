#!/usr/bin/python3
"""A TCP proxy for the tests that fails the first N connections, then forwards the rest to an
upstream (the test's registry): a registry that is flaky for a moment, as kubeadm#1844 describes.

Usage: flaky_proxy.py --upstream HOST:PORT --fail N [--mode 503|reset|accept-reset] --port-file F
                      --log F
  Listens on 127.0.0.1 on a free port, written to --port-file once it listens. Each of the first
  N connections reads one request head, then answers "HTTP/1.1 503 Service Unavailable" (mode 503)
  or closes with a TCP reset (mode reset); mode accept-reset resets it as soon as it is accepted,
  before any byte is read (a TLS client fails in its handshake, as against an API server or etcd
  that is restarting). One line per connection goes to --log: "fail 503 <request line>",
  "fail reset <request line>", "fail accept-reset" or "forward".
"""
import argparse
import socket
import struct
import threading


def read_head(conn):
    data = b""
    while b"\r\n\r\n" not in data and len(data) < 65536:
        chunk = conn.recv(4096)
        if not chunk:
            break
        data += chunk
    return data.split(b"\r\n", 1)[0].decode("latin-1")


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


def fail(conn, mode, log):
    if mode == "accept-reset":
        log("fail accept-reset")
    else:
        log("fail %s %s" % (mode, read_head(conn)))
    if mode != "503":
        # SO_LINGER with a zero timeout: close() sends a TCP RST.
        conn.setsockopt(socket.SOL_SOCKET, socket.SO_LINGER, struct.pack("ii", 1, 0))
    else:
        body = b"flaky proxy: try again\n"
        conn.sendall(b"HTTP/1.1 503 Service Unavailable\r\nContent-Type: text/plain\r\n"
                     b"Content-Length: %d\r\nConnection: close\r\n\r\n%s" % (len(body), body))
    conn.close()


def forward(conn, upstream, log):
    log("forward")
    host, port = upstream.rsplit(":", 1)
    up = socket.create_connection((host, int(port)))
    threading.Thread(target=pipe, args=(conn, up), daemon=True).start()
    pipe(up, conn)


def main():
    p = argparse.ArgumentParser()
    p.add_argument("--upstream", required=True)
    p.add_argument("--fail", type=int, default=2)
    p.add_argument("--mode", choices=["503", "reset", "accept-reset"], default="503")
    p.add_argument("--port-file", required=True)
    p.add_argument("--log", required=True)
    args = p.parse_args()
    lock = threading.Lock()
    remaining = [args.fail]

    def log(line):
        with lock, open(args.log, "a") as f:
            f.write(line + "\n")

    server = socket.socket()
    server.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    server.bind(("127.0.0.1", 0))
    server.listen(64)
    with open(args.port_file + ".tmp", "w") as f:
        f.write(str(server.getsockname()[1]))
    import os
    os.rename(args.port_file + ".tmp", args.port_file)
    while True:
        conn, _ = server.accept()
        with lock:
            failing = remaining[0] > 0
            remaining[0] -= 1 if failing else 0
        target = fail if failing else forward
        extra = (args.mode, log) if failing else (args.upstream, log)
        threading.Thread(target=target, args=(conn,) + extra, daemon=True).start()


if __name__ == "__main__":
    main()
