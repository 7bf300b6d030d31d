"""The committed odds data (app/data/) and what app/odds makes of it: the odds rows, the
winnable bitsets checked against the real solver, winnable deals, the deal of the day, the
comparisons with published figures, and bench/collect_odds.py that assembles the data."""

from __future__ import annotations

import fnmatch
import hashlib
import random
import tomllib
from datetime import date, timedelta
from pathlib import Path

import pytest

from app.engine import VARIANTS, Deal, Game, Goal, Variant
from app.engine.solver import Verdict, solve
from app.odds import daily, table, winnable
from app.odds import published as pub
from app.odds.run import solve_range, verdict_string
from tests.conftest import bench_script

ROOT = Path(__file__).resolve().parents[2]
VARIANTS_AS_PAIRS = [(v.goal, v.passes) for v in VARIANTS]
DAYS = [date(2026, 11, 30) + timedelta(days=i) for i in range(40)]


def fresh_load() -> None:
    """Forget everything read from the data files, as a new process would."""
    table.odds_rows.cache_clear()
    winnable.verdicts.cache_clear()


def winnable_from_file(goal: str, passes: int) -> set[int]:
    """The proven-winnable deals read straight from the bitset file, without app.odds."""
    bits = (winnable.WINNABLE_DIR / f"{goal}-{passes}.bits").read_bytes()
    return {1 + i for i in range(8 * len(bits)) if bits[i >> 3] >> (i & 7) & 1}


# --- the data files ---------------------------------------------------------------------------
def test_odds_has_the_six_rule_sets_in_order_and_each_bitset_agrees():
    rows = table.odds_rows()
    assert [(row.goal, row.passes) for row in rows] == [(v.goal, v.passes) for v in VARIANTS]
    for row in rows:
        found = winnable.verdicts(row.variant)  # checks size and the count of wins on load
        assert found.deals == row.deals == row.wins + row.losses and row.start == 1
        assert found.count() == row.wins == len(winnable_from_file(row.goal.value, row.passes))
        low, high = row.interval
        assert 0 <= low <= row.rate <= high <= 1
        assert row.command.startswith(f"pyramid odds --goal {row.goal.value} "
                                      f"--passes {row.passes} --deals {row.deals}")


def test_winnable_shares_are_the_rates_by_goal_and_passes():
    shares = table.winnable_shares()
    assert set(shares) == {"standard", "wholedeck"}
    for row in table.odds_rows():
        assert shares[row.goal.value][row.passes] == row.wins / row.deals
    # More passes can only win more deals.
    for goal in shares.values():
        assert goal[1] <= goal[2] <= goal[3]


def test_the_bitsets_agree_with_the_solver_on_a_sample():
    rng = random.Random(2026)
    for goal, passes in VARIANTS_AS_PAIRS:
        found = winnable.verdicts(Variant(goal, passes))
        for number in rng.sample(range(1, found.deals + 1), 12):
            verdict = solve(Game(Deal.from_number(number), goal, passes)).verdict
            assert (number in found) == (verdict is Verdict.WINNABLE), (number, goal, passes)


def test_the_solver_agrees_with_the_bitsets_on_every_one_of_the_first_deals():
    """Every deal of a run, not a sample: a solver change that turns one verdict is caught here
    (a bug in the search's shortcuts once turned standard 1-pass deal 14 to "not winnable"
    while every other test passed). The whole run is ``bench/verify_verdicts.py``."""
    for goal, passes in VARIANTS_AS_PAIRS:
        found = winnable.verdicts(Variant(goal, passes))
        for number in range(1, 1201):
            verdict = solve(Game(Deal.from_number(number), goal, passes)).verdict
            assert (number in found) == (verdict is Verdict.WINNABLE), (number, goal, passes)


def test_package_data_ships_every_data_file():
    """A non-editable install (the Docker image) gets app/data/* only through package-data."""
    config = tomllib.loads((ROOT / "pyproject.toml").read_text())
    patterns = config["tool"]["setuptools"]["package-data"]["app"]
    files = [p.relative_to(ROOT / "app").as_posix()
             for p in (ROOT / "app" / "data").rglob("*") if p.is_file()]
    assert files
    for name in files:
        assert any(fnmatch.fnmatch(name, pattern) for pattern in patterns), name


