"""A sweep: one exact solve for every cell of a grid of variants of one scenario.

A sweep spec (:class:`SweepSpec`, a YAML or JSON file) names a scenario file, what to solve
(``objective``, ``side``, ``rounds``, each cell's ``time_limit``) and ``vary``: a dotted path of
the scenario mapped to the values it takes, the grid being their product. A path is the
scenario's own keys (``building.capacity``, ``ruleset.overrides.ties``, ``surprise``), a list
item by its index (``attacker.stands.0.quality``), a stand by its id (``attacker.a1.quality``)
or, for a field of the stands, every stand of a side (``attacker.quality``). ``ruleset.``
paths turn a profile's name into a base with overrides.

:func:`load_sweep` reads the spec and checks every cell before any work: the cell count and
the solving time it asks for are within the limits, each value fits the scenario alone (an
error names the spec's ``vary`` entry and the scenario's own problem), and so does every cell.
:func:`solve_cell` is one cell's solve (a module-level function, so that joblib and Dask can
send it to their workers); :class:`ResultsFile` keeps the finished cells in a JSON Lines file,
one :class:`SweepLine` each, appended as they finish and sorted in the grid's order at the end,
so that an interrupted sweep resumes from it.

>>> from allocator.core.library import folder
>>> sweep = load_sweep(folder("sweeps") / "farmhouse-quality.yaml")
>>> len(sweep.cells), sweep.paths[:2]
(108, ['attacker.quality', 'defender.quality'])
>>> sweep.cells[0].key()["ruleset.overrides.ties"], sweep.cells[-1].key()["surprise"]
('reroll', True)
>>> line = solve_cell(sweep.task(sweep.cells[0])).line
>>> line.status, line.value_exact
('optimal', Fraction(36889, 87296))
"""

from __future__ import annotations

import copy
import json
import stat
import time
from collections.abc import Iterator
from dataclasses import dataclass
from fractions import Fraction
from math import prod
from pathlib import Path
from typing import Annotated, Any, Literal, Self

from pydantic import Field, JsonValue, StringConstraints, model_validator

from allocator.core.budget import Budget
from allocator.core.cpsat import one_worker_per_solve
from allocator.core.errors import InputError, TimeLimitError
from allocator.core.exact import Exact, fraction_text
from allocator.core.files import write_atomically
from allocator.core.library import is_path, relative_document, shipped
from allocator.core.limits import Limits, default_limits
from allocator.core.reader import excerpt, read_file, read_text
from allocator.core.validation import nearest, validate
from allocator.games.crossfire.battle import SIDES, battle_from_data, load_organisation
from allocator.games.crossfire.objectives import DEFAULT_OBJECTIVE, Objective, objective_named
from allocator.games.crossfire.schema import (
    Force,
    Name,
    PresentStand,
    Real,
    Scenario,
    SideName,
    Strict,
    Text,
    Whole,
    is_none,
)

#: A dotted path into a scenario: keys, list indexes and stand ids joined by dots.
PathText = Annotated[
    str,
    StringConstraints(
        min_length=1, max_length=200, pattern=r"^[A-Za-z0-9_\-]+(\.[A-Za-z0-9_\-]+)*$"
    ),
]
#: The fields a side-wide path sets on every stand of the side (``attacker.quality``).
SIDE_WIDE = tuple(name for name in PresentStand.model_fields if name != "id")
#: A cell whose solve found no line of play within its time limit.
NO_ANSWER = "no answer"
#: The longest line of a results file read back (a cell's values are short).
LONGEST_LINE = 100_000


class SweepPlot(Strict):
    """The picture ``cfalloc sweep --plot FILE`` draws: the value over one or two paths."""

    chart: Literal["line", "heatmap"] = Field(
        default="line",
        description="`line`: the value along `x`, one line for each value of `y`; `heatmap`: "
        "a grid of `x` by `y` coloured by the value.",
    )
    x: PathText | None = Field(
        default=None, description="A path of `vary` along the x axis (default: the first)."
    )
    y: PathText | None = Field(
        default=None,
        description="A path of `vary`: the lines of a line chart, the rows of a heatmap "
        "(default: the second, if any).",
    )
    where: dict[PathText, JsonValue] = Field(
        default_factory=dict,
        description="The value of each other path of `vary` in the picture (default: its "
        "first value).",
    )


