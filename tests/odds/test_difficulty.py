"""A deal's difficulty (``app.odds.difficulty``), the committed par and difficulty data
(``app.odds.dealfacts``) and the run that measures it (``app.odds.factsrun``): the measures are
deterministic, the buckets split the winnable deals evenly, the data agrees with a fresh
measurement and with ``par``, and the lookup says None beyond what the data covers."""

from __future__ import annotations

import argparse
import random
from collections import Counter

import pytest

from app.engine import VARIANTS, Deal, Game, Variant
from app.engine.greedy import greedy_wins
from app.engine.solver import par, solve
from app.odds import (
    DIFFICULTIES,
    Difficulty,
    deal_facts,
    dealfacts,
    difficulty_range,
    difficulty_shares,
    factsrun,
    parse_difficulty,
    random_winnable,
    resumable,
)
from app.odds.difficulty import Facts, Scale, bucket, cut_points, hardnesses, measure
from app.odds.winnable import is_proven_winnable, verdicts
from tests.conftest import bench_script

STANDARD_1 = Variant("standard", 1)  # the fewest winnable deals: the quickest run
STANDARD_3 = Variant("standard", 3)
WHOLEDECK_2 = Variant("wholedeck", 2)


def facts(number: int = 1, par_: int = 40, greedy: bool = False, wins: int = 0,
          left: int = 2000, moves: int = 4, winning: int = 4) -> Facts:
    return Facts(number, STANDARD_3, par_, greedy, wins, left, moves, winning)


# --- the measures -------------------------------------------------------------------------
def test_the_facts_of_a_deal_are_the_engines_answers_and_the_same_every_time():
    found, seconds = measure(2, STANDARD_3)
    assert found is not None and seconds > 0
    game = Game(Deal.from_number(2), "standard", 3)
    assert found.par == par(game)
    assert found.greedy == greedy_wins(game.deal, "standard", 3)
    assert found.first_moves == len(game.legal_moves)
    winning = 0
    for move in game.legal_moves:
        game.play(move)
        winning += bool(solve(game).winnable)
        game.undo()
    assert found.winning_first_moves == winning
    assert 0 <= found.playout_wins <= found.playouts == 200
    assert measure(2, STANDARD_3)[0] == found


def test_a_deal_that_cannot_be_won_has_no_facts():
    lost = next(n for n in range(1, 100) if not is_proven_winnable(n, STANDARD_3))
    assert measure(lost, STANDARD_3)[0] is None


# --- the score and the buckets ----------------------------------------------------------------
def test_each_hardness_grows_with_what_makes_a_deal_harder():
    easy = hardnesses(facts(par_=30, greedy=True, wins=50, left=500, winning=6))
    hard = hardnesses(facts(par_=50, greedy=False, wins=0, left=3000, winning=1))
    assert all(h > e for e, h in zip(easy, hard, strict=True))


def test_the_score_places_a_deal_among_the_deals_it_was_fitted_on():
    rng = random.Random(5)
    sample = [facts(n, rng.randint(30, 50), rng.random() < 0.3, rng.randint(0, 20),
                    rng.randint(500, 3000), 5, rng.randint(1, 5)) for n in range(400)]
    scale = Scale.fit(sample)
    scores = [scale.score(f) for f in sample]
    assert min(scores) == 0 and max(scores) == 100
    assert 40 <= sorted(scores)[200] <= 60
    assert all(s * 2 == int(s * 2) for s in scores)  # half points
    harder = facts(par_=50, greedy=False, wins=0, left=3000, winning=1)
    easier = facts(par_=30, greedy=True, wins=20, left=500, winning=5)
    assert scale.score(harder) == 100 and scale.score(easier) == 0
    assert Scale.from_dict(scale.to_dict()) == scale


def test_cut_points_split_scores_into_quarters_and_a_score_goes_to_its_bucket():
    scores = [i / 2 for i in range(201)] * 3
    cuts = cut_points(scores)
    counts = Counter(bucket(s, cuts) for s in scores)
    assert all(abs(counts[d] - len(scores) / 4) <= 6 for d in DIFFICULTIES)
    assert bucket(cuts[0] - 0.5, cuts) is Difficulty.EASY
    assert bucket(cuts[0], cuts) is Difficulty.MEDIUM
    assert bucket(cuts[2], cuts) is Difficulty.EXPERT
    # Ties: a quarter of the scores equal cannot be split; the cuts go round them.
    tied = [10.0] * 30 + [float(i) for i in range(20, 90)]
    assert cut_points(tied)[0] in (10.0, 20.0)


def test_difficulties_are_read_in_any_case_and_others_refused():
    assert parse_difficulty("Expert") is Difficulty.EXPERT
    assert [d.label for d in DIFFICULTIES] == ["Easy", "Medium", "Hard", "Expert"]
    with pytest.raises(ValueError, match="easy, medium, hard, expert"):
        parse_difficulty("impossible")


# --- the committed data ---------------------------------------------------------------------
@pytest.mark.parametrize("variant", VARIANTS, ids=lambda v: v.key)
def test_the_data_covers_exactly_the_winnable_deals_of_its_range(variant):
    data = dealfacts.difficulty_data(variant)
    assert data.start == 1 and data.deals >= 10_000
    winnable = verdicts(variant)
    for index, value in enumerate(data.pars):
        assert bool(value) == (index + 1 in winnable)
    assert all(bool(p) == bool(c) for p, c in zip(data.pars, data.codes, strict=True))


