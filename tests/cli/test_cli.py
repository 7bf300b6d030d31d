"""The ``pyramid`` command line: deal, solve, odds, and one-line errors with exit status 2.

(The odds run behind ``pyramid odds``, its chunks, workers and Wilson interval: tests/odds.)"""

from __future__ import annotations

import gzip
import json
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from app.cli import draw_pyramid, main
from app.engine import Deal, Game, Move
from app.engine.deal import position
from app.engine.greedy import greedy_wins
from app.engine.solver import par, solve
from app.odds import wilson_interval
from tests.engine.engine_helpers import DEAL_A

VECTORS = json.loads((Path(__file__).parents[1] / "data" / "deal-vectors.json").read_text())


def run(capsys, *argv: str) -> tuple[int, str, str]:
    status = main(list(argv))
    out, err = capsys.readouterr()
    return status, out, err


def moves_from_text(out: str) -> list[Move]:
    return [Move.from_text(m) for m in re.findall(r"\d+\. (\S+)", out)]


# --- pyramid deal --------------------------------------------------------------------------
def test_deal_text_draws_the_pyramid_and_the_stock(capsys):
    status, out, err = run(capsys, "deal", "1")
    assert status == 0 and err == ""
    lines = out.splitlines()
    assert lines[0] == "Deal 1"
    assert lines[2].strip() == "JD"
    assert lines[8].split() == ["AS", "AH", "3C", "4C", "5C", "TS", "QH"]
    stock = " ".join(VECTORS[0]["stock"])
    assert f"Stock, top first: {stock}" in lines
    assert f"Text: {Deal.from_number(1).to_text()}" in lines


def test_deal_rows_are_centred_so_each_card_sits_over_its_two_covers():
    deal = Deal.from_number(617)
    rows = draw_pyramid(deal)
    assert len(rows) == 7 and rows[-1].startswith(deal.pyramid[21].name)

    def column(row: int, col: int) -> int:
        return rows[row].index(deal.pyramid[position(row, col)].name)

    for row in range(6):
        for col in range(row + 1):
            assert column(row + 1, col) < column(row, col) < column(row + 1, col + 1)
            assert column(row, col) - column(row + 1, col) == 2


@pytest.mark.parametrize("vector", VECTORS, ids=lambda v: str(v["deal"]))
def test_deal_json_is_the_rules_form_with_the_number(capsys, vector):
    status, out, _ = run(capsys, "deal", str(vector["deal"]), "--json")
    assert status == 0 and json.loads(out) == vector


def test_deal_file_round_trip(capsys, tmp_path):
    path = tmp_path / "617.json"
    path.write_text(main_output(capsys, "deal", "617", "--json"))
    status, out, _ = run(capsys, "deal", "--deal-file", str(path))
    assert status == 0 and out.startswith("Deal 617\n")
    text = tmp_path / "custom.txt"
    text.write_text(DEAL_A.to_text() + "\n")
    status, out, _ = run(capsys, "deal", "--deal-file", str(text), "--json")
    assert status == 0 and Deal.from_json(out) == DEAL_A and "deal" not in json.loads(out)


def main_output(capsys, *argv: str) -> str:
    status, out, _ = run(capsys, *argv)
    assert status == 0
    return out


# --- pyramid solve -------------------------------------------------------------------------
def test_solve_text_gives_a_winning_line_that_plays(capsys):
    status, out, err = run(capsys, "solve", "1")
    assert status == 0 and err == ""
    assert out.startswith("Deal 1, standard goal, 3 passes: winnable (")
    moves = moves_from_text(out)
    assert f"A winning line of {len(moves)} moves:" in out
    game = Game.replay(Deal.from_number(1), "standard", 3, moves)
    assert game.outcome() is not None and game.outcome().won


