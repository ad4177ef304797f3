"""The odds inside CP-SAT: each combat's totals as linear expressions, its odds as a lookup table.

Per combat slot the model computes both sides' totals from the final memberships (after step 6),
clamps their difference, and looks the result up in a table of exact probabilities
(:func:`allocator.games.crossfire.odds.win_probability`). The objective is the sum over combats
of a term given by the round objective's form (:mod:`allocator.games.crossfire.objectives`):

* a product (``sweep``): the scaled logarithm of the combat's factor; its exactness is restored
  by :mod:`allocator.games.crossfire.search.rivals`, which compares candidate lines with
  fractions;
* a sum (``exchange``): what the combat's defending and attacking stands are worth at its odds,
  scaled by the common denominator of those weights, so that it is exact in integers.
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Iterator
from fractions import Fraction
from math import prod
from typing import Any

from allocator.core.budget import Budget
from allocator.core.cpsat import cp_model
from allocator.games.crossfire.battle import Role
from allocator.games.crossfire.model import RulesModel
from allocator.games.crossfire.objectives import ProductObjective, RoundObjective, SumObjective
from allocator.games.crossfire.odds import DIFF_LIMIT, stand_value, win_probability
from allocator.games.crossfire.rules import leaders as leader_rules
from allocator.games.crossfire.schema import RATINGS

LOG_SCALE = 10**9
EXACT_SCALE_LIMIT = 2**40


class OddsTerms:
    """Adds the combat odds of every slot of ``rules`` and an objective over them."""

    def __init__(self, rules: RulesModel, objective: RoundObjective):
        self.rules = rules
        self.model = rules.model
        self.battle = rules.battle
        self.objective = objective
        ruleset = self.battle.ruleset
        self.mode, self.ties = ruleset.value("dice_mode"), ruleset.value("ties")
        pool = self.mode == "pool"
        self.max_dice = (len(rules.attackers) + 1, len(rules.defenders) + 1) if pool else (1, 1)
        self.probabilities = self._table()
        self.product = isinstance(objective, ProductObjective)
        if isinstance(objective, ProductObjective):
            self.factors = [objective.factor(p) for p in self.levels]
            self.logs = [_scaled_log(self.factors[level]) for level in self.level_of]
        if isinstance(objective, SumObjective):
            self.weights = [objective.weights(p) for p in self.levels]
            self.scale = _lcm_up_to(w.denominator for pair in self.weights for w in pair)
        self.state: dict[int, Any] = {}
        self.cells: dict[int, Any] = {}
        self.keys: dict[int, Any] = {}
        self.terms: list[Any] = []
        for c in rules.slots:
            self._combat(c)
        self.exact = not self.product and self.scale <= EXACT_SCALE_LIMIT

    @property
    def linear(self) -> bool:
        """Whether CP-SAT's LP relaxation helps: not for a sum's one-hot products, which it makes
        slower than plain search (measured with bench/)."""
        return self.product

    # --- the table ---------------------------------------------------------------------

    def _table(self) -> list[Fraction]:
        """Every probability a combat can have (with pools of dice, one per difference and
        number of dice a side: within the time limit, which its building checks), in rows of
        :attr:`width`: one row per difference, then one row whose first two hold the combat
        won for want of defenders and the unopposed one (the rest of it is never reached).

        A combat's odds are looked up by row and column (:meth:`_lookup`): CP-SAT's presolve
        expands one element over every state of a battalion's pools of dice (16,304) into
        179,072 literals, in over a second that it does not check against its time limit; its 14
        rows of 1,254 take a fraction of that.
        """
        na, nd = self.max_dice
        table = []
        for diff in range(-DIFF_LIMIT, DIFF_LIMIT + 1):
            for a in range(na + 1):
                self.rules.tick()
                for d in range(nd + 1):
                    table.append(win_probability(diff, self.mode, self.ties, (a, d)))
        self.width, self.rows = (na + 1) * (nd + 1), 2 * DIFF_LIMIT + 2
        self.auto_win = len(table)
        self.unopposed = len(table) + 1
        table.extend([Fraction(1)] * self.width)
        # a float never orders two fractions the wrong way round, only sometimes as equal
        self.levels = sorted(set(table), key=lambda p: (float(p), p))
        position = {p: i for i, p in enumerate(self.levels)}
        self.level_of = [position[p] for p in table]
        return table

    # --- one combat --------------------------------------------------------------------

    def _side(self, c: int, members: dict[str, Any], attacking: bool) -> tuple[Any, Any, Any]:
        """(total, fighters, can_fight) of one side in slot ``c`` from membership literals."""
        b, rules = self.battle, self.rules
        ruleset = b.ruleset
        ids = list(members)
        squads = [s for s in ids if b.role(s) == Role.squad]
        weapons = [s for s in ids if b.role(s) == Role.weapon]
        commanders = [s for s in ids if b.is_commander(s)]
        leaders = [s for s in ids if b.role(s) == Role.leader]
        base = sum(
            sum(v for _, v in stand_value(ruleset, b, s)) * members[s] for s in squads + weapons
        )
        has_squad = rules.reify_or([members[s] for s in squads], f"o_hs{attacking}{c}")
        has_commander = rules.reify_or([members[k] for k in commanders], f"o_hk{attacking}{c}")
        as_squad = leader_rules.as_squads_expression(
            rules, rules.attack, c, members, has_squad, attacking
        )
        bonus = leader_rules.bonus_expression(
            rules,
            members,
            lambda stands, tag: rules.reify_or([members[s] for s in stands], f"o_{tag}{c}"),
            f"o_{attacking}{c}",
        )
        total = base + ruleset.value("commander_as_squad") * as_squad + bonus
        if attacking and b.surprised():
            total += ruleset.value("surprise") * rules.attack.opposed[c]
        fighters = sum(members[s] for s in squads + weapons) + as_squad
        fighting = [has_squad, has_commander] + [members[w] for w in weapons]
        if not ruleset.value("lone_noncombatant_loses"):
            others = [members[s] for s in ids if b.role(s) == Role.noncombatant]
            lone = rules.reify_and(
                [
                    rules.reify_or(others, f"o_nc{attacking}{c}"),
                    rules.reify_or([members[s] for s in leaders], f"o_ld{attacking}{c}").negated(),
                ],
                f"o_lone{attacking}{c}",
            )
            fighting.append(lone)
        can_fight = rules.reify_or(fighting, f"o_cf{attacking}{c}")
        return total, fighters, can_fight

    def _span(self, members: dict[str, Any]) -> int:
        """A bound on the size of one side's total (its difference keeps within both spans)."""
        b, ruleset = self.battle, self.battle.ruleset
        bound = abs(ruleset.value("surprise")) + 1
        for s in members:
            bound += sum(abs(v) for _, v in stand_value(ruleset, b, s))
            if b.is_commander(s):
                bound += abs(ruleset.value("commander_as_squad"))
            if b.role(s) == Role.leader:
                bound += RATINGS[1]
        return int(bound)

    def _combat(self, c: int) -> None:
        m, rules = self.model, self.rules
        defenders = {s: rules.reallocation.final[s, c] for s in rules.defenders}
        attackers = {a: rules.attack.y[a, c] for a in rules.attackers}
        att_total, att_dice, _ = self._side(c, attackers, attacking=True)
        def_total, def_dice, def_fights = self._side(c, defenders, attacking=False)
        span = self._span(defenders) + self._span(attackers)
        diff = m.new_int_var(-span, span, f"o_diff{c}")
        m.add(diff == att_total - def_total - (att_dice - def_dice if self.mode == "pool" else 0))
        upper = m.new_int_var(-span, DIFF_LIMIT, f"o_up{c}")
        m.add_min_equality(upper, [diff, DIFF_LIMIT])
        clamped = m.new_int_var(-DIFF_LIMIT, DIFF_LIMIT, f"o_cl{c}")
        m.add_max_equality(clamped, [upper, -DIFF_LIMIT])
        nd = self.max_dice[1]
        a_dice = att_dice if self.mode == "pool" else 1
        d_dice = def_dice if self.mode == "pool" else 1
        state = m.new_int_var(0, len(self.probabilities) - 1, f"o_state{c}")
        row = m.new_int_var(0, self.rows - 1, f"o_row{c}")
        column = m.new_int_var(0, self.width - 1, f"o_col{c}")
        m.add(state == row * self.width + column)
        opposed = rules.attack.opposed[c]
        fought = [opposed, def_fights]
        m.add(row == clamped + DIFF_LIMIT).only_enforce_if(fought)
        m.add(column == a_dice * (nd + 1) + d_dice).only_enforce_if(fought)
        m.add(state == self.auto_win).only_enforce_if([opposed, def_fights.negated()])
        m.add(state == self.unopposed).only_enforce_if(opposed.negated())
        self.state[c] = state
        self.cells[c] = (row, column)
        if self.product:
            term = self._lookup(c, self.logs, f"o_log{c}")
        else:
            term = self._sum_term(c, defenders, attackers)
        self.terms.append(term)

    def _sum_term(self, c: int, defenders: dict[str, Any], attackers: dict[str, Any]) -> Any:
        """What the combat's stands are worth at its odds, scaled, linear for the LP.

        The odds level is one-hot; each level's share of the stand count is its own variable
        (the standard linearisation of a boolean times an integer). A defending stand is worth
        ``wd`` and an attacking one ``wa`` at a level: the term is ``wd`` x (all the stands) plus
        ``wa - wd`` x (the attacking ones), the second with one share per level only where
        ``wa - wd`` is not the same at every level.
        """
        m = self.model
        scale = min(self.scale, EXACT_SCALE_LIMIT)
        width = len(defenders) + len(attackers)
        stands = m.new_int_var(0, width, f"o_n{c}")
        m.add(stands == sum(defenders.values()) + sum(attackers.values()))
        attacking = sum(attackers.values())
        level = self._lookup(c, self.level_of, f"o_level{c}")
        extra = {round((wa - wd) * scale) for wd, wa in self.weights}
        flags = []
        term: Any = 0
        for j, (wd, wa) in enumerate(self.weights):
            flag = m.new_bool_var(f"o_at{c}_{j}")
            flags.append(flag)
            term += round(wd * scale) * self._share(stands, flag, width, f"o_share{c}_{j}")
            if len(extra) > 1:
                attackers_here = self._share(attacking, flag, width, f"o_ashare{c}_{j}")
                term += round((wa - wd) * scale) * attackers_here
        m.add_exactly_one(flags)
        m.add(level == sum(j * flag for j, flag in enumerate(flags)))
        if len(extra) == 1:
            term += extra.pop() * attacking
        self.keys[c] = (level, stands, attacking)
        return term

    def _lookup(self, c: int, table: list[int], name: str) -> Any:
        """``table`` (laid out as :meth:`_table`'s) at slot ``c``'s state: an element of each
        row at the state's column, and an element of those at its row."""
        m = self.model
        row, column = self.cells[c]
        rows = []
        for r in range(self.rows):
            part = table[r * self.width : (r + 1) * self.width]
            value = m.new_int_var(min(part), max(part), f"{name}_{r}")
            m.add_element(column, part, value)
            rows.append(value)
        found = m.new_int_var(min(table), max(table), name)
        m.add_element(row, rows, found)
        return found

    def _share(self, amount: Any, flag: Any, width: int, name: str) -> Any:
        """``amount`` where ``flag`` holds, else 0 (its shares over a one-hot sum to it)."""
        m = self.model
        share = m.new_int_var(0, width, name)
        m.add(share == amount).only_enforce_if(flag)
        m.add(share == 0).only_enforce_if(flag.negated())
        return share

    def objective_expr(self) -> Any:
        return sum(self.terms)

    def rounding_slack(self) -> int:
        """How far the scaled objective may stray from the exact value, in objective units."""
        return 0 if self.exact else len(self.terms)

    def level_counts(self, solver: cp_model.CpSolver) -> tuple[int, ...]:
        counts = [0] * len(self.levels)
        for c in self.rules.slots:
            counts[self.level_of[solver.value(self.state[c])]] += 1
        return tuple(counts)

    def rival_possible(
        self, counts: tuple[int, ...], low: int, high: int, maximise: bool, budget: Budget
    ) -> bool:
        """Whether another multiset of combat odds could beat ``counts`` from within the window.

        Only for a product objective: the value is the product of the combats' factors, so a
        rival is a multiset of odds levels with a better exact product whose scaled logarithms
        sum to between ``low`` and ``high``. Usually there is none, and no rival is searched for.
        When the budget runs out first, a rival cannot be ruled out.
        """
        ascending = sorted(range(len(self.factors)), key=lambda level: self.factors[level])
        logs = [_scaled_log(self.factors[level]) for level in ascending]
        found = prod((self.factors[lv] ** n for lv, n in enumerate(counts)), start=Fraction(1))
        try:
            for combo in _combos_in_window(logs, sum(counts), low, high, _Ticks(budget)):
                value = prod((self.factors[ascending[i]] for i in combo), start=Fraction(1))
                if (value > found) if maximise else (value < found):
                    return True
        except OutOfTime:
            return True
        return False

    def exclude(self, solver: cp_model.CpSolver) -> None:
        """Forbid every solution whose exact value is bound to equal this one's."""
        if self.product:
            self._exclude_levels(self.level_counts(solver))
            return
        differs: list[Any] = []
        for c in self.rules.slots:
            for part in self.keys[c]:
                value = solver.value(part)
                ne = self.model.new_bool_var(f"o_kne{c}_{len(differs)}")
                self.model.add(part != value).only_enforce_if(ne)
                self.model.add(part == value).only_enforce_if(ne.negated())
                differs.append(ne)
        self.model.add_bool_or(differs)

    def _exclude_levels(self, counts: tuple[int, ...]) -> None:
        """Forbid every solution whose multiset of combat odds equals ``counts``."""
        m = self.model
        differs: list[Any] = []
        entries: list[list[int]] = [[] for _ in self.levels]
        for i, level in enumerate(self.level_of):
            entries[level].append(i)
        for level, wanted in enumerate(counts):
            self.rules.tick()
            allowed = entries[level]
            hits = []
            for c in self.rules.slots:
                hit = m.new_bool_var(f"o_hit{level}_{c}_{len(differs)}")
                m.add_allowed_assignments([self.state[c]], [[i] for i in allowed]).only_enforce_if(
                    hit
                )
                m.add_forbidden_assignments(
                    [self.state[c]], [[i] for i in allowed]
                ).only_enforce_if(hit.negated())
                hits.append(hit)
            ne = m.new_bool_var(f"o_ne{level}_{len(differs)}")
            m.add(sum(hits) != wanted).only_enforce_if(ne)
            m.add(sum(hits) == wanted).only_enforce_if(ne.negated())
            differs.append(ne)
        m.add_bool_or(differs)


