"""Steps 1-3, the defender's combats: 1a-1c, 2a-2b, 3a-3d.

Who heads a combat is not written in a scenario file; it follows from the stands: a squad heads
a combat that has one; otherwise a CC or BC there may head it (1b), or a weapon fighting alone
heads it and a CC or BC who formed no combat of his own joins it at step 3 (3b: a BC may join a
company HMG that fights on its own). A combat is legal when *some* legal path through steps 1-3
gives it, so the checker tries every possible head and reports the breaches of the one that
breaks fewest.

>>> from allocator.games.crossfire.battle import battle_from_data
>>> b = battle_from_data({
...     "defender": {"units": [{"id": "p", "kind": "platoon"}], "stands": [
...         {"id": "d1", "type": "rifle", "unit": "p"},
...         {"id": "d2", "type": "rifle", "unit": "p"}]},
...     "attacker": {"units": [{"id": "q", "kind": "platoon"}],
...                  "stands": [{"id": "a1", "type": "rifle", "unit": "q"}]},
... })
>>> [v.rule for v in check(b, Allocation(combats={"A": ["d1", "d2"]}))]
['1a']
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING

from allocator.core.budget import Budget
from allocator.core.text import listing
from allocator.core.violations import Violation
from allocator.games.crossfire.battle import Battle, Role
from allocator.games.crossfire.rules.base import (
    Rule,
    TooManyLines,
    book,
    by_role,
    combat_names,
    names,
    troops_in_building,
)
from allocator.games.crossfire.schema import Allocation

if TYPE_CHECKING:
    from allocator.core.cpsat import BoolLiteral, BoolVar
    from allocator.games.crossfire.rules.base import SharedModel

STEPS = {
    1: "Step 1 - the defender splits into the smallest groups",
    2: "Step 2 - crew-served weapons pair up",
    3: "Step 3 - the rest of the defender joins",
}
RULES = (
    Rule("1a", 1, "Every squad is its own combat: two squads never share a combat at step 1."),
    Rule(
        "1b",
        1,
        "A CC or BC may form a combat of his own; with no squad present every CC and BC must.",
    ),
    Rule("1c", 1, "Every defending stand in the building is in exactly one combat."),
    Rule(
        "2a",
        2,
        "A crew-served weapon joins one combat headed by a squad (or a CC/BC who "
        "formed a combat) of its own organisational unit, or fights alone.",
    ),
    Rule("2b", 2, "At most one crew-served weapon joins any one squad (or CC/BC)."),
    Rule(
        "3a",
        3,
        "Remaining PCs, CCs, BCs, FOs and snipers join the combats formed so far; "
        "an FO or sniper forms no combat of his own while there is one to join.",
    ),
    Rule(
        "3b",
        3,
        "A leader only joins a combat holding at least one squad or crew-served "
        "weapon subordinate to him.",
    ),
    Rule(
        "3c",
        3,
        "A leader with no subordinate squad or weapon in the building fights alone, "
        "as a combat of his own (a PC alone is lost without a roll).",
    ),
    Rule(
        "3d",
        3,
        "Several leaders may share a combat, but only one that holds troops: "
        "leaders without troops each fight alone.",
    ),
)
_RULE = book(RULES)


# --- the plain checks -----------------------------------------------------------------------


def check(battle: Battle, allocation: Allocation) -> Iterator[Violation]:
    combats = allocation.combats
    if combats is None:
        return
    yield from check_membership(battle, combats)
    for name, ids in combats.items():
        if ids:
            yield from check_combat(battle, name, ids)


def check_membership(battle: Battle, combats: Mapping[str, Sequence[str]]) -> Iterator[Violation]:
    """1c: every defending stand in exactly one combat, and no empty combat."""
    seen: dict[str, list[str]] = {}
    for name, ids in combats.items():
        if not ids:
            yield _RULE["1c"].breach(f"Combat {name} holds no stands: drop it.", [])
        for stand in ids:
            seen.setdefault(stand, []).append(name)
    for stand in battle.defender.ids():
        places = seen.get(stand, [])
        if not places:
            yield _RULE["1c"].breach(
                f"{stand} is in the building but in no combat: put it in one.", [stand]
            )
        elif len(places) > 1:
            yield _RULE["1c"].breach(
                f"{stand} is in {len(places)} combats ({names(places)}): keep it in one.", [stand]
            )


def unplaced_defenders(battle: Battle, combats: Mapping[str, Sequence[str]]) -> list[str]:
    """1c: the defending stands in no combat yet (every one must be in one)."""
    placed = {s for ids in combats.values() for s in ids}
    return [s for s in battle.defender.ids() if s not in placed]


def head_candidates(battle: Battle, ids: Sequence[str]) -> list[str | None]:
    """Who may head a combat of these stands: a squad; else a CC/BC or a weapon."""
    roles = by_role(battle, ids)
    commanders = [s for s in roles[Role.leader] if battle.is_commander(s)]
    if roles[Role.squad]:
        return list(roles[Role.squad])
    return [*commanders, *roles[Role.weapon]] or [None]


def check_combat(battle: Battle, name: str, ids: Sequence[str]) -> Iterator[Violation]:
    """1a, 2b and, for the head that makes the combat most nearly legal, 1b, 2a, 3a-3d."""
    roles = by_role(battle, ids)
    if len(roles[Role.squad]) > 1:
        yield _RULE["1a"].breach(
            f"Squads {names(roles[Role.squad])} share combat {name}: every squad is a combat of "
            "its own at step 1.",
            roles[Role.squad],
        )
    if len(roles[Role.weapon]) > 1:
        yield _RULE["2b"].breach(
            f"Crew-served weapons {names(roles[Role.weapon])} share combat {name}: at most one "
            "weapon joins a squad (or CC/BC); the other fights alone or joins another squad.",
            roles[Role.weapon],
        )
    no_squads = not battle.defender.ids(Role.squad)
    options = [
        _headed_violations(battle, name, ids, head, no_squads)
        for head in head_candidates(battle, ids)
    ]
    yield from min(options, key=len)


def _headed_violations(
    battle: Battle, name: str, ids: Sequence[str], head: str | None, no_squads: bool
) -> list[Violation]:
    """The rules of steps 1-3 that depend on who heads the combat."""
    roles = by_role(battle, ids)
    squads, weapons = roles[Role.squad], roles[Role.weapon]
    leaders = roles[Role.leader]
    commanders = [s for s in leaders if battle.is_commander(s)]
    found: list[Violation] = []
    for weapon in weapons:
        if weapon == head:
            continue
        if head is None or battle.role(head) == Role.weapon:
            found.append(
                _RULE["2a"].breach(
                    f"{weapon} joins combat {name}, which no squad, CC or BC heads: a crew-served "
                    "weapon fights alone or joins a squad (or a CC/BC) of its own unit.",
                    [weapon],
                )
            )
        elif not battle.same_organisation(weapon, head):
            found.append(
                _RULE["2a"].breach(
                    f"{weapon} pairs with {head} in combat {name}, but {head} is not from its "
                    "organisational unit: pair it with a squad of its own company (battalion "
                    "weapons: of the battalion) or let it fight alone.",
                    [weapon, head],
                )
            )
    joining = [k for k in commanders if k != head]
    if no_squads and joining:
        found.append(
            _RULE["1b"].breach(
                f"No defending squad is in the building, so every CC and BC forms a combat of his "
                f"own, but {names(joining)} {'join' if len(joining) > 1 else 'joins'} combat "
                f"{name}, which {head or 'nobody'} heads: give each his own combat.",
                joining,
            )
        )
    troops = squads + weapons
    for leader in leaders:
        if leader == head:
            continue
        own_in_building = troops_in_building(battle, leader)
        if own_in_building:
            if not any(battle.commands(leader, s) for s in troops):
                found.append(
                    _RULE["3b"].breach(
                        f"{leader} is in combat {name}, which holds none of his troops: "
                        f"move him to a combat with one of {names(own_in_building)}.",
                        [leader],
                    )
                )
        elif troops or (head is not None and head in commanders):
            found.append(
                _RULE["3c"].breach(
                    f"{leader} has no squad or crew-served weapon of his own in the building, "
                    f"so he fights alone, not in combat {name}: give him a combat of his own.",
                    [leader, *troops],
                )
            )
    if not troops and len(leaders) > 1:
        found.append(
            _RULE["3d"].breach(
                f"Leaders {names(leaders)} share combat {name}, which holds no troops: leaders "
                "share only a combat with squads or weapons; without them each fights alone.",
                leaders,
            )
        )
    if not troops and not leaders and roles[Role.noncombatant] and _anyone_to_join(battle):
        found.append(
            _RULE["3a"].breach(
                f"{names(roles[Role.noncombatant])} "
                f"{'forms' if len(roles[Role.noncombatant]) == 1 else 'form'} combat {name} "
                "without a squad, weapon or leader: FOs and snipers join a combat that is "
                "already formed.",
                roles[Role.noncombatant],
            )
        )
    return found


def legal_groupings(
    battle: Battle, most: int | None = None, budget: Budget | None = None
) -> Iterator[list[list[str]]]:
    """Every legal grouping of the defender's stands (steps 1-3), each set partition once.

    Candidates are built stand by stand (squads, weapons, CCs and BCs, other leaders, FOs and
    snipers), each joining a combat already formed or opening one, skipping only what 1a, 3a,
    3b, 3c and 2b forbid outright; :func:`check_grouping` decides the rest. With ``most``,
    :class:`~allocator.games.crossfire.rules.base.TooManyLines` is raised once that many
    candidates have been tried, and a budget is kept (checked every few hundred candidates).
    """
    d = battle.defender
    order = (
        d.ids(Role.squad)
        + d.ids(Role.weapon)
        + [s for s in d.ids(Role.leader) if battle.is_commander(s)]
        + [s for s in d.ids(Role.leader) if not battle.is_commander(s)]
        + d.ids(Role.noncombatant)
    )
    anyone = _anyone_to_join(battle)
    troops = {s: set(troops_in_building(battle, s)) for s in d.ids(Role.leader)}

    def places(stand: str, blocks: list[list[str]]) -> Iterator[int]:
        role = battle.role(stand)
        if role == Role.squad:  # 1a
            yield len(blocks)
            return
        for i, block in enumerate(blocks):
            if role == Role.weapon and any(battle.role(s) == Role.weapon for s in block):
                continue  # 2b
            leader_without_troops_here = (
                role == Role.leader
                and not battle.is_commander(stand)
                and not troops[stand] & set(block)
            )
            if leader_without_troops_here:
                continue  # 3b, 3c
            yield i
        alone_allowed = {
            Role.noncombatant: not anyone,  # 3a
            Role.leader: battle.is_commander(stand) or not troops.get(stand),  # 1b, 3c
        }
        if alone_allowed.get(role, True):
            yield len(blocks)

    def extend(index: int, blocks: list[list[str]]) -> Iterator[list[list[str]]]:
        if index == len(order):
            yield [list(block) for block in blocks]
            return
        stand = order[index]
        for place in places(stand, blocks):
            if place == len(blocks):
                blocks.append([stand])
                yield from extend(index + 1, blocks)
                blocks.pop()
            else:
                blocks[place].append(stand)
                yield from extend(index + 1, blocks)
                blocks[place].pop()

    for tried, blocks in enumerate(extend(0, []), start=1):
        if most is not None and tried > most:
            raise TooManyLines(f"more than {most} groupings to try")
        if budget is not None and tried % 256 == 0:
            budget.check("the defender's groupings")
        if not any(True for _ in check_grouping(battle, blocks)):
            yield blocks


def check_grouping(battle: Battle, blocks: Sequence[Sequence[str]]) -> Iterator[Violation]:
    """The breaches of steps 1-3 by a grouping given as a list of combats (names A, B, ...)."""
    for name, ids in zip(combat_names(len(blocks)), blocks, strict=True):
        yield from check_combat(battle, name, ids)


def _anyone_to_join(battle: Battle) -> bool:
    """Whether the defender has a squad, weapon or leader whose combat an FO could join (3a)."""
    return any(battle.role(s) != Role.noncombatant for s in battle.defender.ids())


# --- the CP-SAT constraints -----------------------------------------------------------------


@dataclass(frozen=True, eq=False)
class GroupingVariables:
    """The defender's combats in CP-SAT (steps 1-3): who is in each combat slot, who heads it.

    Each map is keyed by ``(stand, slot)`` or by slot; ``head`` only has the defender's CCs and
    BCs.

    Attributes
    ----------
    x : mapping of (str, int) to BoolVar
        Defending stand ``s`` is in slot ``c``: ``x[s, c]``.
    used : mapping of int to BoolVar
        The slot holds a stand: it is one of the defender's combats.
    has_squad, has_weapon, has_commander : mapping of int to BoolVar
        The slot holds a squad; a crew-served weapon; a CC or BC.
    commander_head : mapping of int to BoolVar
        A CC or BC heads the slot, which holds no squad (1b); beside a weapon he may instead
        join it (3b).
    head : mapping of (str, int) to BoolVar
        CC or BC ``k`` is the one who heads slot ``c``: ``head[k, c]``.
    """

    x: Mapping[tuple[str, int], BoolVar]
    used: Mapping[int, BoolVar]
    has_squad: Mapping[int, BoolVar]
    has_weapon: Mapping[int, BoolVar]
    has_commander: Mapping[int, BoolVar]
    commander_head: Mapping[int, BoolVar]
    head: Mapping[tuple[str, int], BoolVar]


def variables(model: SharedModel) -> GroupingVariables:
    """``x[s, c]``: defending stand ``s`` is in combat slot ``c``; who each slot holds."""
    slots, defenders, m = model.slots, model.defenders, model.model
    x = {(s, c): model.new_bool(f"x[{s},{c}]") for s in defenders for c in slots}
    used = {c: model.reify_or([x[s, c] for s in defenders], f"used{c}") for c in slots}
    squads, weapons = model.of_role[Role.squad], model.of_role[Role.weapon]
    has_squad = {c: model.reify_or([x[s, c] for s in squads], f"hasS{c}") for c in slots}
    has_weapon = {c: model.reify_or([x[w, c] for w in weapons], f"hasW{c}") for c in slots}
    has_commander: dict[int, BoolVar] = {}
    commander_head: dict[int, BoolVar] = {}
    head: dict[tuple[str, int], BoolVar] = {}
    for c in slots:  # who heads a combat without squads: a CC/BC, or its lone weapon
        model.tick()
        has_commander[c] = model.reify_or([x[k, c] for k in model.commanders], f"hasK{c}")
        headed = commander_head[c] = model.new_bool(f"hK{c}")
        m.add_implication(headed, has_commander[c])
        m.add_implication(headed, has_squad[c].negated())
        m.add_bool_or([headed, has_commander[c].negated(), has_squad[c], has_weapon[c]])
        for k in model.commanders:
            head[k, c] = model.new_bool(f"head[{k},{c}]")
            m.add_implication(head[k, c], x[k, c])
        m.add(sum(head[k, c] for k in model.commanders) == headed)
    return GroupingVariables(
        x=x,
        used=used,
        has_squad=has_squad,
        has_weapon=has_weapon,
        has_commander=has_commander,
        commander_head=commander_head,
        head=head,
    )


def constrain(model: SharedModel, grouping: GroupingVariables) -> None:
    """1a-1c, 2a, 2b and 3a-3d on the grouping's variables."""
    m, x = model.model, grouping.x
    for s in model.defenders:  # 1c
        m.add_exactly_one(x[s, c] for c in model.slots)
    squads, weapons = model.of_role[Role.squad], model.of_role[Role.weapon]
    for c in model.slots:
        m.add(sum(x[s, c] for s in squads) <= 1)  # 1a
        m.add(sum(x[w, c] for w in weapons) <= 1)  # 2b
        if not squads:  # 1b: with no squad present every CC and BC forms his own combat
            m.add(sum(x[k, c] for k in model.commanders) <= 1)
            m.add(grouping.commander_head[c] == grouping.has_commander[c])
    _weapons_join(model, grouping)
    _leaders_join(model, grouping)


