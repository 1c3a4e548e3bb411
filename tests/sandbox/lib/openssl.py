"""Wrappers around the real openssl CLI: self-signed serving certs, CSR inspection, CSR signing."""
import os
import re
import subprocess
import tempfile


def _run(args, data=None):
    proc = subprocess.run(["openssl"] + args, input=data, capture_output=True, check=False)
    if proc.returncode != 0:
        raise RuntimeError("openssl %s failed: %s" % (args[0], proc.stderr.decode(errors="replace").strip()))
    return proc.stdout


def self_signed(directory, cn, hosts):
    """Writes <directory>/serving.{crt,key}, an ECDSA P-256 self-signed serving cert; returns paths."""
    crt, key = os.path.join(directory, "serving.crt"), os.path.join(directory, "serving.key")
    sans = ",".join(("IP:%s" if re.fullmatch(r"[0-9.]+|.*:.*", h) else "DNS:%s") % h for h in hosts)
    _run(["req", "-x509", "-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:prime256v1", "-nodes",
          "-keyout", key, "-out", crt, "-days", "365", "-subj", "/CN=%s" % cn,
          "-addext", "subjectAltName=%s" % sans, "-addext", "extendedKeyUsage=serverAuth"])
    return crt, key


def csr_info(csr_pem):
    """Returns {"cn": str, "orgs": [str], "key_type": "RSA"|"EC"|...} of a PEM CSR (bytes)."""
    subject = _run(["req", "-noout", "-subject", "-nameopt", "RFC2253"], csr_pem).decode().strip()
    subject = subject.split("=", 1)[1] if subject.startswith("subject=") else subject
    cn, orgs = "", []
    for part in re.split(r"(?<!\\),", subject):
        name, _, value = part.partition("=")
        if name.strip() == "CN":
            cn = value
        elif name.strip() == "O":
            orgs.append(value)
    text = _run(["req", "-noout", "-text"], csr_pem).decode()
    m = re.search(r"Public Key Algorithm: (\S+)", text)
    algo = m.group(1) if m else ""
    key_type = "RSA" if "rsa" in algo.lower() else ("EC" if "ec" in algo.lower() else algo)
    _run(["req", "-noout", "-verify"], csr_pem)
    return {"cn": cn, "orgs": sorted(orgs), "key_type": key_type}


def sign_client_csr(csr_pem, ca_crt, ca_key, days=365, rsa=False):
    """Signs a CSR as a client certificate (clientAuth; digitalSignature(+keyEncipherment for RSA))."""
    usage = "digitalSignature,keyEncipherment" if rsa else "digitalSignature"
    with tempfile.TemporaryDirectory() as tmp:
        csr, ext = os.path.join(tmp, "req.csr"), os.path.join(tmp, "ext.cnf")
        with open(csr, "wb") as f:
            f.write(csr_pem)
        with open(ext, "w") as f:
            f.write("basicConstraints=critical,CA:FALSE\nkeyUsage=critical,%s\n"
                    "extendedKeyUsage=clientAuth\nauthorityKeyIdentifier=keyid\n" % usage)
        serial = "0x" + os.urandom(16).hex()
        return _run(["x509", "-req", "-in", csr, "-CA", ca_crt, "-CAkey", ca_key, "-set_serial", serial,
                     "-days", str(days), "-sha256", "-extfile", ext])
