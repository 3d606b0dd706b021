"""Whole games over loopback between processes: ``sightline serve`` hosts, ``sightline join`` plays a seat with a
built-in bot; neither imports Qt. The host's record is an ordinary record that replays."""

from __future__ import annotations

import subprocess
import sys

from app.engine.record import read_record
from app.engine.timeline import Timeline
from tests.test_net_support import ROOT, finish, read_invitations, sightline, stop_all


def test_the_network_modules_import_no_qt() -> None:
    code = ("import sys, app.cli, app.net.server, app.net.guest, app.net.commands, app.net.announce; "
            "app.cli.build_parser(); "
            "print(sorted(name for name in sys.modules if name.startswith('PySide6')))")
    found = subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True, timeout=60,
                           env={"PYTHONPATH": str(ROOT), "PATH": "/usr/bin:/bin"})
    assert found.returncode == 0, found.stderr
    assert found.stdout.strip() == "[]"


def test_two_processes_play_a_whole_rbc_game(tmp_path) -> None:  # type: ignore[no-untyped-def]
    processes: list[subprocess.Popen[str]] = []
    try:
        host = sightline("serve", "--variant", "rbc", "--white", "random", "--black", "remote", "--time", "600+5",
                         "--seed", "3", "--max-plies", "500", "--out", str(tmp_path))
        processes.append(host)
        invitation = read_invitations(host, 1)["Black"]
        guest = sightline("join", invitation, "--bot", "attacker", "--seed", "4", "--name", "far away")
        processes.append(guest)
        code, out, err = finish(guest)
        assert code == 0, err
        assert out.startswith("played Black; result: ")
        code, out, err = finish(host)
        assert code == 0, err
        assert "result: " in out and "record written to" in out
        assert "Black: network lag " in out and " given back over " in out  # timed: the guest's lag, measured
    finally:
        stop_all(processes)
    records = list(tmp_path.glob("rbc-*.json"))
    assert len(records) == 1
    record = read_record(records[0])
    assert [player.name for player in record.players] == ["random", "far away"]
    assert record.clock.initial == 600 and record.result is not None
    timeline = Timeline(record)  # replays to the recorded result, as any record must
    assert timeline.steps > 2


def test_four_connections_play_a_whole_telepathy_game(tmp_path) -> None:  # type: ignore[no-untyped-def]
    processes: list[subprocess.Popen[str]] = []
    try:
        host = sightline("serve", "--variant", "telepathy", *(f"--seat={seat}=remote" for seat in
                                                               ("W1", "W2", "B1", "B2")),
                         "--untimed", "--max-plies", "400", "--out", str(tmp_path))
        processes.append(host)
        invitations = read_invitations(host, 4)
        assert sorted(invitations) == ["B1", "B2", "W1", "W2"]
        assert len(set(invitations.values())) == 4  # a code of its own for each seat
        guests = {seat: sightline("join", text, "--bot", "random", "--seed", str(index))
                  for index, (seat, text) in enumerate(invitations.items())}
        processes.extend(guests.values())
        for seat, guest in guests.items():
            code, out, err = finish(guest, 180)
            assert code == 0, err
            assert out.startswith(f"played {seat}; result: ")
        code, out, err = finish(host)
        assert code == 0, err
    finally:
        stop_all(processes)
    (path,) = tmp_path.glob("telepathy-*.json")
    record = read_record(path)
    assert len(record.players) == 4 and record.result is not None
    Timeline(record)
