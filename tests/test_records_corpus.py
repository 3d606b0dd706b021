"""Nothing a player has changes: every record of the corpus loads, replays and exports to the same bytes.

``tests/data/records/`` holds records of every registered game, saved by the app's own code
(``tests/data/records/make_corpus.py`` made them), each beside what the app made of it then
(``<name>.expected.json``): every export its game offers, a digest of every replay frame from every perspective a
record opens (the board image, what the seat was told in words, its move list, clocks, notes, the step's entry),
and what saving the loaded record again writes. This test makes all of it again with today's code and compares
the bytes. It reaches the games through public doors only (the registry ``app.games``, the record module, the
exports and the autosave store), never a game's own modules, so that it holds while those move.

Regenerating the expectations is allowed only for a change of outputs that is intended and said in the commit
(see ``docs/record-format.md``).
"""

from __future__ import annotations

import dataclasses
import difflib
import hashlib
import json
import os
import tempfile
from pathlib import Path
from typing import Any

import pytest

from app import games, storage
from app.engine.record import (GameRecord, Notes, RecordError, Timeline, allowed_perspectives, load_record,
                               read_record, resume)
from app.exports import export_record, frame_svg, scene_svg

CORPUS = Path(__file__).resolve().parent / "data" / "records"
EXPECTED_SUFFIX = ".expected.json"
SAME = "identical to the record file"
"""What the expectations say where re-saving writes the very bytes of the record file."""
AUTOSAVE_FORMAT = "autosave"
"""The ``written_by`` of a record written as an autosave (compact JSON); every other record is a saved file."""


def record_files() -> list[Path]:
    """Every record of the corpus (each ``<game>/<name>.json`` that has its expectations beside it)."""
    return sorted(path for path in CORPUS.glob("*/*.json")
                  if not path.name.endswith(EXPECTED_SUFFIX) and expected_path(path).is_file())


def expected_path(record: Path) -> Path:
    return record.with_name(record.name[:-len(".json")] + EXPECTED_SUFFIX)


def _digest(data: bytes | str) -> str:
    return hashlib.sha256(data.encode("utf-8") if isinstance(data, str) else data).hexdigest()


def _jsonable(value: Any) -> Any:
    """Plain JSON data of a frame's parts (notes, entries, outcomes), sorted where JSON would not sort."""
    if isinstance(value, Notes):
        return dataclasses.asdict(value)
    if hasattr(value, "to_json"):
        return value.to_json()
    return value


# ---- what the app makes of a record --------------------------------------------------------------------------

def exports_of(record: GameRecord, source: Path) -> dict[str, str]:
    """Each export format of the record's game -> the file's text, or ``refused: <message>`` where the app refuses
    it (a format that would show the truth of a game still going on)."""
    found = {}
    with tempfile.TemporaryDirectory(prefix="corpus-") as folder:
        for fmt in games.get(record.variant).formats:
            target = Path(folder) / f"export{fmt.suffix}"
            try:
                export_record(record, fmt.name, target, source=source)
            except (RecordError, ValueError) as error:
                found[fmt.name] = f"refused: {error}"
                continue
            found[fmt.name] = target.read_bytes().decode("utf-8")
    return found


def perspectives_of(record: GameRecord) -> list[int | None]:
    """Every perspective anyone may open on this record: the spectator's, then each seat's."""
    seats = len(games.get(record.variant).seats)
    found: list[int | None] = []
    for asking in (None, *range(seats)):
        for perspective in allowed_perspectives(record, asking):
            if perspective not in found:
                found.append(perspective)
    return found


FRAME_PARTS = ("state", "notes", "image", "marked", "words", "moves")
"""What each step's digest is made of, in order: the step's state (ply, seat to move, phase, clocks, entry,
outcome), the notes shown, the board image (the SVG export), the board drawn with the seat's own marks, the words
(what the seat was told at that step, or the entry said for the truth) and the seat's move list."""


