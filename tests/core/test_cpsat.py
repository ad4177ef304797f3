"""OR-Tools is imported without pandas, and pandas stays importable afterwards."""

from __future__ import annotations

import subprocess
import sys


def test_cp_model_loads_without_pandas_and_leaves_the_real_one_importable() -> None:
    code = (
        "import sys\n"
        "from allocator.core.cpsat import cp_model\n"
        "assert 'pandas' not in sys.modules, 'the stand-in was left behind'\n"
        "m = cp_model.CpModel(); x = m.new_bool_var('x'); m.maximize(x)\n"
        "s = cp_model.CpSolver(); assert s.status_name(s.solve(m)) == 'OPTIMAL'\n"
        "import pandas\n"
        "assert hasattr(pandas, 'DataFrame')\n"
    )
    subprocess.run([sys.executable, "-c", code], check=True)


def test_cp_model_is_the_plain_module_once_pandas_is_loaded() -> None:
    code = (
        "import pandas\nfrom allocator.core.cpsat import cp_model\nassert cp_model.pd is pandas\n"
    )
    subprocess.run([sys.executable, "-c", code], check=True)


def test_the_projects_solver_is_bounded_in_time_and_memory() -> None:
    """One worker on a small model, the time asked, and a memory bound (it stops there as at
    its time limit), so that a long limit keeps the process under 1 GiB."""
    from allocator.core.cpsat import SOLVER_MEMORY_MB, cp_model, new_solver

    model = cp_model.CpModel()
    model.maximize(model.new_bool_var("x"))
    solver = new_solver(model, time_limit=2.5)
    assert solver.parameters.num_workers == 1
    assert solver.parameters.max_time_in_seconds == 2.5
    assert solver.parameters.max_memory_in_mb == SOLVER_MEMORY_MB < 1024
