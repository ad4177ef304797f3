"""The CP-SAT model of the legal allocation space: the project's single model of the rules.

Combats are *slots*; ``x[s, c]`` puts defending stand ``s`` in slot ``c`` (steps 1-3),
``y[a, c]`` sends attacking stand ``a`` against it (steps 4-5) and ``z[s, c]`` moves a stand of
an unopposed combat into it (step 6). One method per rule family adds its constraints.
OR-Tools is imported here only, and this module is imported lazily (it costs ~0.35 s).

>>> from allocator.battle import battle_from_data
>>> b = battle_from_data({
...     "defender": {"units": [{"id": "p", "kind": "platoon"}], "stands": [
...         {"id": "d1", "type": "rifle", "unit": "p"},
...         {"id": "d2", "type": "rifle", "unit": "p"}]},
...     "attacker": {"units": [{"id": "q", "kind": "platoon"}],
...                  "stands": [{"id": "a1", "type": "rifle", "unit": "q"}]},
... })
>>> m = RulesModel(b, depth=3, slots=2)
>>> m.solve_status() in ("OPTIMAL", "FEASIBLE")
True
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from allocator.battle import Battle, Role
from allocator.cpsat import cp_model
from allocator.rules import troops_in_building
from allocator.schema import Allocation

#: Depth of the procedure a model covers: 1 = steps 1-3, 2 = up to step 5, 3 = up to step 6.
GROUPING, ATTACK, REALLOCATION = 1, 2, 3

SMALL_MODEL_VARIABLES = 5000


def new_solver(model: cp_model.CpModel, time_limit: float | None = None) -> cp_model.CpSolver:
    """A solver set up the project's way: one worker for small models (deterministic, faster)."""
    solver = cp_model.CpSolver()
    small = len(model.Proto().variables) <= SMALL_MODEL_VARIABLES
    solver.parameters.num_workers = 1 if small else 2
    if time_limit is not None:
        solver.parameters.max_time_in_seconds = time_limit
    return solver


@dataclass
class SlotNames:
    """Slot index <-> combat name: the proposal's names first, then fresh ones."""

    names: list[str]

    @classmethod
    def for_proposal(cls, proposal: Sequence[str], slots: int) -> SlotNames:
        names = list(proposal)
        counter = 1
        while len(names) < slots:
            fresh = f"C{counter}"
            counter += 1
            if fresh not in names:
                names.append(fresh)
        return cls(names)

    def index(self, name: str) -> int | None:
        return self.names.index(name) if name in self.names else None


