"""The JSON answers shared by the command line (``--json``) and the web API.

Each function takes a scenario as parsed data (a dict, as from a request body) and returns what
the matching ``cfalloc ... --json`` command prints. Bad input raises
:class:`~allocator.errors.InputError`.

>>> from allocator.battle import read_data
>>> check_json(read_data("models/scenarios/seed-2hmg-1squad-v-4.yaml"))["legal"]
True
"""

from __future__ import annotations

from typing import Any

from allocator.battle import battle_from_data


def check_json(data: Any, file: str | None = None) -> dict[str, Any]:
    from allocator.check import check_battle

    return check_battle(battle_from_data(data, file)).to_json()


def explain_json(data: Any, objective: str = "sweep", file: str | None = None) -> dict[str, Any]:
    from allocator.explain import explain

    return explain(battle_from_data(data, file), objective)


def solve_json(
    data: Any,
    side: str,
    objective: str = "sweep",
    time_limit: float = 10.0,
    file: str | None = None,
) -> dict[str, Any]:
    from allocator.solve import solve

    return solve(battle_from_data(data, file), side, objective, time_limit).to_json()


def simulate_json(
    data: Any, seed: int = 1, rounds: int = 1, objective: str = "sweep", file: str | None = None
) -> dict[str, Any]:
    from allocator.simulate import simulate

    return simulate(battle_from_data(data, file), rounds, seed, objective)
