"""What lets a guest in, and only the right guest: the invitation, the host's certificate, join codes, seat
tokens, and the slowing of wrong guesses.

An invitation is one line of text a host gives a guest (by voice, chat, mail)::

    sightline://192.168.1.20:40123/K7Q4-M2XD?sha256=3f0a...e1

It holds the host's address and port, a short one-time join code for one seat, and the SHA-256 fingerprint of
the host's certificate. The host makes a fresh self-signed certificate when it starts (:func:`make_certificate`,
with ``cryptography``); the guest checks that the certificate it is shown has that fingerprint before it sends
anything, so the connection is encrypted (TLS, Python's ``ssl``) and nobody between the two can stand in for the
host. A join code is spent by the first guest that gives it; the guest then gets a seat token, which it keeps to
come back after a dropped connection. A wrong code or token slows that address's next tries
(:class:`Throttle`).

>>> invitation = Invitation("127.0.0.1", 40123, "k7q4m2xd", "ab" * 32)
>>> text = invitation.text()
>>> text[:38]
'sightline://127.0.0.1:40123/K7Q4-M2XD?'
>>> Invitation.parse(text) == Invitation("127.0.0.1", 40123, "K7Q4-M2XD", "ab" * 32)
True
>>> same_code("k7q4 m2xd", "K7Q4-M2XD")
True
"""

from __future__ import annotations

import datetime
import hashlib
import hmac
import ipaddress
import os
import secrets
import socket
import ssl
import tempfile
import threading
import time
from dataclasses import dataclass
from typing import Callable
from urllib.parse import urlsplit

__all__ = ["CODE_ALPHABET", "Invitation", "InvitationError", "Throttle", "client_context", "fingerprint",
           "make_certificate", "new_code", "new_token", "normal_code", "same_code", "server_context"]

CODE_ALPHABET = "23456789ABCDEFGHJKMNPQRSTUVWXYZ"
"""The letters of a join code: no 0/O, 1/I/L, so that a code read aloud or copied by hand comes out right."""
CODE_LENGTH = 8
"""Characters of a join code (about 40 bits); with :class:`Throttle`, far more than anyone can guess."""
SCHEME = "sightline"


class InvitationError(ValueError):
    """An invitation text that cannot be read; the message says what is wrong."""


def new_code() -> str:
    """A fresh join code, shown as two groups of four (``K7Q4-M2XD``)."""
    letters = "".join(secrets.choice(CODE_ALPHABET) for _ in range(CODE_LENGTH))
    return f"{letters[:4]}-{letters[4:]}"


def normal_code(code: str) -> str:
    """A code as typed (any case, spaces or dashes) in its one form: upper case, no separators."""
    return "".join(ch for ch in code.upper() if ch not in " -")


def same_code(given: str, code: str) -> bool:
    return hmac.compare_digest(normal_code(given).encode(), normal_code(code).encode())


def new_token() -> str:
    """A seat token: a secret a guest keeps to come back to its seat."""
    return secrets.token_urlsafe(24)


def digest(secret: str) -> str:
    """The key under which a host files a code or token (a lookup by it leaks nothing about the secret)."""
    return hashlib.sha256(secret.encode("utf-8", "replace")).hexdigest()


@dataclass(frozen=True)
class Invitation:
    """Where a host listens, the join code of one seat, and its certificate's fingerprint (64 hex digits)."""

    host: str
    port: int
    code: str
    fingerprint: str

    def __post_init__(self) -> None:
        object.__setattr__(self, "code", normal_code(self.code))
        object.__setattr__(self, "fingerprint", self.fingerprint.lower().replace(":", ""))

    @property
    def shown_code(self) -> str:
        return f"{self.code[:4]}-{self.code[4:]}" if len(self.code) == CODE_LENGTH else self.code

    def text(self) -> str:
        host = f"[{self.host}]" if ":" in self.host else self.host
        return f"{SCHEME}://{host}:{self.port}/{self.shown_code}?sha256={self.fingerprint}"

    @classmethod
    def parse(cls, text: str) -> "Invitation":
        """The invitation in ``text`` (surrounding spaces and quotes ignored); :class:`InvitationError` says what
        is wrong."""
        text = text.strip().strip("'\"<>").strip()
        if len(text) > 400:
            raise InvitationError("that is far too long for an invitation")
        try:
            parts = urlsplit(text)
            port = parts.port
        except ValueError as error:
            raise InvitationError(f"that is not an invitation ({error})") from None
        if parts.scheme != SCHEME:
            raise InvitationError(f"an invitation starts with {SCHEME}://")
        if not parts.hostname or port is None:
            raise InvitationError("the invitation names no address and port")
        code = normal_code(parts.path.strip("/"))
        if len(code) != CODE_LENGTH or any(ch not in CODE_ALPHABET for ch in code):
            raise InvitationError(f"the join code must be {CODE_LENGTH} letters and digits such as K7Q4-M2XD")
        query = dict(item.partition("=")[::2] for item in parts.query.split("&") if item)
        found = query.get("sha256", "").lower().replace(":", "")
        if len(found) != 64 or any(ch not in "0123456789abcdef" for ch in found):
            raise InvitationError("the invitation lacks the host's fingerprint (sha256= and 64 hex digits)")
        return cls(parts.hostname, port, code, found)


# ---- the host's certificate ------------------------------------------------------------------------------