def _weapons_join(model: SharedModel, grouping: GroupingVariables) -> None:
    """2a: a weapon joins a squad, or a CC/BC head, of its organisational unit."""
    m, b, x = model.model, model.battle, grouping.x
    for w in model.of_role[Role.weapon]:
        model.tick()
        own_squads = [s for s in model.of_role[Role.squad] if b.same_organisation(w, s)]
        own_commanders = [k for k in model.commanders if b.same_organisation(w, k)]
        for c in model.slots:
            m.add(sum(x[s, c] for s in own_squads) >= 1).only_enforce_if(
                [x[w, c], grouping.has_squad[c]]
            )
            m.add(sum(grouping.head[k, c] for k in own_commanders) >= 1).only_enforce_if(
                [x[w, c], grouping.commander_head[c]]
            )


def _leaders_join(model: SharedModel, grouping: GroupingVariables) -> None:
    """3a-3d."""
    m, b, x = model.model, model.battle, grouping.x
    leaders = model.of_role[Role.leader]
    to_join = len(model.of_role[Role.noncombatant]) < len(model.defenders)
    for c in model.slots:
        model.tick()
        troops = [grouping.has_squad[c], grouping.has_weapon[c]]
        n_leaders = sum(x[ld, c] for ld in leaders)
        m.add(n_leaders <= 1).only_enforce_if([t.negated() for t in troops])  # 3d
        for n in model.of_role[Role.noncombatant] if to_join else []:  # 3a
            m.add_bool_or([*troops, *(x[ld, c] for ld in leaders)]).only_enforce_if(x[n, c])
        for leader in leaders:
            joined: list[BoolLiteral] = [x[leader, c]]
            if (leader, c) in grouping.head:
                joined.append(grouping.head[leader, c].negated())
            own = troops_in_building(b, leader)
            if own:  # 3b
                m.add_bool_or([x[u, c] for u in own]).only_enforce_if(joined)
            else:  # 3c
                alone = [flag.negated() for flag in (*troops, grouping.commander_head[c])]
                m.add_bool_and(alone).only_enforce_if(joined)


