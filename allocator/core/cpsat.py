"""OR-Tools CP-SAT, imported the fast way.

OR-Tools' ``cp_model`` imports pandas at load time only for its pandas helpers (``*_series``
methods and type annotations), which cfalloc never calls; pandas costs about 0.3 s of the
0.5 s the import takes, enough to push a cold ``cfalloc check`` past a second. So when pandas is
not loaded yet, ``cp_model`` is imported against a stand-in that has the two names its module
body touches, and the stand-in is removed again, so that a later ``import pandas`` anywhere gets
the real one. Should a future OR-Tools need more of pandas at import, the plain import is used.

>>> cp_model.CpModel().NewBoolVar("x").Name()
'x'
"""

from __future__ import annotations

import sys
import types
from typing import Any


def _load() -> Any:
    if "pandas" in sys.modules or "ortools.sat.python.cp_model" in sys.modules:
        from ortools.sat.python import cp_model as module

        return module
    stand_in = types.ModuleType("pandas")
    stand_in.Index = type("Index", (), {})  # type: ignore[attr-defined]
    stand_in.Series = type("Series", (), {})  # type: ignore[attr-defined]
    sys.modules["pandas"] = stand_in
    try:
        from ortools.sat.python import cp_model as module
    except AttributeError:
        for name in [n for n in sys.modules if n.startswith("ortools.sat.python.cp_model")]:
            del sys.modules[name]
        del sys.modules["pandas"]
        from ortools.sat.python import cp_model as module
    finally:
        if sys.modules.get("pandas") is stand_in:
            del sys.modules["pandas"]
    return module


cp_model = _load()
