"""The certificates of the servers ycsbctl starts with TLS: one CA of its own and one server
certificate for the loopback names (``127.0.0.1``, ``::1``, ``localhost``), made with ``openssl``
once per state folder (``<state dir>/tls/``; see :mod:`ycsbctl.provision.state`) and made again
when missing or about to expire.

The files stay there: never in a result folder, never printed (a URL names the CA's *path*, which
is public). The private keys are mode 0600. Clients trust the CA through the URL
(``rediss://…?ssl_ca_certs=<ca.crt>``, redis-py's own spelling).
"""

from __future__ import annotations

import os
import shutil
import subprocess
import time
from dataclasses import dataclass
from pathlib import Path

from ycsbctl.errors import UserError
from ycsbctl.provision import state

DAYS = 30  # validity of what we make; made again when less than a day is left
SUBJECT_CA = "/CN=ycsbctl test CA"
SUBJECT_SERVER = "/CN=localhost"
SAN = "subjectAltName=IP:127.0.0.1,IP:::1,DNS:localhost"


@dataclass(frozen=True)
class ServerCertificates:
    """Paths of the CA certificate (what clients trust), the server certificate and its key."""

    ca_file: str
    cert_file: str
    key_file: str


def _openssl() -> str:
    path = shutil.which("openssl")
    if path is None:
        raise UserError("TLS needs the openssl command to make the servers' certificates",
                        fix="apt-get install openssl", exit_code=1)
    return path


def _run(argv: list[str]) -> None:
    done = subprocess.run(argv, capture_output=True, text=True, timeout=60)
    if done.returncode:
        # openssl's own words, never a key (it prints none on failure)
        raise UserError(f"openssl could not make the TLS certificates: {done.stderr.strip().splitlines()[-1:]}",
                        exit_code=1)


def _fresh(cert: Path) -> bool:
    """The certificate exists and is valid for at least another day (``openssl x509 -checkend``)."""
    if not cert.is_file():
        return False
    done = subprocess.run([_openssl(), "x509", "-checkend", "86400", "-noout", "-in", str(cert)],
                          capture_output=True, timeout=30)
    return done.returncode == 0


def certificates(folder: Path | None = None) -> ServerCertificates:
    """The CA and server certificate in ``folder`` (default ``<state dir>/tls``), made when missing or
    expiring: a P-256 CA and a server certificate it signed for the loopback names."""
    import fcntl

    folder = folder or state.state_dir() / "tls"
    folder.mkdir(parents=True, exist_ok=True)
    os.chmod(folder, 0o700)
    with open(folder / ".lock", "w") as lock:  # two ycsbctl at once: one makes them, the other waits
        fcntl.flock(lock, fcntl.LOCK_EX)
        return _made(folder)


def _made(folder: Path) -> ServerCertificates:
    ca, ca_key = folder / "ca.crt", folder / "ca.key"
    cert, key = folder / "server.crt", folder / "server.key"
    out = ServerCertificates(str(ca), str(cert), str(key))
    if all(p.is_file() for p in (ca_key, key)) and _fresh(ca) and _fresh(cert):
        return out
    tool = _openssl()
    tmp = folder / f".making-{os.getpid()}-{time.monotonic_ns()}"
    tmp.mkdir(mode=0o700)
    try:
        t_ca, t_ca_key, t_cert, t_key, csr = (tmp / n for n in ("ca.crt", "ca.key", "server.crt", "server.key", "csr"))
        old = os.umask(0o077)  # keys are born 0600
        try:
            _run([tool, "req", "-x509", "-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:P-256", "-nodes",
                  "-keyout", str(t_ca_key), "-out", str(t_ca), "-days", str(DAYS), "-subj", SUBJECT_CA,
                  "-addext", "basicConstraints=critical,CA:TRUE", "-addext", "keyUsage=critical,keyCertSign,cRLSign"])
            _run([tool, "req", "-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:P-256", "-nodes",
                  "-keyout", str(t_key), "-out", str(csr), "-subj", SUBJECT_SERVER])
            _run([tool, "x509", "-req", "-in", str(csr), "-CA", str(t_ca), "-CAkey", str(t_ca_key), "-set_serial",
                  str(time.time_ns()), "-out", str(t_cert), "-days", str(DAYS), "-extfile", str(_extfile(tmp))])
        finally:
            os.umask(old)
        for src, dst in ((t_ca_key, ca_key), (t_key, key), (t_ca, ca), (t_cert, cert)):
            os.replace(src, dst)  # keys first: a certificate never stands without its key
        for p in (ca, cert):
            os.chmod(p, 0o644)  # public; a server run as another user (postgres) reads its key through a copy
    finally:
        shutil.rmtree(tmp, ignore_errors=True)
    return out


def _extfile(folder: Path) -> Path:
    path = folder / "server.ext"
    path.write_text(f"{SAN}\nbasicConstraints=CA:FALSE\nkeyUsage=digitalSignature,keyEncipherment\n"
                    "extendedKeyUsage=serverAuth,clientAuth\n")  # a cluster node is its peers' client too
    return path
