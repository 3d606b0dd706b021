"""One JSON codec for the plain data classes of every game: actions, observations, anything of plain fields.

A game writes no ``to_json`` or ``from_json`` of its own. Its actions and observations are dataclasses or named
tuples whose fields say their types; :func:`to_json` and :func:`from_json` read those types and write or check
each field accordingly, and :class:`Kinds` finds the class of a tagged object (an action in a record) by its
``"type"``.

How a value is written, by its declared type:

- ``int``, ``float``, ``str``, ``bool``, ``None``: as themselves (a ``bool`` is never an ``int`` here);
- an ``Enum``: its value; a ``Literal[...]``: one of its values;
- ``chess.Move``: its UCI text (``"e2e4"``, ``"e7e8q"``); reading refuses the null move and drops;
- ``tuple[...]``, ``list[...]``: an array; ``dict[str, ...]``, ``dict[int, ...]``: an object (whole-number keys
  written in decimal); ``X | None``: ``null`` or an ``X``;
- a dataclass or named tuple: an object of its fields in their order, led by ``"type": kind`` when the class has
  a ``kind`` class attribute (every :class:`~app.engine.core.Action` has one);
- ``Any``: as it is (it must already be JSON data).

Where a game's JSON is not the plain form of its fields, the field says so in its metadata, built by
:func:`spec` (dataclass fields only): ``key`` (the JSON name differs from the field's), ``omit_default`` (the key
is left out while the field holds its default, and a missing key reads as the default), ``text`` (the value is
written as text by a :class:`Text`: a square's name, a game's own move notation).

>>> import dataclasses
>>> @dataclasses.dataclass(frozen=True)
... class Paint:
...     kind = "paint"
...     cells: tuple[int, ...]
...     colour: Literal["red", "blue"]
...     note: str = dataclasses.field(default="", metadata=spec(key="text", omit_default=True))
>>> to_json(Paint((3, 4), "red"))
{'type': 'paint', 'cells': [3, 4], 'colour': 'red'}
>>> from_json(Paint, {"type": "paint", "cells": [3, 4], "colour": "red", "text": "hi"})
Paint(cells=(3, 4), colour='red', note='hi')
>>> from_json(Paint, {"type": "paint", "cells": [3, "4"], "colour": "red"})
Traceback (most recent call last):
...
app.engine.codec.CodecError: 'paint': cells[1] must be a whole number, not '4'

Reading never raises anything but :class:`CodecError` (a ``ValueError``) on data: a record's reader turns it into
its own error naming the step. A class whose fields have a type the codec cannot write is a programming error,
found the first time the class is used (``TypeError``).
"""

from __future__ import annotations

import dataclasses
import enum
import types
import typing
from collections.abc import Mapping
from typing import Any, Callable, Generic, Literal, NamedTuple, TypeVar, Union

__all__ = ["TAG", "CodecError", "Kinds", "Text", "from_json", "spec", "to_json"]

TAG = "type"
"""The key that names a tagged object's class (its ``kind``) in JSON."""

_META = "sightline.codec"
"""The key of a dataclass field's metadata under which :func:`spec` files the field's JSON form."""

T = TypeVar("T")
Encode = Callable[[Any], Any]
Decode = Callable[[Any, str], Any]
"""Reads JSON data given the path of the value (for messages), or raises :class:`CodecError`."""


class CodecError(ValueError):
    """JSON data that is not what the class it should hold asks for; the message names the field and the value."""


class Text(NamedTuple):
    """A value written as text: ``write`` makes the text, ``read`` parses it back (``ValueError`` if it cannot);
    ``what`` names the text in messages ("a square").

    >>> hexadecimal = Text(lambda number: f"{number:x}", lambda text: int(text, 16), "a hexadecimal number")
    >>> hexadecimal.write(255), hexadecimal.read("ff")
    ('ff', 255)
    """

    write: Callable[[Any], str]
    read: Callable[[str], Any]
    what: str = "text of the right form"


class _Spec(NamedTuple):
    key: str | None
    omit_default: bool
    text: Text | None


