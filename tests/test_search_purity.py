"""Search keeps Whoosh in one module: the ranking the offline search copies reads as plain Python."""

from __future__ import annotations

import ast
from pathlib import Path

PACKAGE = Path(__file__).resolve().parent.parent / "adjudicator"
WHOOSH_MODULE = "search/whoosh_index.py"
PURE_RANKING = ("analysis", "fields", "synonyms", "vocabulary", "query", "documents", "ranking", "snippets",
                "offline_tables")


def imported_modules(path: Path) -> set[str]:
    """Every module ``path`` imports when it runs (imports only for type checkers left out)."""
    found: set[str] = set()

    def visit(node: ast.AST) -> None:
        if isinstance(node, ast.If) and isinstance(node.test, ast.Name) and node.test.id == "TYPE_CHECKING":
            for child in node.orelse:
                visit(child)
            return
        if isinstance(node, ast.Import):
            found.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.module:
            found.add(node.module)
            found.update(f"{node.module}.{alias.name}" for alias in node.names)
        for child in ast.iter_child_nodes(node):
            visit(child)

    visit(ast.parse(path.read_text(encoding="utf-8")))
    return found


def test_only_the_index_module_imports_whoosh():
    modules = (path for path in PACKAGE.rglob("*.py") if "static" not in path.relative_to(PACKAGE).parts)
    importers = {
        str(path.relative_to(PACKAGE)) for path in modules
        if any(name.split(".")[0] == "whoosh" for name in imported_modules(path))
    }
    assert importers == {WHOOSH_MODULE}


def test_the_ranking_offline_search_shares_imports_no_whoosh():
    for name in PURE_RANKING:
        imports = imported_modules(PACKAGE / "search" / f"{name}.py")
        bad = sorted(m for m in imports if m.split(".")[0] == "whoosh"
                     or m.startswith(("adjudicator.search.whoosh_index", "adjudicator.search.service")))
        assert not bad, f"search/{name}.py imports {bad}"
