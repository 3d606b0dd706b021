"""The message format of network play: length-prefixed JSON frames, versioned, bounded and validated.

A frame is a 4-byte big-endian length followed by that many bytes of UTF-8 JSON: one object, the message::

    {"v": 2, "seq": 7, "type": "act", "request": 3, "action": {"type": "sense", "square": "e7"}, "thought": 1.5}

``v`` is :data:`VERSION`; ``seq`` counts the messages one side has sent on this connection, from 1, so a
message repeated (replayed) or out of its order is seen at once; ``type`` names the message, and the other
keys are exactly that type's fields (:data:`TO_HOST`, :data:`TO_GUEST`), each of its declared kind. A frame
longer than :data:`MAX_FRAME` is refused from its length alone, before it is read.

Whatever is wrong with what arrives (a length over the limit, a frame cut short, bytes that are not UTF-8 or not
JSON, JSON nested too deep, a duplicate key, a number that is not finite, an unknown type or field, a field of
the wrong kind, a sequence number out of order) raises :class:`ProtocolError` with a sentence, and nothing
else: the receiver then closes that connection.

>>> frame = encode(1, "ping", {"n": 9})
>>> len(frame), frame[4:]
(39, b'{"v":2,"seq":1,"type":"ping","n":9}')
>>> Reader(TO_HOST).message(frame[4:])
{'type': 'ping', 'n': 9}
>>> Reader(TO_HOST).message(b'{"v":2,"seq":5,"type":"ping","n":9}')
Traceback (most recent call last):
...
app.net.wire.ProtocolError: message 5 arrived where message 1 was due (repeated or out of order)
"""

from __future__ import annotations

import json
import math
import struct
from typing import Any, Callable, Mapping

__all__ = ["MAX_FRAME", "PROTOCOL", "TO_GUEST", "TO_HOST", "VERSION", "ProtocolError", "Reader", "encode",
           "frame_length"]

PROTOCOL = "sightline-net"
VERSION = 2
"""The version of this format; a peer that speaks another is refused with a sentence saying so. Nothing has been
released, so a change of the format is a new version and no older one is spoken: 2 added the clock updates, the
guest's reported thinking time (lag compensation), resigning and draws out of the request/answer turn."""
MAX_FRAME = 1 << 20
"""Bytes of one message at most (1 MiB): a long game's observations go one message each, far below it."""
HEADER = struct.Struct(">I")
MAX_TEXT = 200
"""Characters of a short text field (a name, a code, a token, a phase)."""


class ProtocolError(Exception):
    """A message that breaks the format; the text is a sentence for the log and for the peer."""


Check = Callable[[Any], bool]


def _text(limit: int = MAX_TEXT) -> Check:
    return lambda value: isinstance(value, str) and len(value) <= limit


def _whole(value: Any) -> bool:
    return isinstance(value, int) and not isinstance(value, bool) and 0 <= value < 2 ** 53


def _number_or_null(value: Any) -> bool:
    return value is None or isinstance(value, (int, float)) and not isinstance(value, bool)


def _seconds_or_null(value: Any) -> bool:
    return value is None or isinstance(value, (int, float)) and not isinstance(value, bool) and 0 <= value <= 1e9


def _seat_or_null(value: Any) -> bool:
    return value is None or _whole(value) and value < 64


def _seats(value: Any) -> bool:
    return isinstance(value, list) and len(value) <= 64 and all(_whole(item) and item < 64 for item in value)


def _clocks(value: Any) -> bool:
    """A list of at most 64 ``[seat, seconds or null]`` pairs, each seat once."""
    return (isinstance(value, list) and len(value) <= 64
            and all(isinstance(item, list) and len(item) == 2 and _whole(item[0]) and item[0] < 64
                    and _seconds_or_null(item[1]) for item in value)
            and len({item[0] for item in value}) == len(value))


def _object(value: Any) -> bool:
    return isinstance(value, dict)


def _texts(value: Any) -> bool:
    return isinstance(value, list) and len(value) <= 64 and all(_text()(item) for item in value)


def _anything(value: Any) -> bool:
    return True