def frames_of(record: GameRecord) -> dict[str, Any]:
    """For each perspective (``truth`` or a seat's name), one digest per replay step of everything the replay
    window and the image export show there: six hex digits for each of :data:`FRAME_PARTS`, joined by dots."""
    definition = games.get(record.variant)
    presenter = definition.presenter() if definition.presenter is not None else None
    timeline = Timeline(record)
    frames: dict[str, Any] = {"steps": timeline.steps}
    for perspective in perspectives_of(record):
        name = "truth" if perspective is None else definition.seat_names[perspective]
        digests = []
        told = 0
        for step in range(timeline.steps + 1):
            frame = timeline.frame(step, perspective)
            parts: dict[str, Any] = dict.fromkeys(FRAME_PARTS)
            parts["state"] = {"step": frame.step, "ply": frame.ply, "to_move": frame.to_move, "phase": frame.phase,
                              "remaining": frame.remaining, "outcome": _jsonable(frame.outcome),
                              "entry": _jsonable(frame.entry)}
            parts["notes"] = {str(seat): _jsonable(notes) for seat, notes in sorted(frame.notes.items())}
            parts["image"] = frame_svg(record.variant, frame)
            if presenter is not None:
                if perspective is None:
                    parts["words"] = None if frame.entry is None else presenter.describe_action(frame.entry.action)
                else:
                    new = frame.observations[told:]
                    told = len(frame.observations)
                    parts["words"] = [presenter.describe(observation, perspective) for observation in new]
                    parts["moves"] = presenter.move_list(frame.view)
                    marks = frame.notes[perspective].marks
                    if marks is not None:  # the replay window draws a seat's board with its own marks
                        parts["marked"] = scene_svg(presenter.bound(marks).scene(frame.view))
            digests.append(".".join(_digest(json.dumps(parts[part], sort_keys=True))[:6] for part in FRAME_PARTS))
        frames[name] = digests
    return frames


def resaved_of(record_path: Path, written_by: str) -> dict[str, str]:
    """What writing the loaded record again gives, the way it was first written (a saved file, an autosave),
    and, for an unfinished game, what saving it again after continuing it (no time passing) gives."""
    original = record_path.read_bytes()
    record = read_record(record_path)
    found = {}
    with tempfile.TemporaryDirectory(prefix="corpus-") as folder:
        if written_by == AUTOSAVE_FORMAT:
            before = os.environ.get("SIGHTLINE_DATA_DIR")
            os.environ["SIGHTLINE_DATA_DIR"] = folder
            try:
                written = storage.autosave(record).read_bytes()
                continued = None
                if record.result is None:
                    continued = storage.autosave(resume(record, time_source=lambda: 0.0)).read_bytes()
            finally:
                if before is None:
                    del os.environ["SIGHTLINE_DATA_DIR"]
                else:
                    os.environ["SIGHTLINE_DATA_DIR"] = before
        else:
            target = Path(folder) / "again.json"
            record.save(target)
            written = target.read_bytes()
            continued = None
            if record.result is None:
                resume(record, time_source=lambda: 0.0).snapshot().save(target)
                continued = target.read_bytes()
    found["loaded and saved"] = SAME if written == original else written.decode("utf-8")
    if continued is not None:
        found["continued and saved"] = SAME if continued == original else continued.decode("utf-8")
    return found


def outputs_of(record_path: Path, written_by: str) -> dict[str, Any]:
    """Everything the corpus keeps as expected for one record file."""
    replayed = load_record(record_path)
    record = replayed.record
    return {
        "written_by": written_by,
        "final": {"ply": replayed.game.ply, "phase": replayed.game.phase, "remaining": replayed.remaining,
                  "outcome": _jsonable(replayed.game.outcome)},
        "exports": exports_of(record, record_path),
        "frames": frames_of(record),
        "resaved": resaved_of(record_path, written_by),
    }


# ---- the comparison --------------------------------------------------------------------------------------------

