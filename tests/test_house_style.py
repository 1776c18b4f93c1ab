"""The engine's answers are written in one style (``engine/api.py``): a value that names itself
has ``to_dict()``; one that needs context is ``<thing>_json(context..., value)``, context first."""

from __future__ import annotations

import importlib
import inspect
import pkgutil
from collections.abc import Iterator
from typing import Any

import adjudicator.engine

CONTEXT = {"Board", "Situation", "Rulebook"}
"""What a serialiser may need besides its value: the board labels hexes, the situation and the
rulebook name units and entries."""
OTHER_NAMES = ("as_dict", "to_json", "json", "asdict")


def engine_modules() -> Iterator[Any]:
    for info in pkgutil.iter_modules(adjudicator.engine.__path__, "adjudicator.engine."):
        yield importlib.import_module(info.name)


def serialisers() -> list[tuple[str, inspect.Signature]]:
    found = []
    for module in engine_modules():
        for name, function in vars(module).items():
            if name.endswith("_json") and inspect.isfunction(function) and function.__module__ == module.__name__:
                found.append((f"{module.__name__}.{name}", inspect.signature(function, eval_str=True)))
    return found


def test_every_json_serialiser_takes_its_context_first_then_its_value() -> None:
    """What may follow the value narrows it (``destination_json``'s ``to``), never more context."""
    found = serialisers()
    assert len(found) >= 10
    for name, signature in found:
        if name.endswith(".rulebook_to_json"):  # the offline bundle's text, not an answer
            continue
        kinds = [getattr(p.annotation, "__name__", "") in CONTEXT for p in signature.parameters.values()]
        assert False in kinds, (name, "no value")
        value_at = kinds.index(False)
        assert not any(kinds[value_at:]), (name, list(signature.parameters), "context after the value")


def test_engine_values_serialise_with_to_dict_and_no_other_name() -> None:
    with_to_dict = 0
    for module in engine_modules():
        for cls in vars(module).values():
            if not inspect.isclass(cls) or cls.__module__ != module.__name__:
                continue
            assert not any(name in vars(cls) for name in OTHER_NAMES), cls
            if "to_dict" in vars(cls):
                with_to_dict += 1
                assert list(inspect.signature(cls.to_dict).parameters) == ["self"], cls
    assert with_to_dict >= 15