class SweepSpec(Strict):
    """A grid of variants of one scenario, each cell one exact solve."""

    title: Name | None = None
    description: Text | None = None
    scenario: Annotated[str, StringConstraints(min_length=1, max_length=1000)] = Field(
        description="The scenario: a path relative to this spec (in its folder or below), or "
        "the name of a shipped scenario (models/scenarios/)."
    )
    objective: Objective = Field(
        default=DEFAULT_OBJECTIVE, description="What each cell solves for (as `--objective`)."
    )
    side: SideName = Field(default="defender", description="Whose best allocation (`--side`).")
    rounds: Whole | None = Field(
        default=None,
        ge=1,
        description="With the objective take: fight at most this many rounds (`--rounds`).",
    )
    plan: bool = Field(
        default=False,
        description="Each cell plans the side's commitment as `cfalloc plan` does (the objective "
        "take): its value is the best choice's chance of taking the building, and `stands` the "
        "stands that choice commits (attacker) or garrisons (defender).",
    )
    time_limit: Real = Field(
        default=10.0,
        gt=0,
        allow_inf_nan=False,
        description="Seconds each cell's solve may take, model building included.",
    )
    vary: dict[PathText, Annotated[list[JsonValue], Field(min_length=1)]] = Field(
        default_factory=dict,
        description="A dotted path of the scenario -> the values it takes; the grid is their "
        "product (no path: one cell, the scenario as it is).",
    )
    plot: SweepPlot = Field(default_factory=SweepPlot, description="What `--plot` draws.")


class SweepLine(Strict):
    """One line of a sweep's output: a cell, and the answer of its solve."""

    cell: dict[str, JsonValue] = Field(description="Each varied path and its value here.")
    status: Literal["optimal", "feasible", "no answer"] = Field(
        description="`optimal` (proven), `feasible` (the time limit stopped the search: the "
        "best found, not proven optimal) or `no answer` (no line of play within the time "
        "limit)."
    )
    value: float | None = Field(description="The objective's value, the attacker's.")
    value_exact: Exact | None = Field(description="The same value, exactly.")
    stands: list[str] | None = Field(
        default=None,
        exclude_if=is_none,
        description="With plan: the stands the best choice commits or garrisons.",
    )
    warnings: list[str] = Field(
        default_factory=list,
        exclude_if=lambda warnings: not warnings,
        description="What `cfalloc solve` warns of for this cell's scenario (a building that "
        "breaks B1 or B2, solved as given; a leader who can join no combat); left out when "
        "there is none.",
    )
    seconds: float = Field(
        ge=0,
        description="How long the cell took where it ran: the one field that differs from one "
        "run to the next.",
    )

    @model_validator(mode="after")
    def _one_answer(self) -> Self:
        """A value exactly when there is an answer, and the value is the exact one's."""
        if (self.status == NO_ANSWER) != (self.value_exact is None):
            raise ValueError(
                "a line without an answer (status 'no answer') has no value_exact, and a line "
                "with one has it"
            )
        expected = None if self.value_exact is None else float(self.value_exact)
        if self.value != expected:
            raise ValueError(f"value is {self.value}, not value_exact's {expected}")
        return self

    def text(self) -> str:
        """This line as the output writes it: one line of JSON, every non-ASCII character
        escaped (the same bytes whatever the run, but ``seconds``)."""
        data = self.model_dump(mode="json")
        return json.dumps(data, ensure_ascii=True).replace("\x7f", "\\u007f")


@dataclass(frozen=True)
class Cell:
    """One cell of the grid: its place in the grid's order and each path's value."""

    index: int
    values: tuple[tuple[str, JsonValue], ...]

    def key(self) -> dict[str, JsonValue]:
        return dict(self.values)

    def ident(self) -> str:
        """The cell as a text that identifies it (a results file's line is matched by it)."""
        return identity(self.key())


