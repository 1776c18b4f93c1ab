"""The total storage of saved situations is capped, and nothing saved is ever evicted to make room
(``adjudicator.storage_cap``): past the cap a save is refused with 507 ``storage_full``, while
every situation saved before stays readable and a situation already stored is still answered."""

from __future__ import annotations

from pathlib import Path

from adjudicator.config import SAVED_STORAGE_LIMIT_MB as DEFAULT_LIMIT_MB
from adjudicator.db import new_session
from adjudicator.storage_cap import StorageCap
from tests.test_hardening_storage import quick_app
from tests.test_storage import database_url  # noqa: F401  (fixture: SQLite and PostgreSQL)

UNITS = [{"id": "A", "side": "allies", "type": "infantry", "row": 6, "col": 10, "figures": 4},
         {"id": "B", "side": "axis", "type": "armor", "row": 4, "col": 12, "figures": 3}]


def situation(n: int) -> dict:
    return {"units": UNITS, "title": f"dispute {n:03d}"}


def test_a_full_store_refuses_new_saves_and_keeps_every_saved_one(app, database_url):  # noqa: F811
    first = quick_app(Path(app.instance_path), database_url).test_client().post("/api/v1/situations",
                                                                              json=situation(0)).get_json()
    room = 3.5 * first["size"]  # the first save, and room for two more of the same size
    limited = quick_app(Path(app.instance_path), database_url, SAVED_STORAGE_LIMIT_MB=room / 1024 / 1024)
    client = limited.test_client()
    answers = [client.post("/api/v1/situations", json=situation(n)) for n in range(1, 6)]
    assert [a.status_code for a in answers] == [201, 201, 507, 507, 507]
    refused = answers[-1].get_json()["error"]
    assert refused["code"] == "storage_full" and refused["field"] == "(storage)" and "Copy link" in refused["message"]
    stored = [first] + [a.get_json() for a in answers[:2]]
    for saved in stored:  # nothing evicted
        assert client.get(saved["api_url"]).get_json()["situation"]["title"] == saved["situation"]["title"]
    again = client.post("/api/v1/situations", json=situation(0))  # stored already: needs no room
    assert again.status_code == 201 and again.get_json()["id"] == first["id"]
    cap: StorageCap = limited.extensions["storage_cap"]
    assert cap.used() == sum(s["size"] for s in stored) <= cap.limit


def test_the_total_starts_from_what_is_stored_and_a_larger_cap_takes_saves_again(app, tmp_path):
    url = f"sqlite:///{tmp_path / 'cap.db'}"
    first = quick_app(Path(app.instance_path), url)
    assert first.extensions["storage_cap"].limit == DEFAULT_LIMIT_MB * 1024 * 1024
    saved = first.test_client().post("/api/v1/situations", json=situation(1)).get_json()
    tiny = quick_app(Path(app.instance_path), url, SAVED_STORAGE_LIMIT_MB=saved["size"] / 1024 / 1024)
    assert tiny.extensions["storage_cap"].used() == saved["size"]
    assert tiny.test_client().post("/api/v1/situations", json=situation(2)).status_code == 507
    roomy = quick_app(Path(app.instance_path), url, SAVED_STORAGE_LIMIT_MB=1)
    assert roomy.test_client().post("/api/v1/situations", json=situation(2)).status_code == 201


def test_a_save_rolled_back_adds_nothing_to_the_total(app, tmp_path):
    url = f"sqlite:///{tmp_path / 'cap.db'}"
    cap: StorageCap = quick_app(Path(app.instance_path), url).extensions["storage_cap"]
    with new_session(cap.engine) as session:
        assert cap.charge(session, 1000)
        session.rollback()
    assert cap.used() == 0
    with new_session(cap.engine) as session:
        assert not cap.charge(session, cap.limit + 1)
