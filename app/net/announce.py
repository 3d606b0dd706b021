"""Hosted games announced on the local network with zeroconf (mDNS/DNS-SD, the python-zeroconf library).

A host announces each game as a service of type :data:`SERVICE` whose TXT properties say the game, the seats
still open and the certificate's fingerprint; never a join code (the guest asks the host's person for it).
:func:`browse` lists what is announced nearby, for a Join dialog.
"""

from __future__ import annotations

import socket
import threading
import time
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from .server import HostedGame, RefereeServer

__all__ = ["SERVICE", "Announcer", "Listing", "browse"]

SERVICE = "_sightline._tcp.local."


@dataclass(frozen=True)
class Listing:
    """A game announced on the network: where to connect, what it is, and which seats are open."""

    name: str
    host: str
    port: int
    variant: str
    title: str
    open_seats: tuple[str, ...]
    fingerprint: str


def _properties(hosted: "HostedGame") -> dict[str, str]:
    open_seats = [hosted.seat_names[seat] for seat, agent in hosted.remote_seats.items() if not agent.joined.is_set()]
    return {"variant": hosted.variant, "title": hosted.title, "game": hosted.id, "open": ",".join(open_seats),
            "sha256": hosted.server.fingerprint}


class Announcer:
    """Announces one hosted game while it waits for its guests (withdrawn by :meth:`close`)."""

    def __init__(self, server: "RefereeServer", hosted: "HostedGame", interfaces: Any = None) -> None:
        from zeroconf import InterfaceChoice, ServiceInfo, Zeroconf

        address = server.address
        self.zeroconf = Zeroconf(interfaces=interfaces if interfaces is not None else InterfaceChoice.All)
        self.info = ServiceInfo(SERVICE, f"Sightline {hosted.title} {hosted.id}.{SERVICE}",
                                addresses=[socket.inet_aton(address)], port=server.port,
                                properties=_properties(hosted), server=f"sightline-{hosted.id}.local.")
        self.zeroconf.register_service(self.info)

    def close(self) -> None:
        try:
            self.zeroconf.unregister_service(self.info)
        finally:
            self.zeroconf.close()


def browse(seconds: float = 2.0, interfaces: Any = None) -> list[Listing]:
    """The games announced on the local network within ``seconds``."""
    from zeroconf import InterfaceChoice, ServiceBrowser, ServiceInfo, ServiceStateChange, Zeroconf

    zeroconf = Zeroconf(interfaces=interfaces if interfaces is not None else InterfaceChoice.All)
    names: set[str] = set()
    lock = threading.Lock()

    def changed(zeroconf: Any, service_type: str, name: str, state_change: Any) -> None:
        if state_change is ServiceStateChange.Added:
            with lock:
                names.add(name)
    browser = ServiceBrowser(zeroconf, SERVICE, handlers=[changed])
    try:
        time.sleep(seconds)
        found: list[Listing] = []
        with lock:
            wanted = sorted(names)
        for name in wanted:
            info = ServiceInfo(SERVICE, name)
            if not info.request(zeroconf, 1000):
                continue
            properties = {(key or b"").decode("utf-8", "replace"): (value or b"").decode("utf-8", "replace")
                          for key, value in info.properties.items()}
            addresses = info.parsed_addresses()
            if not addresses or info.port is None:
                continue
            found.append(Listing(name, addresses[0], int(info.port), properties.get("variant", ""),
                                 properties.get("title", ""),
                                 tuple(seat for seat in properties.get("open", "").split(",") if seat),
                                 properties.get("sha256", "")))
        return found
    finally:
        browser.cancel()
        zeroconf.close()
