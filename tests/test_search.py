"""Search: the index build and its freshness, forgiving queries, the API and the results page."""

from __future__ import annotations

import dataclasses
import json
import math
import re
import sqlite3
import threading
from contextlib import closing
from pathlib import Path

import pytest
import yaml
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from markupsafe import escape

from adjudicator import build, db, search
from adjudicator.content.documents import EXPANSIONS, KIND_LABELS
from adjudicator.content.loader import YAML_LOADER, Catalogue, content_dir
from adjudicator.search.documents import facts_text
from adjudicator.search.query import MAX_QUERY_CHARS, parse_query
from adjudicator.search.snippets import highlight
from adjudicator.search.vocabulary import edit_distance
from adjudicator.search.whoosh_index import (
    ANALYZER,
    WORDS,
    load_synonyms,
    parse_synonyms,
    stems_of,
    whoosh_query,
    words_of,
)

QUERY_SET = [str(case["q"]) for case in yaml.load(
    (Path(__file__).with_name("search_queries.yaml")).read_text(encoding="utf-8"), Loader=YAML_LOADER)]
TYPED = [q[:n] for q in QUERY_SET for n in range(3, len(q), 4)]
"""What a phone sends while each query of the set is typed (as bench/search.py times it)."""

NASTY = [
    "", " ", '"', "'", '"forest', "forest\"", ":", "name:forest", "kind:unit forest", "AND", "OR", "NOT",
    "-", "*", "?", "forest AND", "AND forest", "(", ")", "((forest", "[forest TO hill]", "~", "forest~2",
    "^", "forest^10", "\\", "%", "%00", "\x00", "\x00forest", "\u200bforest", "🙂", "🙂🙂 tank", "戦車",
    "танк в лесу", "دبابة", "ß", "İ", "Ⅻ", "ﬁ", "<script>alert(1)</script>", "&amp;", "a" * 10_000,
    "forest " * 2_000, "x\ny\tz", "/", "..", "🙂" * 3_000,
]


@pytest.fixture(scope="module")
def index(catalogue: Catalogue, tmp_path_factory: pytest.TempPathFactory) -> Path:
    from tests.conftest import seed_instance

    return seed_instance(tmp_path_factory.mktemp("search"))  # the index as ``search.build_index`` built it


@pytest.fixture(scope="module")
def few(catalogue: Catalogue) -> Catalogue:
    """A dozen entries, for the tests of how an index is built, kept, swapped and reopened: the
    mechanics are the same for any catalogue, and a build of the whole one costs ~1.5 s of CPU
    each time (what the whole index holds is checked on the run's built index, ``index``)."""
    keep = {"forest", "bunker", "town", "hill", "river", "hedgerow", "sandbags", "infantry", "armor",
            "artillery", "line_of_sight", "retreat"}
    entries = {entry_id: entry for entry_id, entry in catalogue.entries.items() if entry_id in keep}
    assert len(entries) == len(keep)
    return dataclasses.replace(catalogue, entries=entries, content_hash=f"few-{catalogue.content_hash}",
                               backlinks={})


def ids(results: search.Results) -> list[str]:
    return [hit.id for hit in results.hits]


# --- building the index ------------------------------------------------------------------------


def test_index_build_is_registered_as_a_build_step():
    assert (search.build_index, search.index_is_fresh) in build.EXTRA_STEPS


def test_app_start_builds_the_index_into_instance_index_with_the_content_hash(app):
    catalogue = app.extensions["catalogue"]
    meta = search.read_meta(Path(app.instance_path))
    assert meta is not None
    assert meta["content_hash"] == catalogue.content_hash
    assert meta["entries"] == len(catalogue.entries)
    assert (Path(app.instance_path) / "index" / "CURRENT").is_file()