# --- single deals ------------------------------------------------------------------------------
def test_is_proven_winnable_and_known_verdict():
    found = winnable.verdicts(Variant(Goal.STANDARD, 3))
    won = next(n for n in range(1, 100) if n in found)
    lost = next(n for n in range(1, 100) if n not in found)
    assert winnable.is_proven_winnable(won, Variant("standard", 3))
    assert winnable.known_verdict(lost, Variant(Goal.STANDARD, 3)) is False
    assert not winnable.is_proven_winnable(lost, Variant("standard", 3))
    # Outside the solved range nothing is proven, whatever the deal is.
    assert winnable.known_verdict(found.deals + 1, Variant("standard", 3)) is None
    assert not winnable.is_proven_winnable(found.deals + 1, Variant("standard", 3))
    assert not winnable.is_proven_winnable(0, Variant("standard", 3))


def test_bad_rules_are_refused():
    with pytest.raises(ValueError):
        winnable.is_proven_winnable(1, Variant("klondike", 3))
    with pytest.raises(ValueError):
        daily.daily_deal(DAYS[0], Variant("standard", 4))


def test_winnable_deal_is_random_among_the_proven_and_really_winnable():
    for goal, passes in VARIANTS_AS_PAIRS:
        rng = random.Random(7)
        picked = [winnable.winnable_deal(Variant(goal, passes), rng) for _ in range(40)]
        assert all(winnable.is_proven_winnable(n, Variant(goal, passes)) for n in picked)
        assert len(set(picked)) > 20  # not one deal over and over
        for number in picked[:3]:
            assert solve(Game(Deal.from_number(number), goal, passes)).winnable is True
    # The default source is the system's: still a proven deal.
    whole_one = Variant("wholedeck", 1)
    assert winnable.is_proven_winnable(winnable.winnable_deal(whole_one), whole_one)


# --- the deal of the day ------------------------------------------------------------------------
def test_the_daily_deal_is_the_documented_hash_of_the_date():
    day = date(2026, 11, 30)
    for goal, passes in VARIANTS_AS_PAIRS:
        listed = winnable_from_file(goal.value, passes)
        for k in range(1000):  # the first winnable candidate among deals 1..100,000
            key = f"pyramid-daily:{day.isoformat()}:{goal.value}:{passes}:{k}".encode()
            number = int(hashlib.sha256(key).hexdigest(), 16) % 100_000 + 1
            if number in listed:
                break
        assert daily.daily_deal(day, Variant(goal, passes)) == number


# Pinned: a date's deal never changes, whatever verdict data is committed later (more deals
# solved, a faster solver). Should this test ever fail, past days' deals have moved.
PINNED = {
    date(2026, 12, 1): [84065, 16460, 58172, 82496, 84294, 49169],
    date(2027, 1, 1): [37872, 18367, 1352, 23820, 99386, 25303],
    date(2030, 6, 15): [64818, 94902, 20905, 392, 20921, 8578],
}


def test_the_deals_of_pinned_days_never_change():
    for day, deals in PINNED.items():
        assert [daily.daily_deal(day, v) for v in VARIANTS] == deals, day


def test_more_data_does_not_move_a_days_deal(monkeypatch):
    """The same date's deal with the committed data grown tenfold (deals past 100,000 added,
    winnable or not): unchanged, since its candidates are all among the first 100,000."""
    before = {(day, v): daily.daily_deal(day, v) for day in DAYS[:8] for v in VARIANTS}
    grown = {v: winnable.Winnable(v, 1_000_000, winnable.verdicts(v).bits
                                  + bytes([0b1010_1010]) * 112_500) for v in VARIANTS}
    monkeypatch.setattr(winnable, "verdicts", grown.__getitem__)
    after = {(day, v): daily.daily_deal(day, v) for day in DAYS[:8] for v in VARIANTS}
    assert after == before


def test_the_same_date_gives_the_same_deal_from_two_fresh_loads():
    first = {(d, v): daily.daily_deal(d, v) for d in DAYS[:10] for v in VARIANTS}
    fresh_load()
    second = {(d, v): daily.daily_deal(d, v) for d in DAYS[:10] for v in VARIANTS}
    assert first == second


