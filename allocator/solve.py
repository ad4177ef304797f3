"""The game: the defender groups (steps 1-3), the attacker answers (4-5), he reallocates (6).

Values are always from the attacker's side (the defender minimises). The search is exact:

* the defender's groupings are enumerated from the CP-SAT rules model, and groupings that differ
  only by interchangeable stands are searched once;
* the attacker's best answer covering every combat is one CP-SAT optimisation with the odds as
  lookup tables (:mod:`allocator.cp_objective`), his identical stands ordered so that no
  symmetric answer is searched twice;
* answers that leave combats unopposed (only possible with fewer squads than combats) are
  enumerated, each met by the defender's best reallocation (another CP-SAT optimisation);
* a scaled objective is only a guide: every candidate within its rounding slack is compared
  with exact fractions, so the value returned is the exact optimum.

>>> from allocator.battle import load_battle
>>> result = solve(load_battle("models/scenarios/seed-2hmg-1squad-v-4.yaml"), "defender", "sweep")
>>> result.status, result.line.value
('optimal', Fraction(3549, 7936))
"""

from __future__ import annotations

import time
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from fractions import Fraction
from string import ascii_uppercase
from typing import Any

from allocator.battle import Battle, Role
from allocator.cp_objective import OddsTerms
from allocator.cpsat import cp_model
from allocator.errors import InputError
from allocator.model import ATTACK, GROUPING, REALLOCATION, RulesModel, SlotNames, new_solver
from allocator.odds import OBJECTIVES, CombatOdds, fraction_text, round_odds
from allocator.rules import check_capacity, check_grouping
from allocator.schema import Allocation

DONE = (cp_model.OPTIMAL, cp_model.INFEASIBLE)
ALTERNATIVES_CAP = 1000
#: CP-SAT deterministic time allowed for counting alternatives and finding the runner-up.
SIDE_SEARCH_BUDGET = 0.5


@dataclass
class Line:
    """A whole line of play and its exact value."""

    combats: dict[str, list[str]]
    attack: dict[str, list[str]]
    reallocate: dict[str, str]
    value: Fraction

    def allocation(self) -> Allocation:
        return Allocation(combats=self.combats, attack=self.attack, reallocate=self.reallocate)


@dataclass
class SolveResult:
    side: str
    objective: str
    proven: bool
    line: Line
    odds: list[CombatOdds]
    alternatives: int
    runner_up: Line | None
    alternatives_complete: bool = True
    searched: int = 0
    warnings: list[str] = field(default_factory=list)

    @property
    def status(self) -> str:
        return "optimal" if self.proven else "feasible"

    def to_json(self) -> dict[str, Any]:
        runner = self.runner_up
        return {
            "status": self.status,
            "side": self.side,
            "objective": self.objective,
            "value": float(self.line.value),
            "value_exact": fraction_text(self.line.value),
            "allocation": {
                "combats": self.line.combats,
                "attack": self.line.attack,
                "reallocate": self.line.reallocate,
            },
            "combats": [c.to_json() for c in self.odds],
            "alternatives": self.alternatives,
            "alternatives_complete": self.alternatives_complete,
            "runner_up": None
            if runner is None
            else {
                "value": float(runner.value),
                "value_exact": fraction_text(runner.value),
                "allocation": {
                    "combats": runner.combats,
                    "attack": runner.attack,
                    "reallocate": runner.reallocate,
                },
            },
            "why": self.why(),
            "warnings": self.warnings,
            "note": None if self.proven else "best found, not proven optimal (time limit)",
        }

    def why(self) -> str:
        """One sentence on why this split beats the runner-up."""
        value = describe_value(self.objective, self.line.value)
        if self.runner_up is None:
            return f"This is the only distinct choice for the {self.side}: {value}."
        chooser_part = "combats" if self.side == "defender" else "attack"
        changes = describe_changes(
            getattr(self.line, chooser_part), getattr(self.runner_up, chooser_part)
        )
        other = describe_value(self.objective, self.runner_up.value)
        return f"Best for the {self.side}: {value}; the runner-up ({changes}) gives {other}."


def describe_value(objective: str, value: Fraction) -> str:
    if objective == "sweep":
        return f"a {float(value):.1%} chance that the attacker wins every combat"
    return f"an expected exchange of {float(value):+.3f} stands in the attacker's favour"


def describe_changes(best: dict[str, list[str]], other: dict[str, list[str]]) -> str:
    where_best = {s: n for n, ids in best.items() for s in ids}
    where_other = {s: n for n, ids in other.items() for s in ids}
    moves = [
        f"{s} in {where_other.get(s, 'no combat')} instead of {where_best.get(s, 'no combat')}"
        for s in sorted(set(where_best) | set(where_other))
        if where_best.get(s) != where_other.get(s)
    ]
    return "; ".join(moves[:4]) + ("; ..." if len(moves) > 4 else "") or "a symmetric split"