class RulesModel:
    """The legal allocations of a battle up to ``depth``, over ``slots`` combat slots."""

    def __init__(self, battle: Battle, depth: int = REALLOCATION, slots: int | None = None):
        self.battle = battle
        self.depth = depth
        self.model = cp_model.CpModel()
        self.defenders = battle.defender.ids()
        self.attackers = [
            a for a in battle.attacker.ids() if battle.role(a) in (Role.squad, Role.leader)
        ]
        self.slots = list(range(slots if slots is not None else len(self.defenders)))
        self.of_role = {role: battle.defender.ids(role) for role in Role}
        self.commanders = [s for s in self.of_role[Role.leader] if battle.is_commander(s)]
        self._grouping()
        if depth >= ATTACK:
            self._attack()
        if depth >= REALLOCATION:
            self._reallocation()

    # --- helpers --------------------------------------------------------------------------

    def _bool(self, name: str) -> cp_model.IntVar:
        return self.model.NewBoolVar(name)

    def reify_or(self, literals: Sequence[Any], name: str) -> Any:
        if not literals:
            return self.model.NewConstant(0)
        flag = self._bool(name)
        self.model.AddBoolOr(literals).OnlyEnforceIf(flag)
        for lit in literals:
            self.model.AddImplication(lit, flag)
        return flag

    def reify_and(self, literals: Sequence[Any], name: str) -> Any:
        flag = self._bool(name)
        self.model.AddBoolAnd(literals).OnlyEnforceIf(flag)
        self.model.AddBoolOr([lit.Not() for lit in literals]).OnlyEnforceIf(flag.Not())
        return flag

    def reify_at_least(self, expr: Any, bound: int, name: str) -> Any:
        flag = self._bool(name)
        self.model.Add(expr >= bound).OnlyEnforceIf(flag)
        self.model.Add(expr < bound).OnlyEnforceIf(flag.Not())
        return flag

    # --- steps 1-3 ------------------------------------------------------------------------

    def _grouping(self) -> None:
        m = self.model
        self.x = {(s, c): self._bool(f"x[{s},{c}]") for s in self.defenders for c in self.slots}
        self.used = {
            c: self.reify_or([self.x[s, c] for s in self.defenders], f"used{c}") for c in self.slots
        }
        for s in self.defenders:  # 1c
            m.AddExactlyOne(self.x[s, c] for c in self.slots)
        squads, weapons = self.of_role[Role.squad], self.of_role[Role.weapon]
        self.has_squad, self.has_weapon, self.commander_head = {}, {}, {}
        self.head = {}
        for c in self.slots:
            m.Add(sum(self.x[s, c] for s in squads) <= 1)  # 1a
            m.Add(sum(self.x[w, c] for w in weapons) <= 1)  # 2b
            self.has_squad[c] = self.reify_or([self.x[s, c] for s in squads], f"hasS{c}")
            self.has_weapon[c] = self.reify_or([self.x[w, c] for w in weapons], f"hasW{c}")
        self._commander_heads()
        self._weapons_join()
        self._leaders_join()

    def _commander_heads(self) -> None:
        """1b and who heads a combat without squads."""
        m = self.model
        no_squads = not self.of_role[Role.squad]
        for c in self.slots:
            has_commander = self.reify_or([self.x[k, c] for k in self.commanders], f"hasK{c}")
            self.commander_head[c] = self.reify_and(
                [has_commander, self.has_squad[c].Not()], f"hK{c}"
            )
            for k in self.commanders:
                self.head[k, c] = self._bool(f"head[{k},{c}]")
                m.AddImplication(self.head[k, c], self.x[k, c])
            m.Add(sum(self.head[k, c] for k in self.commanders) == self.commander_head[c])
            if no_squads:  # 1b
                m.Add(sum(self.x[k, c] for k in self.commanders) <= 1)

    def _weapons_join(self) -> None:
        """2a: a weapon joins a squad, or a CC/BC head, of its organisational unit."""
        m, b = self.model, self.battle
        for w in self.of_role[Role.weapon]:
            own_squads = [s for s in self.of_role[Role.squad] if b.same_organisation(w, s)]
            own_commanders = [k for k in self.commanders if b.same_organisation(w, k)]
            for c in self.slots:
                m.Add(sum(self.x[s, c] for s in own_squads) >= 1).OnlyEnforceIf(
                    [self.x[w, c], self.has_squad[c]]
                )
                m.Add(sum(self.head[k, c] for k in own_commanders) >= 1).OnlyEnforceIf(
                    [self.x[w, c], self.commander_head[c]]
                )

    def _leaders_join(self) -> None:
        """3a-3d."""
        m, b = self.model, self.battle
        leaders = self.of_role[Role.leader]
        to_join = len(self.of_role[Role.noncombatant]) < len(self.defenders)
        for c in self.slots:
            troops = [self.has_squad[c], self.has_weapon[c]]
            n_leaders = sum(self.x[ld, c] for ld in leaders)
            m.Add(n_leaders <= 1).OnlyEnforceIf([t.Not() for t in troops])  # 3d
            for n in self.of_role[Role.noncombatant] if to_join else []:  # 3a
                m.AddBoolOr([*troops, *(self.x[ld, c] for ld in leaders)]).OnlyEnforceIf(
                    self.x[n, c]
                )
            for leader in leaders:
                joined = [self.x[leader, c]]
                if (leader, c) in self.head:
                    joined.append(self.head[leader, c].Not())
                own = troops_in_building(b, leader)
                if own:  # 3b
                    m.AddBoolOr([self.x[u, c] for u in own]).OnlyEnforceIf(joined)
                else:  # 3c
                    alone = [flag.Not() for flag in (*troops, self.commander_head[c])]
                    m.AddBoolAnd(alone).OnlyEnforceIf(joined)

    # --- steps 4-5 ------------------------------------------------------------------------

    def _attack(self) -> None:
        m, b = self.model, self.battle
        self.y = {(a, c): self._bool(f"y[{a},{c}]") for a in self.attackers for c in self.slots}
        squads = [a for a in self.attackers if b.role(a) == Role.squad]
        leaders = [a for a in self.attackers if b.role(a) == Role.leader]
        commanders = [a for a in leaders if b.is_commander(a)]
        for a in self.attackers:
            for c in self.slots:
                m.AddImplication(self.y[a, c], self.used[c])
            if a in squads:  # 4e
                m.AddExactlyOne(self.y[a, c] for c in self.slots)
            else:
                m.AddAtMostOne(self.y[a, c] for c in self.slots)
        m.AddBoolOr(list(self.y.values()))  # somebody assaults (4e)
        n_combats = sum(self.used.values())
        self.covered = {
            c: self.reify_or([self.y[a, c] for a in squads], f"cov{c}") for c in self.slots
        }
        cover_goal = m.NewIntVar(0, len(self.slots), "cover_goal")
        m.AddMinEquality(cover_goal, [len(squads), n_combats])
        m.Add(sum(self.covered.values()) >= cover_goal)  # 4a
        self.fewer = self.reify_at_least(n_combats, len(squads) + 1, "fewer")
        self.acting: dict[tuple[str, int], Any] = {}
        covered_with = []
        for c in self.slots:
            joined = [self.y[k, c] for k in commanders]
            has_commander = self.reify_or(joined, f"attK{c}")
            for k in commanders:
                act = self._bool(f"act[{k},{c}]")
                m.AddImplication(act, self.y[k, c])
                m.AddImplication(act, self.covered[c].Not())
                m.AddImplication(act, self.fewer)
                self.acting[k, c] = act
            m.Add(sum(self.acting[k, c] for k in commanders) == 1).OnlyEnforceIf(
                [self.fewer, self.covered[c].Not(), has_commander]
            )
            m.Add(sum(self.acting[k, c] for k in commanders) <= 1)
            covered_with.append(self.reify_or([self.covered[c], has_commander], f"cov2{c}"))
        goal_4b = m.NewIntVar(0, len(self.slots), "goal_4b")
        m.AddMinEquality(
            goal_4b,
            [n_combats, len(squads) + sum(self.y[k, c] for k in commanders for c in self.slots)],
        )
        m.Add(sum(covered_with) >= goal_4b).OnlyEnforceIf(self.fewer)  # 4b
        for leader in leaders:  # 5a, 5b
            near_squads = [s for s in squads if b.near(leader, s)]
            near_commanders = [k for k in commanders if k != leader and b.near(leader, k)]
            own = [s for s in squads if b.commands(leader, s)]
            needs_own = b.platoon_leader(leader)
            for c in self.slots:
                as_leader = [self.y[leader, c]]
                if (leader, c) in self.acting:
                    as_leader.append(self.acting[leader, c].Not())
                m.AddBoolOr(
                    [self.y[s, c] for s in near_squads]
                    + [self.acting[k, c] for k in near_commanders]
                ).OnlyEnforceIf(as_leader)
                if needs_own:
                    m.AddBoolOr([self.y[s, c] for s in own]).OnlyEnforceIf(self.y[leader, c])
        self.opposed = {
            c: self.reify_or([self.y[a, c] for a in self.attackers], f"opp{c}") for c in self.slots
        }

    # --- step 6 ---------------------------------------------------------------------------

    def _reallocation(self) -> None:
        m = self.model
        self.z = {(s, c): self._bool(f"z[{s},{c}]") for s in self.defenders for c in self.slots}
        self.stay, self.leave, self.moves = {}, {}, {}
        for s in self.defenders:
            for c in self.slots:
                self.stay[s, c] = self.reify_and([self.x[s, c], self.opposed[c]], f"st[{s},{c}]")
                self.leave[s, c] = self.reify_and(
                    [self.x[s, c], self.opposed[c].Not()], f"un[{s},{c}]"
                )
                m.AddImplication(self.z[s, c], self.opposed[c])  # 6a
            self.moves[s] = self.reify_or([self.leave[s, c] for c in self.slots], f"mv[{s}]")
            m.Add(sum(self.z[s, c] for c in self.slots) == self.moves[s])  # 6a, 6c
        if not self.battle.ruleset.value("reallocate_one_by_one"):
            self._move_whole_combats()
        self.final = {
            (s, c): self.reify_or([self.stay[s, c], self.z[s, c]], f"f[{s},{c}]")
            for s in self.defenders
            for c in self.slots
        }
        self._weapon_limit()

    def _move_whole_combats(self) -> None:
        """6a, under the reading that a reallocated combat moves as a whole."""
        for s in self.defenders:
            for t in self.defenders:
                if s == t:
                    continue
                for origin in self.slots:
                    for target in self.slots:
                        self.model.AddImplication(
                            self.z[s, target], self.z[t, target]
                        ).OnlyEnforceIf([self.leave[s, origin], self.leave[t, origin]])

    def _weapon_limit(self) -> None:
        """6b, unless every placement of the moving stands breaks it."""
        m = self.model
        is_head = {
            k: self.reify_or(
                [
                    self.reify_and([self.x[k, c], self.has_squad[c].Not()], f"kh[{k},{c}]")
                    for c in self.slots
                ],
                f"isHead[{k}]",
            )
            for k in self.commanders
        }
        bound = len(self.defenders)

        def balance_of(member: dict[tuple[str, int], Any], c: int, name: str) -> Any:
            heads = [
                self.reify_and([member[k, c], is_head[k]], f"{name}h[{k},{c}]")
                for k in self.commanders
            ]
            balance = m.NewIntVar(-bound, bound, f"{name}{c}")
            m.Add(
                balance
                == sum(member[s, c] for s in self.of_role[Role.squad])
                + sum(heads)
                - sum(member[w, c] for w in self.of_role[Role.weapon])
            )
            return balance

        def split(balance: Any, name: str) -> tuple[Any, Any]:
            plus, minus = m.NewIntVar(0, bound, f"{name}+"), m.NewIntVar(0, bound, f"{name}-")
            m.AddMaxEquality(plus, [0, balance])
            m.AddMaxEquality(minus, [0, -balance])
            return plus, minus

        staying = [balance_of(self.stay, c, "bal") for c in self.slots]
        arriving = [balance_of(self.z, c, "arr") for c in self.slots]
        spare, deficit = zip(
            *(split(b, f"stay{c}") for c, b in zip(self.slots, staying, strict=True)), strict=True
        )
        if self.battle.ruleset.value("reallocate_one_by_one"):  # every stand is an item
            heads = [
                self.reify_and([self.moves[k], is_head[k]], f"mh[{k}]") for k in self.commanders
            ]
            givers = given = sum(self.moves[s] for s in self.of_role[Role.squad]) + sum(heads)
            weapons = sum(self.moves[w] for w in self.of_role[Role.weapon])
        else:  # every unopposed combat is an item
            items = [split(balance_of(self.leave, c, "whole"), f"whole{c}") for c in self.slots]
            givers = sum(
                self.reify_at_least(plus, 1, f"giver{i}") for i, (plus, _) in enumerate(items)
            )
            given = sum(plus for plus, _ in items)
            weapons = sum(minus for _, minus in items)
        enough = self._bool("6b_enough")
        room = self._bool("6b_room")
        m.Add(sum(deficit) <= givers).OnlyEnforceIf(enough)
        m.Add(sum(deficit) > givers).OnlyEnforceIf(enough.Not())
        m.Add(weapons + sum(deficit) <= sum(spare) + given).OnlyEnforceIf(room)
        m.Add(weapons + sum(deficit) > sum(spare) + given).OnlyEnforceIf(room.Not())
        for c, stay, arrive in zip(self.slots, staying, arriving, strict=True):
            m.Add(stay + arrive >= 0).OnlyEnforceIf([enough, room, self.opposed[c]])

    # --- fixing, distances, reading ---------------------------------------------------------

    def fix(self, allocation: Allocation, names: SlotNames) -> bool:
        """Constrain the model to ``allocation``; False when it cannot even be expressed."""
        return self._match(allocation, names, fix=True) is not None

    def distance_to(self, allocation: Allocation, names: SlotNames) -> Any:
        """The number of stands placed differently from ``allocation`` (a linear expression)."""
        return self._match(allocation, names, fix=False)

    def _match(self, allocation: Allocation, names: SlotNames, fix: bool) -> Any:
        m = self.model
        terms: list[Any] = []

        def place(var_of: Mapping[tuple[str, int], Any], stand: str, target: str | None) -> bool:
            index = None if target is None else names.index(target)
            if target is not None and index is None:
                if fix:
                    return False
                terms.append(1)
                return True
            for c in self.slots:
                want = 1 if c == index else 0
                if fix:
                    m.Add(var_of[stand, c] == want)
                elif want:
                    terms.append(1 - var_of[stand, c])
            return True

        combats = allocation.combats or {}
        if allocation.combats is not None:
            where: dict[str, list[str]] = {}
            for name, ids in combats.items():
                for s in ids:
                    where.setdefault(s, []).append(name)
                if fix and (index := names.index(name)) is not None:
                    m.Add(self.used[index] == 1)
            for s in self.defenders:
                targets = where.get(s, [])
                if fix and len(targets) != 1:
                    return None
                if not targets:
                    terms.append(1)
                elif not place(self.x, s, targets[0]):
                    return None
        if allocation.attack is not None and self.depth >= ATTACK:
            sent: dict[str, list[str]] = {}
            for name, ids in allocation.attack.items():
                for a in ids:
                    sent.setdefault(a, []).append(name)
            if fix and any(
                a not in self.attackers or len(targets) != 1 for a, targets in sent.items()
            ):
                return None
            for a in self.attackers:
                targets = sent.get(a, [])
                if not place(self.y, a, targets[0] if targets else None):
                    return None
                if not fix and not targets:
                    terms.append(sum(self.y[a, c] for c in self.slots))
        if allocation.reallocate is not None and self.depth >= REALLOCATION:
            for s in self.defenders:
                target = allocation.reallocate.get(s)
                if not place(self.z, s, target):
                    return None
                if not fix and target is None:
                    terms.append(sum(self.z[s, c] for c in self.slots))
        return sum(terms) if not fix else 0

    def read(self, solver: cp_model.CpSolver, names: SlotNames, depth: int) -> Allocation:
        """The allocation a solved model holds, named by ``names``, up to ``depth``."""
        used = [c for c in self.slots if solver.Value(self.used[c])]
        combats = {
            names.names[c]: [s for s in self.defenders if solver.Value(self.x[s, c])] for c in used
        }
        attack = None
        reallocate = None
        if depth >= ATTACK:
            attack = {
                names.names[c]: [a for a in self.attackers if solver.Value(self.y[a, c])]
                for c in used
            }
            attack = {n: ids for n, ids in attack.items() if ids}
        if depth >= REALLOCATION:
            reallocate = {
                s: names.names[c]
                for s in self.defenders
                for c in self.slots
                if solver.Value(self.z[s, c])
            }
        return Allocation(combats=combats, attack=attack, reallocate=reallocate)

    def solve_status(self, time_limit: float | None = None) -> str:
        solver = new_solver(self.model, time_limit)
        return solver.StatusName(solver.Solve(self.model))