def spec(*, key: str | None = None, omit_default: bool = False, text: Text | None = None) -> Mapping[str, Any]:
    """A dataclass field's metadata that says how the field is written where the plain form is not today's
    JSON (use as ``dataclasses.field(metadata=spec(...))``): under another ``key``, left out while it holds its
    default (``omit_default``; the field must have one), or as ``text``.

    >>> spec(key="uci")
    mappingproxy({'sightline.codec': _Spec(key='uci', omit_default=False, text=None)})
    """
    return types.MappingProxyType({_META: _Spec(key, omit_default, text)})


def _short(value: Any) -> str:
    text = repr(value)
    return text if len(text) <= 40 else text[:37] + "..."


# ---- one class: its fields, in order ---------------------------------------------------------------------

class _Field(NamedTuple):
    name: str
    key: str
    encode: Encode
    decode: Decode
    omit_default: bool
    default: Any


_MISSING = object()


class _Plan(Generic[T]):
    """How one class is written and read: its tag and its fields."""

    __slots__ = ("cls", "tag", "what", "fields", "keys")

    def __init__(self, cls: type[T]) -> None:
        self.cls = cls
        try:
            hints = typing.get_type_hints(cls)
        except Exception as error:  # noqa: BLE001 - a name the module imports for type checking only
            raise TypeError(f"cannot read the field types of {cls.__qualname__}: {error}") from None
        fields: list[_Field] = []
        if dataclasses.is_dataclass(cls):
            for item in dataclasses.fields(cls):
                if not item.init:
                    continue
                declared = item.metadata.get(_META, _Spec(None, False, None))
                default: Any = item.default
                factory: Any = item.default_factory
                if default is dataclasses.MISSING and factory is not dataclasses.MISSING:
                    default = factory()
                if default is dataclasses.MISSING:
                    default = _MISSING
                fields.append(self._field(item.name, hints[item.name], declared, default))
        elif isinstance(cls, type) and issubclass(cls, tuple) and hasattr(cls, "_fields"):
            defaults: dict[str, Any] = getattr(cls, "_field_defaults", {})
            for name in getattr(cls, "_fields"):
                fields.append(self._field(name, hints[name], _Spec(None, False, None), defaults.get(name, _MISSING)))
        else:
            raise TypeError(f"{cls.__qualname__} is neither a dataclass nor a named tuple")
        names = {item.name for item in fields}
        kind = getattr(cls, "kind", None)
        self.tag: str | None = kind if isinstance(kind, str) and "kind" not in names else None
        self.what = repr(self.tag) if self.tag is not None else cls.__name__
        self.fields = tuple(fields)
        self.keys = frozenset(item.key for item in fields) | ({TAG} if self.tag is not None else set())
        if len(self.keys) != len(fields) + (self.tag is not None):
            raise TypeError(f"{cls.__qualname__}: two fields share a JSON key")

    def _field(self, name: str, hint: Any, declared: _Spec, default: Any) -> _Field:
        if declared.omit_default and default is _MISSING:
            raise TypeError(f"{self.cls.__qualname__}.{name} is left out at its default, but has no default")
        encode, decode = _converter(hint, declared.text)
        return _Field(name, declared.key or name, encode, decode, declared.omit_default, default)

    def encode(self, value: Any) -> dict[str, Any]:
        data: dict[str, Any] = {} if self.tag is None else {TAG: self.tag}
        for item in self.fields:
            field_value = getattr(value, item.name)
            if item.omit_default and field_value == item.default:
                continue
            data[item.key] = item.encode(field_value)
        return data

    def decode(self, data: Any, path: str = "") -> T:
        """The instance ``data`` describes; ``path`` locates ``data`` in an enclosing object (for messages)."""
        if path:
            return self._decode(data, path)
        try:
            return self._decode(data, path)
        except CodecError as error:
            raise CodecError(f"{self.what}: {error}") from None

    def _decode(self, data: Any, path: str) -> T:
        if type(data) is not dict and not isinstance(data, Mapping):
            raise _fail(path or "the data", "a JSON object", data)
        if self.tag is not None and data.get(TAG) != self.tag:
            raise _fail(_key(path, TAG), repr(self.tag), data.get(TAG))
        unknown = [key for key in data if key not in self.keys]
        if unknown:
            raise CodecError(f"{_key(path, '')}unknown key {_short(unknown[0])}".lstrip())
        values: dict[str, Any] = {}
        for item in self.fields:
            if item.key in data:
                values[item.name] = item.decode(data[item.key], _key(path, item.key))
            elif not item.omit_default:
                raise CodecError(f"{_key(path, item.key)} is missing")
        try:
            return self.cls(**values)
        except (TypeError, ValueError) as error:  # a class that checks its values itself
            raise CodecError(f"{path + ': ' if path else ''}{str(error)[:80]}") from None