def test_daily_deals_differ_between_dates_and_between_rules():
    for goal, passes in VARIANTS_AS_PAIRS:
        deals = [daily.daily_deal(day, Variant(goal, passes)) for day in DAYS]
        assert len(set(deals)) >= len(DAYS) * 3 // 4, (goal, passes)
    same = sum(len({daily.daily_deal(day, v) for v in VARIANTS}) < 4 for day in DAYS)
    assert same <= 2


def test_every_daily_deal_is_proven_winnable_and_the_solver_agrees():
    for day in DAYS:
        for v in VARIANTS:
            assert winnable.is_proven_winnable(daily.daily_deal(day, v), v)
    for day in DAYS[:4]:
        for goal, passes in VARIANTS_AS_PAIRS:
            number = daily.daily_deal(day, Variant(goal, passes))
            solution = solve(Game(Deal.from_number(number), goal, passes))
            assert solution.winnable is True, (day, goal, passes, number)
            game = Game(Deal.from_number(number), goal, passes)
            for move in solution.moves:
                game.play(move)
            assert game.outcome().won


def test_today_is_the_utc_date():
    from datetime import UTC, datetime, timezone

    late_in_new_york = datetime(2026, 11, 30, 22, 30, tzinfo=timezone(timedelta(hours=-5)))
    assert daily.today_utc(late_in_new_york) == date(2026, 12, 1)
    assert daily.today_utc(datetime(2026, 11, 30, 0, 0, tzinfo=UTC)) == date(2026, 11, 30)


# --- published figures --------------------------------------------------------------------------
def row(goal=Goal.STANDARD, passes=1, wins=900, deals=10_000) -> table.OddsRow:
    return table.OddsRow(goal, passes, 1, deals, wins, deals - wins)


def published(rate, *, expect="same", wins=None, deals=None) -> pub.Published:
    return pub.Published("k", "s", "u", "y", "r", Goal.STANDARD, 1, rate, wins, deals,
                           "kind", expect, "note")


@pytest.mark.parametrize(("figure", "expect", "count", "verdict", "inside"), [
    (0.09, "same", None, "agrees", True),            # inside our interval
    (0.12, "same", None, "differs", False),          # far outside, no count of their own
    (0.0985, "same", (197, 2000), "agrees", False),  # outside ours, but the intervals overlap
    (0.12, "same", (12_000, 100_000), "differs", False),
    (0.12, "higher", None, "consistent", False),     # more passes, higher: as expected
    (0.05, "higher", None, "differs", False),        # more passes, yet lower
    (0.02, "lower", None, "consistent", False),      # a person's estimate, lower
    (0.15, "lower", None, "differs", False),
])
def test_comparisons_are_judged_from_the_numbers(figure, expect, count, verdict, inside):
    wins, deals = count or (None, None)
    comparison = pub.compare(published(figure, expect=expect, wins=wins, deals=deals), row())
    assert comparison.verdict == verdict
    assert comparison.inside is inside
    assert comparison.difference == pytest.approx(figure - 0.09)


def test_every_published_figure_is_set_against_our_row_of_the_same_rules():
    found = pub.comparisons()
    assert [c.published.key for c in found] == [p.key for p in pub.PUBLISHED]
    for comparison in found:
        assert (comparison.ours.goal, comparison.ours.passes) == (
            comparison.published.goal, comparison.published.passes)
        if comparison.published.ours_kind:  # our rule-option figure, for the same rules
            assert "unlimited passes" in comparison.ours.label
            assert ("overlap" in comparison.ours.label) == (
                comparison.published.ours_kind == "unlimited-overlap")
            assert comparison.verdict == "agrees"


def test_the_one_pass_difference_is_explained_from_our_own_checks():
    for goal in (Goal.STANDARD, Goal.WHOLE_DECK):
        note = pub.one_pass_note(goal)
        shuffles = pub.check(goal, "shuffles")
        assert f"{shuffles['deals']:,} uniform random shuffles" in note
        assert f"{100 * shuffles['rate']:.2f}%" in note
        assert "stock's top card" not in note and "misses some wins" in note
    # The three ways of dealing agree with each other (overlapping intervals).
    for goal in (Goal.STANDARD, Goal.WHOLE_DECK):
        rows = [pub.check(goal, k) for k in ("shuffles", "freecell-generator",
                                              "mersenne-twister")]
        assert max(r["wilson_95"][0] for r in rows) <= min(r["wilson_95"][1] for r in rows)
    rates = {p.key: p.rate for p in pub.PUBLISHED}
    assert rates["morehead-mott-smith"] == 1 / 50
    assert round(100 * rates["solitairewinrates-pyramid-once"], 2) == 9.02
    assert round(100 * rates["solitairewinrates-all-once"], 2) == 6.80
    assert round(100 * rates["solitairewinrates-pyramid-unlimited"], 2) == 66.87
    assert round(100 * rates["chung-pyramid-solver"], 1) == 66.5


