"""The committed odds data (app/data/) and what app/odds makes of it: the odds rows, the
verdicts files checked against the real solver, winnable deals, the deal of the day, the
comparisons with published figures, and bench/collect_odds.py that assembles the data."""

from __future__ import annotations

import fnmatch
import gzip
import hashlib
import importlib.util
import json
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

ROOT = Path(__file__).resolve().parents[2]
VARIANTS_AS_PAIRS = [(v.goal, v.passes) for v in VARIANTS]
DAYS = [date(2026, 11, 30) + timedelta(days=i) for i in range(40)]


def fresh_load() -> None:
    """Forget everything read from the data files, as a new process would."""
    table.odds_rows.cache_clear()
    winnable.verdicts.cache_clear()


def winnable_from_file(goal: str, passes: int) -> list[int]:
    """The proven-winnable deals read straight from the file, without app.odds."""
    row = next(r for r in json.loads(table.ODDS_FILE.read_text())
               if (r["goal"], r["passes"]) == (goal, passes))
    with gzip.open(winnable.VERDICTS_DIR / f"{goal}-{passes}.txt.gz", "rt") as stream:
        letters = stream.read()
    return [row["start"] + i for i, letter in enumerate(letters) if letter == "W"]


# --- the data files ---------------------------------------------------------------------------
def test_odds_has_the_six_rule_sets_in_order_and_each_verdicts_file_agrees():
    rows = table.odds_rows()
    assert [(row.goal, row.passes) for row in rows] == [(v.goal, v.passes) for v in VARIANTS]
    for row in rows:
        found = winnable.verdicts(row.variant)  # checks length and W count on load
        assert len(found.letters) == row.deals
        assert found.letters.count("W") == row.wins
        assert found.letters.count("L") == row.losses
        assert list(found.winnable) == sorted(found.winnable)
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


def test_the_verdicts_files_agree_with_the_solver_on_a_sample():
    rng = random.Random(2026)
    for goal, passes in VARIANTS_AS_PAIRS:
        found = winnable.verdicts(Variant(goal, passes))
        for number in rng.sample(range(found.start, found.last + 1), 12):
            verdict = solve(Game(Deal.from_number(number), goal, passes)).verdict
            letter = {Verdict.WINNABLE: "W", Verdict.NOT_WINNABLE: "L"}[verdict]
            assert found.letter(number) == letter, (number, goal, passes)


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
    won = found.winnable[0]
    lost = found.start + found.letters.index("L")
    assert winnable.is_proven_winnable(won, Variant("standard", 3))
    assert winnable.known_verdict(lost, Variant(Goal.STANDARD, 3)) is False
    assert not winnable.is_proven_winnable(lost, Variant("standard", 3))
    # Outside the solved range nothing is proven, whatever the deal is.
    assert winnable.known_verdict(found.last + 1, Variant("standard", 3)) is None
    assert not winnable.is_proven_winnable(found.last + 1, Variant("standard", 3))
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
        key = f"pyramid-daily:{day.isoformat()}:{goal.value}:{passes}".encode()
        index = int(hashlib.sha256(key).hexdigest(), 16) % len(listed)
        assert daily.daily_deal(day, Variant(goal, passes)) == listed[index]


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
    rates = {p.key: p.rate for p in pub.PUBLISHED}
    assert rates["morehead-mott-smith"] == 1 / 50
    assert round(100 * rates["solitairewinrates-pyramid-once"], 2) == 9.02
    assert round(100 * rates["solitairewinrates-all-once"], 2) == 6.80
    assert round(100 * rates["solitairewinrates-pyramid-unlimited"], 2) == 66.87
    assert round(100 * rates["chung-pyramid-solver"], 1) == 66.5


# --- bench/collect_odds.py ----------------------------------------------------------------------
@pytest.fixture(scope="module")
def collect_odds():
    spec = importlib.util.spec_from_file_location("collect_odds",
                                                  ROOT / "bench" / "collect_odds.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def write_run(folder: Path, goal: Goal, passes: int, deals: int) -> dict:
    odds = solve_range(goal, passes, 1, deals, workers=1)
    with gzip.open(folder / f"{goal.value}-{passes}.txt.gz", "wt", encoding="ascii") as out:
        out.write(verdict_string(odds))
    (folder / f"{goal.value}-{passes}.json").write_text(json.dumps(odds.to_dict()))
    return odds.to_dict()


def test_collect_odds_assembles_the_data_and_marks_short_runs(tmp_path, collect_odds):
    source, fallback, out = tmp_path / "runs", tmp_path / "short", tmp_path / "data"
    source.mkdir()
    fallback.mkdir()
    for goal, passes in VARIANTS_AS_PAIRS:
        write_run(fallback if passes == 1 else source, goal, passes, 25)
    (source / "standard-2.json").write_text("")  # a run still going: use the fallback...
    write_run(fallback, Goal.STANDARD, 2, 20)
    greedy = {"goal": "standard", "passes": 3, "start": 1, "deals": 25, "wins": 4}
    (source / "greedy-standard-3.json").write_text(json.dumps(greedy))

    rows = collect_odds.collect(source, fallback, out, expect_deals=25)
    assert [(r["goal"], r["passes"]) for r in rows] == [
        (v.goal.value, v.passes) for v in VARIANTS]
    by_key = {f"{r['goal']}-{r['passes']}": r for r in rows}
    assert by_key["standard-3"]["greedy_wins"] == 4
    assert by_key["wholedeck-3"]["greedy_wins"] is None
    assert by_key["standard-3"]["provisional"] is False
    assert by_key["standard-2"]["provisional"] is True  # from the fallback, 20 deals
    assert by_key["standard-1"]["provisional"] is True
    loaded = table.load_odds(out / "odds.json")
    assert loaded[2].greedy_wins == 4 and loaded[2].greedy_rate == 4 / 25
    for r in loaded:
        found = winnable.Verdicts.read(r.variant, r.start,
                                       winnable.verdicts_path(r.variant, out / "verdicts"))
        assert found.letters.count("W") == r.wins and len(found.letters) == r.deals


def test_collect_odds_refuses_a_verdicts_file_that_disagrees(tmp_path, collect_odds):
    for goal, passes in VARIANTS_AS_PAIRS:
        write_run(tmp_path, goal, passes, 10)
    with gzip.open(tmp_path / "wholedeck-2.txt.gz", "wt", encoding="ascii") as out:
        out.write("W" * 9)
    assert collect_odds.main(["--source", str(tmp_path), "--out", str(tmp_path / "data"),
                              "--expect-deals", "10"]) == 2
    assert not (tmp_path / "data" / "odds.json").exists()