def make_certificate(name: str = "Sightline host") -> tuple[bytes, bytes]:
    """A fresh self-signed certificate and its private key, both PEM (an elliptic-curve key; valid a year)."""
    from cryptography import x509
    from cryptography.hazmat.primitives import hashes, serialization
    from cryptography.hazmat.primitives.asymmetric import ec
    from cryptography.x509.oid import NameOID

    key = ec.generate_private_key(ec.SECP256R1())
    subject = x509.Name([x509.NameAttribute(NameOID.COMMON_NAME, name[:64])])
    now = datetime.datetime.now(datetime.timezone.utc)
    certificate = (x509.CertificateBuilder().subject_name(subject).issuer_name(subject)
                   .public_key(key.public_key()).serial_number(x509.random_serial_number())
                   .not_valid_before(now - datetime.timedelta(hours=1))
                   .not_valid_after(now + datetime.timedelta(days=365))
                   .sign(key, hashes.SHA256()))
    return (certificate.public_bytes(serialization.Encoding.PEM),
            key.private_bytes(serialization.Encoding.PEM, serialization.PrivateFormat.PKCS8,
                              serialization.NoEncryption()))


def fingerprint(certificate_der: bytes) -> str:
    """The SHA-256 fingerprint of a certificate (its DER bytes), as 64 lower-case hex digits."""
    return hashlib.sha256(certificate_der).hexdigest()


def pem_fingerprint(certificate_pem: bytes) -> str:
    return fingerprint(ssl.PEM_cert_to_DER_cert(certificate_pem.decode("ascii")))


def server_context(certificate_pem: bytes, key_pem: bytes) -> ssl.SSLContext:
    """The host's TLS settings (TLS 1.2 at least) with its certificate; the key never touches a lasting file."""
    context = ssl.SSLContext(ssl.PROTOCOL_TLS_SERVER)
    context.minimum_version = ssl.TLSVersion.TLSv1_2
    folder = tempfile.mkdtemp(prefix="sightline-tls-")
    try:
        cert_path, key_path = os.path.join(folder, "cert.pem"), os.path.join(folder, "key.pem")
        for path, data in ((cert_path, certificate_pem), (key_path, key_pem)):
            descriptor = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
            with os.fdopen(descriptor, "wb") as handle:
                handle.write(data)
        context.load_cert_chain(cert_path, key_path)
    finally:
        for leaf in ("cert.pem", "key.pem"):
            try:
                os.unlink(os.path.join(folder, leaf))
            except OSError:
                pass
        os.rmdir(folder)
    return context


def client_context() -> ssl.SSLContext:
    """A guest's TLS settings: the host's certificate is self-signed, so it is checked by its fingerprint (the
    invitation's) right after the handshake, not against authorities."""
    context = ssl.SSLContext(ssl.PROTOCOL_TLS_CLIENT)
    context.minimum_version = ssl.TLSVersion.TLSv1_2
    context.check_hostname = False
    context.verify_mode = ssl.CERT_NONE
    return context


def check_fingerprint(connection: ssl.SSLSocket, expected: str) -> None:
    """Raise :class:`ssl.SSLError`-like ``ConnectionError`` unless the peer's certificate has ``expected``'s
    fingerprint."""
    der = connection.getpeercert(binary_form=True)
    if der is None or not hmac.compare_digest(fingerprint(der), expected.lower()):
        raise ConnectionRefusedError("the host's certificate is not the one the invitation names: "
                                     "someone may stand between you and the host, or the host was restarted "
                                     "(ask for a new invitation)")


def keep_alive(sock: "socket.socket") -> None:
    """Have the system probe an idle connection (after 10 s idle, every 5 s, 3 times): a peer whose network died
    without a word is noticed within about half a minute, and its seat waits for it to come back."""
    try:
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_KEEPALIVE, 1)
        for name, value in (("TCP_KEEPIDLE", 10), ("TCP_KEEPINTVL", 5), ("TCP_KEEPCNT", 3)):
            option = getattr(socket, name, None)
            if option is not None:
                sock.setsockopt(socket.IPPROTO_TCP, option, value)
    except OSError:
        pass


def is_loopback(host: str) -> bool:
    try:
        return ipaddress.ip_address(host).is_loopback
    except ValueError:
        return host == "localhost"


# ---- wrong guesses -----------------------------------------------------------------------------------------

class Throttle:
    """Slows wrong codes and tokens per peer address: after the n-th wrong try, that address is refused
    unheard for ``base * 2**(n-1)`` seconds (at most ``ceiling``). Forgets an address a while after its last
    wrong try, and keeps at most ``capacity`` addresses (the oldest go first)."""

    def __init__(self, base: float = 0.5, ceiling: float = 60.0, forget: float = 600.0, capacity: int = 10000,
                 now: Callable[[], float] | None = None) -> None:
        self.base, self.ceiling, self.forget, self.capacity = base, ceiling, forget, capacity
        self._now: Callable[[], float] = now or time.monotonic
        self._peers: dict[str, tuple[int, float]] = {}
        self._lock = threading.Lock()

    def wait(self, peer: str) -> float:
        """Seconds ``peer`` must still wait before its next try is heard (0: now)."""
        with self._lock:
            entry = self._peers.get(peer)
            if entry is None:
                return 0.0
            return max(0.0, float(entry[1] - self._now()))

    def failed(self, peer: str) -> float:
        """Count a wrong try of ``peer``; returns the seconds it must now wait."""
        with self._lock:
            now = self._now()
            count, _ = self._peers.get(peer, (0, now))
            count += 1
            delay = float(min(self.ceiling, self.base * 2 ** min(count - 1, 30)))
            self._peers.pop(peer, None)
            self._peers[peer] = (count, now + delay)
            if len(self._peers) > self.capacity:
                for stale in list(self._peers)[: len(self._peers) - self.capacity]:
                    del self._peers[stale]
            for stale in [key for key, (_, until) in self._peers.items() if until + self.forget < now]:
                del self._peers[stale]
            return delay
