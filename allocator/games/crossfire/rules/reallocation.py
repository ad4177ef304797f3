"""Step 6, the defender folds unopposed combats into the fights that are on: 6a-6c.

6b is judged over every placement of the moving stands, by a closed form that both the plain
checker and the CP-SAT model use (:func:`weapon_limit_reachable`).

>>> weapon_limit_reachable(staying=[-1, 1], moving=[1])
True
>>> weapon_limit_reachable(staying=[-1], moving=[-1])
False
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass
from itertools import product
from typing import TYPE_CHECKING

from allocator.core.violations import Violation
from allocator.games.crossfire.battle import Battle, Role
from allocator.games.crossfire.rules.base import (
    Counts,
    Rule,
    StandClass,
    book,
    compositions,
    names,
)
from allocator.games.crossfire.schema import Allocation

if TYPE_CHECKING:
    from allocator.core.cpsat import BoolVar, IntVar
    from allocator.games.crossfire.rules.attack import AttackVariables
    from allocator.games.crossfire.rules.base import SharedModel
    from allocator.games.crossfire.rules.grouping import GroupingVariables

STEPS = {6: "Step 6 - the defender folds unopposed combats in"}
RULES = (
    Rule(
        "6a",
        6,
        "When a combat got no attacker, every stand of every unopposed combat moves "
        "into a combat that has attackers; none stays out.",
    ),
    Rule(
        "6b",
        6,
        "After the move no active combat holds more crew-served weapons than squads "
        "plus CC/BC heads, unless every way of moving breaks this.",
    ),
    Rule("6c", 6, "When every combat has attackers there is nothing to reallocate."),
)
_RULE = book(RULES)


# --- the plain checks -----------------------------------------------------------------------


def unmoved(
    combats: Mapping[str, Sequence[str]],
    attack: Mapping[str, Sequence[str]],
    reallocate: Mapping[str, str],
) -> list[str]:
    """6a: the stands of unopposed combats that do not move yet (every one must move into a
    combat with attackers, when there is one)."""
    if not any(attack.get(name) for name, ids in combats.items() if ids):
        return []
    unopposed = [ids for name, ids in combats.items() if not attack.get(name)]
    return [s for ids in unopposed for s in ids if s not in reallocate]


def commander_heads(battle: Battle, combats: Mapping[str, Sequence[str]]) -> set[str]:
    """CCs and BCs in a combat without squads after step 3 (they count beside squads in 6b)."""
    return {
        s
        for ids in combats.values()
        if not any(battle.role(x) == Role.squad for x in ids)
        for s in ids
        if battle.is_commander(s)
    }


def fighting_balance(battle: Battle, ids: Iterable[str], heads: set[str]) -> int:
    """Squads plus CC/BC heads minus crew-served weapons (6b wants it 0 or more)."""
    total = 0
    for stand in ids:
        role = battle.role(stand)
        total += (role == Role.squad or stand in heads) - (role == Role.weapon)
    return total


def weapon_limit_reachable(staying: Iterable[int], moving: Iterable[int]) -> bool:
    """Whether the moving items can be placed so that every active combat is within 6b.

    ``staying`` are the active combats' balances (:func:`fighting_balance`, never below -1 after
    a legal step 3), ``moving`` the balances of what moves: single stands, or whole unopposed
    combats when they move together. Each combat short of a squad takes one item with a
    positive balance; the weapons that move must then fit in what is left over.
    """
    staying, moving = list(staying), list(moving)
    deficit = sum(max(0, -b) for b in staying)
    spare = sum(max(0, b) for b in staying)
    givers = [b for b in moving if b > 0]
    weapons = sum(max(0, -b) for b in moving)
    return deficit <= len(givers) and weapons + deficit <= spare + sum(givers)


def moving_items(
    battle: Battle, unopposed: Mapping[str, Sequence[str]], heads: set[str]
) -> list[int]:
    """The balances of what moves in step 6: each stand, or each combat as a whole."""
    if battle.ruleset.value("reallocate_one_by_one"):
        return [fighting_balance(battle, [s], heads) for ids in unopposed.values() for s in ids]
    return [fighting_balance(battle, ids, heads) for ids in unopposed.values()]


def check(battle: Battle, allocation: Allocation) -> Iterator[Violation]:
    if allocation.combats is None or allocation.attack is None or allocation.reallocate is None:
        return
    combats, attack, reallocate = allocation.combats, allocation.attack, allocation.reallocate
    names_ = [n for n, ids in combats.items() if ids]
    active = [n for n in names_ if attack.get(n)]
    unopposed = [n for n in names_ if not attack.get(n)]
    if not unopposed:
        if reallocate:
            yield _RULE["6c"].breach(
                "Every combat has attackers, so nothing is reallocated: drop the reallocation.",
                list(reallocate),
            )
        return
    if not active:
        return
    must_move = [s for n in unopposed for s in combats[n]]
    missing = [s for s in must_move if s not in reallocate]
    if missing:
        yield _RULE["6a"].breach(
            f"{names(missing)} {'are' if len(missing) > 1 else 'is'} in unopposed "
            f"combat{'s' if len(unopposed) > 1 else ''} {names(unopposed)} and must move into a "
            f"combat with attackers ({names(active)}).",
            missing,
        )
    for stand, target in reallocate.items():
        if stand not in must_move:
            yield _RULE["6a"].breach(
                f"{stand} is already in a combat with attackers: only the stands of unopposed "
                "combats move.",
                [stand],
            )
        elif target not in active:
            yield _RULE["6a"].breach(
                f"{stand} moves to '{target}', which is not a combat with attackers: choose one "
                f"of {names(active)}.",
                [stand],
            )
    if not battle.ruleset.value("reallocate_one_by_one"):
        for name in unopposed:
            targets = {reallocate[s] for s in combats[name] if s in reallocate}
            if len(targets) > 1:
                yield _RULE["6a"].breach(
                    f"The stands of unopposed combat {name} go to {names(targets)}: under this "
                    "ruleset a reallocated combat moves as a whole, into one combat.",
                    [s for s in combats[name] if s in reallocate],
                )
    final = {n: list(combats[n]) for n in active}
    for stand, target in reallocate.items():
        if stand in must_move and target in final:
            final[target].append(stand)
    heads = commander_heads(battle, combats)
    over = {n: ids for n, ids in final.items() if fighting_balance(battle, ids, heads) < 0}
    staying = [fighting_balance(battle, combats[n], heads) for n in active]
    moving = moving_items(battle, {n: combats[n] for n in unopposed}, heads)
    if over and weapon_limit_reachable(staying, moving):
        weapons = [s for ids in over.values() for s in ids if battle.role(s) == Role.weapon]
        yield _RULE["6b"].breach(
            f"Combat{'s' if len(over) > 1 else ''} {names(over)} would hold more crew-served "
            "weapons than squads and CC/BC heads, and another placement of the moved stands "
            "avoids that: spread the weapons.",
            weapons,
        )


# --- the legal reallocations, class by class ---------------------------------------------------


def class_reallocations(
    classes: Sequence[StandClass],
    combats: Sequence[Counts],
    opposed: Sequence[bool],
    one_by_one: bool,
    tick: Callable[[], None] = lambda: None,
) -> Iterator[tuple[Counts, ...]]:
    """The defender's legal step 6, as the final counts per class of the opposed combats.

    The same rules as :func:`check` for interchangeable stands counted by class: every stand of
    an unopposed combat moves into an opposed one (6a; the whole combat into one, unless stands
    move one by one), and no opposed combat ends with more weapons than squads and CC/BC heads
    unless every placement does (6b). Placements that end the same are given once. ``tick`` is
    called at every placement tried (a budget's :meth:`~allocator.core.budget.Budget.ticker`):
    there are (opposed combats) ** (unopposed ones) of them.
    """
    active = [k for k in range(len(combats)) if opposed[k]]
    unopposed = [k for k in range(len(combats)) if not opposed[k]]
    if not active:
        return
    heads = [_heads(classes, combat) for combat in combats]
    staying = [_balance(classes, combats[k], heads[k]) for k in active]
    if one_by_one:
        items = [
            (c.index, head, n)
            for k in unopposed
            for c in classes
            for head, n in (
                (True, heads[k][c.index]),
                (False, combats[k][c.index] - heads[k][c.index]),
            )
            if n
        ]
        moving = [_balance_of_one(classes[c], head) for c, head, n in items for _ in range(n)]
        choices = [list(compositions(n, len(active))) for _, _, n in items]
    else:
        items = [(k, False, 1) for k in unopposed]
        moving = [_balance(classes, combats[k], heads[k]) for k in unopposed]
        choices = [
            [tuple(int(i == j) for i in range(len(active))) for j in range(len(active))]
            for _ in unopposed
        ]
    limit = weapon_limit_reachable(staying, moving)
    seen: set[tuple[Counts, ...]] = set()
    for choice in product(*choices):
        tick()
        final = [list(combats[k]) for k in active]
        balance = list(staying)
        for (origin, head, _), split in zip(items, choice, strict=True):
            for slot, n in enumerate(split):
                if not n:
                    continue
                if one_by_one:
                    final[slot][origin] += n
                    balance[slot] += n * _balance_of_one(classes[origin], head)
                else:
                    for c, count in enumerate(combats[origin]):
                        final[slot][c] += count
                    balance[slot] += _balance(classes, combats[origin], heads[origin])
        if limit and any(b < 0 for b in balance):
            continue  # 6b
        result = tuple(tuple(row) for row in final)
        if result not in seen:
            seen.add(result)
            yield result


def _heads(classes: Sequence[StandClass], combat: Counts) -> list[int]:
    """How many CC/BCs of each class head this combat (it has no squad after step 3)."""
    squads = sum(combat[c.index] for c in classes if c.role == Role.squad)
    return [combat[c.index] if c.commander and not squads else 0 for c in classes]


def _balance_of_one(stand: StandClass, head: bool) -> int:
    return int(stand.role == Role.squad or head) - int(stand.role == Role.weapon)


def _balance(classes: Sequence[StandClass], combat: Counts, heads: Sequence[int]) -> int:
    """Squads plus CC/BC heads minus weapons of a combat (:func:`fighting_balance`)."""
    return sum(combat[c.index] * _balance_of_one(c, False) + heads[c.index] for c in classes)


# --- the CP-SAT constraints -----------------------------------------------------------------


@dataclass(frozen=True, eq=False)
class ReallocationVariables:
    """The defender's step 6 in CP-SAT: who moves out of an unopposed combat, and where to.

    Attributes
    ----------
    z : mapping of (str, int) to BoolVar
        Defending stand ``s`` of an unopposed combat moves into slot ``c``: ``z[s, c]``.
    stay : mapping of (str, int) to BoolVar
        Stand ``s`` is in slot ``c`` and the slot is opposed: it stays there.
    leave : mapping of (str, int) to BoolVar
        Stand ``s`` is in slot ``c`` and the slot is unopposed: it leaves it.
    moves : mapping of str to BoolVar
        Stand ``s`` is in an unopposed combat, and so moves (6a).
    final : mapping of (str, int) to BoolVar
        Stand ``s`` fights in slot ``c`` after step 6, having stayed or moved in.
    """

    z: Mapping[tuple[str, int], BoolVar]
    stay: Mapping[tuple[str, int], BoolVar]
    leave: Mapping[tuple[str, int], BoolVar]
    moves: Mapping[str, BoolVar]
    final: Mapping[tuple[str, int], BoolVar]


def variables(
    model: SharedModel, grouping: GroupingVariables, attack: AttackVariables
) -> ReallocationVariables:
    """``z[s, c]``: a stand of an unopposed combat moves into slot ``c``; who ends where."""
    x, opposed = grouping.x, attack.opposed
    z = {(s, c): model.new_bool(f"z[{s},{c}]") for s in model.defenders for c in model.slots}
    stay: dict[tuple[str, int], BoolVar] = {}
    leave: dict[tuple[str, int], BoolVar] = {}
    moves: dict[str, BoolVar] = {}
    for s in model.defenders:
        model.tick()
        for c in model.slots:
            stay[s, c] = model.reify_and([x[s, c], opposed[c]], f"st[{s},{c}]")
            leave[s, c] = model.reify_and([x[s, c], opposed[c].negated()], f"un[{s},{c}]")
        moves[s] = model.reify_or([leave[s, c] for c in model.slots], f"mv[{s}]")
    final = {
        (s, c): model.reify_or([stay[s, c], z[s, c]], f"f[{s},{c}]")
        for s in model.defenders
        for c in model.slots
    }
    return ReallocationVariables(z=z, stay=stay, leave=leave, moves=moves, final=final)


def constrain(
    model: SharedModel,
    grouping: GroupingVariables,
    attack: AttackVariables,
    reallocation: ReallocationVariables,
) -> None:
    """6a-6c on the reallocation's variables, after the grouping and the attack."""
    m, z = model.model, reallocation.z
    for s in model.defenders:
        for c in model.slots:
            m.add_implication(z[s, c], attack.opposed[c])  # 6a: into combats with attackers
        m.add(sum(z[s, c] for c in model.slots) == reallocation.moves[s])  # 6a, 6c
    if not model.battle.ruleset.value("reallocate_one_by_one"):
        _move_whole_combats(model, reallocation)
    _weapon_limit(model, grouping, attack, reallocation)


def _move_whole_combats(model: SharedModel, reallocation: ReallocationVariables) -> None:
    """6a, under the reading that a reallocated combat moves as a whole."""
    z, leave = reallocation.z, reallocation.leave
    for s in model.defenders:
        model.tick()
        for t in model.defenders:
            if s == t:
                continue
            for origin in model.slots:
                for target in model.slots:
                    model.model.add_implication(z[s, target], z[t, target]).only_enforce_if(
                        [leave[s, origin], leave[t, origin]]
                    )


def _weapon_limit(
    model: SharedModel,
    grouping: GroupingVariables,
    attack: AttackVariables,
    reallocation: ReallocationVariables,
) -> None:
    """6b, unless every placement of the moving stands breaks it."""
    m, moves = model.model, reallocation.moves
    squads, weapons = model.of_role[Role.squad], model.of_role[Role.weapon]
    is_head = {
        k: model.reify_or(
            [
                model.reify_and([grouping.x[k, c], grouping.has_squad[c].negated()], f"kh[{k},{c}]")
                for c in model.slots
            ],
            f"isHead[{k}]",
        )
        for k in model.commanders
    }
    bound = len(model.defenders)

    def balance_of(member: Mapping[tuple[str, int], BoolVar], c: int, name: str) -> IntVar:
        heads = [
            model.reify_and([member[k, c], is_head[k]], f"{name}h[{k},{c}]")
            for k in model.commanders
        ]
        balance = m.new_int_var(-bound, bound, f"{name}{c}")
        m.add(
            balance
            == sum(member[s, c] for s in squads) + sum(heads) - sum(member[w, c] for w in weapons)
        )
        return balance

    def split(balance: IntVar, name: str) -> tuple[IntVar, IntVar]:
        plus, minus = m.new_int_var(0, bound, f"{name}+"), m.new_int_var(0, bound, f"{name}-")
        m.add_max_equality(plus, [0, balance])
        m.add_max_equality(minus, [0, -balance])
        return plus, minus

    staying = [balance_of(reallocation.stay, c, "bal") for c in model.slots]
    arriving = [balance_of(reallocation.z, c, "arr") for c in model.slots]
    spare, deficit = zip(
        *(split(b, f"stay{c}") for c, b in zip(model.slots, staying, strict=True)), strict=True
    )
    if model.battle.ruleset.value("reallocate_one_by_one"):  # every stand is an item
        heads = [model.reify_and([moves[k], is_head[k]], f"mh[{k}]") for k in model.commanders]
        givers = given = sum(moves[s] for s in squads) + sum(heads)
        moving_weapons = sum(moves[w] for w in weapons)
    else:  # every unopposed combat is an item
        items = [
            split(balance_of(reallocation.leave, c, "whole"), f"whole{c}") for c in model.slots
        ]
        givers = sum(
            model.reify_at_least(plus, 1, f"giver{i}") for i, (plus, _) in enumerate(items)
        )
        given = sum(plus for plus, _ in items)
        moving_weapons = sum(minus for _, minus in items)
    enough = model.new_bool("6b_enough")
    room = model.new_bool("6b_room")
    m.add(sum(deficit) <= givers).only_enforce_if(enough)
    m.add(sum(deficit) > givers).only_enforce_if(enough.negated())
    m.add(moving_weapons + sum(deficit) <= sum(spare) + given).only_enforce_if(room)
    m.add(moving_weapons + sum(deficit) > sum(spare) + given).only_enforce_if(room.negated())
    for c, stay, arrive in zip(model.slots, staying, arriving, strict=True):
        m.add(stay + arrive >= 0).only_enforce_if([enough, room, attack.opposed[c]])


# --- the teaching prose ---------------------------------------------------------------------


def requirements(battle: Battle, step: int) -> list[str]:
    return [
        "A combat that got no attacker is dissolved: every stand in it moves into a combat "
        "that has attackers (6a), without piling more weapons than squads and CC/BC heads "
        "into one when that can be avoided (6b). With every combat opposed nothing moves (6c)."
    ]