def identity(value: JsonValue) -> str:
    """A value (a cell, a path's value) as a text that identifies it: equal values, equal
    texts, whatever the order of a mapping's keys.

    >>> identity({"b": [1, True], "a": "x"})
    '{"a": "x", "b": [1, true]}'
    """
    return json.dumps(value, sort_keys=True, ensure_ascii=True)


@dataclass(frozen=True)
class CellTask:
    """Everything a worker needs to solve one cell (pickled to it)."""

    index: int
    values: tuple[tuple[str, JsonValue], ...]
    scenario: dict[str, Any]
    scenario_file: str
    base_dir: Path
    objective: str
    side: SideName
    rounds: int | None
    time_limit: float
    plan: bool = False


@dataclass(frozen=True)
class CellResult:
    index: int
    line: SweepLine


@dataclass(frozen=True)
class Sweep:
    """A checked spec: its scenario's data and every cell of its grid, in the grid's order."""

    spec: SweepSpec
    file: str
    scenario_file: str
    scenario: dict[str, Any]
    base_dir: Path
    cells: list[Cell]

    @property
    def paths(self) -> list[str]:
        return list(self.spec.vary)

    def task(self, cell: Cell) -> CellTask:
        return CellTask(
            cell.index,
            cell.values,
            self.scenario,
            self.scenario_file,
            self.base_dir,
            self.spec.objective.name,
            self.spec.side,
            self.spec.rounds,
            self.spec.time_limit,
            self.spec.plan,
        )


def solve_cell(task: CellTask) -> CellResult:
    """Solve one cell, with one CP-SAT worker, within the cell's time limit.

    Parameters
    ----------
    task : CellTask
        The cell and the sweep's scenario and settings (:meth:`Sweep.task`).

    Returns
    -------
    CellResult
        The cell's index and its line; the status ``no answer`` when not even a legal line of
        play was found in time.
    """
    one_worker_per_solve()
    from allocator.games.crossfire.search.solve import solve
    from allocator.games.crossfire.warnings import plan_warnings, solve_warnings

    start = time.perf_counter()
    budget = Budget(task.time_limit)
    battle = battle_from_data(
        variant(task.scenario, task.values), task.scenario_file, task.base_dir
    )
    status: str
    value: Fraction | None
    stands: list[str] | None = None
    try:
        if task.plan:
            from allocator.games.crossfire.plan import plan_answer

            planned = plan_answer(
                battle, task.side, time_limit=task.time_limit, rounds=task.rounds, budget=budget
            )
            status = planned.status
            value, stands = planned.best.value_exact, planned.best.stands
        else:
            outcome = solve(
                battle,
                task.side,
                objective_named(task.objective),
                rounds=task.rounds,
                budget=budget,
            )
            status, value = outcome.status, outcome.line.value
    except TimeLimitError:
        status, value = NO_ANSWER, None
    line = SweepLine(
        cell=dict(task.values),
        status=status,
        value=None if value is None else float(value),
        value_exact=value,
        stands=stands,
        seconds=round(time.perf_counter() - start, 3),
        warnings=plan_warnings(battle) if task.plan else solve_warnings(battle),
    )
    return CellResult(task.index, line)


# --- the paths of a scenario ------------------------------------------------------------------


def variant(scenario: dict[str, Any], values: tuple[tuple[str, JsonValue], ...]) -> Any:
    """A copy of ``scenario`` with each path set to its value, in order.

    >>> variant({"building": {"capacity": 2}}, (("building.capacity", 3), ("surprise", True)))
    {'building': {'capacity': 3}, 'surprise': True}
    """
    data = copy.deepcopy(scenario)
    for path, value in values:
        set_path(data, path, value)
    return data


