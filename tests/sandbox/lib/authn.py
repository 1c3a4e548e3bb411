"""Authentication of the stand-in API server: x509 client certs (CN = user, O = groups),
bootstrap tokens (Secret kube-system/bootstrap-token-<id>), anonymous."""
import base64
import datetime
import hmac
import re

from . import apistatus

TOKEN_RE = re.compile(r"\A([a-z0-9]{6})\.([a-z0-9]{16})\Z")
TOKEN_TYPE = "bootstrap.kubernetes.io/token"


class User:
    def __init__(self, name, groups):
        self.name, self.groups = name, list(groups)

    @property
    def authenticated(self):
        return self.name != "system:anonymous"


ANONYMOUS = User("system:anonymous", ["system:unauthenticated"])


def _decoded(secret, key):
    value = (secret.get("data") or {}).get(key)
    if value is None:
        return None
    try:
        return base64.b64decode(value).decode()
    except (ValueError, UnicodeDecodeError):
        return None


def parse_expiration(text):
    try:
        return datetime.datetime.fromisoformat(text.replace("Z", "+00:00"))
    except ValueError:
        return None


def token_expired(secret, now=None):
    """True when the token Secret's `expiration` is set and passed (or unparsable)."""
    exp = _decoded(secret, "expiration")
    if not exp:
        return False
    when = parse_expiration(exp)
    return when is None or when <= (now or datetime.datetime.now(datetime.timezone.utc))


def bootstrap_token_user(store, token):
    """Returns the User of a valid bootstrap token or None (kube-apiserver's bootstrap authenticator)."""
    m = TOKEN_RE.match(token)
    if not m:
        return None
    token_id, token_secret = m.groups()
    secret = store.get_object("secrets", "kube-system", "bootstrap-token-" + token_id)
    if secret is None or secret.get("type") != TOKEN_TYPE or secret["metadata"].get("deletionTimestamp"):
        return None
    if _decoded(secret, "token-id") not in (None, token_id):
        return None
    stored = _decoded(secret, "token-secret") or ""
    if not hmac.compare_digest(stored.encode(), token_secret.encode()):
        return None
    if token_expired(secret) or _decoded(secret, "usage-bootstrap-authentication") != "true":
        return None
    groups = ["system:bootstrappers"]
    for extra in (_decoded(secret, "auth-extra-groups") or "").split(","):
        if extra.strip() and re.fullmatch(r"system:bootstrappers:[a-z0-9:-]{0,255}[a-z0-9]", extra.strip()):
            groups.append(extra.strip())
    return User("system:bootstrap:" + token_id, groups)


def cert_user(peercert):
    cn, orgs = None, []
    for rdn in peercert.get("subject", ()):
        for key, value in rdn:
            if key == "commonName":
                cn = value
            elif key == "organizationName":
                orgs.append(value)
    return User(cn, orgs) if cn else None


def authenticate(peercert, authorization, store, bootstrap_tokens, anonymous=True):
    """Returns the request's User; raises 401 for credentials that do not authenticate (and for
    requests without credentials when anonymous auth is off)."""
    if peercert:
        user = cert_user(peercert)
        if user is None:
            raise apistatus.unauthorized()
    elif authorization:
        scheme, _, token = authorization.partition(" ")
        user = None
        if scheme.lower() == "bearer" and bootstrap_tokens:
            user = bootstrap_token_user(store, token.strip())
        if user is None:
            raise apistatus.unauthorized()
    elif anonymous:
        return ANONYMOUS
    else:
        raise apistatus.unauthorized()
    if "system:authenticated" not in user.groups:
        user.groups.append("system:authenticated")
    return user
