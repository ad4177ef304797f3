"""The plain checker: every rule of RULES.md §1 as a named check, solver-agnostic.

Each ``check_*`` function looks at one family of rules and yields a
:class:`~allocator.violations.Violation` for every breach it finds, so that a report lists all
of them at once. :func:`check` runs whatever leading part of the allocation is given.
The CP-SAT model (:mod:`allocator.model`) encodes the same rules; property tests hold the two
to the same verdict.

>>> from allocator.battle import battle_from_data
>>> b = battle_from_data({
...     "defender": {"units": [{"id": "p", "kind": "platoon"}], "stands": [
...         {"id": "d1", "type": "rifle", "unit": "p"},
...         {"id": "d2", "type": "rifle", "unit": "p"}]},
...     "attacker": {"units": [{"id": "q", "kind": "platoon"}],
...                  "stands": [{"id": "a1", "type": "rifle", "unit": "q"}]},
...     "allocation": {"combats": {"A": ["d1", "d2"]}},
... })
>>> [v.rule for v in check(b)]
['1a']
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass

from allocator.battle import Battle, Role
from allocator.schema import Allocation
from allocator.violations import Violation


@dataclass(frozen=True)
class Rule:
    id: str
    step: int
    statement: str


RULES: dict[str, Rule] = {
    r.id: r
    for r in [
        Rule(
            "B1",
            0,
            "A building holds at most `capacity` squads and crew-served weapons together; "
            "leaders, FOs and snipers do not count.",
        ),
        Rule(
            "B2",
            0,
            "Capacity is 2 unless the scenario says 1 or 3; 4 or more is not a building "
            "but a complex of sectors, each fought as its own building.",
        ),
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
            "An attacking leader joins a combat only within one stand width of a squad "
            "he joins there.",
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
            "A second leader may join a combat that has attacking troops; he adds "
            "nothing unless his rating is higher.",
        ),
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
    ]
}


def violation(rule: str, message: str, stands: Iterable[str]) -> Violation:
    return Violation(rule=rule, step=RULES[rule].step, message=message, stands=sorted(set(stands)))


def _names(ids: Iterable[str]) -> str:
    return ", ".join(sorted(ids))


def _combats(names: Sequence[str]) -> str:
    return f"Combat{'s' if len(names) > 1 else ''} {_names(names)}"


# --- facts about the defender -------------------------------------------------------------


def troops_in_building(battle: Battle, leader: str) -> list[str]:
    """The defending squads and crew-served weapons in the building subordinate to ``leader``."""
    side = battle.side(battle.side_of(leader))
    return [
        s
        for s in side.ids()
        if battle.role(s) in (Role.squad, Role.weapon) and battle.commands(leader, s)
    ]


def _by_role(battle: Battle, ids: Iterable[str]) -> dict[Role, list[str]]:
    groups: dict[Role, list[str]] = {role: [] for role in Role}
    for stand in ids:
        groups[battle.role(stand)].append(stand)
    return groups


# --- step 0: the building -----------------------------------------------------------------


def check_capacity(battle: Battle) -> Iterator[Violation]:
    capacity = battle.capacity
    if capacity >= 4:
        yield violation(
            "B2",
            f"A capacity of {capacity} is not a building: split it into a complex of sectors "
            "holding 2 each and fight each sector on its own.",
            [],
        )
    fighting = battle.defender.ids(Role.squad) + battle.defender.ids(Role.weapon)
    if len(fighting) > capacity:
        yield violation(
            "B1",
            f"{battle.scenario.building.name} holds {len(fighting)} squads and crew-served weapons "
            f"but its capacity is {capacity}: leave {len(fighting) - capacity} outside.",
            fighting,
        )


# --- steps 1-3: the defender's combats ----------------------------------------------------


def check_membership(battle: Battle, combats: Mapping[str, Sequence[str]]) -> Iterator[Violation]:
    """1c: every defending stand in exactly one combat, and no empty combat."""
    seen: dict[str, list[str]] = {}
    for name, ids in combats.items():
        if not ids:
            yield violation("1c", f"Combat {name} holds no stands: drop it.", [])
        for stand in ids:
            seen.setdefault(stand, []).append(name)
    for stand in battle.defender.ids():
        places = seen.get(stand, [])
        if not places:
            yield violation(
                "1c", f"{stand} is in the building but in no combat: put it in one.", [stand]
            )
        elif len(places) > 1:
            yield violation(
                "1c",
                f"{stand} is in {len(places)} combats ({_names(places)}): keep it in one.",
                [stand],
            )


def _combat_head_violations(
    battle: Battle, name: str, ids: Sequence[str], head: str | None, no_squads: bool
) -> list[Violation]:
    """The rules of steps 1-3 that depend on who heads the combat."""
    roles = _by_role(battle, ids)
    squads, weapons = roles[Role.squad], roles[Role.weapon]
    leaders = roles[Role.leader]
    commanders = [s for s in leaders if battle.is_commander(s)]
    found: list[Violation] = []
    for weapon in weapons:
        if weapon == head:
            continue
        if head is None or battle.role(head) == Role.weapon:
            found.append(
                violation(
                    "2a",
                    f"{weapon} joins combat {name}, which no squad, CC or BC heads: a crew-served "
                    "weapon fights alone or joins a squad (or a CC/BC) of its own unit.",
                    [weapon],
                )
            )
        elif not battle.same_organisation(weapon, head):
            found.append(
                violation(
                    "2a",
                    f"{weapon} pairs with {head} in combat {name}, but {head} is not from its "
                    "organisational unit: pair it with a squad of its own company (battalion "
                    "weapons: of the battalion) or let it fight alone.",
                    [weapon, head],
                )
            )
    if no_squads and len(commanders) > 1:
        found.append(
            violation(
                "1b",
                f"No defending squad is in the building, so every CC and BC forms a combat of his "
                f"own, but {_names(commanders)} share combat {name}: split them.",
                commanders,
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
                    violation(
                        "3b",
                        f"{leader} is in combat {name}, which holds none of his troops: "
                        f"move him to a combat with one of {_names(own_in_building)}.",
                        [leader],
                    )
                )
        elif troops or (head is not None and head in commanders):
            found.append(
                violation(
                    "3c",
                    f"{leader} has no squad or crew-served weapon of his own in the building, "
                    f"so he fights alone, not in combat {name}: give him a combat of his own.",
                    [leader, *troops],
                )
            )
    if not troops and len(leaders) > 1:
        found.append(
            violation(
                "3d",
                f"Leaders {_names(leaders)} share combat {name}, which holds no troops: leaders "
                "share only a combat with squads or weapons; without them each fights alone.",
                leaders,
            )
        )
    if not troops and not leaders and roles[Role.noncombatant] and _anyone_to_join(battle):
        found.append(
            violation(
                "3a",
                f"{_names(roles[Role.noncombatant])} form combat {name} on their own: FOs and "
                "snipers join a combat that is already formed.",
                roles[Role.noncombatant],
            )
        )
    return found


def _anyone_to_join(battle: Battle) -> bool:
    """Whether the defender has a squad, weapon or leader whose combat an FO could join (3a)."""
    return any(battle.role(s) != Role.noncombatant for s in battle.defender.ids())


def head_candidates(battle: Battle, ids: Sequence[str]) -> list[str | None]:
    """Who may head a combat of these stands: a squad, else a CC/BC, else a lone weapon."""
    roles = _by_role(battle, ids)
    commanders = [s for s in roles[Role.leader] if battle.is_commander(s)]
    for candidates in (roles[Role.squad], commanders, roles[Role.weapon]):
        if candidates:
            return list(candidates)
    return [None]


def check_combat(battle: Battle, name: str, ids: Sequence[str]) -> Iterator[Violation]:
    """1a, 2b and, for the head that makes the combat most nearly legal, 1b, 2a, 3a-3d."""
    roles = _by_role(battle, ids)
    if len(roles[Role.squad]) > 1:
        yield violation(
            "1a",
            f"Squads {_names(roles[Role.squad])} share combat {name}: every squad is a combat of "
            "its own at step 1.",
            roles[Role.squad],
        )
    if len(roles[Role.weapon]) > 1:
        yield violation(
            "2b",
            f"Crew-served weapons {_names(roles[Role.weapon])} share combat {name}: at most one "
            "weapon joins a squad (or CC/BC); the other fights alone or joins another squad.",
            roles[Role.weapon],
        )
    no_squads = not battle.defender.ids(Role.squad)
    options = [
        _combat_head_violations(battle, name, ids, head, no_squads)
        for head in head_candidates(battle, ids)
    ]
    yield from min(options, key=len)


def check_grouping(battle: Battle, combats: Mapping[str, Sequence[str]]) -> Iterator[Violation]:
    yield from check_membership(battle, combats)
    for name, ids in combats.items():
        if ids:
            yield from check_combat(battle, name, ids)


# --- steps 4-5: the attacker's answer -----------------------------------------------------


@dataclass
class AttackView:
    """The attack as the rules see it: combats, who is where, who acts as a squad (4b)."""

    combats: list[str]
    members: dict[str, list[str]]
    squads: dict[str, list[str]]
    acting: dict[str, str]
    fewer_squads: bool


def _acting_commanders(
    battle: Battle, members: Mapping[str, list[str]], squads: Mapping[str, list[str]]
) -> dict[str, str]:
    """4b: in a combat without attacking squads, one joining CC/BC fights as the squad.

    When several could, the one the other leaders there stand nearest to is chosen, so that the
    reported 5a breaches are the fewest.
    """
    acting: dict[str, str] = {}
    for name, ids in members.items():
        commanders = [a for a in ids if battle.is_commander(a)]
        if squads[name] or not commanders:
            continue
        leaders = [a for a in ids if battle.role(a) == Role.leader]

        def unreached(candidate: str, leaders: list[str] = leaders) -> int:
            return sum(
                1 for other in leaders if other != candidate and not battle.near(other, candidate)
            )

        acting[name] = min(commanders, key=unreached)
    return acting


def attack_view(
    battle: Battle, combats: Mapping[str, Sequence[str]], attack: Mapping[str, Sequence[str]]
) -> AttackView:
    names = [name for name, ids in combats.items() if ids]
    members = {name: [a for a in attack.get(name, [])] for name in names}
    squads = {n: [a for a in ids if battle.role(a) == Role.squad] for n, ids in members.items()}
    fewer = len(battle.attacker.ids(Role.squad)) < len(names)
    acting = _acting_commanders(battle, members, squads) if fewer else {}
    return AttackView(names, members, squads, acting, fewer)


def check_attack(
    battle: Battle, combats: Mapping[str, Sequence[str]], attack: Mapping[str, Sequence[str]]
) -> Iterator[Violation]:
    view = attack_view(battle, combats, attack)
    valid = set(view.combats)
    for name, ids in attack.items():
        if name not in valid and ids:
            yield violation(
                "4c",
                f"The attack sends {_names(ids)} to '{name}', which is not one of the defender's "
                f"combats ({_names(valid)}): send them to one of those.",
                ids,
            )
    yield from _check_attack_membership(battle, attack)
    yield from _check_cover(battle, view)
    yield from _check_attack_leaders(battle, view)


def _check_attack_membership(
    battle: Battle, attack: Mapping[str, Sequence[str]]
) -> Iterator[Violation]:
    """4d and 4e."""
    seen: dict[str, list[str]] = {}
    for name, ids in attack.items():
        for stand in ids:
            seen.setdefault(stand, []).append(name)
    for stand, places in seen.items():
        if battle.role(stand) in (Role.weapon, Role.noncombatant):
            yield violation(
                "4d",
                f"{stand} ({battle.stand(stand).type}) cannot assault: only squads and leaders "
                "take part; leave it out.",
                [stand],
            )
        if len(places) > 1:
            yield violation(
                "4e",
                f"{stand} is sent to {len(places)} combats ({_names(places)}): pick one.",
                [stand],
            )
    missing = [s for s in battle.attacker.ids(Role.squad) if s not in seen]
    if missing:
        yield violation(
            "4e",
            f"Attacking squads {_names(missing)} are not allocated: every attacking squad goes "
            "to a combat.",
            missing,
        )
    if not any(battle.role(s) in (Role.squad, Role.leader) for s in seen):
        yield violation("4e", "Nobody assaults: send at least one squad, CC or BC.", [])


def _check_cover(battle: Battle, view: AttackView) -> Iterator[Violation]:
    """4a and 4b."""
    n_squads = len(battle.attacker.ids(Role.squad))
    covered = [n for n in view.combats if view.squads[n]]
    unopposed = [n for n in view.combats if not view.squads[n]]
    doubled = [n for n in view.combats if len(view.squads[n]) > 1]
    # Without a doubled combat the shortfall is squads left out or misdirected: 4e or 4c says so.
    if doubled and len(covered) < min(n_squads, len(view.combats)):
        yield violation(
            "4a",
            f"{_combats(unopposed)} {'get' if len(unopposed) > 1 else 'gets'} no squad while "
            f"{_combats(doubled)} {'get' if len(doubled) > 1 else 'gets'} more than one: cover "
            "every combat first, then pile on.",
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
        yield violation(
            "4b",
            f"With fewer squads than combats a joining CC/BC fights as a squad: send "
            f"{_names(idle)} against the unopposed combat{'s' if len(still_open) > 1 else ''} "
            f"{_names(still_open)}.",
            idle,
        )


def _check_attack_leaders(battle: Battle, view: AttackView) -> Iterator[Violation]:
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
                where = f"any of {_names(fighters)}" if fighters else "a squad (there is none)"
                yield violation(
                    "5a",
                    f"{leader} joins combat {name} but is not within one stand width of {where}: "
                    "leave him out or send him where he is near a squad.",
                    [leader],
                )
            if battle.platoon_leader(leader) and not any(
                battle.commands(leader, s) for s in view.squads[name]
            ):
                yield violation(
                    "5b",
                    f"{leader} joins combat {name}, which holds none of his own troops: a PC "
                    "joins only a combat with a squad of his platoon.",
                    [leader],
                )
        if len(leaders) > 1 and not fighters:
            yield violation(
                "5c",
                f"Leaders {_names(leaders)} join combat {name} with no attacking squad to lead: a "
                "second leader joins only a combat that has troops.",
                leaders,
            )


# --- step 6: the defender's reallocation --------------------------------------------------


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


def check_reallocation(
    battle: Battle,
    combats: Mapping[str, Sequence[str]],
    attack: Mapping[str, Sequence[str]],
    reallocate: Mapping[str, str],
) -> Iterator[Violation]:
    names = [n for n, ids in combats.items() if ids]
    active = [n for n in names if attack.get(n)]
    unopposed = [n for n in names if not attack.get(n)]
    if not unopposed:
        if reallocate:
            yield violation(
                "6c",
                "Every combat has attackers, so nothing is reallocated: drop the reallocation.",
                list(reallocate),
            )
        return
    if not active:
        return
    must_move = [s for n in unopposed for s in combats[n]]
    missing = [s for s in must_move if s not in reallocate]
    if missing:
        yield violation(
            "6a",
            f"{_names(missing)} {'are' if len(missing) > 1 else 'is'} in unopposed "
            f"combat{'s' if len(unopposed) > 1 else ''} {_names(unopposed)} and must move into a "
            f"combat with attackers ({_names(active)}).",
            missing,
        )
    for stand, target in reallocate.items():
        if stand not in must_move:
            yield violation(
                "6a",
                f"{stand} is already in a combat with attackers: only the stands of unopposed "
                "combats move.",
                [stand],
            )
        elif target not in active:
            yield violation(
                "6a",
                f"{stand} moves to '{target}', which is not a combat with attackers: choose one "
                f"of {_names(active)}.",
                [stand],
            )
    if not battle.ruleset.value("reallocate_one_by_one"):
        for name in unopposed:
            targets = {reallocate[s] for s in combats[name] if s in reallocate}
            if len(targets) > 1:
                yield violation(
                    "6a",
                    f"The stands of unopposed combat {name} go to {_names(targets)}: under this "
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
        yield violation(
            "6b",
            f"Combat{'s' if len(over) > 1 else ''} {_names(over)} would hold more crew-served "
            "weapons than squads and CC/BC heads, and another placement of the moved stands "
            "avoids that: spread the weapons.",
            weapons,
        )


# --- the whole procedure ------------------------------------------------------------------


def check(battle: Battle, allocation: Allocation | None = None) -> list[Violation]:
    """Every violation of the building and of the given leading part of the allocation."""
    allocation = allocation if allocation is not None else battle.allocation
    found = list(check_capacity(battle))
    if allocation is not None and allocation.combats is not None:
        found += check_grouping(battle, allocation.combats)
        if allocation.attack is not None:
            found += check_attack(battle, allocation.combats, allocation.attack)
            if allocation.reallocate is not None:
                found += check_reallocation(
                    battle, allocation.combats, allocation.attack, allocation.reallocate
                )
    return sorted(found, key=Violation.sort_key)