def set_path(data: dict[str, Any], path: str, value: JsonValue) -> None:
    """Set ``path`` of the scenario ``data`` to ``value`` (a copy of it).

    Raises
    ------
    InputError
        When the path leads nowhere: a stand the side does not have, an index out of its list,
        a key under a plain value. (A key the scenario does not take is the schema's to say.)
    """
    parts = path.split(".")
    head = parts[0]
    if head in SIDES and len(parts) > 1 and parts[1] not in Force.model_fields:
        force = data.get(head)
        if not isinstance(force, dict):
            raise InputError(f"the scenario's {head} is not a mapping of its force")
        field = parts[1]
        if len(parts) == 2 and field in SIDE_WIDE:
            for stand in _stand_entries(force, head):
                stand[field] = copy.deepcopy(value)
            return
        stand = _stand_named(force, head, field)
        if len(parts) == 2:
            raise InputError(
                f"name a field of the stand '{field}' after it ({head}.{field}.quality), or a "
                f"field of every {head}'s stand: {', '.join(SIDE_WIDE)}"
            )
        _set(stand, parts[2:], value, f"{head}.{field}")
        return
    if head == "ruleset" and len(parts) > 1:
        ruleset = data.get("ruleset", Scenario.model_fields["ruleset"].default)
        if isinstance(ruleset, str):  # a profile's name or path: the base of the overrides
            data["ruleset"] = {"base": ruleset}
    _set(data, parts, value, "")


def _set(node: Any, parts: list[str], value: JsonValue, above: str) -> None:
    where = above
    for index, part in enumerate(parts):
        last = index == len(parts) - 1
        where = f"{where}.{part}" if where else part
        if isinstance(node, dict):
            if last:
                node[part] = copy.deepcopy(value)
                return
            node = node.setdefault(part, {})
        elif isinstance(node, list):
            if not part.isdigit() or int(part) >= len(node):
                raise InputError(
                    f"{where} is not an item of its list: give an index from 0 to {len(node) - 1}"
                )
            if last:
                node[int(part)] = copy.deepcopy(value)
                return
            node = node[int(part)]
        else:
            raise InputError(f"{where} is inside {excerpt(node)}, which has no parts")


def _stand_entries(force: dict[str, Any], side: str) -> list[dict[str, Any]]:
    """Every stand entry of a force, as mappings that may be changed: its ``stands`` and, with
    an organisation, its ``present`` ones (every stand of the organisation when none is
    listed)."""
    entries: list[dict[str, Any]] = []
    if "organisation" in force:
        present = force.get("present") or []
        if not present:
            name = force["organisation"]
            if not isinstance(name, str):
                raise InputError(f"the {side}'s organisation is not a name")
            present = [stand.id for stand in load_organisation(name).stands]
        force["present"] = [{"id": e} if isinstance(e, str) else e for e in present]
        entries.extend(e for e in force["present"] if isinstance(e, dict))
    stands = force.get("stands") or []
    entries.extend(e for e in stands if isinstance(e, dict))
    return entries


def _stand_named(force: dict[str, Any], side: str, stand_id: str) -> dict[str, Any]:
    entries = _stand_entries(force, side)
    for entry in entries:
        if entry.get("id") == stand_id:
            return entry
    ids = [str(e.get("id")) for e in entries]
    near = nearest(stand_id, ids)
    hint = f"did you mean '{near}'?" if near else f"it has: {', '.join(ids)}"
    keys = ", ".join([*Force.model_fields, *SIDE_WIDE])
    raise InputError(
        f"the {side} has no stand '{stand_id}' ({hint}); after {side}. a path takes a stand's "
        f"id or one of {keys}"
    )


# --- reading a spec -----------------------------------------------------------------------------