# --- bench/collect_odds.py ----------------------------------------------------------------------
@pytest.fixture(scope="module")
def collect_odds():
    return bench_script("collect_odds")


def test_collect_odds_assembles_the_bitsets_from_a_results_folder(tmp_path, collect_odds,
                                                                  monkeypatch):
    from app.odds import resumable

    monkeypatch.setattr(resumable, "RANGE", 20)
    monkeypatch.setattr(collect_odds, "RANGE", 20)
    results, out = tmp_path / "runs", tmp_path / "data"
    for v in VARIANTS:
        resumable.run(v, 1, 40, results, workers=1)
        resumable.run(v, 1, 40, results, workers=1, player="greedy")
    rows = collect_odds.collect(results, out, 40, greedy_results=results)
    assert [(r["goal"], r["passes"]) for r in rows] == [
        (v.goal.value, v.passes) for v in VARIANTS]
    loaded = table.load_odds(out / "odds.json")
    for r, v in zip(loaded, VARIANTS, strict=True):
        expected = solve_range(v.goal, v.passes, 1, 40, workers=1)
        assert (r.deals, r.wins, r.losses) == (40, expected.wins, expected.losses)
        greedy = solve_range(v.goal, v.passes, 1, 40, workers=1, player="greedy")
        assert (r.greedy_wins, r.greedy_measured_on) == (greedy.wins, 40)
        found = winnable.Winnable.read(v, 40, winnable.bits_path(v, out / "winnable"))
        assert [n for n in range(1, 41) if n in found] == [
            expected.start + i for i, letter in enumerate(verdict_string(expected))
            if letter == "W"]


def test_collect_odds_refuses_results_with_a_range_missing(tmp_path, collect_odds,
                                                           monkeypatch):
    from app.odds import resumable

    monkeypatch.setattr(resumable, "RANGE", 20)
    monkeypatch.setattr(collect_odds, "RANGE", 20)
    for v in VARIANTS:
        resumable.run(v, 1, 40, tmp_path, workers=1)
    resumable.range_file(tmp_path, Variant("wholedeck", 2), "solver", 21, 40).unlink()
    assert collect_odds.main(["--results", str(tmp_path), "--deals", "40",
                              "--out", str(tmp_path / "data")]) == 2
    assert not (tmp_path / "data" / "odds.json").exists()


def test_collect_odds_widens_only_the_rule_sets_it_is_told(tmp_path, collect_odds,
                                                            monkeypatch):
    from app.odds import resumable

    monkeypatch.setattr(resumable, "RANGE", 20)
    monkeypatch.setattr(collect_odds, "RANGE", 20)
    for v in VARIANTS:
        resumable.run(v, 1, 20, tmp_path, workers=1)
    out = tmp_path / "data"
    collect_odds.collect(tmp_path, out, 20)
    kept = (out / "winnable" / "standard-1.bits").read_bytes()
    resumable.run(Variant("standard", 3), 1, 60, tmp_path, workers=1)
    assert collect_odds.main(["--results", str(tmp_path), "--deals", "60", "--only",
                              "standard-3", "--out", str(out)]) == 0
    rows = {(str(r.goal), r.passes): r for r in table.load_odds(out / "odds.json")}
    expected = solve_range(Variant("standard", 3).goal, 3, 1, 60, workers=1)
    assert (rows["standard", 3].deals, rows["standard", 3].wins) == (60, expected.wins)
    assert rows["standard", 1].deals == 20
    assert (out / "winnable" / "standard-1.bits").read_bytes() == kept
    assert collect_odds.main(["--results", str(tmp_path), "--deals", "60", "--only",
                              "standard-9", "--out", str(out)]) == 2