def stand_signature(battle: Battle, stand: str) -> tuple[Any, ...]:
    """Stands with equal signatures are interchangeable for every rule and every odds."""
    info = battle.stand(stand)
    side = battle.side(battle.side_of(stand))
    near = {other for other in side.stands if other != stand and battle.near(stand, other)}
    return (info.type, info.unit, info.rating, info.quality, info.suppressed, tuple(sorted(near)))


def grouping_signature(battle: Battle, combats: Iterable[Iterable[str]]) -> tuple[Any, ...]:
    return tuple(sorted(tuple(sorted(stand_signature(battle, s) for s in c)) for c in combats))


def combat_names(count: int) -> list[str]:
    return [ascii_uppercase[i] if i < 26 else f"C{i + 1}" for i in range(count)]


class _Collector(cp_model.CpSolverSolutionCallback):
    def __init__(self, read: Callable[[cp_model.CpSolverSolutionCallback], Any], cap: int):
        super().__init__()
        self.read, self.cap, self.found = read, cap, []

    def on_solution_callback(self) -> None:
        self.found.append(self.read(self))
        if len(self.found) >= self.cap:
            self.StopSearch()


class Search:
    """One solve: holds the deadline and whether everything so far was proven."""

    def __init__(self, battle: Battle, objective: str, time_limit: float):
        if objective not in OBJECTIVES:
            raise InputError(f"unknown objective '{objective}' (known: sweep, exchange)")
        self.battle = battle
        self.objective = objective
        self.value_of = OBJECTIVES[objective]
        self.deadline = time.monotonic() + time_limit
        self.proven = True
        self.searched = 0

    # --- plumbing ------------------------------------------------------------------------

    def remaining(self) -> float:
        return max(0.01, self.deadline - time.monotonic())

    def expired(self) -> bool:
        return time.monotonic() >= self.deadline

    def run(
        self,
        model: cp_model.CpModel,
        callback: Any = None,
        enumerate_all: bool = False,
        linear: bool = True,
        budget: float | None = None,
    ) -> tuple[cp_model.CpSolver, int]:
        """Solve; ``linear=False`` drops the LP relaxation, which the exchange objective's
        one-hot products make slower than plain search (measured with bench/).

        A ``budget`` (CP-SAT's deterministic time, so that the answer does not depend on the
        machine's load) marks a side search whose end does not bear on the optimum's proof.
        """
        solver = new_solver(model, self.remaining())
        if not linear:
            solver.parameters.linearization_level = 0
        if enumerate_all:
            solver.parameters.enumerate_all_solutions = True
            solver.parameters.num_workers = 1
        if budget is not None:
            solver.parameters.max_deterministic_time = budget
        status = solver.Solve(model, callback) if callback else solver.Solve(model)
        if status not in DONE and budget is None:
            self.proven = False
        return solver, status

    def evaluate(
        self,
        combats: dict[str, list[str]],
        attack: dict[str, list[str]],
        reallocate: dict[str, str],
    ) -> Fraction:
        return self.value_of(round_odds(self.battle, combats, attack, reallocate))

    def _fixed_model(
        self, combats: dict[str, list[str]], depth: int, attack: dict[str, list[str]] | None = None
    ) -> tuple[RulesModel, SlotNames]:
        names = SlotNames(list(combats))
        rules = RulesModel(self.battle, depth=depth, slots=len(names.names))
        fixed = rules.fix(Allocation(combats=combats, attack=attack), names)
        assert fixed, "a grouping from the rules model is always expressible"
        return rules, names

    def _order_identical_attackers(self, rules: RulesModel) -> None:
        """Symmetry: interchangeable attackers take combats in a fixed order."""
        out = len(rules.slots)
        index = {
            a: sum(c * rules.y[a, c] for c in rules.slots)
            + out * (1 - sum(rules.y[a, c] for c in rules.slots))
            for a in rules.attackers
        }
        previous: dict[tuple[Any, ...], str] = {}
        for a in rules.attackers:
            key = stand_signature(self.battle, a)
            if key in previous:
                rules.model.Add(index[previous[key]] <= index[a])
            previous[key] = a

    # --- exact optimisation ---------------------------------------------------------------

    def exact_optimum(
        self,
        rules: RulesModel,
        terms: OddsTerms,
        maximise: bool,
        read: Callable[[cp_model.CpSolver], Line],
    ) -> Line | None:
        """The exact best line of ``rules``: the scaled optimum, then every rival within slack."""
        model = rules.model
        objective = terms.objective_expr()
        (model.Maximize if maximise else model.Minimize)(objective)
        solver, status = self.run(model, linear=terms.objective != "exchange")
        if status not in (cp_model.OPTIMAL, cp_model.FEASIBLE):
            return None
        best = read(solver)
        slack = terms.rounding_slack()
        if not slack:
            return best
        scaled = round(solver.ObjectiveValue())
        low, high = (scaled - slack + 1, scaled) if maximise else (scaled, scaled + slack - 1)
        if terms.objective == "sweep" and not terms.rival_possible(
            terms.level_counts(solver), low, high, maximise
        ):
            return best
        model.Add(objective >= low)
        model.Add(objective <= high)
        terms.exclude(solver)
        while not self.expired():
            solver, status = self.run(model)
            if status not in (cp_model.OPTIMAL, cp_model.FEASIBLE):
                break
            rival = read(solver)
            if (rival.value > best.value) == maximise and rival.value != best.value:
                best = rival
            terms.exclude(solver)
        return best

    # --- the three stages -----------------------------------------------------------------

    def groupings(self) -> list[dict[str, list[str]]]:
        """Every legal defender grouping, once per set of interchangeable stands."""
        rules = RulesModel(self.battle, depth=GROUPING)
        m = rules.model
        defenders = rules.defenders
        for i, s in enumerate(defenders):  # canonical slot numbering (restricted growth)
            for c in rules.slots:
                if c > i:
                    m.Add(rules.x[s, c] == 0)
                elif c > 0:
                    m.AddBoolOr([rules.x[t, c - 1] for t in defenders[:i]]).OnlyEnforceIf(
                        rules.x[s, c]
                    )

        def read(cb: cp_model.CpSolverSolutionCallback) -> tuple[tuple[str, ...], ...]:
            slots = [tuple(s for s in defenders if cb.Value(rules.x[s, c])) for c in rules.slots]
            return tuple(slot for slot in slots if slot)

        collector = _Collector(read, cap=100_000)
        self.run(m, collector, enumerate_all=True)
        seen: dict[tuple[Any, ...], dict[str, list[str]]] = {}
        for partition in collector.found:
            key = grouping_signature(self.battle, partition)
            if key not in seen:
                seen[key] = dict(
                    zip(combat_names(len(partition)), map(list, partition), strict=True)
                )
        return list(seen.values())

    def defender_reallocation(
        self, combats: dict[str, list[str]], attack: dict[str, list[str]]
    ) -> Line | None:
        """The defender's best step 6 against a fixed attack (None: out of time)."""
        if all(attack.get(name) for name in combats):
            return Line(combats, attack, {}, self.evaluate(combats, attack, {}))
        rules, names = self._fixed_model(combats, REALLOCATION, attack)
        terms = OddsTerms(rules, self.objective)

        def read(solver: cp_model.CpSolver) -> Line:
            reallocate = rules.read(solver, names, REALLOCATION).reallocate or {}
            return Line(combats, attack, reallocate, self.evaluate(combats, attack, reallocate))

        return self.exact_optimum(rules, terms, maximise=False, read=read)

    def covering_attack(self, combats: dict[str, list[str]]) -> tuple[RulesModel, Any, Any]:
        rules, names = self._fixed_model(combats, REALLOCATION)
        for c in rules.slots:
            rules.model.Add(rules.opposed[c] == 1)
        self._order_identical_attackers(rules)
        return rules, names, OddsTerms(rules, self.objective)

    def uncovering_attacks(self, combats: dict[str, list[str]]) -> list[dict[str, list[str]]]:
        """Every legal attack that leaves some combat unopposed (symmetric ones once)."""
        if len(self.battle.attacker.ids(Role.squad)) >= len(combats):
            return []
        rules, names = self._fixed_model(combats, ATTACK)
        rules.model.Add(sum(rules.opposed.values()) <= len(rules.slots) - 1)
        self._order_identical_attackers(rules)

        def read(cb: cp_model.CpSolverSolutionCallback) -> tuple[tuple[str, ...], ...]:
            return tuple(
                tuple(a for a in rules.attackers if cb.Value(rules.y[a, c])) for c in rules.slots
            )

        collector = _Collector(read, cap=100_000)
        self.run(rules.model, collector, enumerate_all=True)
        attacks = []
        for found in dict.fromkeys(collector.found):
            attacks.append({names.names[c]: list(ids) for c, ids in enumerate(found) if ids})
        return attacks

    def attacker_best(self, combats: dict[str, list[str]]) -> Line | None:
        """The attacker's best answer to a grouping, the defender reallocating at his best.

        None only when the time limit struck before any answer was found.
        """
        self.searched += 1
        rules, names, terms = self.covering_attack(combats)

        def read(solver: cp_model.CpSolver) -> Line:
            attack = rules.read(solver, names, ATTACK).attack or {}
            return Line(combats, attack, {}, self.evaluate(combats, attack, {}))

        best = self.exact_optimum(rules, terms, maximise=True, read=read)
        for attack in self.uncovering_attacks(combats):
            if self.expired():
                self.proven = False
                break
            line = self.defender_reallocation(combats, attack)
            if line is not None and (best is None or line.value > best.value):
                best = line
        return best

    # --- alternatives and runner-up for the attacker's choice ------------------------------

    def attack_choices(
        self, combats: dict[str, list[str]], best: Line
    ) -> tuple[int, bool, Line | None]:
        """How many other attacks reach ``best.value`` (and whether that count is complete),
        and the best attack that does not."""
        rules, names, terms = self.covering_attack(combats)
        objective = terms.objective_expr()
        rules.model.Maximize(objective)
        solver, status = self.run(
            rules.model, linear=terms.objective != "exchange", budget=SIDE_SEARCH_BUDGET
        )
        lines: list[Line] = []
        complete = status == cp_model.OPTIMAL
        if status in (cp_model.OPTIMAL, cp_model.FEASIBLE):
            top = round(solver.ObjectiveValue())
            slack = terms.rounding_slack()
            window = rules.model.Clone()
            window.ClearObjective()
            window.Add(objective >= top - slack)

            def read(cb: cp_model.CpSolverSolutionCallback) -> tuple[tuple[str, ...], ...]:
                return tuple(
                    tuple(a for a in rules.attackers if cb.Value(rules.y[a, c]))
                    for c in rules.slots
                )

            collector = _Collector(read, cap=ALTERNATIVES_CAP)
            _, status = self.run(window, collector, enumerate_all=True, budget=SIDE_SEARCH_BUDGET)
            complete = complete and status == cp_model.OPTIMAL
            for found in dict.fromkeys(collector.found):
                attack = {names.names[c]: list(ids) for c, ids in enumerate(found) if ids}
                lines.append(Line(combats, attack, {}, self.evaluate(combats, attack, {})))
            below = rules.model
            below.Add(objective <= top - slack - 1)
            solver, status = self.run(
                below, linear=terms.objective != "exchange", budget=SIDE_SEARCH_BUDGET
            )
            if status in (cp_model.OPTIMAL, cp_model.FEASIBLE):
                attack = rules.read(solver, names, ATTACK).attack or {}
                lines.append(Line(combats, attack, {}, self.evaluate(combats, attack, {})))
        answers = (self.defender_reallocation(combats, a) for a in self.uncovering_attacks(combats))
        lines += [line for line in answers if line is not None]
        same = sum(1 for line in lines if line.value == best.value and line.attack != best.attack)
        worse = [line for line in lines if line.value < best.value]
        runner = max(worse, key=lambda line: line.value, default=None)
        return same, complete, runner