@pytest.mark.parametrize(("goal", "passes"), [("standard", 1), ("wholedeck", 2), ("wholedeck", 3)])
def test_solve_json(capsys, goal: str, passes: int):
    status, out, _ = run(capsys, "solve", "2", "--goal", goal, "--passes", str(passes), "--json")
    assert status == 0
    data = json.loads(out)
    assert set(data) >= {"deal", "goal", "passes", "winnable", "solution", "nodes", "seconds"}
    assert (data["deal"], data["goal"], data["passes"]) == (2, goal, passes)
    expected = solve(Game(Deal.from_number(2), goal, passes))
    assert data["winnable"] is expected.winnable and data["nodes"] == expected.nodes
    if data["winnable"]:
        game = Game.replay(Deal.from_number(2), goal, passes, map(Move.from_dict, data["solution"]))
        assert game.outcome().won
    else:
        assert data["solution"] is None


@pytest.mark.parametrize(("number", "goal", "passes"),
                         [(5, "standard", 3), (2, "wholedeck", 2), (1, "standard", 1)])
def test_solve_par_json_gives_the_par_and_a_par_line(capsys, number, goal, passes):
    status, out, _ = run(capsys, "solve", str(number), "--goal", goal, "--passes", str(passes),
                         "--par", "--json")
    assert status == 0
    data = json.loads(out)
    expected = par(Game(Deal.from_number(number), goal, passes))
    assert data["par"] == expected
    if expected is None:
        assert data["solution"] is None and data["winnable"] is False
        return
    assert len(data["solution"]) == expected
    game = Game.replay(Deal.from_number(number), goal, passes,
                       map(Move.from_dict, data["solution"]))
    assert game.outcome().won
    # Without --par there is no "par" key, and the line may be longer.
    _, plain, _ = run(capsys, "solve", str(number), "--goal", goal, "--passes", str(passes),
                      "--json")
    assert "par" not in json.loads(plain)
    assert len(json.loads(plain)["solution"]) >= expected


def test_solve_a_deal_that_cannot_be_won(capsys):
    # Deal 1 cannot be cleared completely in one pass (the solver proves it; the JSON agrees).
    status, out, _ = run(capsys, "solve", "1", "--goal", "wholedeck", "--passes", "1")
    assert status == 0
    assert out.startswith("Deal 1, whole deck goal, 1 pass: not winnable, whatever is played")
    data = json.loads(main_output(capsys, "solve", "1", "--goal", "wholedeck", "--passes", "1",
                                  "--json"))
    assert data["winnable"] is False and data["solution"] is None and data["nodes"] > 0


def test_solve_with_a_node_limit_can_say_unknown(capsys):
    argv = ["solve", "1", "--goal", "wholedeck", "--passes", "1", "--node-limit", "5"]
    data = json.loads(main_output(capsys, *argv, "--json"))
    assert data["winnable"] is None and data["verdict"] == "unknown" and data["solution"] is None
    assert "unknown, the search stopped at the node limit" in main_output(capsys, *argv)


def test_solve_a_custom_deal_file(capsys, tmp_path):
    path = tmp_path / "deal.json"
    path.write_text(DEAL_A.to_json())
    data = json.loads(main_output(capsys, "solve", "--deal-file", str(path), "--goal",
                                  "whole-deck", "--json"))
    assert data["deal"] is None and data["goal"] == "wholedeck" and data["winnable"] is True
    game = Game.replay(DEAL_A, "wholedeck", 3, map(Move.from_dict, data["solution"]))
    assert game.outcome().won and game.cards_removed == 52
    assert main_output(capsys, "solve", "--deal-file", str(path)).startswith(
        "Custom deal, standard goal, 3 passes: winnable")


def test_solve_reads_a_deal_from_stdin(capsys, monkeypatch):
    import io

    monkeypatch.setattr(sys, "stdin", io.StringIO(Deal.from_number(5).to_json()))
    data = json.loads(main_output(capsys, "solve", "--deal-file", "-", "--json"))
    assert data["deal"] == 5


