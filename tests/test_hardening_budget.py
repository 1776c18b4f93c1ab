"""No single legal request may hold a worker for long (``ENGINE_WORK_BUDGET``): the battle answer reads
the fewest figures a retreat costs without listing every retreat, retreat lists are capped and
say so, and every API request runs under an engine work budget (``engine.budget``) counted in
work units, never in wall-clock time, so these tests cannot be flaky."""

from __future__ import annotations

import json
from fractions import Fraction

import pytest

from adjudicator.config import DEFAULT_WORK_BUDGET
from adjudicator.engine.aftermath import battle_aftermath
from adjudicator.engine.battle import assess_battle
from adjudicator.engine.budget import WorkBudgetExceeded, work_budget
from adjudicator.engine.retreat import MAX_OPTIONS, convolve, retreat_options
from adjudicator.engine.situation import parse_situation
from bench.hostile import frozen_breakthrough
from tests.conftest import make_app, seed_instance


def test_battle_answer_reads_fewest_losses_without_enumerating_retreats(rulebook):
    situation = parse_situation(frozen_breakthrough(), rulebook)
    with work_budget(10**9) as spent:
        ruling = assess_battle(situation, rulebook, "A", "T", card="close_assault")
        after = battle_aftermath(situation, rulebook, ruling, card=ruling.card)
    assert ruling.dice >= 4 and len(after.fewest_lost_by_flags) == ruling.dice + 1
    # listing every retreat once per flag count (the old way) costs well over 100,000 units here
    assert spent.units < 5_000


@pytest.mark.parametrize("flags", [1, 2, 3, 5])
def test_fewest_figures_lost_without_listing_equals_the_listed_minimum(rulebook, flags):
    for doc in (frozen_breakthrough(), {"units": [
        {"id": "T", "side": "allies", "type": "infantry", "row": 6, "col": 0, "figures": 3},
        {"id": "B", "side": "allies", "type": "infantry", "row": 7, "col": 1, "figures": 4},
    ]}):
        situation = parse_situation(doc, rulebook)
        listed = retreat_options(situation, rulebook, "T", flags)
        summary = retreat_options(situation, rulebook, "T", flags, list_paths=False)
        assert summary.options == ()
        assert summary.min_figures_lost == min(o.figures_lost for o in listed.options)
        assert summary.choices == listed.choices and summary.options_total == listed.options_total


def test_retreat_with_many_flags_lists_a_capped_stated_sample(rulebook):
    situation = parse_situation(frozen_breakthrough(), rulebook)
    with work_budget(10**9) as spent:
        result = retreat_options(situation, rulebook, "T", 12)
    assert len(result.options) <= MAX_OPTIONS < result.options_total
    assert result.to_dict()["options_truncated"] is True
    assert spent.units < DEFAULT_WORK_BUDGET
    assert len(json.dumps(result.to_dict())) < 400_000  # was 3.3 MB


def test_listed_retreats_work_out_the_odds_of_their_shared_first_hexes_once(rulebook):
    """Each listed Frozen River path used to convolve the loss odds of every hex it crosses on its
    own (14,500 work units, about 0.1 s of CPU, for flags 12); paths listed depth first share their
    first hexes, whose odds are now worked out once. The odds must stay those of the path's rolls."""
    situation = parse_situation(frozen_breakthrough(), rulebook)
    with work_budget(10**9) as spent:
        result = retreat_options(situation, rulebook, "T", 12)
    assert spent.units < 8_000
    assert len(result.options) == MAX_OPTIONS
    for option in result.options:
        assert len(option.risks) == len(option.path)  # one roll per frozen hex entered
        alone: tuple[Fraction, ...] = (Fraction(1),)
        for roll in option.risks:
            alone = convolve(alone, roll.loss_odds)
        assert option.risk_losses == alone
        left = 6 - option.figures_lost  # the target's figures still standing before the rolls
        assert option.elimination_chance == (Fraction(1) if left <= 0 else sum(alone[left:], Fraction(0)))


def test_retreat_api_answer_stays_small(client):
    response = client.post("/api/v1/retreat", json={**frozen_breakthrough(), "unit": "T", "flags": 12})
    assert response.status_code == 200
    assert len(response.data) < 400_000
    assert response.get_json()["options_total"] > len(response.get_json()["options"])


def test_work_budget_stops_the_engine_once_overspent(rulebook):
    situation = parse_situation(frozen_breakthrough(), rulebook)
    with pytest.raises(WorkBudgetExceeded), work_budget(500):
        retreat_options(situation, rulebook, "T", 12)


def test_request_over_the_work_budget_is_a_422_naming_the_body(tmp_path):
    app = make_app(seed_instance(tmp_path / "instance"), ENGINE_WORK_BUDGET=1_000)
    client = app.test_client()
    response = client.post("/api/v1/retreat", json={**frozen_breakthrough(), "unit": "T", "flags": 12})
    assert response.status_code == 422
    error = response.get_json()["error"]
    assert error["code"] == "too_complex" and error["field"] == "(body)" and "1000" in error["message"]
    ordinary = {"units": [{"id": "A", "side": "allies", "type": "infantry", "row": 6, "col": 10, "figures": 4},
                          {"id": "B", "side": "axis", "type": "armor", "row": 4, "col": 12, "figures": 3}],
                "attacker": "A", "target": "B"}
    assert client.post("/api/v1/battle", json=ordinary).status_code == 200  # a normal ruling still fits


def test_loss_odds_convolve_to_exactly_the_fraction_sums():
    """``convolve`` works in whole numbers over a common denominator; its answer must be the
    exact sum of products a Fraction-by-Fraction convolution gives (Frozen River odds)."""
    import random

    rnd = random.Random(15)
    for _ in range(200):
        a = tuple(Fraction(rnd.randint(0, 40), rnd.choice([1, 6, 36, 7, 216])) for _ in range(rnd.randint(1, 6)))
        b = tuple(Fraction(rnd.randint(0, 40), rnd.choice([1, 6, 36, 5])) for _ in range(rnd.randint(1, 6)))
        expected = [Fraction(0)] * (len(a) + len(b) - 1)
        for i, x in enumerate(a):
            for j, y in enumerate(b):
                expected[i + j] += x * y
        assert convolve(a, b) == tuple(expected)
