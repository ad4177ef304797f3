"""The time budget: its deadline, its shares, its ticker, its memory limit."""

from __future__ import annotations

import os
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import pytest
import yaml
from crafted import CRAFTED

from allocator.core.budget import Budget, answer_started
from allocator.core.errors import MemoryLimitError, TimeLimitError


def test_a_budget_shared_out_keeps_its_own_limit_for_its_messages() -> None:
    part = Budget(10.0).share(0.5)
    assert part.seconds == 10.0 and 0 < part.remaining() <= 5.0
    with pytest.raises(TimeLimitError, match="in 0 s"):
        Budget(0.0).check("nothing")


def test_a_ticker_looks_at_the_clock_every_so_many_calls() -> None:
    budget = Budget(10.0)
    tick = budget.ticker("a line of play", every=3)
    tick()
    budget.deadline = time.monotonic() - 1  # the limit passes between two looks
    tick(), tick()  # the second and third calls do not look
    with pytest.raises(TimeLimitError, match="a line of play was not found in 10 s"):
        tick()


def test_an_answer_counts_from_when_it_was_asked_for() -> None:
    with answer_started(time.monotonic() - 40.0):
        assert 0 < Budget.of_answer(50.0).remaining() <= 10.0
        assert Budget.of_answer(30.0).expired()
        assert Budget(30.0).remaining() > 20  # a budget of a stage counts from now
        with answer_started(None):
            assert Budget.of_answer(30.0).remaining() > 20
    assert Budget.of_answer(30.0).remaining() > 20


def test_the_process_start_is_when_the_interpreter_started() -> None:
    code = (
        "import time; time.sleep(0.4)\n"
        "from allocator.core.budget import process_started\n"
        "print(time.monotonic() - process_started())"
    )
    age = float(
        subprocess.run(
            [sys.executable, "-c", code], capture_output=True, text=True, check=True
        ).stdout
    )
    assert 0.4 <= age < 30


def test_the_attacks_and_the_classes_stop_when_their_tick_says_so() -> None:
    from allocator.games.crossfire.battle import battle_from_data
    from allocator.games.crossfire.rules.attack import squad_spreads
    from allocator.games.crossfire.search.classes import Classes

    def crafted(name: str) -> Any:
        return battle_from_data(yaml.safe_load(CRAFTED[name]()))

    ticks: list[int] = []
    allowed = [100]

    def tick() -> None:
        ticks.append(1)
        if len(ticks) > allowed[0]:
            raise TimeLimitError(1.0, "a line of play")

    with pytest.raises(TimeLimitError):
        Classes.of(crafted("60-a-side-crafted"), tick)
    classes = Classes.of(crafted("own-units-6-v-8"))
    squads = [k for k in classes.attacker if k.role.value == "squad"]
    counts = tuple(len(k.members) for k in classes.attacker)
    ticks.clear()
    squad_spreads(squads, counts, 6, tick)
    # the spreads are built class by class, and then put together class by class, each ticking
    assert len(ticks) == 2 * len(squads)
    ticks.clear()
    allowed[0] = len(squads) - 1
    with pytest.raises(TimeLimitError):
        squad_spreads(squads, counts, 6, tick)


def test_past_its_memory_limit_a_budget_stops_the_work_as_at_its_deadline() -> None:
    budget = Budget(10.0, memory_mb=64)
    taken = b"\x01" * (100 * 2**20)  # 100 MB taken since the answer began
    assert budget.expired() and budget.share(0.5).expired() and len(taken) > 0
    with pytest.raises(MemoryLimitError, match=r"a line of play was not found within 64 MB"):
        budget.check()
    assert isinstance(budget.ran_out(), MemoryLimitError)
    roomy = Budget(10.0, memory_mb=1 << 20)
    assert not roomy.expired() and type(roomy.ran_out()) is TimeLimitError
    roomy.reserve(1 << 20)
    with pytest.raises(MemoryLimitError, match="the states of the whole fight"):
        roomy.reserve(1 << 41, "the states of the whole fight")


def test_cp_sat_gets_what_the_memory_budget_has_left() -> None:
    from allocator.core.cpsat import SOLVER_MEMORY_MB, cp_model, new_solver

    model = cp_model.CpModel()
    model.new_bool_var("x")
    assert new_solver(model, memory_mb=100).parameters.max_memory_in_mb == 100
    assert new_solver(model).parameters.max_memory_in_mb == SOLVER_MEMORY_MB
    assert 32 <= Budget(1.0, memory_mb=64).memory_left_mb() <= 64


def test_a_command_past_its_memory_limit_exits_3_naming_it() -> None:
    scenario = Path(__file__).resolve().parents[2] / "bench/company-v-town-house.yaml"
    done = subprocess.run(
        [sys.executable, "-m", "allocator.cli", "solve", str(scenario), "--time-limit", "60"],
        capture_output=True,
        text=True,
        env={**os.environ, "CFALLOC_MAX_MEMORY_MB": "64"},
    )
    assert done.returncode == 3 and done.stdout == ""
    assert "no answer within the memory limit" in done.stderr
    assert "CFALLOC_MAX_MEMORY_MB" in done.stderr


def test_a_command_counts_its_start_up_against_its_time_limit() -> None:
    """A process that spent its limit before the command started answers exit 3 at once."""
    scenario = Path(__file__).resolve().parents[2] / "models/scenarios/guide-2hmg-1squad-v-4.yaml"
    code = (
        "import sys, time\n"
        "time.sleep(1.2)  # a slow start-up\n"
        "from allocator.cli import main\n"
        f"sys.argv = ['cfalloc', 'solve', {str(scenario)!r}, '--time-limit', '1']\n"
        "main()\n"
    )
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True)
    assert done.returncode == 3, done.stderr
    assert "a line of play was not found in 1 s" in done.stderr
