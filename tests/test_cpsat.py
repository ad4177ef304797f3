"""OR-Tools is imported without pandas, and pandas stays importable afterwards."""

from __future__ import annotations

import subprocess
import sys


def test_cp_model_loads_without_pandas_and_leaves_the_real_one_importable() -> None:
    code = (
        "import sys\n"
        "from allocator.core.cpsat import cp_model\n"
        "assert 'pandas' not in sys.modules, 'the stand-in was left behind'\n"
        "m = cp_model.CpModel(); x = m.NewBoolVar('x'); m.Maximize(x)\n"
        "s = cp_model.CpSolver(); assert s.StatusName(s.Solve(m)) == 'OPTIMAL'\n"
        "import pandas\n"
        "assert hasattr(pandas, 'DataFrame')\n"
    )
    subprocess.run([sys.executable, "-c", code], check=True)


def test_cp_model_is_the_plain_module_once_pandas_is_loaded() -> None:
    code = (
        "import pandas\nfrom allocator.core.cpsat import cp_model\nassert cp_model.pd is pandas\n"
    )
    subprocess.run([sys.executable, "-c", code], check=True)
