"""A game named in the registry (``SIGHTLINE_GAMES`` too) works everywhere a real one does: its bots answer from
their own process (the unpickler builds its classes, and nothing else), the engine's tables list it while it is
registered and drop it after, and exports turn the board for the seats its definition says are turned."""

from __future__ import annotations

import io
import os
import pickle
from pathlib import Path
from typing import Iterator

import pytest

from app.hosting.worker import _SafeUnpickler
from app.games import EXTRA_GAMES_VARIABLE

ROOT = Path(__file__).resolve().parent.parent


@pytest.fixture
def extra_games(monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    monkeypatch.syspath_prepend(str(ROOT))  # the test games are imported as tests.games.*
    monkeypatch.setenv(EXTRA_GAMES_VARIABLE, "tests.games.lights,tests.games.scouts")
    yield


def _read(data: bytes) -> object:
    return _SafeUnpickler(io.BytesIO(data)).load()


def test_a_registered_games_action_is_read(extra_games: None) -> None:
    from tests.games.lights.rules import Press
    assert _read(pickle.dumps(Press(3))) == Press(3)


def test_a_game_named_nowhere_is_refused(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.syspath_prepend(str(ROOT))
    monkeypatch.delenv(EXTRA_GAMES_VARIABLE, raising=False)
    from tests.games.lights.rules import Press
    with pytest.raises(pickle.UnpicklingError, match="not allowed"):
        _read(pickle.dumps(Press(3)))


@pytest.mark.parametrize("target", [os.system, pickle.loads])
def test_arbitrary_callables_stay_refused(extra_games: None, target: object) -> None:
    with pytest.raises(pickle.UnpicklingError, match="not allowed"):
        _read(pickle.dumps(target))


def test_a_function_of_a_games_rules_module_is_refused(extra_games: None) -> None:
    from tests.games.lights.rules import deal
    with pytest.raises(pickle.UnpicklingError, match="not allowed"):
        _read(pickle.dumps(deal))


def test_a_games_bots_module_is_refused(extra_games: None) -> None:
    from tests.games.lights.bots import LightsRandomBot
    with pytest.raises(pickle.UnpicklingError, match="not allowed"):
        _read(pickle.dumps(LightsRandomBot))


def test_an_engine_module_that_holds_no_actions_is_refused() -> None:
    """An answer may build the actions every game shares (the engine's core) and its game's own, not a session,
    a record or an inference (they could start threads or take memory in the app)."""
    from app.engine.core import Resign
    from app.engine.inference import InferenceOptions
    from app.engine.record import PlayerInfo
    assert _read(pickle.dumps(Resign())) == Resign()
    for refused in (InferenceOptions(cap=5), PlayerInfo("someone")):
        with pytest.raises(pickle.UnpicklingError, match="not allowed"):
            _read(pickle.dumps(refused))


def test_the_engine_tables_follow_the_registry(monkeypatch: pytest.MonkeyPatch) -> None:
    from app.engine import variants
    monkeypatch.syspath_prepend(str(ROOT))
    monkeypatch.delenv(EXTRA_GAMES_VARIABLE, raising=False)
    assert "lights" not in variants.TITLES and "lights" not in variants.VARIANTS
    monkeypatch.setenv(EXTRA_GAMES_VARIABLE, "tests.games.lights")
    assert variants.TITLES["lights"].startswith("Lights Out") and variants.game_type("lights").variant == "lights"
    monkeypatch.delenv(EXTRA_GAMES_VARIABLE)
    with pytest.raises(ValueError, match="unknown game 'lights'"):
        variants.game_type("lights")


def test_exports_turn_the_board_for_the_seats_defined_as_turned() -> None:
    from app.exports import _flipped
    assert [_flipped("minit", seat) for seat in (None, 0, 1, 7)] == [False, False, True, False]


def test_a_class_a_games_rules_only_import_is_refused(extra_games: None) -> None:
    import tests.games.lights.rules as rules
    assert isinstance(rules.Any, type)  # typing.Any, a class imported into the rules, not one of them
    with pytest.raises(pickle.UnpicklingError, match="not allowed"):
        _read(b"\x80\x04ctests.games.lights.rules\nAny\n.")
    assert _read(b"\x80\x04ctests.games.lights.rules\nPressed\n.") is rules.Pressed
