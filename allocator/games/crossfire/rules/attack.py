"""Steps 4-5, the attacker's answer: 4a-4e (cover every combat first) and 5a-5c (his leaders).

>>> from allocator.games.crossfire.battle import battle_from_data
>>> b = battle_from_data({
...     "defender": {"units": [{"id": "p", "kind": "platoon"}], "stands": [
...         {"id": "d1", "type": "rifle", "unit": "p"},
...         {"id": "d2", "type": "rifle", "unit": "p"}]},
...     "attacker": {"units": [{"id": "q", "kind": "platoon"}], "stands": [
...         {"id": "a1", "type": "rifle", "unit": "q"},
...         {"id": "a2", "type": "rifle", "unit": "q"}]},
... })
>>> allocation = Allocation(combats={"A": ["d1"], "B": ["d2"]}, attack={"A": ["a1", "a2"]})
>>> [v.rule for v in check(b, allocation)]
['4a']
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Mapping, Sequence
from dataclasses import dataclass
from functools import cache
from itertools import product
from typing import TYPE_CHECKING, Any

from allocator.core.text import listing, plural
from allocator.core.violations import Violation
from allocator.games.crossfire.battle import Battle, Role
from allocator.games.crossfire.rules.base import (
    Counts,
    Rule,
    StandClass,
    book,
    combats_text,
    compositions,
    names,
)
from allocator.games.crossfire.schema import Allocation

if TYPE_CHECKING:
    from allocator.core.cpsat import BoolLiteral, BoolVar
    from allocator.games.crossfire.rules.base import SharedModel
    from allocator.games.crossfire.rules.grouping import GroupingVariables

STEPS = {
    4: "Step 4 - the attacker covers every combat",
    5: "Step 5 - the attacker's leaders join",
}
RULES = (
    Rule(
        "4a",
        4,
        "Attacking squads cover every combat, as far as they go, before any combat "
        "gets a second squad.",
    ),
    Rule(
        "4b",
        4,
        "With fewer squads than combats, a CC or BC who joins the assault counts as "
        "a squad and must take an otherwise unopposed combat.",
    ),
    Rule(
        "4c",
        4,
        "Squads left after every combat is covered go to any of the defender's combats.",
    ),
    Rule("4d", 4, "Attacking crew-served weapons (and FOs and snipers) do not take part."),
    Rule(
        "4e",
        4,
        "Every attacking squad is allocated to exactly one combat; leaders may stay "
        "out but join at most one.",
    ),
    Rule(
        "5a",
        5,
        "An attacking leader joins a combat only within one stand width of a squad he joins there.",
    ),
    Rule(
        "5b",
        5,
        "An attacking PC (or a Commissar attached to a PC) only joins a combat holding at "
        "least one of his own troops.",
    ),
    Rule(
        "5c",
        5,
        "A second leader may join a combat that has attacking troops; he adds nothing unless "
        "his rating is higher, and a CC or BC who joins at step 5 is a leader only, never a "
        "squad, also beside a CC or BC who takes the combat as a squad (4b).",
    ),
)
_RULE = book(RULES)


# --- the plain checks -----------------------------------------------------------------------


@dataclass
class AttackView:
    """The attack as the rules see it: combats, who is where, who acts as a squad (4b)."""

    combats: list[str]
    members: dict[str, list[str]]
    squads: dict[str, list[str]]
    acting: dict[str, str]
    fewer_squads: bool


def acting_commander(battle: Battle, attackers: Sequence[str]) -> str | None:
    """4b and 5c: the CC or BC who takes an attacking combat as its squad, if any.

    Only in a combat that no attacking squad joins: there one CC or BC who joins it fights as
    the squad (he counts as assault troops for 5a, and his rating counts under L2); every other
    CC or BC there joins at step 5, a leader only (5c). When several could, the one the other
    leaders there stand nearest to is chosen, so that 5a binds the fewest.

    Parameters
    ----------
    battle : Battle
    attackers : sequence of str
        The attacking stands of one combat.

    Returns
    -------
    str or None
        The CC or BC heading it as a squad; None where a squad attacks or no CC or BC does.

    Examples
    --------
    >>> from allocator.games.crossfire.battle import battle_from_data
    >>> b = battle_from_data({
    ...     "defender": {"units": [{"id": "p", "kind": "platoon"}],
    ...                  "stands": [{"id": "d1", "type": "rifle", "unit": "p"}]},
    ...     "attacker": {"units": [{"id": "c", "kind": "company"}], "stands": [
    ...         {"id": "cc", "type": "cc", "unit": "c"},
    ...         {"id": "bc1", "type": "bc", "unit": "c", "near": ["cc"]},
    ...         {"id": "bc2", "type": "bc", "unit": "c", "near": ["cc"]}]},
    ... })
    >>> acting_commander(b, ["bc1", "bc2", "cc"])  # both stand near cc: he heads, they lead
    'cc'
    """
    if any(battle.role(a) == Role.squad for a in attackers):
        return None
    commanders = [a for a in attackers if battle.is_commander(a)]
    leaders = [a for a in attackers if battle.role(a) == Role.leader]

    def unreached(candidate: str) -> int:
        return sum(
            1 for other in leaders if other != candidate and not battle.near(other, candidate)
        )

    return min(commanders, key=unreached, default=None)


def assault_troops(battle: Battle) -> list[str]:
    """5a: the attacking stands a leader may join beside, each within one stand width of him:
    the squads, and the CCs and BCs (one may take a combat as its squad, 4b)."""
    a = battle.attacker
    return a.ids(Role.squad) + [s for s in a.ids(Role.leader) if battle.is_commander(s)]


def near_troops(battle: Battle, leader: str) -> list[str]:
    """5a: the assault troops (:func:`assault_troops`) within one stand width of ``leader``.

    >>> from allocator.games.crossfire.battle import battle_from_data
    >>> b = battle_from_data({
    ...     "defender": {"units": [{"id": "p", "kind": "platoon"}],
    ...                  "stands": [{"id": "d1", "type": "rifle", "unit": "p"}]},
    ...     "attacker": {"units": [{"id": "q", "kind": "platoon"}], "stands": [
    ...         {"id": "a1", "type": "rifle", "unit": "q"},
    ...         {"id": "a2", "type": "rifle", "unit": "q"},
    ...         {"id": "pc", "type": "pc", "unit": "q", "near": ["a2"]}]},
    ... })
    >>> near_troops(b, "pc")
    ['a2']
    """
    return [s for s in assault_troops(battle) if s != leader and battle.near(leader, s)]


def unplaced_squads(battle: Battle, attack: Mapping[str, Sequence[str]]) -> list[str]:
    """4e: the attacking squads the attack sends nowhere yet (every one must go in; leaders may
    stay out, and 4d keeps crew-served weapons, FOs and snipers out)."""
    sent = {a for ids in attack.values() for a in ids}
    return [s for s in battle.attacker.ids(Role.squad) if s not in sent]


def attack_view(
    battle: Battle, combats: Mapping[str, Sequence[str]], attack: Mapping[str, Sequence[str]]
) -> AttackView:
    names_ = [name for name, ids in combats.items() if ids]
    members = {name: list(attack.get(name, [])) for name in names_}
    squads = {n: [a for a in ids if battle.role(a) == Role.squad] for n, ids in members.items()}
    fewer = len(battle.attacker.ids(Role.squad)) < len(names_)
    acting: dict[str, str] = {}
    if fewer:  # else every combat a squad can reach has one (4a)
        for name, ids in members.items():
            if (head := acting_commander(battle, ids)) is not None:
                acting[name] = head
    return AttackView(names_, members, squads, acting, fewer)


def check(battle: Battle, allocation: Allocation) -> Iterator[Violation]:
    if allocation.combats is None or allocation.attack is None:
        return
    combats, attack = allocation.combats, allocation.attack
    view = attack_view(battle, combats, attack)
    valid = set(view.combats)
    for name, ids in attack.items():
        if name not in valid and ids:
            yield _RULE["4c"].breach(
                f"The attack sends {names(ids)} to '{name}', which is not one of the defender's "
                f"combats ({names(valid)}): send them to one of those.",
                ids,
            )
    yield from _check_membership(battle, attack)
    yield from _check_cover(battle, view)
    yield from _check_leaders(battle, view)


#: 4d: the roles of the attacking stands that never assault (crew-served weapons, FOs, snipers).
_NEVER_ASSAULT = (Role.weapon, Role.noncombatant)


def never_assaulting(battle: Battle) -> list[str]:
    """4d: the attacking stands that take no part in the assault, in the side's order.

    Parameters
    ----------
    battle : Battle
        The fight.

    Returns
    -------
    list[str]
        The ids of the attacking crew-served weapons, FOs and snipers.

    Examples
    --------
    >>> from allocator.games.crossfire.battle import load_battle
    >>> from allocator.core.library import folder
    >>> never_assaulting(load_battle(folder("scenarios") / "rule-4d-fail.yaml"))
    ['jp-bn-gun']
    """
    return [s for s in battle.attacker.ids() if battle.role(s) in _NEVER_ASSAULT]


def _check_membership(battle: Battle, attack: Mapping[str, Sequence[str]]) -> Iterator[Violation]:
    """4d and 4e."""
    seen: dict[str, list[str]] = {}
    for name, ids in attack.items():
        for stand in ids:
            seen.setdefault(stand, []).append(name)
    for stand, places in seen.items():
        if battle.role(stand) in _NEVER_ASSAULT:
            yield _RULE["4d"].breach(
                f"{stand} ({battle.stand(stand).type}) cannot assault: only squads and leaders "
                "take part; leave it out.",
                [stand],
            )
        if len(places) > 1:
            yield _RULE["4e"].breach(
                f"{stand} is sent to {len(places)} combats ({names(places)}): pick one.", [stand]
            )
    missing = unplaced_squads(battle, attack)
    if missing:
        yield _RULE["4e"].breach(
            f"{'Attacking squad' if len(missing) == 1 else 'Attacking squads'} {names(missing)} "
            f"{'is' if len(missing) == 1 else 'are'} not allocated: every attacking squad goes "
            "to a combat.",
            missing,
        )
    if not any(battle.role(s) in (Role.squad, Role.leader) for s in seen):
        yield _RULE["4e"].breach("Nobody assaults: send at least one squad, CC or BC.", [])


def _check_cover(battle: Battle, view: AttackView) -> Iterator[Violation]:
    """4a and 4b."""
    n_squads = len(battle.attacker.ids(Role.squad))
    covered = [n for n in view.combats if view.squads[n]]
    unopposed = [n for n in view.combats if not view.squads[n]]
    doubled = [n for n in view.combats if len(view.squads[n]) > 1]
    # Without a doubled combat the shortfall is squads left out or misdirected: 4e or 4c says so.
    if doubled and len(covered) < min(n_squads, len(view.combats)):
        yield _RULE["4a"].breach(
            f"{combats_text(unopposed)} {'get' if len(unopposed) > 1 else 'gets'} no squad while "
            f"{combats_text(doubled)} {'get' if len(doubled) > 1 else 'gets'} more than one: "
            "cover every combat first, then pile on.",
            [a for n in doubled for a in view.squads[n]],
        )
    if not view.fewer_squads:
        return
    commanders = {n: [a for a in view.members[n] if battle.is_commander(a)] for n in view.combats}
    joined = sum(len(c) for c in commanders.values())
    covered_with = [n for n in view.combats if view.squads[n] or commanders[n]]
    idle = [a for n in view.combats for a in commanders[n] if view.acting.get(n) != a]
    if idle and len(covered_with) < min(len(view.combats), n_squads + joined):
        still_open = [n for n in view.combats if n not in covered_with]
        yield _RULE["4b"].breach(
            f"With fewer squads than combats a joining CC/BC fights as a squad: send "
            f"{names(idle)} against the unopposed combat{'s' if len(still_open) > 1 else ''} "
            f"{names(still_open)}.",
            idle,
        )


def _check_leaders(battle: Battle, view: AttackView) -> Iterator[Violation]:
    """5a, 5b and 5c."""
    for name in view.combats:
        leaders = [
            a
            for a in view.members[name]
            if battle.role(a) == Role.leader and view.acting.get(name) != a
        ]
        fighters = view.squads[name] + ([view.acting[name]] if name in view.acting else [])
        for leader in leaders:
            if not any(battle.near(leader, f) for f in fighters):
                where = f"any of {names(fighters)}" if fighters else "a squad (there is none)"
                yield _RULE["5a"].breach(
                    f"{leader} joins combat {name} but is not within one stand width of {where}: "
                    "leave him out or send him where he is near a squad.",
                    [leader],
                )
            if battle.platoon_leader(leader) and not any(
                battle.commands(leader, s) for s in view.squads[name]
            ):
                yield _RULE["5b"].breach(
                    f"{leader} joins combat {name}, which holds none of his own troops: a PC "
                    "joins only a combat with a squad of his platoon.",
                    [leader],
                )
        if len(leaders) > 1 and not fighters:
            yield _RULE["5c"].breach(
                f"Leaders {names(leaders)} join combat {name} with no attacking squad to lead: a "
                "second leader joins only a combat that has troops.",
                leaders,
            )


# --- the legal attacks, class by class ---------------------------------------------------------


def class_attacks(
    classes: Sequence[StandClass],
    near: Sequence[Sequence[bool]],
    commands: Sequence[Sequence[bool]],
    counts: Counts,
    combats: int,
    tick: Callable[[], None] = lambda: None,
) -> Iterator[tuple[Counts, ...]]:
    """Every legal attack on ``combats`` combats, as each combat's attacking counts per class.

    The same rules as :func:`check`, for interchangeable stands counted by class (``near`` and
    ``commands`` relate attacker classes as :class:`~allocator.games.crossfire.battle.Battle`
    relates stands): squads cover every combat before any gets a second (4a) and all go in
    (4e); with fewer squads than combats a joining CC/BC takes an otherwise unopposed combat
    (4b), where one of them fights as the squad and the others stand near him (5a); every other
    leader joins beside a squad he is near (5a), a PC beside one of his own (5b). A property
    test holds this to :func:`check` on every attack of small battles. ``tick`` is called at
    every placement tried (a budget's :meth:`~allocator.core.budget.Budget.ticker`).
    """
    squads = [c for c in classes if c.role == Role.squad and counts[c.index]]
    leaders = [c for c in classes if c.role == Role.leader and counts[c.index]]
    n_squads = sum(counts[c.index] for c in squads)
    fewer = n_squads < combats
    width = len(classes)
    for placement in _spread(squads, counts, combats):
        tick()
        present = [[c.index for c in squads if placement[c.index][k]] for k in range(combats)]
        if sum(1 for k in range(combats) if present[k]) < min(n_squads, combats):
            continue  # 4a
        if not fewer:
            options = {
                leader.index: [
                    k for k in range(combats) if _may_lead(leader, present[k], near, commands)
                ]
                for leader in leaders
            }
            for joined in _leaders_placed(leaders, counts, options, combats):
                tick()
                yield _combats_of(placement, joined, combats, width)
            continue
        yield from _with_fewer_squads(
            classes, leaders, near, commands, counts, combats, placement, present
        )


def squad_spreads(
    squads: Sequence[StandClass],
    counts: Counts,
    combats: int,
    tick: Callable[[], None] = lambda: None,
) -> Any:
    """Every legal way to send the squads (4a, 4e): a numpy array (ways, squad classes, combats).

    The same rule as the ``4a`` part of :func:`class_attacks`, built class by class (in the
    order of :func:`class_attacks`) so that a way that can no longer cover every combat it must
    is not pursued; ``tick`` is called at every class, twice.
    """
    import numpy as np

    sizes = [counts[c.index] for c in squads]
    spread_thin = sum(sizes) < combats  # then every combat gets at most one squad
    load = np.zeros((1, combats), dtype=np.int16)  # the squads each combat has so far
    splits: list[Any] = []  # each class's ways to split ...
    taken: list[Any] = []  # ... and the one each spread so far takes
    for index, size in enumerate(sizes):
        tick()
        ways = _splits(size, combats, spread_thin)
        rows, picks = np.divmod(np.arange(len(load) * len(ways)), len(ways))
        after = load[rows] + ways[picks]
        if spread_thin:
            keep = (after <= 1).all(axis=1)
        else:  # the combats still uncovered must be fewer than the squads still to send
            keep = (after == 0).sum(axis=1) <= sum(sizes[index + 1 :])
        taken = [way[rows[keep]] for way in taken] + [picks[keep]]
        splits.append(ways)
        load = after[keep]
    spread = np.empty((len(load), len(squads), combats), dtype=np.int16)
    for index, (ways, way) in enumerate(zip(splits, taken, strict=True)):
        tick()
        spread[:, index, :] = ways[way]
    return spread


@cache
def _splits(size: int, combats: int, one_each: bool) -> Any:
    """Every way to split ``size`` squads of one class over the combats, most first (with
    ``one_each``, at most one a combat): a numpy array (ways, combats), kept (read only)."""
    import numpy as np

    ways = np.array(list(compositions(size, combats)), dtype=np.int16).reshape(-1, combats)
    if one_each:
        ways = ways[(ways <= 1).all(axis=1)]
    ways.flags.writeable = False
    return ways


def leader_places(
    leader: StandClass,
    squads: Sequence[StandClass],
    spread: Any,
    near: Sequence[Sequence[bool]],
    commands: Sequence[Sequence[bool]],
) -> Any:
    """Where a leader may join beside the squads of each spread (5a, 5b): (ways, combats).

    The same rule as :func:`_may_lead`, for many spreads at once.
    """
    import numpy as np

    present = spread > 0
    near_to = np.array([near[leader.index][c.index] for c in squads], dtype=bool)
    allowed = (present & near_to[None, :, None]).any(axis=1)
    if leader.platoon_leader:
        own = np.array([commands[leader.index][c.index] for c in squads], dtype=bool)
        allowed &= (present & own[None, :, None]).any(axis=1)
    return allowed


def _may_lead(
    leader: StandClass,
    squads_there: Sequence[int],
    near: Sequence[Sequence[bool]],
    commands: Sequence[Sequence[bool]],
) -> bool:
    """5a and 5b for a leader joining a combat with these squad classes."""
    if not any(near[leader.index][c] for c in squads_there):
        return False
    return not leader.platoon_leader or any(commands[leader.index][c] for c in squads_there)


def _spread(
    squads: Sequence[StandClass], counts: Counts, combats: int
) -> Iterator[dict[int, Counts]]:
    """Every way to send all squads (4e), each class as counts per combat."""
    per_class = [list(compositions(counts[c.index], combats)) for c in squads]
    for choice in product(*per_class):
        yield {c.index: split for c, split in zip(squads, choice, strict=True)}


def _leaders_placed(
    leaders: Sequence[StandClass],
    counts: Counts,
    options: dict[int, list[int]],
    combats: int,
) -> Iterator[dict[int, Counts]]:
    """Every way to place the leaders: each stays out or joins one of his allowed combats."""
    per_class = []
    for leader in leaders:
        allowed = options[leader.index]
        ways = []
        for split in compositions(counts[leader.index], len(allowed) + 1):
            joined = [0] * combats
            for k, n in zip(allowed, split[1:], strict=True):
                joined[k] = n
            ways.append(tuple(joined))
        per_class.append(ways)
    for choice in product(*per_class):
        yield {c.index: split for c, split in zip(leaders, choice, strict=True)}


def _combats_of(
    squads: dict[int, Counts], leaders: dict[int, Counts], combats: int, width: int
) -> tuple[Counts, ...]:
    result = [[0] * width for _ in range(combats)]
    for placed in (squads, leaders):
        for c, split in placed.items():
            for k, n in enumerate(split):
                result[k][c] = n
    return tuple(tuple(row) for row in result)


def _with_fewer_squads(
    classes: Sequence[StandClass],
    leaders: Sequence[StandClass],
    near: Sequence[Sequence[bool]],
    commands: Sequence[Sequence[bool]],
    counts: Counts,
    combats: int,
    placement: dict[int, Counts],
    present: list[list[int]],
) -> Iterator[tuple[Counts, ...]]:
    """The attacks of 4b: squads one to a combat, CCs/BCs may take the combats without one."""
    open_combats = [k for k in range(combats) if not present[k]]
    options = {
        leader.index: [
            k
            for k in range(combats)
            if (
                _may_lead(leader, present[k], near, commands)
                if present[k]
                else not leader.platoon_leader
            )
        ]
        for leader in leaders
    }
    commanders = {c.index for c in classes if c.commander}
    for joined in _leaders_placed(leaders, counts, options, combats):
        ok = True
        idle = False
        held = 0
        for k in range(combats):
            there = [c for c in joined if joined[c][k]]
            if present[k]:
                idle = idle or any(c in commanders for c in there)
                continue
            if not there:
                continue
            acting = [
                c
                for c in there
                if c in commanders
                and all(
                    near[other][c]
                    for other in there
                    for _ in range(joined[other][k] - (other == c))
                )
            ]
            if not acting:
                ok = False  # 5a: nobody there to fight as the squad, or someone not near him
                break
            held += 1
            idle = idle or sum(joined[c][k] for c in there if c in commanders) > 1
        if not ok:
            continue
        if idle and held < len(open_combats):
            continue  # 4b: an idle CC/BC while a combat he could take stays unopposed
        attack = _combats_of(placement, joined, combats, len(classes))
        if any(any(row) for row in attack):  # 4e: somebody assaults
            yield attack


# --- the CP-SAT constraints -----------------------------------------------------------------


@dataclass(frozen=True, eq=False)
class AttackVariables:
    """The attacker's answer in CP-SAT (steps 4-5): who assaults each combat slot, who covers it.

    Attributes
    ----------
    y : mapping of (str, int) to BoolVar
        Attacking stand ``a`` assaults slot ``c``: ``y[a, c]`` (every attacking stand has them;
        4d keeps those of weapons, FOs and snipers at 0).
    covered : mapping of int to BoolVar
        An attacking squad assaults the slot.
    opposed : mapping of int to BoolVar
        Some attacking squad or leader assaults the slot: it is a fight, not unopposed.
    fewer : BoolVar
        The attacker has fewer squads than the defender has combats (4b).
    acting : mapping of (str, int) to BoolVar
        Attacking CC or BC ``k`` fights as the squad of slot ``c``, which no squad covers (4b):
        ``acting[k, c]``, at most one per slot.
    """

    y: Mapping[tuple[str, int], BoolVar]
    covered: Mapping[int, BoolVar]
    opposed: Mapping[int, BoolVar]
    fewer: BoolVar
    acting: Mapping[tuple[str, int], BoolVar]


def variables(model: SharedModel, grouping: GroupingVariables) -> AttackVariables:
    """``y[a, c]``: attacking stand ``a`` assaults combat slot ``c``; who covers each slot."""
    b, m = model.battle, model.model
    y = {(a, c): model.new_bool(f"y[{a},{c}]") for a in model.all_attackers for c in model.slots}
    squads = [a for a in model.attackers if b.role(a) == Role.squad]
    covered = {c: model.reify_or([y[a, c] for a in squads], f"cov{c}") for c in model.slots}
    opposed = {
        c: model.reify_or([y[a, c] for a in model.attackers], f"opp{c}") for c in model.slots
    }
    fewer = model.reify_at_least(sum(grouping.used.values()), len(squads) + 1, "fewer")
    commanders = [a for a in model.attackers if b.is_commander(a)]
    acting: dict[tuple[str, int], BoolVar] = {}
    for c in model.slots:
        model.tick()
        for k in commanders:  # who fights as the squad of a combat without squads (4b)
            act = acting[k, c] = model.new_bool(f"act[{k},{c}]")
            m.add_implication(act, y[k, c])
            m.add_implication(act, covered[c].negated())
            m.add_implication(act, fewer)
        m.add(sum(acting[k, c] for k in commanders) <= 1)
    return AttackVariables(y=y, covered=covered, opposed=opposed, fewer=fewer, acting=acting)


def constrain(model: SharedModel, grouping: GroupingVariables, attack: AttackVariables) -> None:
    """4a-4e and 5a-5c on the attack's variables, against the grouping's combats."""
    m, b, y = model.model, model.battle, attack.y
    squads = [a for a in model.attackers if b.role(a) == Role.squad]
    leaders = [a for a in model.attackers if b.role(a) == Role.leader]
    commanders = [a for a in leaders if b.is_commander(a)]
    for a in model.all_attackers:
        if a not in model.attackers:  # 4d: weapons, FOs and snipers do not assault
            for c in model.slots:
                m.add(y[a, c] == 0)
            continue
        for c in model.slots:  # 4c: only against the defender's combats
            m.add_implication(y[a, c], grouping.used[c])
        if a in squads:  # 4e
            m.add_exactly_one(y[a, c] for c in model.slots)
        else:
            m.add_at_most_one(y[a, c] for c in model.slots)
    m.add_bool_or([y[a, c] for a in model.attackers for c in model.slots])  # 4e: somebody
    n_combats = sum(grouping.used.values())
    cover_goal = m.new_int_var(0, len(model.slots), "cover_goal")
    m.add_min_equality(cover_goal, [len(squads), n_combats])
    m.add(sum(attack.covered.values()) >= cover_goal)  # 4a
    covered_with = []
    for c in model.slots:
        has_commander = model.reify_or([y[k, c] for k in commanders], f"attK{c}")
        m.add(sum(attack.acting[k, c] for k in commanders) == 1).only_enforce_if(
            [attack.fewer, attack.covered[c].negated(), has_commander]
        )
        covered_with.append(model.reify_or([attack.covered[c], has_commander], f"cov2{c}"))
    goal_4b = m.new_int_var(0, len(model.slots), "goal_4b")
    joined = sum(y[k, c] for k in commanders for c in model.slots)
    m.add_min_equality(goal_4b, [n_combats, len(squads) + joined])
    m.add(sum(covered_with) >= goal_4b).only_enforce_if(attack.fewer)  # 4b
    _leaders_join(model, attack, squads, leaders, commanders)


def _leaders_join(
    model: SharedModel,
    attack: AttackVariables,
    squads: list[str],
    leaders: list[str],
    commanders: list[str],
) -> None:
    """5a, 5b and 5c."""
    m, b, y, acting = model.model, model.battle, attack.y, attack.acting
    for leader in leaders:
        model.tick()
        near_squads = [s for s in squads if b.near(leader, s)]
        near_commanders = [k for k in commanders if k != leader and b.near(leader, k)]
        own = [s for s in squads if b.commands(leader, s)]
        for c in model.slots:
            as_leader: list[BoolLiteral] = [y[leader, c]]
            if (leader, c) in acting:
                as_leader.append(acting[leader, c].negated())
            m.add_bool_or(
                [y[s, c] for s in near_squads] + [acting[k, c] for k in near_commanders]
            ).only_enforce_if(as_leader)  # 5a
            if b.platoon_leader(leader):  # 5b
                m.add_bool_or([y[s, c] for s in own]).only_enforce_if(y[leader, c])
    for c in model.slots:  # 5c: a second leader only where there are troops to lead
        extra = [
            model.reify_and([y[k, c], acting[k, c].negated()], f"lead[{k},{c}]")
            if (k, c) in acting
            else y[k, c]
            for k in leaders
        ]
        fighters = [attack.covered[c], *(acting[k, c] for k in commanders)]
        m.add_bool_or(fighters).only_enforce_if(model.reify_at_least(sum(extra), 2, f"two{c}"))


# --- the teaching prose ---------------------------------------------------------------------


def requirements(battle: Battle, step: int) -> list[str]:
    a = battle.attacker
    if step == 4:
        attack_squads = a.ids(Role.squad)
        attack_commanders = [s for s in a.ids(Role.leader) if battle.is_commander(s)]
        lines = [
            f"The attacker has {plural(len(attack_squads), 'squad')} "
            f"({listing(attack_squads)}). They must cover every defending combat before any "
            "combat gets a second (4a); the rest go anywhere (4c). Every squad goes in (4e)."
        ]
        if attack_commanders:
            lines.append(
                f"If there are fewer squads than combats, {listing(attack_commanders)} "
                "joining the assault must take an otherwise unopposed combat (4b)."
            )
        if a.ids(Role.weapon) or a.ids(Role.noncombatant):
            out = a.ids(Role.weapon) + a.ids(Role.noncombatant)
            lines.append(
                f"{listing(out)} stay out: crew-served weapons, FOs and snipers do not "
                "assault (4d)."
            )
        return lines
    lines = []
    for leader in a.ids(Role.leader):
        near = near_troops(battle, leader)
        squads = [s for s in near if battle.role(s) == Role.squad]
        if battle.platoon_leader(leader):  # 5b keeps him beside a squad of his own
            own = [s for s in squads if battle.commands(leader, s)]
            text = (
                f"{leader} may join a combat only beside a squad within one stand width: "
                f"{listing(squads)} (5a); as a PC, only with his own troops: {listing(own)} (5b)"
            )
        elif len(near) > len(squads):
            text = (
                f"{leader} may join a combat only beside a squad, or a CC or BC taking it as a "
                f"squad (4b), within one stand width: {listing(near)} (5a)"
            )
        else:
            text = (
                f"{leader} may join a combat only beside a squad within one stand width: "
                f"{listing(near)} (5a)"
            )
        lines.append(text + ".")
    commanders = [s for s in a.ids(Role.leader) if battle.is_commander(s)]
    if len(commanders) > 1:
        lines.append(
            f"Of {listing(commanders)}, one who takes a combat without squads as a squad (4b) "
            "fights as one; any other who joins him there is a leader only, his rating and not "
            "a second squad (5c)."
        )
    return lines or ["The attacker has no leaders."]