def _key(path: str, key: str) -> str:
    """The path of ``key`` inside the object at ``path`` (``path: `` before an empty key)."""
    if not key:
        return f"{path}: " if path else ""
    return f"{path}.{key}" if path else key


_PLANS: dict[type[Any], _Plan[Any]] = {}


def _plan(cls: type[T]) -> _Plan[T]:
    plan = _PLANS.get(cls)
    if plan is None:
        plan = _PLANS[cls] = _Plan(cls)
    return plan


def _is_record_class(hint: Any) -> bool:
    return isinstance(hint, type) and (dataclasses.is_dataclass(hint) or (issubclass(hint, tuple)
                                                                           and hasattr(hint, "_fields")))


# ---- one value: its converter by type -----------------------------------------------------------------

def _fail(path: str, expected: str, value: Any) -> CodecError:
    return CodecError(f"{path or 'the value'} must be {expected}, not {_short(value)}")


def _item(path: str, index: Any) -> str:
    return f"{path}[{index}]" if path else f"[{index}]"


def _same(value: Any) -> Any:
    return value


def _scalar(kind: type[Any], expected: str) -> tuple[Encode, Decode]:
    def decode(value: Any, path: str) -> Any:
        if type(value) is kind or (isinstance(value, kind) and not isinstance(value, bool)):
            return value
        raise _fail(path, expected, value)
    return _same, decode


def _float() -> tuple[Encode, Decode]:
    def decode(value: Any, path: str) -> Any:
        if isinstance(value, (int, float)) and not isinstance(value, bool):
            try:
                return float(value)
            except OverflowError:  # a whole number too large for a float
                pass
        raise _fail(path, "a number", value)
    return _same, decode


def _text(text: Text) -> tuple[Encode, Decode]:
    def decode(value: Any, path: str) -> Any:
        if not isinstance(value, str):
            raise _fail(path, text.what, value)
        try:
            return text.read(value)
        except Exception:  # noqa: BLE001 - whatever a game's reader stumbles on, the text is not one
            raise _fail(path, text.what, value) from None
    return text.write, decode


def _chess_move(move_type: Any) -> tuple[Encode, Decode]:
    def decode(value: Any, path: str) -> Any:
        if isinstance(value, str) and len(value) <= 6:
            try:
                move = move_type.from_uci(value)
            except ValueError:
                pass
            else:
                if move and not move.drop:
                    return move
        raise _fail(path, "a move in UCI (such as 'e2e4')", value)
    return lambda move: move.uci(), decode


def _enum(enum_type: type[enum.Enum]) -> tuple[Encode, Decode]:
    values = [member.value for member in enum_type]

    def decode(value: Any, path: str) -> Any:
        if not isinstance(value, bool) and value in values:
            return enum_type(value)
        raise _fail(path, "one of " + ", ".join(repr(item) for item in values), value)
    return lambda member: member.value, decode


def _literal(choices: tuple[Any, ...]) -> tuple[Encode, Decode]:
    def decode(value: Any, path: str) -> Any:
        for choice in choices:
            if type(choice) is type(value) and choice == value:
                return choice
        raise _fail(path, "one of " + ", ".join(repr(item) for item in choices), value)
    return _same, decode


def _optional(inner: tuple[Encode, Decode]) -> tuple[Encode, Decode]:
    encode_inner, decode_inner = inner

    def encode(value: Any) -> Any:
        return None if value is None else encode_inner(value)

    def decode(value: Any, path: str) -> Any:
        return None if value is None else decode_inner(value, path)
    return encode, decode