def _text_difference(expected: str, actual: str) -> str:
    lines = list(difflib.unified_diff(expected.splitlines(), actual.splitlines(), "expected", "today", lineterm="",
                                      n=1))
    return "\n".join(lines[:30]) + ("\n..." if len(lines) > 30 else "")


def differences(expected: dict[str, Any], actual: dict[str, Any]) -> list[str]:
    """What differs, each a sentence naming the output (and the step of a replay)."""
    found = []
    if expected.get("final") != actual["final"]:
        found.append(f"the replay ends differently: expected {expected.get('final')}, today {actual['final']}")
    for group in ("exports", "resaved"):
        wanted, made = expected.get(group, {}), actual[group]
        for name in sorted(set(wanted) | set(made)):
            if name not in made:
                found.append(f"{group} {name!r}: expected, but not made today")
            elif name not in wanted:
                found.append(f"{group} {name!r}: made today, but not in the expectations")
            elif wanted[name] != made[name]:
                what = "export" if group == "exports" else "re-saving"
                found.append(f"{what} {name!r} differs in bytes:\n{_text_difference(wanted[name], made[name])}")
    wanted_frames, made_frames = expected.get("frames", {}), actual["frames"]
    if wanted_frames.get("steps") != made_frames["steps"]:
        found.append(f"the replay has {made_frames['steps']} steps, not {wanted_frames.get('steps')}")
    for name in sorted((set(wanted_frames) | set(made_frames)) - {"steps"}):
        old, new = wanted_frames.get(name), made_frames.get(name)
        if old is None or new is None:
            found.append(f"frames from {name}'s perspective: {'not opened today' if new is None else 'new today'}")
        elif old != new:
            step = next((index for index, (a, b) in enumerate(zip(old, new)) if a != b), min(len(old), len(new)))
            if step < min(len(old), len(new)):
                parts = [part for part, a, b in zip(FRAME_PARTS, old[step].split("."), new[step].split(".")) if a != b]
                what = ", ".join(parts) or "its digest"
            else:
                what = f"the number of steps ({len(new) - 1} today, {len(old) - 1} expected)"
            found.append(f"frames from {name}'s perspective differ, first at step {step} (of {len(old) - 1}): {what}")
    return found


# ---- the tests -------------------------------------------------------------------------------------------------

def test_the_corpus_holds_records_of_every_registered_game() -> None:
    held = {path.parent.name for path in record_files()}
    missing = sorted(set(games.names()) - held)
    assert not missing, f"no records in {CORPUS} for: {', '.join(missing)} (run tests/data/records/make_corpus.py)"
    for path in record_files():
        assert path.parent.name == read_record(path).variant, f"{path.relative_to(CORPUS)} is in the wrong folder"


@pytest.mark.parametrize("record_path", record_files(), ids=lambda path: f"{path.parent.name}/{path.stem}")
def test_a_saved_record_loads_replays_and_exports_as_it_did(record_path: Path) -> None:
    expected = json.loads(expected_path(record_path).read_text(encoding="utf-8"))
    actual = outputs_of(record_path, expected["written_by"])
    found = differences(expected, actual)
    assert not found, f"{record_path.relative_to(CORPUS)}: what the app makes of it changed:\n- " + "\n- ".join(found)


def test_a_changed_byte_of_an_export_is_caught() -> None:
    """The comparison itself: one byte changed in one export, one frame's digest, is reported with its name."""
    record_path = record_files()[0]
    expected = json.loads(expected_path(record_path).read_text(encoding="utf-8"))
    actual = json.loads(json.dumps(expected))
    name = next(iter(actual["exports"]))
    actual["exports"][name] = actual["exports"][name][:-1] + chr(ord(actual["exports"][name][-1]) ^ 1)
    perspective = next(key for key in actual["frames"] if key != "steps")
    actual["frames"][perspective][-1] = ".".join(["000000"] * len(FRAME_PARTS))
    found = differences(expected, actual)
    assert len(found) == 2 and f"export {name!r} differs" in found[0] and f"{perspective}'s perspective" in found[1]