def load_sweep(path: str | Path, limits: Limits | None = None) -> Sweep:
    """Read a sweep spec and check it whole: every cell fits the scenario, within the limits.

    Parameters
    ----------
    path : str or Path
        The spec file (YAML or JSON).
    limits : Limits or None
        The limits (default: this process's).

    Returns
    -------
    Sweep

    Raises
    ------
    InputError
        Naming the spec (or the scenario), the place and the problem; a
        :class:`~allocator.core.errors.LimitError` for too many cells or too long in all.
    """
    limits = limits or default_limits()
    path = Path(path)
    file = str(path)
    spec = validate(SweepSpec, read_file(path, limits=limits), file=file)
    _check_settings(spec, file, limits)
    if is_path(spec.scenario):
        scenario_path = relative_document(
            spec.scenario,
            path.parent,
            file=file,
            place="scenario",
            beside="the scenario next to the spec",
        )
        scenario_file = str(path.parent / spec.scenario)
    else:
        scenario_path = shipped(
            "scenarios", spec.scenario, what="scenario", file=file, place="scenario"
        )
        scenario_file = str(scenario_path)
    try:
        scenario = read_file(scenario_path, limits=limits)
    except InputError as exc:
        raise exc.named_by(file, "scenario") from None
    battle_from_data(scenario, scenario_file, scenario_path.parent, limits)  # the base is sound
    problems = [
        problem
        for place, values in spec.vary.items()
        for problem in _value_problems(
            place, values, scenario, scenario_file, scenario_path, file, limits
        )
    ]
    if problems:
        raise InputError.of(problems)
    cells = list(_grid(spec))
    for cell in cells:  # each value fits alone; a cell's values must fit together too
        try:
            battle_from_data(
                variant(scenario, cell.values), scenario_file, scenario_path.parent, limits
            )
        except InputError as error:
            given = ", ".join(f"{p} = {excerpt(v)}" for p, v in cell.values)
            raise InputError(
                f"the cell {given} does not fit the scenario: {error.problems()[0].line()}",
                file=file,
                place="vary",
            ) from None
    _check_plot(spec, file)
    return Sweep(spec, file, scenario_file, scenario, scenario_path.parent, cells)


def _check_settings(spec: SweepSpec, file: str, limits: Limits) -> None:
    if spec.plan and spec.objective.one_round:
        raise InputError(
            f"a plan values the whole fight (the objective take), not {spec.objective}: leave "
            "objective out",
            file=file,
            place="plan",
        )
    if spec.rounds is not None and spec.objective.one_round:
        raise InputError(
            f"rounds bounds the whole fight: it does not apply to the objective {spec.objective}",
            file=file,
            place="rounds",
        )
    limits.check("max_rounds", spec.rounds or 0, f"{file}: rounds")
    limits.check("max_time_limit", spec.time_limit, f"{file}: time_limit")
    count = prod(len(values) for values in spec.vary.values())
    if count > limits.max_sweep_cells:
        sizes = " x ".join(str(len(values)) for values in spec.vary.values())
        raise limits.refuse(
            "max_sweep_cells", f"the grid has {sizes} = {count:,} cells", file=file, place="vary"
        )
    seconds = count * spec.time_limit
    if seconds > limits.max_sweep_seconds:
        raise limits.refuse(
            "max_sweep_seconds",
            f"{count:,} cells of time_limit {spec.time_limit:g} s ask for {seconds:,.0f} s in all; "
            "lower time_limit or vary less",
            file=file,
            place="time_limit",
        )


def _value_problems(
    place: str,
    values: list[JsonValue],
    scenario: dict[str, Any],
    scenario_file: str,
    scenario_path: Path,
    file: str,
    limits: Limits,
) -> Iterator[InputError]:
    """What is wrong with each value of one path, set alone in the scenario."""
    seen: dict[str, int] = {}
    for index, value in enumerate(values):
        where = f"vary.{place}[{index}]"
        ident = identity(value)
        if ident in seen:
            yield InputError(
                f"{excerpt(value)} is listed twice (first at [{seen[ident]}])",
                file=file,
                place=where,
            )
            continue
        seen[ident] = index
        try:
            data = variant(scenario, ((place, value),))
        except InputError as error:
            yield InputError(error.problem, file=file, place=f"vary.{place}")
            return
        try:
            battle_from_data(data, scenario_file, scenario_path.parent, limits)
        except InputError as error:
            if error.kind == "extra_forbidden":  # the path, not the value: said once
                yield InputError(
                    f"not a path of the scenario: {error.line()}",
                    file=file,
                    place=f"vary.{place}",
                    kind=error.kind,
                    suggestion=error.suggestion,
                )
                return
            yield InputError(
                f"{excerpt(value)} does not fit the scenario: {error.problems()[0].line()}",
                file=file,
                place=where,
                kind=error.kind,
                suggestion=error.suggestion,
            )