def _union(members: tuple[Any, ...]) -> tuple[Encode, Decode]:
    converters = [_converter(hint) for hint in members]
    classes = [typing.get_origin(hint) or hint for hint in members]

    def encode(value: Any) -> Any:
        for cls, (encode_member, _) in zip(classes, converters):
            if isinstance(cls, type) and isinstance(value, cls):
                return encode_member(value)
        return converters[0][0](value)

    def decode(value: Any, path: str) -> Any:
        for _, decode_member in converters:
            try:
                return decode_member(value, path)
            except CodecError:
                continue
        raise _fail(path, " or ".join(_name(hint) for hint in members), value)
    return encode, decode


def _name(hint: Any) -> str:
    return getattr(hint, "__name__", None) or str(hint)


def _sequence(item: tuple[Encode, Decode], build: Callable[[list[Any]], Any]) -> tuple[Encode, Decode]:
    encode_item, decode_item = item

    def decode(value: Any, path: str) -> Any:
        if not isinstance(value, (list, tuple)):
            raise _fail(path, "an array", value)
        return build([decode_item(element, _item(path, index)) for index, element in enumerate(value)])
    return lambda values: [encode_item(element) for element in values], decode


def _fixed_tuple(items: list[tuple[Encode, Decode]]) -> tuple[Encode, Decode]:
    def encode(values: Any) -> Any:
        return [encode_item(element) for (encode_item, _), element in zip(items, values)]

    def decode(value: Any, path: str) -> Any:
        if not isinstance(value, (list, tuple)) or len(value) != len(items):
            raise _fail(path, f"an array of {len(items)}", value)
        return tuple(decode_item(element, _item(path, index))
                     for index, ((_, decode_item), element) in enumerate(zip(items, value)))
    return encode, decode


def _mapping(item: tuple[Encode, Decode], int_keys: bool) -> tuple[Encode, Decode]:
    """An object; with ``int_keys``, its keys are whole numbers written in decimal (JSON keys are text)."""
    encode_item, decode_item = item

    def read_key(key: Any, path: str) -> Any:
        if not isinstance(key, str):
            raise _fail(path, "a JSON object", key)
        if not int_keys:
            return key
        if not key or len(key) > 20 or not key.lstrip("-").isdigit() or not key.lstrip("-").isascii():
            raise _fail(f"{path} key" if path else "a key", "a whole number", key)
        return int(key)

    def encode(values: Any) -> Any:
        return {str(key) if int_keys else key: encode_item(element) for key, element in values.items()}

    def decode(value: Any, path: str) -> Any:
        if not isinstance(value, Mapping):
            raise _fail(path, "a JSON object", value)
        return {read_key(key, path): decode_item(element, _item(path, repr(key))) for key, element in value.items()}
    return encode, decode


def _nested(cls: type[Any]) -> tuple[Encode, Decode]:
    def decode(value: Any, path: str) -> Any:
        return _plan(cls).decode(value, path)
    return lambda value: _plan(type(value)).encode(value), decode


def _converter(hint: Any, text: Text | None = None) -> tuple[Encode, Decode]:
    """How a value of type ``hint`` is written and read (as ``text`` where a field says so)."""
    origin, arguments = typing.get_origin(hint), typing.get_args(hint)
    if origin is Union or isinstance(hint, types.UnionType):
        members = tuple(argument for argument in arguments if argument is not type(None))
        inner = members[0] if len(members) == 1 else None
        converter = (_converter(inner, text) if inner is not None
                     else _union(members) if text is None else _text(text))
        return _optional(converter) if len(members) < len(arguments) else converter
    if text is not None:
        return _text(text)
    if hint is Any:
        return _same, lambda value, path: value
    if hint is type(None) or hint is None:
        return _same, lambda value, path: value if value is None else _raise(_fail(path, "null", value))
    if hint is bool:
        return _scalar(bool, "true or false")
    if hint is int:
        return _scalar(int, "a whole number")
    if hint is float:
        return _float()
    if hint is str:
        return _scalar(str, "text")
    if origin is Literal:
        return _literal(arguments)
    if origin in (tuple, typing.Tuple):
        if len(arguments) == 2 and arguments[1] is Ellipsis:
            return _sequence(_converter(arguments[0]), tuple)
        return _fixed_tuple([_converter(argument) for argument in arguments])
    if origin in (list, typing.List):
        return _sequence(_converter(arguments[0] if arguments else Any), list)
    if origin in (frozenset, set):
        return _sequence(_converter(arguments[0] if arguments else Any), origin)
    if origin in (dict, typing.Dict) and (not arguments or arguments[0] in (str, int)):
        return _mapping(_converter(arguments[1] if arguments else Any), bool(arguments) and arguments[0] is int)
    if isinstance(hint, type) and issubclass(hint, enum.Enum):
        return _enum(hint)
    if isinstance(hint, type) and hint.__module__ == "chess" and hint.__name__ == "Move":
        return _chess_move(hint)
    if _is_record_class(hint):
        return _nested(hint)
    raise TypeError(f"the codec cannot write a value of type {hint!r} as JSON")


