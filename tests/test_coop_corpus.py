"""The Cooperative Chess 2 cases of the record corpus come out the same every time they are made.

``tests/data/records/make_corpus.py`` plays each case with seeded bots; a game of chance must also be dealt from
the case's seed, or every run of the generator deals (and so plays) another game. Each coop case is made twice
here and the two records compared, and both compared with the record kept in the corpus (actions, deal, result).
"""

from __future__ import annotations

import importlib.util
import json
import sys
from pathlib import Path
from typing import Any

import pytest

RECORDS = Path(__file__).resolve().parent / "data" / "records"


def _generator() -> Any:
    spec = importlib.util.spec_from_file_location("make_corpus_for_coop", RECORDS / "make_corpus.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module  # its dataclasses look their module up
    spec.loader.exec_module(module)
    return module


GENERATOR = _generator()
COOP_CASES = [case for case in GENERATOR.CASES if case.game in ("coop", "coop_solitaire")]
KEPT = ("actions", "chance_seed", "seed", "result")


def _made(case: Any, seed: int) -> dict[str, Any]:
    return json.loads(json.dumps(GENERATOR.play(case, seed).to_json()))


def test_there_are_coop_cases() -> None:
    assert {case.game for case in COOP_CASES} == {"coop", "coop_solitaire"}


@pytest.mark.parametrize("case", COOP_CASES, ids=lambda case: f"{case.game}/{case.name}")
def test_a_coop_case_made_twice_is_the_same_game_as_the_one_kept(case: Any) -> None:
    kept = json.loads((RECORDS / case.game / f"{case.name}.json").read_text(encoding="utf-8"))
    first, second = _made(case, kept["seed"]), _made(case, kept["seed"])
    assert first == second
    assert first["chance_seed"] == kept["seed"], "the deal comes from the case's seed"
    assert {key: first.get(key) for key in KEPT} == {key: kept.get(key) for key in KEPT}
