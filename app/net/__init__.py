"""Network play: a referee server and the guests that play its seats from other processes or computers.

The host runs the game with the same runner, clocks and records as a local game (:mod:`app.hosting.runner`); a
seat played from elsewhere is an :class:`~app.bots.contract.Agent` like any bot (:class:`~app.net.server.RemoteSeat`),
so a guest is told exactly what that seat's observations say, through the one codec every game's data goes
through. The parts, from the bottom up:

- :mod:`app.net.wire`: the message format (length-prefixed JSON frames, versioned, bounded, validated);
- :mod:`app.net.values`: observations, choices and actions to and from the wire's JSON;
- :mod:`app.net.invitation`: the invitation text, the host's self-signed certificate and its fingerprint, join
  codes, seat tokens and the slowing of wrong guesses;
- :mod:`app.net.server`: :class:`~app.net.server.RefereeServer`, the games it hosts and their remote seats;
- :mod:`app.net.guest`: :class:`~app.net.guest.Guest`, which plays one seat with an agent over the network;
- :mod:`app.net.announce`: the announcement of hosted games on the local network (zeroconf).

No module here imports Qt: ``sightline serve`` runs on a machine without a display. See ``docs/network.md``.
"""
