"""The engine is pure (python-chess style): importing it pulls in no web or database code."""

from __future__ import annotations

import subprocess
import sys


def test_importing_engine_loads_neither_flask_nor_sqlmodel():
    code = (
        "import sys, adjudicator.engine, pkgutil, importlib\n"
        "import adjudicator.engine as e\n"
        "for m in pkgutil.walk_packages(e.__path__, 'adjudicator.engine.'):\n"
        "    importlib.import_module(m.name)\n"
        "bad = sorted(m for m in sys.modules if m.split('.')[0] in "
        "{'flask', 'sqlmodel', 'sqlalchemy', 'whoosh', 'werkzeug', 'pydantic', 'yaml'})\n"
        "print(','.join(bad))\n"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == ""