def solve(
    battle: Battle, side: str, objective: str = "sweep", time_limit: float = 10.0
) -> SolveResult:
    """The best allocation for ``side``, exactly, with the whole line of play."""
    if side not in ("attacker", "defender"):
        raise InputError(f"unknown side '{side}' (attacker or defender)")
    warnings = [f"{v.rule}: {v.message} Solved as given." for v in check_capacity(battle)]
    search = Search(battle, objective, time_limit)
    given = battle.allocation.combats if battle.allocation is not None else None
    if side == "attacker" and given is not None:
        wrong = list(check_grouping(battle, given))
        if wrong:
            warnings.append(
                f"The file's combats break rule {wrong[0].rule} ({wrong[0].message}); the "
                "attacker answers the defender's best grouping instead. Run `cfalloc check` "
                "for the full report."
            )
            given = None
    groupings = [given] if side == "attacker" and given is not None else search.groupings()
    results: list[Line] = []
    for combats in groupings:
        if search.expired() and results:
            search.proven = False
            break
        line = search.attacker_best(combats)
        if line is not None:
            results.append(line)
    if not results:
        raise InputError(
            f"the time limit ({time_limit:g} s) ran out before any line of play was found: "
            "give more time with --time-limit",
            file=battle.file,
        )
    if side == "attacker" and given is None:
        results = [min(results, key=lambda line: line.value)]
    if side == "defender":
        best = min(results, key=lambda line: line.value)
        alternatives = sum(1 for line in results if line.value == best.value) - 1
        complete = search.proven
        worse = [line for line in results if line.value > best.value]
        runner = min(worse, key=lambda line: line.value, default=None)
    else:
        best = results[0]
        alternatives, complete, runner = search.attack_choices(best.combats, best)
    odds = round_odds(battle, best.combats, best.attack, best.reallocate)
    return SolveResult(
        side,
        objective,
        search.proven,
        best,
        odds,
        alternatives,
        runner,
        complete,
        search.searched,
        warnings,
    )