def test_flask_content_build_builds_the_index_then_finds_it_up_to_date(tmp_path):
    """What ``make run`` / ``make build`` do before serving."""
    from tests.conftest import make_app

    fresh = make_app(tmp_path, SKIP_BUILD=True)
    assert search.read_meta(tmp_path) is None
    runner = fresh.test_cli_runner()
    first = runner.invoke(args=["content", "build"])
    assert first.exit_code == 0 and first.output.startswith("built"), first.output
    assert search.index_is_fresh(fresh.extensions["catalogue"], tmp_path)
    again = runner.invoke(args=["content", "build"])
    assert again.exit_code == 0 and again.output.startswith("up to date"), again.output


def test_flask_build_runs_the_content_build_and_writes_the_engine_bundle_in_one_process(tmp_path):
    """`make build` (and so every `make serve` start) runs ``flask build``: the database and index,
    then the offline engine bundle, with the app and content loaded once."""
    from pathlib import Path

    from tests.conftest import make_app

    fresh = make_app(tmp_path, SKIP_BUILD=True)
    result = fresh.test_cli_runner().invoke(args=["build"])
    assert result.exit_code == 0 and result.output.startswith("built"), result.output
    assert search.index_is_fresh(fresh.extensions["catalogue"], tmp_path)
    again = fresh.test_cli_runner().invoke(args=["build"])
    assert again.exit_code == 0 and again.output.startswith("up to date"), again.output
    bundle = result.output.split("engine bundle: ", 1)[1].strip()
    assert bundle.startswith("offline/engine-") and (Path(fresh.static_folder or "") / bundle).is_file()


def test_index_is_stale_when_the_content_hash_changes(index, catalogue):
    assert search.index_is_fresh(catalogue, index)
    assert not search.index_is_fresh(dataclasses.replace(catalogue, content_hash="0" * 64), index)


def test_missing_index_is_not_fresh(tmp_path, catalogue):
    assert not search.index_is_fresh(catalogue, tmp_path)
    assert search.opened(tmp_path) is None
    with pytest.raises(LookupError):
        search.search(tmp_path, "forest")


def test_ensure_built_builds_the_index_once_and_then_leaves_it(tmp_path, few):
    engine = db.engine_for(f"sqlite:///{tmp_path / 'once.db'}")
    assert build.ensure_built(few, engine, tmp_path)
    first = (tmp_path / "index" / "CURRENT").read_text()
    assert not build.ensure_built(few, engine, tmp_path)
    assert (tmp_path / "index" / "CURRENT").read_text() == first
    # The index alone going missing is enough to rebuild it, and it alone is rebuilt.
    (tmp_path / "index" / "CURRENT").unlink()
    with closing(sqlite3.connect(tmp_path / "once.db")) as raw:  # sees every commit of another connection
        before = raw.execute("PRAGMA data_version").fetchone()[0]
        assert build.ensure_built(few, engine, tmp_path)
        assert raw.execute("PRAGMA data_version").fetchone()[0] == before, "a current database was rebuilt"
    assert search.index_is_fresh(few, tmp_path)


def test_a_new_database_is_built_without_rebuilding_a_current_index(tmp_path, few):
    """Another ``DATABASE_URL`` (or a deleted database file) with the index still current: the
    database is built and the index left as it is (building it is most of a build's time)."""
    assert build.ensure_built(few, db.engine_for(f"sqlite:///{tmp_path / 'first.db'}"), tmp_path)
    current = (tmp_path / "index" / "CURRENT").read_text()
    fresh = db.engine_for(f"sqlite:///{tmp_path / 'second.db'}")
    assert build.ensure_built(few, fresh, tmp_path)
    assert build.built_hash(fresh) == few.content_hash
    assert (tmp_path / "index" / "CURRENT").read_text() == current
    assert build.ensure_built(few, fresh, tmp_path, force=True)  # forced: everything again
    assert (tmp_path / "index" / "CURRENT").read_text() != current