# --- pyramid odds ----------------------------------------------------------------------------
def test_odds_counts_match_solving_each_deal(capsys):
    data = json.loads(main_output(capsys, "odds", "--deals", "12", "--start", "30", "--workers",
                                  "1", "--json", "--no-progress"))
    verdicts = [solve(Game(Deal.from_number(n), "standard", 3)).winnable for n in range(30, 42)]
    assert data["wins"] == verdicts.count(True) and data["losses"] == verdicts.count(False)
    assert (data["deals"], data["start"], data["goal"], data["passes"]) == (12, 30, "standard", 3)
    assert data["wilson_95"] == list(wilson_interval(data["wins"], 12))
    assert data["win_rate"] == pytest.approx(data["wins"] / 12) and data["unknown"] == 0


def test_odds_text_report_and_progress_bar(capsys):
    status, out, err = run(capsys, "odds", "--goal", "wholedeck", "--passes", "1", "--deals",
                           "6", "--workers", "1", "--progress")
    assert status == 0
    lines = out.splitlines()
    assert lines[0] == "Whole deck goal, 1 pass, deals 1 to 6"
    wins = int(re.fullmatch(r"Wins: (\d+) of 6 deals", lines[1]).group(1))
    low, high = wilson_interval(wins, 6)
    assert lines[2] == (f"Win rate: {100 * wins / 6:.2f}% (95% Wilson interval "
                        f"{100 * low:.2f}% to {100 * high:.2f}%)")
    assert re.fullmatch(r"Speed: [\d,.]+ deals per second \([\d.]+ s, 1 worker\)", lines[3])
    assert "6/6" in err  # tqdm's bar went to stderr


def test_odds_with_a_node_limit_reports_undecided_deals(capsys):
    data = json.loads(main_output(capsys, "odds", "--goal", "wholedeck", "--passes", "1",
                                  "--deals", "3", "--node-limit", "1", "--workers", "1", "--json"))
    assert data["unknown"] == 3 and data["unknown_deals"] == [1, 2, 3]
    assert data["win_rate"] is None and data["wilson_95"] == [0.0, 1.0]


def test_odds_with_the_greedy_player_counts_its_wins(capsys, tmp_path):
    path = tmp_path / "greedy.txt.gz"
    argv = ["odds", "--deals", "40", "--start", "30", "--workers", "1", "--no-progress",
            "--player", "greedy", "--verdicts", str(path)]
    data = json.loads(main_output(capsys, *argv, "--json"))
    won = [greedy_wins(Deal.from_number(n), "standard", 3) for n in range(30, 70)]
    assert data["wins"] == won.count(True) and data["losses"] == won.count(False)
    assert 0 < data["wins"] < 40 and data["unknown"] == 0 and data["nodes"] == 0
    assert data["wilson_95"] == list(wilson_interval(data["wins"], 40))
    solver = json.loads(main_output(capsys, "odds", "--deals", "2", "--workers", "1", "--json"))
    assert set(data) == set(solver)  # the same JSON shape as the solver's
    assert gzip.decompress(path.read_bytes()).decode() == "".join("W" if w else "L" for w in won)
    lines = main_output(capsys, *argv[:-2]).splitlines()
    assert lines[0] == "Standard goal, 3 passes, deals 30 to 69, greedy player"
    assert lines[1] == f"Wins: {won.count(True)} of 40 deals"