def _grid(spec: SweepSpec) -> Iterator[Cell]:
    """Every cell, in the grid's order: the last path's values change fastest."""
    from itertools import product

    paths = list(spec.vary)
    for index, values in enumerate(product(*spec.vary.values())):
        yield Cell(index, tuple(zip(paths, values, strict=True)))


def _check_plot(spec: SweepSpec, file: str) -> None:
    plot, paths = spec.plot, list(spec.vary)
    for name in ("x", "y"):
        chosen = getattr(plot, name)
        if chosen is not None and chosen not in paths:
            raise _not_varied(chosen, paths, file, f"plot.{name}")
    for chosen, value in plot.where.items():
        if chosen not in paths:
            raise _not_varied(chosen, paths, file, f"plot.where.{chosen}")
        if identity(value) not in {identity(v) for v in spec.vary[chosen]}:
            raise InputError(
                f"{excerpt(value)} is not one of the values of {chosen}",
                file=file,
                place=f"plot.where.{chosen}",
            )


def _not_varied(chosen: str, paths: list[str], file: str, place: str) -> InputError:
    near = nearest(chosen, paths)
    hint = f"did you mean '{near}'?" if near else f"vary has: {', '.join(paths) or 'none'}"
    return InputError(f"'{chosen}' is not a path of vary ({hint})", file=file, place=place)


# --- the results file ---------------------------------------------------------------------------


class ResultsFile:
    """The finished cells of a sweep, kept in a JSON Lines file as they finish.

    Opening it reads back the cells an earlier run of the same sweep finished (a last line cut
    short by a killed run is dropped) and writes them again sorted; :meth:`add` appends one
    line and flushes it, so that a run killed at any moment loses no finished cell;
    :meth:`close` writes every line in the grid's order. Without a path the lines are kept in
    memory only.
    """

    def __init__(self, sweep: Sweep, path: Path | None = None):
        self.sweep = sweep
        self.path = path
        self.finished: dict[int, SweepLine] = {}
        self._handle: Any = None
        if path is not None:
            self.finished = read_finished(path, sweep)
            self._rewrite()
            self._handle = _open(path, "a")
        #: How many cells an earlier run had finished.
        self.resumed = len(self.finished)

    def pending(self) -> list[Cell]:
        """The cells still to solve, in the grid's order."""
        return [cell for cell in self.sweep.cells if cell.index not in self.finished]

    def add(self, result: CellResult) -> None:
        self.finished[result.index] = result.line
        if self._handle is not None:
            self._handle.write(result.line.text() + "\n")
            self._handle.flush()

    def lines(self) -> list[SweepLine]:
        """The finished lines in the grid's order."""
        return [self.finished[index] for index in sorted(self.finished)]

    def close(self) -> None:
        if self._handle is not None:
            self._handle.close()
            self._handle = None
            self._rewrite()

    def _rewrite(self) -> None:
        if self.path is not None:
            write_atomically(self.path, "".join(line.text() + "\n" for line in self.lines()))


def _open(path: Path, mode: str) -> Any:
    try:
        return path.open(mode, encoding="utf-8")
    except OSError as exc:
        raise InputError(f"cannot write the file ({exc.strerror or exc})", file=str(path)) from None