def test_an_index_of_an_older_schema_is_not_opened_and_gets_rebuilt(tmp_path, few):
    folder = search.build_index(few, tmp_path)
    meta = json.loads((folder / "meta.json").read_text())
    (folder / "meta.json").write_text(json.dumps({**meta, "schema": "0"}))
    assert not search.index_is_fresh(few, tmp_path)
    assert search.opened(tmp_path) is None
    search.ensure_index(few, tmp_path)
    assert search.index_is_fresh(few, tmp_path)
    assert ids(search.search(tmp_path, "bunker", limit=1)) == ["bunker"]


def test_a_rebuild_swaps_generations_and_workers_reopen(tmp_path, few):
    first = search.build_index(few, tmp_path)
    opened_first = search.opened(tmp_path)
    assert opened_first is not None and opened_first.folder == first
    assert search.opened(tmp_path) is opened_first  # cached per process
    second = search.build_index(few, tmp_path)
    opened_second = search.opened(tmp_path)
    assert opened_second is not None and opened_second.folder == second
    assert first.exists(), "the previous generation stays for workers still reading it"
    third = search.build_index(few, tmp_path)
    assert not first.exists() and second.exists() and third.exists()
    assert ids(search.search(tmp_path, "forest", limit=1)) == ["forest"]


def test_two_workers_starting_at_once_build_once_and_readers_never_break(tmp_path, few):
    """Four 'workers' run the start-up build concurrently while a reader keeps searching."""
    engine = db.engine_for(f"sqlite:///{tmp_path / 'race.db'}")
    db.create_tables(engine)  # the race under test is the index build, not CREATE TABLE
    search.build_index(few, tmp_path)  # readers need something to read from the start
    errors: list[BaseException] = []
    ran: list[bool] = []
    stop = threading.Event()

    def worker() -> None:
        try:
            ran.append(build.ensure_built(few, engine, tmp_path))
        except BaseException as exc:  # pragma: no cover - reported below
            errors.append(exc)

    reads: list[int] = []

    def reader() -> None:
        try:
            while not stop.is_set():
                assert ids(search.search(tmp_path, "bunker", limit=1)) == ["bunker"]
                reads.append(1)
                # a pause between searches, as real requests have: a reader spinning without one
                # starves the build threads of the GIL (185 s instead of about 1 s)
                stop.wait(0.001)
        except BaseException as exc:  # pragma: no cover - reported below
            errors.append(exc)

    threads = [threading.Thread(target=worker) for _ in range(4)]
    watcher = threading.Thread(target=reader)
    watcher.start()
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(60)
    stop.set()
    watcher.join(60)
    assert not errors, errors
    assert reads, "the reader searched while the workers built"
    assert ran.count(True) == 1, "exactly one worker builds; the others find it fresh"
    assert search.index_is_fresh(few, tmp_path)
    generations = [p for p in (tmp_path / "index").iterdir() if p.is_dir() and not p.name.startswith(".")]
    assert len(generations) <= 2


def test_index_holds_every_entry_with_facets_and_stored_snippet_fields(index, catalogue):
    generation = search.opened(index)
    assert generation is not None
    assert {doc.id for doc in generation.docs.values()} == set(catalogue.entries)
    forest = next(doc for doc in generation.docs.values() if doc.id == "forest")
    assert forest.kind == "terrain" and forest.expansion == "base"
    assert forest.summary == catalogue.entries["forest"].meta.summary
    assert "**" not in forest.body and "[[" not in forest.body  # plain text, links read as names


def test_structured_facts_are_searchable_as_text(catalogue):
    text = facts_text(catalogue.entries["forest"], catalogue)
    assert "Blocks line of sight: Yes" in text
    assert "Attacker dice reduction" in text


# --- forgiving queries -------------------------------------------------------------------------


@pytest.mark.parametrize(("typed", "meant"), [("hedgrow", "hedgerow"), ("artilery", "artillery"), ("bunkr", "bunker")])
def test_a_typo_finds_the_entry_and_suggests_the_spelling(index, typed, meant):
    results = search.search(index, typed + " ")
    assert ids(results)[0] == meant
    assert results.suggestion == meant


