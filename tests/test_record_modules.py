"""The record's modules: app.engine.record is the one import point, the jobs below it import one way only."""

from __future__ import annotations

import ast
from pathlib import Path

from app.engine import atomic_files, record, record_format, session, timeline
from app.games.minit.rules import MinitChess, MinitMove

ENGINE = Path(__file__).resolve().parent.parent / "app" / "engine"

BELOW = {"atomic_files": set(), "record_format": {"atomic_files"}, "timeline": {"atomic_files", "record_format"},
         "session": {"atomic_files", "record_format", "timeline"}}
"""Each module of the record and the record modules it may import (any import, at the top or inside a function)."""


def _engine_imports(name: str) -> set[str]:
    tree = ast.parse((ENGINE / f"{name}.py").read_text(encoding="utf-8"))
    found = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.ImportFrom) and node.module:
            found.add(node.module.rsplit(".", 1)[-1])
        elif isinstance(node, ast.Import):
            found.update(alias.name.rsplit(".", 1)[-1] for alias in node.names)
    return found


def test_every_name_of_the_record_module_is_its_homes_own() -> None:
    homes = (atomic_files, record_format, session, timeline)
    for name in record.__all__:
        value = getattr(record, name)
        if name != "TimeControl":
            assert any(getattr(home, name, None) is value for home in homes), name


def test_the_record_modules_import_one_way() -> None:
    for name, allowed in BELOW.items():
        assert _engine_imports(name) & (set(BELOW) | {"record"}) <= allowed, name


def test_resume_is_the_sessions_own() -> None:
    now = [0.0]
    played = session.GameSession(MinitChess(), time_source=lambda: now[0])
    played.play(0, MinitMove.parse("b1-c3"))
    saved = played.snapshot()
    again = record.resume(saved, time_source=lambda: now[0])
    assert again.snapshot().to_json() == session.GameSession.from_snapshot(saved, time_source=lambda: now[0]) \
        .snapshot().to_json() == saved.to_json()