def _optional(check: Check) -> Check:
    return lambda value: value is None or check(value)


_KINDS: dict[Check, str] = {}


def _kind(check: Check, what: str) -> Check:
    _KINDS[check] = what
    return check


TEXT = _kind(_text(), f"text of at most {MAX_TEXT} characters")
OPTIONAL_TEXT = _kind(_optional(_text()), f"null or text of at most {MAX_TEXT} characters")
LONG_TEXT = _kind(_text(2000), "text of at most 2000 characters")
WHOLE = _kind(_whole, "a whole number from 0")
NUMBER_OR_NULL = _kind(_number_or_null, "a number or null")
OBJECT = _kind(_object, "a JSON object")
TEXTS = _kind(_texts, "a list of at most 64 short texts")
SECONDS_OR_NULL = _kind(_seconds_or_null, "null or a number of seconds from 0")
SEAT_OR_NULL = _kind(_seat_or_null, "null or a seat number")
SEATS = _kind(_seats, "a list of at most 64 seat numbers")
CLOCKS = _kind(_clocks, "a list of [seat, seconds or null] pairs, each seat once")
BOOL = _kind(lambda value: isinstance(value, bool), "true or false")
OPTIONAL_WHOLE = _kind(lambda value: value is None or _whole(value), "null or a whole number from 0")
ANY = _kind(_anything, "JSON")

TO_HOST: Mapping[str, Mapping[str, Check]] = {
    "hello": {"protocol": TEXT, "version": WHOLE, "code": OPTIONAL_TEXT, "token": OPTIONAL_TEXT, "name": TEXT},
    "ready": {},
    "act": {"request": WHOLE, "action": OBJECT, "thought": SECONDS_OR_NULL},
    "fail": {"request": WHOLE, "message": LONG_TEXT},
    "ping": {"n": WHOLE},
    "resign": {},
    "offer_draw": {"request": OPTIONAL_WHOLE},
    "answer_draw": {"accept": BOOL, "request": OPTIONAL_WHOLE},
    "bye": {},
}
"""What a guest may send: its greeting (a join code the first time, its seat token after), that its program
has started (after each start message), its answer to a request with the seconds its program thought over it
(null: not measured), the news that its program failed on a request, a ping (answered by a pong), and, at any
moment, that its seat resigns, or offers a draw or answers one in place of its program's answer to the request it
names (its open one: null when it has none); played when the game allows it, else refused."""

TO_GUEST: Mapping[str, Mapping[str, Check]] = {
    "welcome": {"game": TEXT, "variant": TEXT, "seat": WHOLE, "seat_names": TEXTS, "token": TEXT,
                "resumed": BOOL},
    "start": {"options": OBJECT, "opponent": LONG_TEXT},
    "observe": {"index": WHOLE, "observation": OBJECT},
    "act": {"request": WHOLE, "phase": TEXT, "choices": ANY, "seconds_left": NUMBER_OR_NULL},
    "clock": {"running": SEAT_OR_NULL, "seconds_left": CLOCKS, "sharing": SEATS},
    "closed": {"request": WHOLE},
    "refused": {"message": LONG_TEXT},
    "end": {"outcome": OBJECT},
    "pong": {"n": WHOLE},
    "error": {"message": LONG_TEXT},
}
"""What the host sends a guest: its seat and token, the game's start, each observation of its seat (numbered
from 0 within the game), a request to act (numbered from 1), the clocks its seat may see (the seat whose clock
runs, if the seat may see it; the seconds left of each clock it may see, null when untimed; the seats it sees on
the running clock), that a request no longer waits for the program's answer (the seat's resignation or draw
answered it), why a resignation or draw was not played, the outcome, a pong, and why it closes the connection."""

_ENVELOPE = ("v", "seq", "type")


def encode(seq: int, kind: str, fields: Mapping[str, Any]) -> bytes:
    """The frame of message number ``seq`` of type ``kind`` (the header and the JSON); ``ValueError`` for data
    that is not JSON or a message over :data:`MAX_FRAME` (a bug of the sender, never sent half)."""
    body = json.dumps({"v": VERSION, "seq": seq, "type": kind, **fields}, separators=(",", ":"),
                      ensure_ascii=False, allow_nan=False).encode("utf-8")
    if len(body) > MAX_FRAME:
        raise ValueError(f"a {kind} message of {len(body)} bytes is over the limit of {MAX_FRAME}")
    return HEADER.pack(len(body)) + body