@pytest.mark.parametrize(
    ("slang", "entry"),
    [("tank", "armor"), ("tanks", "armor"), ("arty", "artillery"), ("HT", "half_track"),
     ("TD", "tank_destroyer"), ("town", "town"), ("woods", "forest"), ("LOS", "line_of_sight"),
     ("88", "heavy_anti_tank_gun"), ("flak", "heavy_anti_tank_gun"), ("commando", "special_forces")],
)
def test_player_slang_finds_the_rule(index, slang, entry):
    assert ids(search.search(index, slang, limit=3))[0] == entry


def test_stemming_matches_other_forms_of_a_word(index):
    assert ids(search.search(index, "retreating", limit=1)) == ["retreat"]
    assert stems_of("retreating") == stems_of("retreat")


def test_nothing_found_offers_a_did_you_mean_when_a_word_is_close(index):
    results = search.search(index, "hedgrow ")
    assert results.suggestion == "hedgerow"
    assert search.search(index, "forest").suggestion is None
    nothing = search.search(index, "qqqqzzzz xxxyyy")
    assert nothing.hits == () and nothing.suggestion is None


def test_synonym_replacements_each_find_something(index):
    """A synonym pointing at words no entry uses would silently do nothing: catch it."""
    generation = search.opened(index)
    assert generation is not None
    dead = []
    for key, replacements in generation.synonyms.table.items():
        for replacement in replacements:
            stems = stems_of(" ".join(replacement))
            if not all(s in generation.vocabulary.stems for s in stems):
                dead.append(f"{' '.join(key)} -> {' '.join(replacement)}")
    assert not dead, f"content/synonyms.yaml replacements no entry contains: {dead}"


def test_synonyms_file_is_valid_and_bad_files_are_reported():
    synonyms = load_synonyms(content_dir() / "synonyms.yaml")
    assert ("tanks",) in synonyms.table and ("armor",) in synonyms.table[("tanks",)]
    assert ("half", "track") in synonyms.table[("ht",)]
    with pytest.raises(ValueError, match="quote the key"):
        parse_synonyms({"synonyms": {True: ["x"]}})
    with pytest.raises(ValueError, match="non-empty list"):
        parse_synonyms({"synonyms": {"tank": []}})
    with pytest.raises(ValueError, match="'synonyms' mapping"):
        parse_synonyms(["tank"])


@pytest.mark.parametrize("text", NASTY, ids=range(len(NASTY)))
def test_any_text_is_a_query(index, text):
    results = search.search(index, text)
    assert len(results.query) <= MAX_QUERY_CHARS
    assert results.total >= len(results.hits)


def test_highlight_escapes_text_and_adds_only_mark_tags():
    text = "<b>armor</b> & infantry"
    html = str(highlight(text, [(3, 8)]))
    assert html == "&lt;b&gt;<mark>armor</mark>&lt;/b&gt; &amp; infantry"
    assert str(highlight("armor & 'infantry'", [(0, 5)], 0, 12)) == "<mark>armor</mark> &amp; &#39;inf"
    assert str(highlight("armor and infantry", [(0, 5), (10, 18)], 0, 12)) == "<mark>armor</mark> and in"


def test_snippets_escape_every_character_as_markupsafe_does():
    every = "".join(chr(c) for c in range(0x250)) + "\u2019\u2026\u00a0&amp;"
    assert str(highlight(every, [(97, 100)])) == f"{escape(every[:97])}<mark>abc</mark>{escape(every[100:])}"


