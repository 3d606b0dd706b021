"""A hosted game is announced with zeroconf and found by browsing, without its join code.

Opt-in (``SIGHTLINE_TEST_MDNS=1``): zeroconf's multicast listener binds port 5353 on every address, even when it
sends on 127.0.0.1 only, and the suite's tests bind to 127.0.0.1 alone."""

from __future__ import annotations

import os

import pytest

from tests.test_net_support import served

pytestmark = pytest.mark.skipif(os.environ.get("SIGHTLINE_TEST_MDNS") != "1",
                                reason="binds the mDNS port on every address: SIGHTLINE_TEST_MDNS=1 to run")


def test_an_announced_game_is_found_on_the_local_network_without_its_code() -> None:
    from app.net.announce import Announcer, browse
    with served() as server:
        hosted = server.host_game("rbc", [None, "random"])
        announcer = Announcer(server, hosted, interfaces=["127.0.0.1"])
        try:
            found = [listing for listing in browse(2.0, interfaces=["127.0.0.1"]) if hosted.id in listing.name]
        finally:
            announcer.close()
    assert len(found) == 1
    (listing,) = found
    assert (listing.host, listing.port, listing.variant) == ("127.0.0.1", server.port, "rbc")
    assert listing.open_seats == ("White",) and listing.fingerprint == server.fingerprint
    assert hosted.codes[0] not in repr(listing) and hosted.codes[0].replace("-", "") not in repr(listing)