# --- errors: exit status 2, one line on stderr ------------------------------------------------
@pytest.mark.parametrize(
    ("argv", "message"),
    [
        ([], "the following arguments are required"),
        (["shuffle"], "invalid choice: 'shuffle'"),
        (["deal"], "give a deal number (1 to 99,999,999,999,999,999,999) or --deal-file"),
        (["deal", "0"], "deal number 0 is out of range: deals are numbered from 1 to 99,999,"),
        (["deal", "100000000000000000000"], "is out of range: deals are numbered from 1 to"),
        (["deal", "1.5"], "'1.5' is not a deal number: deals are numbered from 1 to"),
        (["deal", "²"], "'²' is not a deal number: deals are numbered from 1 to"),
        (["solve", "1", "--goal", "relaxed"], "goal must be 'standard' or 'wholedeck'"),
        (["solve", "1", "--passes", "4"], "passes must be a whole number from 1 to 3, not '4'"),
        (["solve", "1", "--passes", "two"], "passes must be a whole number from 1 to 3, not 'two'"),
        (["solve", "1", "--node-limit", "0"], "--node-limit must be a whole number of 1 or more"),
        (["solve", "1", "--deal-file", "x.json"], "give a deal number or --deal-file, not both"),
        (["solve", "--deal-file", "/no/such/deal.json"], "deal file '/no/such/deal.json' does"),
        (["solve", "--deal-file", "/"], "deal file '/' is a directory"),
        (["odds"], "the following arguments are required: --deals"),
        (["odds", "--deals", "-3"], "--deals must be a whole number of 1 or more, not '-3'"),
        (["odds", "--deals", "10", "--workers", "0"], "--workers must be a whole number"),
        (["odds", "--deals", "10", "--start", "99999999999999999995"], "go past the last deal"),
        (["deal", "1", "--jsn"], "unrecognized arguments: --jsn"),
        (["odds", "--deals", "5", "--player", "lucky"], "argument --player: invalid choice"),
        (["odds", "--deals", "5", "--player", "greedy", "--node-limit", "9"],
         "--node-limit is for the solver"),
    ],
)
def test_bad_arguments(capsys, argv: list[str], message: str):
    status, out, err = run(capsys, *argv)
    assert status == 2 and out == ""
    assert err.count("\n") == 1 and err.startswith("pyramid") and "Traceback" not in err
    assert message in err


@pytest.mark.parametrize(
    ("content", "message"),
    [
        ("{not json", "the deal is not valid JSON"),
        ("", "the deal is not valid JSON"),
        ('{"pyramid": []}', "the deal has no 'stock' list"),
        (DEAL_A.to_json().replace('"7S"', '"6S"'), "appears twice: 6S; missing: 7S"),
        (DEAL_A.to_json().replace('"7S"', '"7X"'), "stock[23]: '7X' is not a card"),
        (json.dumps({**DEAL_A.to_dict(), "deal": 3}), "these cards are not deal 3"),
        ("hello", "a deal in text is the 28 pyramid cards, a '/', then the 24 stock cards"),
    ],
)
def test_bad_deal_files(capsys, tmp_path, content: str, message: str):
    path = tmp_path / "deal.json"
    path.write_text(content)
    status, out, err = run(capsys, "solve", "--deal-file", str(path))
    assert status == 2 and out == ""
    assert err.count("\n") == 1 and err.startswith(f"pyramid solve: error: deal file '{path}': ")
    assert message in err


def test_binary_deal_file(capsys, tmp_path):
    path = tmp_path / "deal.bin"
    path.write_bytes(b"\xff\xfe\x00garbage")
    status, _, err = run(capsys, "deal", "--deal-file", str(path))
    assert status == 2 and err == f"pyramid deal: error: deal file '{path}' is not a text file\n"


def test_help_exits_0(capsys):
    status, out, _ = run(capsys, "odds", "--help")
    assert status == 0 and "--workers" in out and "--goal" in out


# --- the installed console script ----------------------------------------------------------
def test_installed_pyramid_script():
    script = shutil.which("pyramid", path=str(Path(sys.executable).parent))
    assert script, "the pyramid console script is not installed next to this Python"
    done = subprocess.run([script, "deal", "32000", "--json"], capture_output=True, text=True,
                          timeout=60)
    assert done.returncode == 0 and json.loads(done.stdout) == VECTORS[2]
    bad = subprocess.run([script, "solve", "0"], capture_output=True, text=True, timeout=60)
    assert bad.returncode == 2 and bad.stdout == ""
    assert bad.stderr.startswith("pyramid solve: error: argument number: deal number 0 is out")
    assert bad.stderr.count("\n") == 1