def test_query_words_are_read_as_the_index_reads_its_words(index):
    """``words_of`` (read for every query) runs the spelling field's analysis directly: on every
    text of every entry and every hostile string, it gives the words ``WORDS`` indexes."""
    generation = search.opened(index)
    texts = [t for doc in generation.docs.values() for t in (doc.name, doc.summary, doc.body)]
    for text in texts + NASTY + QUERY_SET:
        assert words_of(text) == [token.text for token in WORDS(text)], text


def test_the_stems_of_known_words_are_looked_up_as_the_analyzer_gives_them(index):
    """An opened generation looks up the stems of the words it knows (``Analysis.knowing``):
    for every query, what is typed on the way and every synonym, the stems are the analyzer's."""
    generation = search.opened(index)
    phrases = [" ".join(words) for k, vs in generation.synonyms.table.items() for words in (k, *vs)]
    known = sorted(generation.vocabulary.frequencies)[::7]
    for text in [*QUERY_SET, *TYPED, *phrases, *NASTY, " ".join(known), "  forest  hill ", "Forest"]:
        for reading in {text, " ".join(words_of(text))}:
            assert generation.analysis.stems(reading) == stems_of(reading), reading


def test_a_plain_word_is_stemmed_as_the_analyzer_stems_it(index):
    """``stems_of`` runs the analyzer's steps directly for one plain ASCII word: for every word
    the index knows, every beginning of one (what is typed on the way) and a few edge cases, it
    gives what ``ANALYZER`` gives."""
    words = sorted(search.opened(index).vocabulary.frequencies)
    assert len(words) > 1000
    typed = {w[:n] for w in words for n in range(1, len(w) + 1)}
    for text in [*sorted(typed), "A", "I", "US", "Us", "The", "RUNNING", "10", "3", "x1", "abc123", "2d6"]:
        assert stems_of(text) == tuple(t.text for t in ANALYZER(text)), text


def test_edit_distance_counts_a_transposition_as_one():
    assert edit_distance("tnaks", "tanks", 2) == 1
    assert edit_distance("hedgrow", "hedgerow", 2) == 1
    assert edit_distance("abc", "xyz", 1) == 2


# --- the API -----------------------------------------------------------------------------------


def test_api_search_returns_the_contract_fields(client):
    response = client.get("/api/v1/search?q=forest")
    assert response.status_code == 200
    data = response.get_json()
    assert data["query"] == "forest"
    assert data["suggestion"] is None
    first = data["results"][0]
    assert {"id", "kind", "name", "url", "snippet", "score"} <= set(first)
    assert first["id"] == "forest" and first["kind"] == "terrain" and first["url"] == "/rules/terrain/forest"
    scores = [r["score"] for r in data["results"]]
    assert scores == sorted(scores, reverse=True)
    assert client.get(first["url"]).status_code == 200


def test_api_kind_filter_and_facets(client):
    data = client.get("/api/v1/search?q=tank&kind=unit&limit=50").get_json()
    assert data["results"] and all(r["kind"] == "unit" for r in data["results"])
    assert data["total"] == data["facets"]["kind"]["unit"]
    assert sum(data["facets"]["kind"].values()) > data["total"]  # other kinds offered with counts


@pytest.mark.parametrize(("query", "field"), [("kind=spells", "kind"), ("expansion=moon", "expansion"),
                                              ("limit=0", "limit"), ("limit=abc", "limit"), ("limit=51", "limit")])
def test_api_bad_filter_is_400_naming_the_field(client, query, field):
    response = client.get(f"/api/v1/search?q=forest&{query}")
    assert response.status_code == 400
    assert response.get_json()["error"]["field"] == field


def test_api_typo_gets_a_suggestion(client):
    data = client.get("/api/v1/search", query_string={"q": "hedgrow "}).get_json()
    assert data["suggestion"] == "hedgerow"
    assert data["results"][0]["id"] == "hedgerow"


def test_api_snippets_mark_the_matched_words(client):
    data = client.get("/api/v1/search?q=bunker").get_json()
    snippet = data["results"][0]["snippet"]
    assert "<mark>" in snippet
    assert set(re.findall(r"</?([a-z]+)", snippet)) <= {"mark"}


