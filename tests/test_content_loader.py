"""The content model: every file validates, and a malformed one is reported clearly."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from adjudicator.content.loader import ContentError, content_dir, load_catalogue
from adjudicator.engine.rulebook import HexRules, UnitRules

FOREST = """---
id: forest
kind: terrain
name: Forest
summary: Blocks line of sight.
expansion: base
sources:
  - document: Game help summary
    section: Forests
    facts: [dice_reductions, blocks_los]
dice_reductions:
  - dice: {infantry: 1, armor: 2}
blocks_los: true
---
Body text.
"""


WINTER_FOREST = (FOREST.replace("id: forest", "id: winter_forest")
                 .replace("name: Forest", "name: Winter Forest\nbase: forest")
                 .replace("facts: [dice_reductions, blocks_los]", "facts: [base]")
                 .replace("dice_reductions:\n  - dice: {infantry: 1, armor: 2}\nblocks_los: true\n", ""))


def write(root: Path, kind: str, name: str, text: str) -> Path:
    path = (root if root.name == "content" else root / "content") / kind / f"{name}.md"
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text)
    return path


def problems_of(root: Path) -> list[str]:
    with pytest.raises(ContentError) as info:
        load_catalogue(root / "content")
    return [str(p) for p in info.value.problems]


def test_repository_content_validates(catalogue):
    assert len(catalogue.entries) >= 16
    assert isinstance(catalogue.entries["forest"].rules, HexRules)
    assert isinstance(catalogue.entries["infantry"].rules, UnitRules)


def test_minimal_entry_loads_with_typed_rules(tmp_path):
    write(tmp_path, "terrain", "forest", FOREST)
    forest = load_catalogue(tmp_path / "content").entries["forest"].rules
    assert forest.dice_reductions[0].dice == {"infantry": 1, "armor": 2}
    assert forest.blocks_los is True


def test_wrong_field_type_names_file_and_field(tmp_path):
    write(tmp_path, "terrain", "forest", FOREST.replace("blocks_los: true", "blocks_los: sometimes"))
    [problem] = problems_of(tmp_path)
    assert problem.startswith("content/terrain/forest.md: blocks_los: ")


def test_unknown_field_is_an_error(tmp_path):
    write(tmp_path, "terrain", "forest", FOREST.replace("blocks_los: true", "blocks_lose: true"))
    assert any(p.startswith("content/terrain/forest.md: blocks_lose: ") for p in problems_of(tmp_path))


def test_unknown_attacker_class_in_reduction_is_an_error(tmp_path):
    write(tmp_path, "terrain", "forest", FOREST.replace("{infantry: 1, armor: 2}", "{infantry: 1, tanks: 2}"))
    assert any("content/terrain/forest.md: dice_reductions.0.dice.tanks" in p for p in problems_of(tmp_path))


def test_unknown_see_also_id_is_an_error(tmp_path):
    write(tmp_path, "terrain", "forest", FOREST.replace("blocks_los: true", "blocks_los: true\nsee_also: [woodz]"))
    assert "content/terrain/forest.md: see_also.0: unknown entry id 'woodz'" in problems_of(tmp_path)


def test_missing_sources_and_bad_expansion_are_reported_together(tmp_path):
    text = FOREST.replace("expansion: base", "expansion: basic")
    text = text.replace("sources:\n  - document: Game help summary\n    section: Forests\n"
                        "    facts: [dice_reductions, blocks_los]\n", "")
    found = problems_of(tmp_path) if write(tmp_path, "terrain", "forest", text) else []
    assert any(p.startswith("content/terrain/forest.md: expansion: ") for p in found)
    assert any(p.startswith("content/terrain/forest.md: sources: ") for p in found)


def test_unknown_document_is_an_error(tmp_path):
    write(tmp_path, "terrain", "forest", FOREST.replace("Game help summary", "My notes"))
    assert any(p.startswith("content/terrain/forest.md: sources.0.document: ") for p in problems_of(tmp_path))


def test_missing_front_matter_is_an_error(tmp_path):
    write(tmp_path, "terrain", "forest", "Just text.\n")
    assert problems_of(tmp_path) == [
        "content/terrain/forest.md: (file): must start with YAML front matter between '---' lines"
    ]


def test_invalid_yaml_is_an_error(tmp_path):
    write(tmp_path, "terrain", "forest", FOREST.replace("name: Forest", "name: [Forest"))
    [problem] = problems_of(tmp_path)
    assert problem.startswith("content/terrain/forest.md: (front matter): invalid YAML")


def test_file_name_must_match_id(tmp_path):
    write(tmp_path, "terrain", "woods", FOREST)
    assert "content/terrain/woods.md: id: is 'forest' but the file is named woods.md" in problems_of(tmp_path)


def test_folder_must_match_kind(tmp_path):
    write(tmp_path, "unit", "forest", FOREST)
    assert "content/unit/forest.md: kind: is 'terrain' but the file is in unit/" in problems_of(tmp_path)


def test_duplicate_alias_is_reported(tmp_path):
    write(tmp_path, "terrain", "forest", FOREST.replace("name: Forest", "name: Forest\naliases: [woods]"))
    write(tmp_path, "terrain", "jungle", FOREST.replace("id: forest", "id: jungle")
          .replace("name: Forest", "name: Jungle\naliases: [woods]"))
    assert any("'woods' is also a name or alias of" in p for p in problems_of(tmp_path))


def test_unknown_body_link_is_an_error(tmp_path):
    write(tmp_path, "terrain", "forest", FOREST.replace("Body text.", "See [[hedge]]."))
    assert "content/terrain/forest.md: (body): link [[hedge]] names no entry" in problems_of(tmp_path)


def test_base_entry_supplies_numbers_the_variant_does_not_restate(tmp_path):
    write(tmp_path, "terrain", "forest", FOREST)
    write(tmp_path, "terrain", "winter_forest", WINTER_FOREST)
    catalogue = load_catalogue(tmp_path / "content")
    assert catalogue.entries["winter_forest"].rules == catalogue.entries["forest"].rules


def test_unknown_base_is_an_error(tmp_path):
    write(tmp_path, "terrain", "forest", FOREST.replace("name: Forest", "name: Forest\nbase: woods"))
    assert "content/terrain/forest.md: base: unknown entry 'woods'" in problems_of(tmp_path)


def test_content_check_command_reports_problems(tmp_path):
    from adjudicator import create_app

    shutil.copytree(content_dir(), tmp_path / "content")
    write(tmp_path / "content", "terrain", "forest", FOREST.replace("blocks_los: true", "blocks_los: 7"))
    app = create_app({"TESTING": True, "CONTENT_DIR": str(tmp_path / "content"),
                      "INSTANCE_PATH": str(tmp_path / "instance")})
    result = app.test_cli_runner().invoke(args=["content", "check"])
    assert result.exit_code == 1
    assert "content/terrain/forest.md: blocks_los: " in result.output
    assert app.test_client().get("/rules/").status_code == 503


def test_content_check_command_passes_on_repository_content(app):
    result = app.test_cli_runner().invoke(args=["content", "check"])
    assert result.exit_code == 0, result.output
    assert "content OK" in result.output


def test_the_same_content_is_parsed_once_and_changed_bytes_again(tmp_path):
    """Apps made from unchanged content share one catalogue (parsing is most of an app's
    start); a changed file is seen at once, since the catalogue is kept under the content hash."""
    path = write(tmp_path, "terrain", "forest", FOREST)
    first = load_catalogue(tmp_path / "content")
    assert load_catalogue(tmp_path / "content") is first
    path.write_text(FOREST.replace("Blocks line of sight.", "Blocks the view."))
    changed = load_catalogue(tmp_path / "content")
    assert changed is not first
    assert changed.entries["forest"].meta.summary == "Blocks the view."
    assert changed.content_hash != first.content_hash
    path.write_text(FOREST.replace("blocks_los: true", "blocks_los: maybe"))
    with pytest.raises(ContentError):  # a broken file is reported every time, never served from before
        load_catalogue(tmp_path / "content")


# -- citations: each structured field is cited by exactly one source (docs/contracts.md section 4) --

def test_a_set_field_no_source_cites_is_reported(tmp_path):
    write(tmp_path, "terrain", "forest", FOREST.replace("[dice_reductions, blocks_los]", "[dice_reductions]"))
    assert problems_of(tmp_path) == ["content/terrain/forest.md: blocks_los: no source cites it: list it in the facts "
                                     "of the source whose section decides it"]


def test_a_field_cited_by_two_sources_is_reported(tmp_path):
    write(tmp_path, "terrain", "forest", FOREST.replace(
        "    facts: [dice_reductions, blocks_los]\n",
        "    facts: [dice_reductions, blocks_los]\n  - document: BGA implementation\n    section: Terrain catalogue\n"
        "    facts: [blocks_los]\n"))
    assert problems_of(tmp_path) == ["content/terrain/forest.md: sources.1.facts.0: 'blocks_los' is already cited by "
                                     "sources.0: one passage decides a field"]


def test_an_unknown_or_unset_field_in_facts_is_reported(tmp_path):
    write(tmp_path, "terrain", "forest", FOREST.replace("facts: [dice_reductions, blocks_los]",
                                                       "facts: [dice_reductions, blocks_los, blocks_lose, must_stop]"))
    assert problems_of(tmp_path) == [
        "content/terrain/forest.md: sources.0.facts.2: unknown field 'blocks_lose' for a terrain",
        "content/terrain/forest.md: sources.0.facts.3: 'must_stop' is not set by this entry",
    ]


def test_an_inherited_field_is_cited_on_its_base_entry(tmp_path):
    write(tmp_path, "terrain", "forest", FOREST)
    write(tmp_path, "terrain", "winter_forest", WINTER_FOREST.replace("facts: [base]", "facts: [base, blocks_los]"))
    assert problems_of(tmp_path) == ["content/terrain/winter_forest.md: sources.0.facts.1: 'blocks_los' is not set by "
                                     "this entry (it comes from base 'forest': its page cites it)"]


def test_which_entry_a_variant_behaves_like_must_be_cited(tmp_path):
    write(tmp_path, "terrain", "forest", FOREST)
    write(tmp_path, "terrain", "winter_forest", WINTER_FOREST.replace("    facts: [base]\n", ""))
    assert problems_of(tmp_path) == ["content/terrain/winter_forest.md: base: no source cites it: list it in the facts "
                                     "of the source whose section decides it"]


def test_each_fact_resolves_to_the_source_that_decides_it_inherited_ones_too(tmp_path):
    write(tmp_path, "terrain", "forest", FOREST)
    write(tmp_path, "terrain", "winter_forest", WINTER_FOREST.replace("section: Forests\n    facts: [base]",
                                                                      "section: Winter Forest\n    facts: [base]"))
    catalogue = load_catalogue(tmp_path / "content")
    inherited = catalogue.citation("winter_forest", "blocks_los")
    assert inherited is not None and (inherited.entry, inherited.source.section) == ("forest", "Forests")
    own = catalogue.citation("winter_forest", "base")
    assert own is not None and (own.entry, own.source.section) == ("winter_forest", "Winter Forest")
    assert catalogue.citation("forest", "must_stop") is None


@pytest.mark.parametrize(("document", "page", "message"), [
    ("Winter Wars rulebook", None, "the Winter Wars rulebook prints page numbers: give the page the section starts on"),
    ("Winter Wars rulebook", 40, "page 40 is not a page of the Winter Wars rulebook (1-11)"),
    ("Game help summary", 3, "the Game help summary has no page numbers: leave page out"),
])
def test_a_page_is_given_exactly_where_the_document_prints_them(tmp_path, document, page, message):
    source = f"document: {document}\n    section: Forests\n" + (f"    page: {page}\n" if page else "")
    write(tmp_path, "terrain", "forest", FOREST.replace("document: Game help summary\n    section: Forests\n", source))
    assert problems_of(tmp_path) == [f"content/terrain/forest.md: sources.0: Value error, {message}"]


def test_a_foreword_is_cited_without_a_page(tmp_path):
    write(tmp_path, "terrain", "forest", FOREST.replace("document: Game help summary\n    section: Forests\n",
                                                       "document: Winter Wars rulebook\n    section: Foreword\n"))
    assert load_catalogue(tmp_path / "content").entries["forest"].meta.sources[0].page is None