def test_odds_kept_in_pieces_go_on_where_they_stopped(capsys, tmp_path):
    code, out, _ = run(capsys, "odds", "--deals", "300", "--results", str(tmp_path),
                       "--workers", "1", "--json", "--bits", str(tmp_path / "w.bits"))
    assert code == 0
    first = json.loads(out)
    assert (first["deals"], first["wins"] + first["losses"]) == (300, 300)
    files = sorted(tmp_path.rglob("*.txt"))
    assert [f.name for f in files] == ["00000000000000000001-00000000000000002000.txt"]
    bits = (tmp_path / "w.bits").read_bytes()
    assert len(bits) == 38 and sum(bin(b).count("1") for b in bits) == first["wins"]
    before = files[0].stat().st_mtime_ns
    code, out, _ = run(capsys, "odds", "--deals", "100", "--start", "101", "--results",
                       str(tmp_path), "--json")
    assert code == 0 and files[0].stat().st_mtime_ns == before  # nothing solved again
    code, _, err = run(capsys, "odds", "--deals", "10", "--scheduler", "tcp://127.0.0.1:1")
    assert code == 2 and "--scheduler needs --results" in err


def test_the_solvers_rule_options_in_solve_and_odds(capsys):
    status, out, _ = run(capsys, "solve", "1", "--passes", "1", "--unlimited", "--overlap",
                         "--json")
    data = json.loads(out)
    expected = solve(Game(Deal.from_number(1), "standard", 1), passes=None, overlap=True)
    assert status == 0 and data["winnable"] is expected.winnable
    assert data["unlimited_passes"] is True and data["overlap"] is True
    status, out, _ = run(capsys, "odds", "--deals", "60", "--unlimited", "--workers", "1",
                         "--json")
    counted = json.loads(out)
    wins = sum(bool(solve(Game(Deal.from_number(n), "standard", 3), passes=None).winnable)
               for n in range(1, 61))
    assert counted["wins"] == wins and counted["unlimited_passes"] is True
    three = json.loads(run(capsys, "odds", "--deals", "60", "--workers", "1", "--json")[1])
    assert counted["wins"] >= three["wins"]  # more passes never win less
    status, _, err = run(capsys, "odds", "--deals", "10", "--overlap", "--player", "greedy")
    assert status == 2 and "rule options" in err
    status, _, err = run(capsys, "odds", "--deals", "10", "--overlap", "--results", "/tmp/x")
    assert status == 2 and "not kept" in err


def test_facts_measure_the_winnable_deals_and_go_on_where_they_stopped(capsys, tmp_path,
                                                                       monkeypatch):
    from app.engine import Variant
    from app.odds import resumable
    from app.odds.winnable import is_proven_winnable

    monkeypatch.setattr(resumable, "RANGE", 10)
    code, out, _ = run(capsys, "facts", "--goal", "wholedeck", "--passes", "3", "--deals", "12",
                       "--results", str(tmp_path), "--workers", "1", "--json")
    assert code == 0
    summary = json.loads(out)
    winnable = sum(is_proven_winnable(n, Variant("wholedeck", 3)) for n in range(1, 13))
    assert (summary["deals"], summary["winnable"]) == (12, winnable)
    files = sorted((tmp_path / "facts" / "wholedeck-3").glob("*.txt"))
    assert len(files) == 2
    before = [f.stat().st_mtime_ns for f in files]
    code, out, _ = run(capsys, "facts", "--goal", "wholedeck", "--passes", "3", "--deals", "5",
                       "--start", "3", "--results", str(tmp_path))
    assert code == 0 and "Whole deck goal, 3 passes, deals 3 to 7" in out and "Mean par" in out
    assert [f.stat().st_mtime_ns for f in files] == before  # nothing measured again


def test_a_reader_that_leaves_ends_the_command_quietly(monkeypatch):
    """``pyramid deal 1 | head -1``: the pipe closes under the command, which stops with the
    shell's status for it, no traceback."""
    import io
    import os

    reader, writer = os.pipe()
    os.close(reader)

    class ClosedPipe(io.TextIOBase):
        def write(self, text: str) -> int:
            raise BrokenPipeError(32, "Broken pipe")

        def fileno(self) -> int:
            return writer

    monkeypatch.setattr(sys, "stdout", ClosedPipe())
    try:
        assert main(["deal", "1"]) == 141
    finally:
        os.close(writer)
