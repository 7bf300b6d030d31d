"""A long odds run in pieces (``app.odds.resumable``): results kept by deal range, a rerun
solves only what is missing, the same letters wherever the work runs (local processes or a
Dask cluster), and the winnable deals as a bitset."""

from __future__ import annotations

import pytest

from app.engine import Variant
from app.odds import resumable
from app.odds.run import solve_range, verdict_string

STANDARD_1 = Variant("standard", 1)
STANDARD_3 = Variant("standard", 3)  # the fastest to solve


@pytest.fixture
def counted(monkeypatch) -> list[tuple[int, int]]:
    """The ranges solved, as (first, last), when the work runs in this process."""
    solved: list[tuple[int, int]] = []
    real = resumable.range_letters

    def counting(goal, passes, first, last, node_limit, player):
        solved.append((first, last))
        return real(goal, passes, first, last, node_limit, player)

    monkeypatch.setattr(resumable, "range_letters", counting)
    monkeypatch.setattr(resumable, "RANGE", 50)
    return solved


def test_a_rerun_solves_only_what_is_missing(tmp_path, counted):
    first = resumable.run(STANDARD_1, 1, 120, tmp_path, workers=1)
    assert counted == [(1, 50), (51, 100), (101, 150)]  # whole ranges, the last one too
    expected = solve_range(STANDARD_1.goal, 1, 1, 120, workers=1)
    assert verdict_string(first) == verdict_string(expected)
    assert (first.wins, first.losses) == (expected.wins, expected.losses)
    counted.clear()
    again = resumable.run(STANDARD_1, 1, 150, tmp_path, workers=1)
    assert counted == [] and verdict_string(again)[:120] == verdict_string(first)
    # A run killed while writing leaves no half file; a damaged one is solved again.
    path = resumable.range_file(tmp_path, STANDARD_1, "solver", 51, 100)
    path.write_text("WL\n")
    wider = resumable.run(STANDARD_1, 30, 150, tmp_path, workers=1)
    assert counted == [(51, 100), (151, 200)]
    assert verdict_string(wider)[:91] == verdict_string(first)[29:120]
    assert not list(tmp_path.rglob("*.partial"))


def test_the_greedy_player_keeps_its_own_results(tmp_path, counted):
    greedy = resumable.run(STANDARD_1, 1, 50, tmp_path, workers=1, player="greedy")
    assert greedy.wins == solve_range(STANDARD_1.goal, 1, 1, 50, workers=1,
                                      player="greedy").wins
    assert resumable.range_file(tmp_path, STANDARD_1, "greedy", 1, 50).exists()
    assert not resumable.range_file(tmp_path, STANDARD_1, "solver", 1, 50).exists()


def test_local_processes_give_the_same_letters(tmp_path, monkeypatch):
    monkeypatch.setattr(resumable, "RANGE", 100)
    one = resumable.run(STANDARD_3, 1, 400, tmp_path / "one", workers=1)
    two = resumable.run(STANDARD_3, 1, 400, tmp_path / "two", workers=2)
    assert verdict_string(one) == verdict_string(two)


def test_a_dask_cluster_of_two_workers_gives_the_same_letters(tmp_path, monkeypatch):
    import dask.distributed

    monkeypatch.setattr(resumable, "RANGE", 250)
    local = resumable.run(STANDARD_3, 1, 1_000, tmp_path / "local", workers=1)
    with dask.distributed.LocalCluster(n_workers=2, threads_per_worker=1, processes=True,
                                       dashboard_address=None) as cluster:
        remote = resumable.run(STANDARD_3, 1, 1_000, tmp_path / "dask",
                               scheduler=cluster.scheduler_address)
    assert verdict_string(remote) == verdict_string(local)
    assert len(list((tmp_path / "dask").rglob("*.txt"))) == 4


def test_the_bitset_has_a_bit_a_deal():
    letters = "WLLWWLLLW" + "L" * 7 + "W"
    bits = resumable.bitset(letters)
    assert len(bits) == 3
    assert [bool(bits[i >> 3] >> (i & 7) & 1) for i in range(len(letters))] == [
        letter == "W" for letter in letters]
