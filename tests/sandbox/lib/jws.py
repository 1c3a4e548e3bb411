"""Detached JWS (HS256) as the bootstrapsigner controller writes it into cluster-info."""
import base64
import hashlib
import hmac
import json


def b64url(data):
    return base64.urlsafe_b64encode(data).rstrip(b"=").decode()


def detached_signature(payload, token_id, token_secret):
    """Returns "<b64url header>..<b64url HMAC-SHA256>" over `payload` (str) keyed by the token secret."""
    header = json.dumps({"alg": "HS256", "kid": token_id}, sort_keys=True, separators=(",", ":"))
    signing_input = b64url(header.encode()) + "." + b64url(payload.encode())
    mac = hmac.new(token_secret.encode(), signing_input.encode(), hashlib.sha256).digest()
    return b64url(header.encode()) + ".." + b64url(mac)
