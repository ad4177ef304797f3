"""The stages of the game with CP-SAT: the defender's groupings, the attacker's best answer to
one, the defender's best reallocation against one attack.

* groupings are enumerated from the rules model (canonical slot numbering, so each set
  partition appears once), and groupings that differ only by interchangeable stands once;
* the attacker's best answer covering every combat is one optimisation with the odds as lookup
  tables (:mod:`allocator.games.crossfire.cp_odds`), identical attackers ordered;
* answers that leave combats unopposed are enumerated, each met by the defender's best
  reallocation (another optimisation).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from allocator.games.crossfire.battle import Battle, Role
from allocator.games.crossfire.cp_odds import OddsTerms
from allocator.games.crossfire.model import ATTACK, GROUPING, REALLOCATION, RulesModel, SlotNames
from allocator.games.crossfire.objectives import RoundObjective
from allocator.games.crossfire.rules.base import combat_names
from allocator.games.crossfire.schema import Allocation
from allocator.games.crossfire.search.lines import Attack, Combats, Line, evaluate
from allocator.games.crossfire.search.rivals import exact_optimum
from allocator.games.crossfire.search.runner import Collector, Runner
from allocator.games.crossfire.search.symmetry import order_identical_attackers, stand_signatures

ENUMERATION_CAP = 100_000


@dataclass
class Stages:
    """The stages of one search: the battle, the objective and the runner of its CP-SAT calls."""

    battle: Battle
    objective: RoundObjective
    runner: Runner
    searched: int = 0

    def evaluate(self, combats: Combats, attack: Attack, reallocate: dict[str, str]) -> Any:
        return evaluate(self.battle, self.objective, combats, attack, reallocate)

    def fixed_model(
        self, combats: Combats, depth: int, attack: Attack | None = None
    ) -> tuple[RulesModel, SlotNames]:
        names = SlotNames(list(combats))
        rules = RulesModel(
            self.battle, depth=depth, slots=len(names.names), budget=self.runner.budget
        )
        fixed = rules.fix(Allocation(combats=combats, attack=attack), names)
        assert fixed, "a grouping from the rules model is always expressible"
        return rules, names

    # --- the defender's groupings ---------------------------------------------------------

    def groupings(self) -> list[Combats]:
        """Every legal defender grouping, once per set of interchangeable stands."""
        rules = RulesModel(self.battle, depth=GROUPING, budget=self.runner.budget)
        m, x = rules.model, rules.grouping.x
        defenders = rules.defenders
        for i, s in enumerate(defenders):  # canonical slot numbering (restricted growth)
            for c in rules.slots:
                rules.tick()
                if c > i:
                    m.add(x[s, c] == 0)
                elif c > 0:
                    m.add_bool_or([x[t, c - 1] for t in defenders[:i]]).only_enforce_if(x[s, c])

        def read(cb: Any) -> tuple[tuple[str, ...], ...]:
            slots = [tuple(s for s in defenders if cb.value(x[s, c])) for c in rules.slots]
            return tuple(slot for slot in slots if slot)

        collector = Collector(read, cap=ENUMERATION_CAP)
        self.runner.run(m, collector, enumerate_all=True)
        seen: dict[tuple[Any, ...], Combats] = {}
        signature = stand_signatures(self.battle, self.runner.budget)
        for tried, partition in enumerate(collector.found):
            if tried % 256 == 0 and self.runner.budget.expired():
                self.runner.proven = False
                break
            key = tuple(sorted(tuple(sorted(signature[s] for s in c)) for c in partition))
            if key not in seen:
                seen[key] = dict(
                    zip(combat_names(len(partition)), map(list, partition), strict=True)
                )
        return list(seen.values())

    # --- the defender's reallocation ------------------------------------------------------

    def defender_reallocation(self, combats: Combats, attack: Attack) -> Line | None:
        """The defender's best step 6 against a fixed attack (None: out of time)."""
        if all(attack.get(name) for name in combats):
            return Line(combats, attack, {}, self.evaluate(combats, attack, {}))
        rules, names = self.fixed_model(combats, REALLOCATION, attack)
        terms = OddsTerms(rules, self.objective)

        def read(solver: Any) -> Line:
            reallocate = rules.read(solver, names, REALLOCATION).reallocate or {}
            return Line(combats, attack, reallocate, self.evaluate(combats, attack, reallocate))

        return exact_optimum(self.runner, rules, terms, maximise=False, read=read)

    # --- the attacker's answer ------------------------------------------------------------

    def covering_attack(self, combats: Combats) -> tuple[RulesModel, SlotNames, OddsTerms]:
        """The model of the attacks that oppose every combat, with their odds."""
        rules, names = self.fixed_model(combats, REALLOCATION)
        for c in rules.slots:
            rules.model.add(rules.attack.opposed[c] == 1)
        order_identical_attackers(rules)
        return rules, names, OddsTerms(rules, self.objective)

    def read_attacks(self, rules: RulesModel, names: SlotNames, found: list[Any]) -> list[Attack]:
        return [
            {names.names[c]: list(ids) for c, ids in enumerate(slots) if ids}
            for slots in dict.fromkeys(found)
        ]

    def attack_reader(self, rules: RulesModel) -> Any:
        y = rules.attack.y

        def read(cb: Any) -> tuple[tuple[str, ...], ...]:
            return tuple(
                tuple(a for a in rules.attackers if cb.value(y[a, c])) for c in rules.slots
            )

        return read

    def uncovering_attacks(self, combats: Combats) -> list[Attack]:
        """Every legal attack that leaves some combat unopposed (symmetric ones once)."""
        if len(self.battle.attacker.ids(Role.squad)) >= len(combats):
            return []
        rules, names = self.fixed_model(combats, ATTACK)
        rules.model.add(sum(rules.attack.opposed.values()) <= len(rules.slots) - 1)
        order_identical_attackers(rules)
        collector = Collector(self.attack_reader(rules), cap=ENUMERATION_CAP)
        self.runner.run(rules.model, collector, enumerate_all=True)
        return self.read_attacks(rules, names, collector.found)

    def attacker_best(self, combats: Combats) -> Line | None:
        """The attacker's best answer to a grouping, the defender reallocating at his best.

        None only when the time limit struck before any answer was found.
        """
        self.searched += 1
        rules, names, terms = self.covering_attack(combats)

        def read(solver: Any) -> Line:
            attack = rules.read(solver, names, ATTACK).attack or {}
            return Line(combats, attack, {}, self.evaluate(combats, attack, {}))

        best = exact_optimum(self.runner, rules, terms, maximise=True, read=read)
        for attack in self.uncovering_attacks(combats):
            if self.runner.budget.expired():
                self.runner.proven = False
                break
            line = self.defender_reallocation(combats, attack)
            if line is not None and (best is None or line.value > best.value):
                best = line
        return best