def _lcm_up_to(numbers: Iterable[int], cap: int = EXACT_SCALE_LIMIT) -> int:
    """The least common multiple of ``numbers``, or the first partial one over ``cap``: past
    the cap the sum is not exact in integers anyway, and the whole multiple of many pools'
    denominators is a number of thousands of digits, whose one call to ``math.lcm`` took
    seconds in which no budget is checked.

    >>> _lcm_up_to([4, 6, 10]), _lcm_up_to([2**30, 3**30], cap=2**40) > 2**40
    (60, True)
    """
    multiple = 1
    for number in numbers:
        multiple = math.lcm(multiple, number)
        if multiple > cap:
            break
    return multiple


class OutOfTime(Exception):
    """The budget ran out in the middle of a search of multisets."""


class _Ticks:
    """Counts the steps of a search and checks the budget every few thousand of them."""

    def __init__(self, budget: Budget | None):
        self.budget, self.steps = budget, 0

    def __call__(self) -> None:
        self.steps += 1
        if self.budget is not None and self.steps % 4096 == 0 and self.budget.expired():
            raise OutOfTime


def _combos_in_window(
    logs: list[int],
    size: int,
    low: int,
    high: int,
    tick: _Ticks,
    start: int = 0,
    total: int = 0,
) -> Iterator[tuple[int, ...]]:
    """Multisets of ``size`` indices into ascending ``logs`` whose logs sum into [low, high]
    (``tick`` is called at every step, and may stop the search).

    >>> list(_combos_in_window([-5, -1, 0], 2, -2, -1, _Ticks(None)))
    [(1, 1), (1, 2)]
    """
    tick()
    if size == 0:
        if low <= total <= high:
            yield ()
        return
    for level in range(start, len(logs)):
        if total + size * logs[level] > high:
            return
        if total + logs[level] + (size - 1) * logs[-1] < low:
            continue
        for rest in _combos_in_window(logs, size - 1, low, high, tick, level, total + logs[level]):
            yield (level, *rest)


def _scaled_log(p: Fraction) -> int:
    if p == 0:
        return -LOG_SCALE * 100
    return round(LOG_SCALE * math.log(p))
