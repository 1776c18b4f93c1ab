"""The costliest legal request known for every engine endpoint (``bench/hostile.py``) is answered
within the work budget, or refused with 422 naming the limit: never an unbounded ruling. The CPU
each costs is measured by ``bench/hostile.py`` (at or under 100 ms, the README quotes it); these
tests assert the answers and the work charged, which do not depend on the machine."""

from __future__ import annotations

import pytest

from adjudicator.config import DEFAULT_WORK_BUDGET
from adjudicator.engine.fire_map import MAX_PAIRS
from bench.hostile import cases, worst_fire_map
from tests.conftest import make_app, seed_instance


@pytest.fixture(scope="module")
def budgeted(tmp_path_factory: pytest.TempPathFactory):
    """An app with the default work budget (tests elsewhere run the engine without one)."""
    app = make_app(seed_instance(tmp_path_factory.mktemp("costliest")), ENGINE_WORK_BUDGET=DEFAULT_WORK_BUDGET)
    return app.test_client()


@pytest.mark.parametrize("name", list(cases()))
def test_the_costliest_known_request_of_each_endpoint_is_answered_within_the_budget(budgeted, name):
    endpoint, body = cases()[name]
    response = budgeted.post(f"/api/v1/{endpoint}", json=body)
    assert response.status_code in (200, 422), response.get_json()
    if response.status_code == 422:
        error = response.get_json()["error"]
        assert error["code"] == "too_complex" and str(DEFAULT_WORK_BUDGET) in error["message"].replace(",", "")


def test_the_mountain_fire_map_works_out_its_plateau_once_and_rules_the_capped_pairs(rulebook):
    """Every hex of an Overlord board a mountain: one plateau group. Each of the 500 pairs' terrain
    reduction and each blocked line asks whether both units stand on it; the group is walked once
    (charged once: its 230 hexes), and the whole map costs a fraction of the budget."""
    from adjudicator.engine.budget import work_budget
    from adjudicator.engine.fire_map import PAIR_WORK, fire_map
    from adjudicator.engine.situation import parse_situation

    situation = parse_situation(worst_fire_map("mountain"), rulebook)
    with work_budget(10**9) as spent:
        fm = fire_map(situation, rulebook)
    assert len(fm.battles) == MAX_PAIRS and fm.truncated and fm.pairs > MAX_PAIRS
    swept_and_walked = spent.units - PAIR_WORK * MAX_PAIRS
    assert 230 < swept_and_walked < 2_000  # the group once (231), the sweep and the lines: not 1,334 walks of it
    assert spent.units < DEFAULT_WORK_BUDGET // 4


def test_a_fire_map_over_the_budget_is_refused_before_any_pair_is_ruled(budgeted, monkeypatch):
    import adjudicator.engine.fire_map as fire_map_module

    monkeypatch.setattr(fire_map_module, "PAIR_WORK", DEFAULT_WORK_BUDGET)  # one pair would overspend it
    budgeted.application.extensions["answer_cache"].clear()  # its answer under the real PAIR_WORK is kept
    response = budgeted.post("/api/v1/fire-map", json=worst_fire_map("forest"))
    assert response.status_code == 422
    assert response.get_json()["error"]["code"] == "too_complex"
