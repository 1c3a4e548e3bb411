#!/usr/bin/env python3
"""join_token.py: encodes a kkadm join token from docs/join-token.md, independently of kkadm.

Usage: join_token.py --endpoint HOST:PORT [--endpoint ...] --token ID.SECRET --pin sha256:HEX
                     [--pin ...] [--certificate-key HEX]
Prints kk1.<base64url(fields || first 4 bytes of SHA-256("kk1." || fields))>.
"""
import argparse
import base64
import hashlib
import sys


def field(tag, value):
    if len(value) > 255:
        sys.exit("join_token.py: a field is longer than 255 bytes")
    return bytes([tag, len(value)]) + value


def main():
    p = argparse.ArgumentParser()
    p.add_argument("--endpoint", action="append", required=True)
    p.add_argument("--token", required=True)
    p.add_argument("--pin", action="append", required=True)
    p.add_argument("--certificate-key", default="")
    a = p.parse_args()
    fields = b"".join(field(1, e.encode()) for e in a.endpoint)
    fields += field(2, a.token.encode())
    for pin in a.pin:
        fields += field(3, bytes.fromhex(pin.split(":", 1)[1]))
    if a.certificate_key:
        fields += field(4, bytes.fromhex(a.certificate_key))
    checksum = hashlib.sha256(b"kk1." + fields).digest()[:4]
    print("kk1." + base64.urlsafe_b64encode(fields + checksum).decode().rstrip("="))


if __name__ == "__main__":
    main()
