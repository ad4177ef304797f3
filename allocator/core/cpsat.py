"""OR-Tools CP-SAT, imported the fast way.

OR-Tools' ``cp_model`` imports pandas at load time only for its pandas helpers (``*_series``
methods and type annotations), which cfalloc never calls; pandas costs about 0.3 s of the
0.5 s the import takes, enough to push a cold ``cfalloc check`` past a second. So when pandas is
not loaded yet, ``cp_model`` is imported against a stand-in that has the two names its module
body touches, and the stand-in is removed again, so that a later ``import pandas`` anywhere gets
the real one. Should a future OR-Tools need more of pandas at import, the plain import is used.

It also holds the one solver factory every game uses, :func:`new_solver`, and, for type
checking only, the names of what a model is built of (:data:`BoolVar`, :data:`BoolLiteral`,
:data:`IntVar`, :data:`Expr`), so that a module that builds on a model given to it names its
types without importing OR-Tools when it runs.

>>> model = cp_model.CpModel()
>>> x = model.new_bool_var("x")
>>> solver = new_solver(model)
>>> solver.solve(model) == cp_model.OPTIMAL, solver.parameters.num_workers
(True, 1)
"""

from __future__ import annotations

import sys
import types
from typing import TYPE_CHECKING

#: A model up to this many variables is searched by one worker: deterministic, and faster.
SMALL_MODEL_VARIABLES = 5000
#: CP-SAT workers of a large model's search; a sweep, which runs one solve per core, makes it 1
#: (:func:`one_worker_per_solve`).
large_model_workers = 2
#: Memory a CP-SAT search may use at most: it stops there as at its time limit, so that a long
#: limit on a large battle keeps the whole process under 1 GiB (its search otherwise grows with
#: time). Within an answer's budget it gets no more than what the budget has left.
SOLVER_MEMORY_MB = 600


def _load() -> types.ModuleType:
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


__all__ = [
    "SMALL_MODEL_VARIABLES",
    "SOLVER_MEMORY_MB",
    "cp_model",
    "new_solver",
    "one_worker_per_solve",
]

if TYPE_CHECKING:
    from typing import TypeAlias

    from ortools.sat.python import cp_model

    #: A 0-1 variable: what ``new_bool_var`` makes, or a constant 0 or 1 of ``new_constant``
    #: (OR-Tools gives both the type of an integer variable).
    BoolVar: TypeAlias = cp_model.IntVar
    #: A literal: a 0-1 variable or its negation (``negated()``), as the Boolean constraints and
    #: ``only_enforce_if`` take it.
    BoolLiteral: TypeAlias = cp_model.BoolVarT
    #: An integer variable of ``new_int_var``.
    IntVar: TypeAlias = cp_model.IntVar
    #: A linear expression: an integer, a variable, or a sum of them times integers.
    Expr: TypeAlias = cp_model.LinearExprT
else:
    cp_model = _load()


def new_solver(
    model: cp_model.CpModel, time_limit: float | None = None, memory_mb: int | None = None
) -> cp_model.CpSolver:
    """A solver set up the project's way.

    Parameters
    ----------
    model : CpModel
        The model to be solved: up to ``SMALL_MODEL_VARIABLES`` variables it gets one worker
        (deterministic, and faster), beyond that ``large_model_workers``.
    time_limit : float, optional
        Seconds the search may take; none for no limit.
    memory_mb : int, optional
        MB the search may take (an answer's :meth:`~allocator.core.budget.Budget.memory_left_mb`);
        never more than ``SOLVER_MEMORY_MB``.

    Returns
    -------
    CpSolver
        With its workers, its memory cap and its time limit set.
    """
    solver = cp_model.CpSolver()
    small = len(model.proto.variables) <= SMALL_MODEL_VARIABLES
    solver.parameters.num_workers = 1 if small else large_model_workers
    solver.parameters.max_memory_in_mb = min(SOLVER_MEMORY_MB, memory_mb or SOLVER_MEMORY_MB)
    if time_limit is not None:
        solver.parameters.max_time_in_seconds = time_limit
    return solver


def one_worker_per_solve() -> None:
    """Every solve of this process uses one CP-SAT worker, however large its model: for work
    that runs as many solves at once as there are cores (``cfalloc sweep``)."""
    global large_model_workers
    large_model_workers = 1