def test_api_empty_query_is_an_empty_result(client):
    data = client.get("/api/v1/search?q=").get_json()
    assert data["results"] == [] and data["total"] == 0


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(text=st.text(max_size=400), kind=st.one_of(st.none(), st.text(max_size=12), st.sampled_from(list(KIND_LABELS))))
def test_no_text_a_user_can_type_breaks_search(app, text, kind):
    client = app.test_client()
    params = {"q": text} if kind is None else {"q": text, "kind": kind}
    page = client.get("/search", query_string=params)
    api = client.get("/api/v1/search", query_string=params)
    valid_kind = kind is None or kind == "" or kind in KIND_LABELS  # empty: any kind; else an exact id
    assert page.status_code == (200 if valid_kind else 400)
    assert api.status_code == (200 if valid_kind else 400)
    if not valid_kind:
        assert api.get_json()["error"]["field"] == "kind"


@pytest.mark.parametrize("text", NASTY, ids=range(len(NASTY)))
def test_hostile_strings_through_the_page_and_api(client, text):
    assert client.get("/search", query_string={"q": text}).status_code == 200
    assert client.get("/api/v1/search", query_string={"q": text}).status_code == 200


# --- the page ----------------------------------------------------------------------------------


def test_search_page_lists_results_with_kind_badges_and_marked_snippets(client):
    html = client.get("/search?q=can+tanks+enter+a+bunker").get_data(as_text=True)
    assert html.index('href="/rules/obstacle/bunker"') < html.index('href="/rules/unit/armor"')
    assert '<span class="badge kind-obstacle">Obstacle</span>' in html
    assert "<mark>" in html
    assert 'value="can tanks enter a bunker"' in html  # the header box keeps the query


def test_search_page_escapes_the_query_and_snippets(client):
    html = client.get("/search", query_string={"q": "<script>alert(1)</script> forest"}).get_data(as_text=True)
    assert "<script>alert(1)" not in html
    for snippet in re.findall(r'<p class="snippet">(.*?)</p>', html, re.S):
        assert set(re.findall(r"</?([a-z]+)", snippet)) <= {"mark"}


def test_search_page_offers_did_you_mean(client):
    html = client.get("/search?q=artilery").get_data(as_text=True)
    assert "Did you mean" in html and 'href="/search?q=artillery"' in html


def test_search_page_facets_filter_by_kind_with_counts(client):
    html = client.get("/search?q=tank").get_data(as_text=True)
    assert 'aria-label="Filter by kind"' in html
    assert re.search(r'href="/search\?q=tank&amp;kind=unit">Units <span class="count">\d+</span>', html)
    filtered = client.get("/search?q=tank&kind=unit").get_data(as_text=True)
    kinds = set(re.findall(r'<span class="badge kind-([a-z_]+)">', filtered))
    assert kinds == {"unit"}
    assert 'aria-current="page">Units' in filtered


def test_search_page_expansion_filter(client):
    html = client.get("/search?q=bunker&expansion=base").get_data(as_text=True)
    assert html.count('class="result"') >= 1
    assert EXPANSIONS["base"] in html


def test_search_page_bad_kind_is_a_400_page(client):
    response = client.get("/search?q=forest&kind=spells")
    assert response.status_code == 400
    assert "spells" in response.get_data(as_text=True)


def test_search_page_with_no_match_says_so(client):
    html = client.get("/search?q=qqqqzzzz").get_data(as_text=True)
    assert "No rule matches" in html


def test_every_page_loads_the_search_script(client):
    html = client.get("/rules/terrain/forest").get_data(as_text=True)
    assert re.search(r'<script src="/static/js/search.js\?v=\w+" defer></script>', html)
    assert 'data-search-input' in html