def frame_length(header: bytes) -> int:
    """The length a frame's header announces; :class:`ProtocolError` when it is over :data:`MAX_FRAME` (or the
    header is not 4 bytes)."""
    if len(header) != HEADER.size:
        raise ProtocolError("the connection ended inside a message's header")
    length: int = HEADER.unpack(header)[0]
    if length > MAX_FRAME:
        raise ProtocolError(f"a message of {length} bytes is over the limit of {MAX_FRAME}")
    if length == 0:
        raise ProtocolError("an empty message")
    return length


def _no_duplicates(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
    found: dict[str, Any] = {}
    for key, value in pairs:
        if key in found:
            raise ProtocolError(f"the key {_short(key)} appears twice in one object")
        found[key] = value
    return found


def _no_constant(name: str) -> Any:
    raise ProtocolError(f"{name} is not a number JSON allows")


def _finite(text: str) -> float:
    value = float(text)
    if not math.isfinite(value):
        raise ProtocolError(f"the number {_short(text)} is too large")
    return value


def _a(word: str) -> str:
    return f"an {word}" if word[:1] in "aeiou" else f"a {word}"


def _short(value: Any) -> str:
    text = repr(value)
    return text if len(text) <= 40 else text[:37] + "..."


class Reader:
    """Checks the messages of one direction of one connection, in order: ``schema`` is :data:`TO_HOST` (a host
    reads what guests send) or :data:`TO_GUEST`."""

    def __init__(self, schema: Mapping[str, Mapping[str, Check]]) -> None:
        self.schema = schema
        self.expected = 1
        """The sequence number the next message must carry."""

    def message(self, body: bytes) -> dict[str, Any]:
        """The message in a frame's ``body`` (the bytes after the header) as ``{"type": ..., fields...}``;
        :class:`ProtocolError` says what is wrong with anything else (and the reader expects nothing more)."""
        try:
            data = json.loads(body.decode("utf-8"), object_pairs_hook=_no_duplicates, parse_constant=_no_constant,
                              parse_float=_finite)
        except ProtocolError:
            raise
        except UnicodeDecodeError:
            raise ProtocolError("a message that is not UTF-8 text") from None
        except RecursionError:
            raise ProtocolError("a message nested too deeply") from None
        except (ValueError, OverflowError) as error:
            raise ProtocolError(f"a message that is not JSON ({str(error)[:80]})") from None
        if not isinstance(data, dict):
            raise ProtocolError("a message must be a JSON object")
        version = data.get("v")
        if version != VERSION or isinstance(version, bool):
            raise ProtocolError(f"a message of format version {_short(version)}; this side speaks {VERSION}")
        seq = data.get("seq")
        if not _whole(seq):
            raise ProtocolError(f"a message whose sequence number is {_short(seq)}, not a whole number")
        if seq != self.expected:
            raise ProtocolError(f"message {seq} arrived where message {self.expected} was due "
                                f"(repeated or out of order)")
        kind = data.get("type")
        fields = self.schema.get(kind) if isinstance(kind, str) else None
        if fields is None or not isinstance(kind, str):
            raise ProtocolError(f"an unknown message type {_short(kind)} "
                                f"(known here: {', '.join(sorted(self.schema))})")
        for key in data:
            if key not in fields and key not in _ENVELOPE:
                raise ProtocolError(f"{_a(kind)} message with an unknown field {_short(key)}")
        for key, check in fields.items():
            if key not in data:
                raise ProtocolError(f"{_a(kind)} message without its field {key!r}")
            if not check(data[key]):
                raise ProtocolError(f"{_a(kind)} message whose {key} is {_short(data[key])}, "
                                    f"not {_KINDS.get(check, 'what it should be')}")
        self.expected += 1
        message = {key: value for key, value in data.items() if key not in ("v", "seq")}
        return message