@pytest.mark.parametrize("variant", VARIANTS, ids=lambda v: v.key)
def test_the_buckets_split_the_winnable_deals_roughly_evenly(variant):
    shares = difficulty_shares(variant)
    assert set(shares) == set(DIFFICULTIES)
    assert sum(shares.values()) == pytest.approx(1)
    assert all(0.22 <= share <= 0.28 for share in shares.values()), shares


def sample_of(variant: Variant, count: int, seed: int) -> list[int]:
    first, last = difficulty_range(variant)
    numbers = [n for n in range(first, last + 1) if is_proven_winnable(n, variant)]
    return random.Random(seed).sample(numbers, count)


@pytest.mark.parametrize("variant", VARIANTS, ids=lambda v: v.key)
def test_the_data_agrees_with_a_fresh_measurement(variant):
    data = dealfacts.difficulty_data(variant)
    for number in sample_of(variant, 2, seed=16):
        fresh, _ = measure(number, variant)
        stored = deal_facts(number, variant)
        assert fresh is not None and stored is not None
        assert stored.par == fresh.par
        assert stored.score == data.scale.score(fresh)
        assert stored.difficulty is bucket(data.scale.score(fresh), data.cuts)


@pytest.mark.parametrize("variant", VARIANTS, ids=lambda v: v.key)
def test_par_in_the_data_is_the_solvers_par(variant):
    for number in sample_of(variant, 6, seed=variant.passes):
        game = Game(Deal.from_number(number), variant.goal, variant.passes)
        assert deal_facts(number, variant).par == par(game)


def test_the_lookup_answers_none_beyond_the_data_and_for_a_lost_deal():
    first, last = difficulty_range(STANDARD_3)
    assert deal_facts(first - 1, STANDARD_3) is None
    assert deal_facts(last + 1, STANDARD_3) is None
    lost = next(n for n in range(1, 100) if not is_proven_winnable(n, STANDARD_3))
    assert deal_facts(lost, STANDARD_3) is None
    found = deal_facts(2, STANDARD_3)
    assert found.number == 2 and found.variant == STANDARD_3 and found.par > 0
    assert 0 <= found.score <= 100 and found.difficulty in DIFFICULTIES


def test_a_random_winnable_deal_of_a_chosen_difficulty():
    rng = random.Random(1)
    for difficulty in DIFFICULTIES:
        drawn = {random_winnable(WHOLEDECK_2, rng, difficulty) for _ in range(40)}
        assert len(drawn) > 30
        assert all(deal_facts(n, WHOLEDECK_2).difficulty is difficulty for n in drawn)
    assert deal_facts(random_winnable(WHOLEDECK_2, rng, "EXPERT"), WHOLEDECK_2).difficulty \
        is Difficulty.EXPERT
    assert is_proven_winnable(random_winnable(WHOLEDECK_2, rng), WHOLEDECK_2)
    assert random_winnable(WHOLEDECK_2, random.Random(3), "hard") == \
        random_winnable(WHOLEDECK_2, random.Random(3), "hard")
    with pytest.raises(ValueError):
        random_winnable(WHOLEDECK_2, rng, "impossible")


def test_the_file_format_refuses_a_par_without_a_score():
    with pytest.raises(ValueError):
        dealfacts.encode(STANDARD_3, 1, bytes([40, 0]), bytes([0, 0]))
    with pytest.raises(ValueError):
        dealfacts.score_code(100.5)
    assert dealfacts.code_score(dealfacts.score_code(37.5)) == 37.5


# --- the run in pieces ------------------------------------------------------------------------
@pytest.fixture
def counted(monkeypatch) -> list[tuple[int, int]]:
    """The ranges measured, as (first, last), when the work runs in this process."""
    measured: list[tuple[int, int]] = []
    real = factsrun.range_text

    def counting(goal, passes, first, last):
        measured.append((first, last))
        return real(goal, passes, first, last)

    monkeypatch.setattr(factsrun, "range_text", counting)
    monkeypatch.setattr(resumable, "RANGE", 10)
    return measured


def test_a_rerun_measures_only_what_is_missing(tmp_path, counted):
    found, _ = factsrun.run(STANDARD_1, 1, 15, tmp_path, workers=1)
    assert counted == [(1, 10), (11, 20)]
    assert [f.number for f, _ in found] == [n for n in range(1, 16)
                                            if is_proven_winnable(n, STANDARD_1)]
    assert all(f == measure(f.number, STANDARD_1)[0] for f, _ in found[:3])
    counted.clear()
    again, _ = factsrun.run(STANDARD_1, 1, 20, tmp_path, workers=1)
    assert counted == [] and [f for f, _ in again][:len(found)] == [f for f, _ in found]
    path = factsrun.range_path(tmp_path, STANDARD_1, 11, 20)
    path.write_text(path.read_text().rsplit("\n", 2)[0])  # cut short: not a whole file
    factsrun.run(STANDARD_1, 5, 26, tmp_path, workers=1)
    assert counted == [(11, 20), (21, 30)]
    assert not list(tmp_path.rglob("*.partial"))


def test_collect_difficulty_takes_another_range_for_some_rule_sets():
    """A long run finishes the quick rule sets first: their wider data can go in before the
    slow ones' (``--deals-of``); a key that is no rule set is refused, not ignored."""
    module = bench_script("collect_difficulty")
    assert module.deals_of("standard-2=40000,wholedeck-3=100000") == {
        "standard-2": 40000, "wholedeck-3": 100000}
    assert module.deals_of("") == {}
    for bad in ("standard-4=2000", "standard-2=many", "standard-2"):
        with pytest.raises(argparse.ArgumentTypeError, match="KEY=N"):
            module.deals_of(bad)