def _raise(error: Exception) -> Any:
    raise error


# ---- the public doors -------------------------------------------------------------------------------------

def to_json(value: Any) -> Any:
    """``value`` (a dataclass or named tuple instance) as JSON data, by its class's field types.

    >>> class Seen(NamedTuple):
    ...     seat: int
    ...     squares: tuple[str, ...] = ()
    >>> to_json(Seen(1, ("a1", "b2")))
    {'seat': 1, 'squares': ['a1', 'b2']}
    """
    return _plan(type(value)).encode(value)


def from_json(cls: type[T], data: Any) -> T:
    """The ``cls`` that :func:`to_json` wrote as ``data``; :class:`CodecError` says what is wrong with data that
    is not one.

    >>> class Seen(NamedTuple):
    ...     seat: int
    ...     squares: tuple[str, ...] = ()
    >>> from_json(Seen, {"seat": 1, "squares": ["a1"]})
    Seen(seat=1, squares=('a1',))
    >>> from_json(Seen, {"seat": 1})
    Traceback (most recent call last):
    ...
    app.engine.codec.CodecError: Seen: squares is missing
    """
    return _plan(cls).decode(data)


class Kinds:
    """The tagged classes one kind of object may be (a game's actions): reads any of them by its ``"type"``.

    ``what`` names the objects in messages.

    >>> import dataclasses
    >>> @dataclasses.dataclass(frozen=True)
    ... class Knock:
    ...     kind = "knock"
    ...     times: int
    >>> @dataclasses.dataclass(frozen=True)
    ... class Leave:
    ...     kind = "leave"
    >>> actions = Kinds((Knock, Leave), "door action")
    >>> actions.from_json({"type": "knock", "times": 3})
    Knock(times=3)
    >>> actions.from_json({"type": "ring"})
    Traceback (most recent call last):
    ...
    app.engine.codec.CodecError: unknown door action type 'ring' (known: knock, leave)
    """

    __slots__ = ("classes", "what", "_by_tag")

    def __init__(self, classes: tuple[type[Any], ...], what: str = "action") -> None:
        self.classes = classes
        self.what = what
        self._by_tag: dict[str, _Plan[Any]] = {}
        for cls in classes:
            plan = _plan(cls)
            if plan.tag is None:
                raise TypeError(f"{cls.__qualname__} has no kind to be told apart by")
            if plan.tag in self._by_tag:
                raise TypeError(f"{cls.__qualname__} and {self._by_tag[plan.tag].cls.__qualname__} share the kind "
                                f"{plan.tag!r}")
            self._by_tag[plan.tag] = plan

    def from_json(self, data: Any) -> Any:
        """The object ``data`` describes, or :class:`CodecError`."""
        if type(data) is not dict and not isinstance(data, Mapping):
            raise CodecError(f"the {self.what} must be a JSON object, not {_short(data)}")
        tag = data.get(TAG)
        plan = self._by_tag.get(tag) if isinstance(tag, str) else None
        if plan is None:
            raise CodecError(f"unknown {self.what} type {_short(tag)} (known: {', '.join(sorted(self._by_tag))})")
        try:
            return plan.decode(data)
        except CodecError as error:
            raise CodecError(f"{self.what} {error}") from None

    def __repr__(self) -> str:
        return f"Kinds({', '.join(cls.__name__ for cls in self.classes)})"