def read_finished(path: Path, sweep: Sweep) -> dict[int, SweepLine]:
    """The cells of ``sweep`` that the results file ``path`` holds (none when it is missing).

    Raises
    ------
    InputError
        When the file is not a regular file, or a complete line is not a finished cell of
        this sweep (another spec's results, a cell listed twice): naming the file and the line.
    """
    source = str(path)
    try:
        found = path.stat()
    except FileNotFoundError:
        return {}
    except OSError as exc:
        raise InputError(f"cannot read the file ({exc.strerror or exc})", file=source) from None
    if not stat.S_ISREG(found.st_mode):
        raise InputError("not a regular file: name a file saved on disk", file=source)
    cells = {cell.ident(): cell.index for cell in sweep.cells}
    finished: dict[int, SweepLine] = {}
    with path.open("rb") as handle:
        for number, raw in enumerate(iter(lambda: handle.readline(LONGEST_LINE + 1), b""), 1):
            place = f"line {number}"
            if not raw.endswith(b"\n"):
                if len(raw) > LONGEST_LINE:
                    raise InputError(
                        f"a line over {LONGEST_LINE:,} bytes", file=source, place=place
                    )
                break  # the last line of a killed run, cut short: solved again
            if number > len(cells):
                raise InputError(
                    f"more lines than the sweep's {len(cells):,} cells: these are the results of "
                    "another sweep; name another --out",
                    file=source,
                    place=place,
                )
            try:
                text = raw.decode("utf-8").removesuffix("\n").removesuffix("\r")
            except UnicodeDecodeError:
                raise InputError("not UTF-8 text", file=source, place=place) from None
            try:
                data = read_text(text, source=source, syntax="json")
                line = validate(SweepLine, data, file=source)
            except InputError as error:
                raise _on_line(error, number) from None
            index = cells.get(identity(line.cell))
            if index is None:
                raise InputError(
                    f"the cell {excerpt(line.cell, 80)} is not one of this sweep's: these are "
                    "the results of another sweep; name another --out",
                    file=source,
                    place=place,
                )
            if index in finished:
                raise InputError(
                    f"the cell {excerpt(line.cell, 80)} is listed twice", file=source, place=place
                )
            finished[index] = line
    return finished


def _on_line(error: InputError, number: int) -> InputError:
    """An error of one line of a results file, read alone, placed at that line of the file:
    the line's own ``line 1, column 5`` becomes ``line 7, column 5``, a key ``status``
    becomes ``line 7: status``."""
    for problem in error.problems():
        place = problem.place or ""
        if place.startswith("line "):
            _, comma, column = place.partition(", ")
            problem.place = f"line {number}{comma}{column}"
        else:
            problem.place = f"line {number}" + (f": {place}" if place else "")
        problem.args = (str(problem),)
    return error


def csv_text(sweep: Sweep, lines: list[SweepLine]) -> str:
    """The lines as CSV: a column for each path of ``vary``, then the answer's columns; a value
    that is a list or a mapping is written as JSON.

    >>> from allocator.core.library import folder
    >>> sweep = load_sweep(folder("sweeps") / "farmhouse-quality.yaml")
    >>> line = SweepLine(cell=sweep.cells[1].key(), status="optimal", value=0.5,
    ...                  value_exact=Fraction(1, 2), seconds=0.01)
    >>> print(csv_text(sweep, [line]), end="")  # doctest: +NORMALIZE_WHITESPACE
    attacker.quality,defender.quality,ruleset.overrides.ties,defender.de-coy-hmg.suppressed,surprise,status,value,value_exact,warnings,seconds
    green,green,reroll,false,true,optimal,0.5,1/2,,0.01
    """
    import csv
    import io

    buffer = io.StringIO()
    writer = csv.writer(buffer, lineterminator="\n")
    planned = ["stands"] if sweep.spec.plan else []
    header = [*sweep.paths, "status", "value", "value_exact", *planned, "warnings", "seconds"]
    writer.writerow(header)
    for line in lines:
        cells = [value_text(line.cell.get(p)) for p in sweep.paths]
        exact = "" if line.value_exact is None else fraction_text(line.value_exact)
        value = "" if line.value is None else repr(line.value)
        stands = [" ".join(line.stands or [])] if sweep.spec.plan else []
        said = " | ".join(line.warnings)
        writer.writerow([*cells, line.status, value, exact, *stands, said, repr(line.seconds)])
    return buffer.getvalue()


def value_text(value: JsonValue) -> str:
    """A path's value as the table, the CSV and the picture write it: a text as it is, any
    other value as JSON.

    >>> value_text("veteran"), value_text(True), value_text(["d1", "h1"])
    ('veteran', 'true', '["d1", "h1"]')
    """
    if isinstance(value, str):
        return value
    return json.dumps(value, ensure_ascii=False)