def test_repeated_questions_are_answered_from_the_generation_cache(tmp_path, few):
    search.build_index(few, tmp_path)
    first = search.search(tmp_path, "arty range")
    assert search.search(tmp_path, "arty range") is first  # same generation: the kept answer
    assert search.search(tmp_path, "arty range", kind="unit") is not first  # other filters: own answer
    search.build_index(few, tmp_path)  # a rebuild is a new generation with a fresh cache
    again = search.search(tmp_path, "arty range")
    assert again is not first and again == first


def test_the_servers_in_memory_bm25f_scores_are_whooshs_own(index):
    """The server scores from postings held in memory (``bm25.Scorer``), not through Whoosh's
    matchers: for every query of tests/search_queries.yaml and what a phone sends while it is
    typed, the same entries match and each score is the one Whoosh's ``searcher.search`` gives."""
    generation = search.opened(index)
    compared = 0
    with generation.searcher() as searcher:
        for query in [*QUERY_SET, *TYPED, "the of a", ""]:
            parsed = parse_query(query, generation)
            scores = generation.scores(parsed)
            reference = whoosh_query(parsed)
            if reference is None:
                assert scores is None, query
                continue
            expected = {hit.docnum: hit.score for hit in searcher.search(reference, limit=None)}
            assert scores is not None and set(scores) == set(expected), query
            for doc, score in expected.items():
                assert scores[doc] == pytest.approx(score, rel=1e-9), (query, generation.docs[doc].id)
            compared += len(expected)
    assert compared > 10_000


@pytest.mark.parametrize("query", ["arty range", "tiger", "can tanks fire into a forest", "hedgrow", "sandbag"])
def test_the_exported_offline_tables_reproduce_the_servers_scores(index, query):
    """offline-search.js scores with BM25F from ``offline_tables``: recomputed here from those
    tables alone, every score equals Whoosh's own, so the browser ranks on the same numbers."""
    generation = search.opened(index)
    tables = search.offline_tables(generation)
    bm25 = tables["bm25"]
    order = sorted(generation.docs)
    parsed = parse_query(query, generation)
    with generation.searcher() as searcher:
        hits = searcher.search(whoosh_query(parsed), limit=None)
        expected = {order.index(hit.docnum): hit.score for hit in hits}

    def per_field(field: str, stem: str) -> dict[int, float]:
        flat = bm25["postings"][field].get(stem, [])
        idf = math.log(bm25["doc_count"] / (len(flat) // 2 + 1)) + 1
        out = {}
        for doc, tf in zip(flat[::2], flat[1::2], strict=True):
            tf *= bm25["boosts"][field]
            norm = (1 - bm25["B"]) + bm25["B"] * bm25["lengths"][field][doc] / bm25["averages"][field]
            out[doc] = idf * tf * (bm25["K1"] + 1) / (tf + bm25["K1"] * norm)
        return out

    def stem_scores(stem: str) -> dict[int, float]:
        total: dict[int, float] = {}
        for field in bm25["boosts"]:
            for doc, value in per_field(field, stem).items():
                total[doc] = total.get(doc, 0.0) + value
        return total

    weights: dict[str, float] = {}
    scores: dict[int, float] = {}
    for group in parsed.groups:
        for alternative in group:
            if len(alternative.stems) == 1:
                weights[alternative.stems[0]] = max(weights.get(alternative.stems[0], 0.0), alternative.weight)
            else:
                maps = [stem_scores(s) for s in alternative.stems]
                for doc in set(maps[0]).intersection(*maps[1:]):
                    scores[doc] = scores.get(doc, 0.0) + alternative.weight * sum(m[doc] for m in maps)
    for stem, weight in weights.items():
        for doc, value in stem_scores(stem).items():
            scores[doc] = scores.get(doc, 0.0) + weight * value
    assert expected and set(scores) == set(expected)
    for doc, score in expected.items():
        assert scores[doc] == pytest.approx(score, rel=1e-5), tables["docs"][doc][0]
