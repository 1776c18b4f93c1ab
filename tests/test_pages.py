"""Rule pages through the Flask test client."""

from __future__ import annotations

import re

import pytest

from adjudicator.content.documents import KIND_LABELS


def test_home_has_search_box_and_every_kind(client):
    html = client.get("/").get_data(as_text=True)
    assert 'role="search"' in html and 'name="q"' in html
    for kind in KIND_LABELS:
        assert f'href="/rules/{kind}/"' in html


@pytest.mark.parametrize("kind", list(KIND_LABELS))
def test_every_kind_has_a_list_page(client, kind):
    assert client.get(f"/rules/{kind}/").status_code == 200


def test_every_entry_page_renders_its_summary_and_sources(client, catalogue):
    for entry in catalogue.entries.values():
        response = client.get(f"/rules/{entry.kind}/{entry.id}")
        assert response.status_code == 200, entry.id
        html = response.get_data(as_text=True)
        assert entry.meta.name.replace("&", "&amp;").replace("'", "&#39;") in html, entry.id
        for source in entry.meta.sources:
            assert source.document in html


def test_forest_page_shows_its_dice_reduction_as_a_readable_fact(client):
    html = client.get("/rules/terrain/forest").get_data(as_text=True)
    assert "Attacker dice reduction" in html
    assert "Infantry −1, Armor −2, Artillery −0" in html or "Infantry −1, Armor −2" in html
    assert "Blocks line of sight" in html


def test_camouflage_page_says_when_the_token_comes_off(client):
    html = client.get("/rules/marker/camouflage").get_data(as_text=True)
    assert "Removed when the unit</th><td>moves, retreats or battles<span class=\"fact-cite\">" in html


def test_entry_page_links_see_also_both_ways(client):
    html = client.get("/rules/core/line_of_sight").get_data(as_text=True)
    assert 'href="/rules/terrain/forest"' in html  # line_of_sight lists forest
    html = client.get("/rules/unit/artillery").get_data(as_text=True)
    assert 'href="/rules/core/line_of_sight"' in html


def test_wrong_kind_in_permalink_redirects_to_the_entry(client):
    response = client.get("/rules/unit/forest")
    assert response.status_code == 301
    assert response.headers["Location"].endswith("/rules/terrain/forest")


def test_unknown_entry_is_a_styled_404(client):
    response = client.get("/rules/terrain/no_such_thing")
    assert response.status_code == 404
    html = response.get_data(as_text=True)
    assert "no_such_thing" in html and "site-header" in html


def test_unknown_kind_is_404(client):
    assert client.get("/rules/spells/").status_code == 404


def test_api_returns_entry_json_with_structured_fields(client):
    data = client.get("/api/v1/rules/terrain/forest").get_json()
    assert data["id"] == "forest" and data["kind"] == "terrain" and data["name"] == "Forest"
    assert data["dice_reductions"] == [{"dice": {"infantry": 1, "armor": 2, "artillery": 0}}]
    assert data["sources"][0]["document"] == "Game help summary"
    assert data["body"]


def test_api_unknown_entry_is_json_404_naming_the_field(client):
    response = client.get("/api/v1/rules/terrain/nope")
    assert response.status_code == 404
    assert response.get_json()["error"]["field"] == "id"


def test_api_unknown_route_is_json(client):
    response = client.get("/api/v1/nothing-here")
    assert response.status_code == 404
    assert response.get_json()["error"]["code"] == "not_found"


def test_body_markdown_cannot_inject_html(client, app):
    from adjudicator.content.markdown import render

    html = render("<script>alert(1)</script> [[forest]]", lambda i: ("/rules/terrain/forest", "Forest"))
    assert "<script>" not in html
    assert '<a href="/rules/terrain/forest">Forest</a>' in html


def test_every_see_also_link_shows_on_both_entry_pages(client, catalogue):
    """A link written on one entry appears on both pages, so related rules link both ways."""
    pages = {e.id: client.get(f"/rules/{e.kind}/{e.id}").get_data(as_text=True) for e in catalogue.entries.values()}
    for entry in catalogue.entries.values():
        for target_id in entry.meta.see_also:
            target = catalogue.entries[target_id]
            assert f'href="/rules/{target.kind}/{target.id}"' in pages[entry.id], (entry.id, target_id)
            assert f'href="/rules/{entry.kind}/{entry.id}"' in pages[target_id], (target_id, entry.id)


def test_no_entry_page_lists_the_same_see_also_link_twice(client, catalogue):
    for entry in catalogue.entries.values():
        html = client.get(f"/rules/{entry.kind}/{entry.id}").get_data(as_text=True)
        match = re.search(r'<h2 id="see-h">See also</h2>(.*?)</section>', html, re.S)
        if not match:
            continue
        links = re.findall(r'href="([^"]+)"', match.group(1))
        assert len(links) == len(set(links)), (entry.id, sorted(link for link in links if links.count(link) > 1))