# --- the teaching prose ---------------------------------------------------------------------


def requirements(battle: Battle, step: int) -> list[str]:
    d = battle.defender
    squads, weapons = d.ids(Role.squad), d.ids(Role.weapon)
    commanders = [s for s in d.ids(Role.leader) if battle.is_commander(s)]
    if step == 1:
        lines = [
            f"Every squad is a combat of its own (1a): {listing(squads)}."
            if squads
            else "The defender has no squad in the building."
        ]
        if commanders and not squads:
            who = "each CC and BC" if len(commanders) > 1 else commanders[0]
            lines.append(f"So {who} must form a combat of his own (1b).")
        elif commanders:
            lines.append(
                f"{listing(commanders)} may form a combat of his own (1b), though the "
                "attacker may then gang up on him."
            )
        return lines
    if step == 2:
        lines = []
        for w in weapons:
            partners = [s for s in squads + commanders if battle.same_organisation(w, s)]
            lines.append(
                f"{w} may pair with one of {listing(partners)} (its own organisational unit, 2a) "
                "or fight alone; no squad takes two weapons (2b)."
                if partners
                else f"{w} has no squad of its organisational unit here, so it fights alone (2a)."
            )
        return lines or ["The defender has no crew-served weapon: nothing to pair."]
    lines = []
    for leader in d.ids(Role.leader):
        troops = troops_in_building(battle, leader)
        if troops:
            lines.append(
                f"{leader} may join a combat holding one of his troops: {listing(troops)} (3b)."
            )
        else:
            lost = " and, as a PC, is lost without a roll" if battle.platoon_leader(leader) else ""
            lines.append(f"{leader} has none of his troops here, so he fights alone (3c){lost}.")
    others = d.ids(Role.noncombatant)
    if others:
        lines.append(
            f"{listing(others)} join any combat (3a); they do not fight and share its fate."
        )
    return lines or ["No leaders, FOs or snipers to place."]
