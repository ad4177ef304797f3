"""Hypothesis strategies: small random battles and (often broken) allocations.

The battles vary everything a rule looks at: the shape of each side's organisation tree (a
battalion or not, companies with platoons, a company HQ, a support company, attached units at
the top or inside a company), stand types drawn from the role table, ratings, quality and
suppression, who stands near whom (by `near` lists and by positions, with a random
`stand_width`), the round (later rounds differ), surprise, and the house-rule switches.
"""

from __future__ import annotations

from typing import Any

from hypothesis import strategies as st

from allocator.games.crossfire.battle import COMMANDERS, ROLES, Role
from allocator.games.crossfire.schema import StandType

FIGHTING_TYPES = [t.value for t, role in ROLES.items() if role in (Role.squad, Role.weapon)]
LEADER_TYPES = [t.value for t, role in ROLES.items() if role == Role.leader]
OTHER_TYPES = [t.value for t, role in ROLES.items() if role == Role.noncombatant]
ATTACKING = {t.value for t, role in ROLES.items() if role == Role.squad} | {
    c.value for c in COMMANDERS
}


@st.composite
def org_tree(draw: Any, prefix: str) -> tuple[list[dict[str, Any]], dict[str, list[str]]]:
    """A force's unit tree, and its unit ids by kind."""
    by_kind: dict[str, list[str]] = {
        kind: [] for kind in ("battalion", "company", "platoon", "hq", "support", "attached")
    }
    companies = []
    for c in range(draw(st.integers(1, 2))):
        cid = f"{prefix}c{c}"
        by_kind["company"].append(cid)
        units = []
        for p in range(draw(st.integers(1, 2))):
            by_kind["platoon"].append(f"{cid}p{p}")
            units.append({"id": f"{cid}p{p}", "kind": "platoon"})
        if draw(st.integers(0, 3)) == 0:
            by_kind["hq"].append(f"{cid}hq")
            units.append({"id": f"{cid}hq", "kind": "hq"})
        if draw(st.integers(0, 5)) == 0:
            by_kind["attached"].append(f"{cid}att")
            units.append({"id": f"{cid}att", "kind": "attached"})
        companies.append({"id": cid, "kind": "company", "units": units})
    if draw(st.booleans()):
        battalion: list[dict[str, Any]] = list(companies)
        if draw(st.booleans()):
            by_kind["support"].append(f"{prefix}sup")
            battalion.append({"id": f"{prefix}sup", "kind": "support"})
        by_kind["battalion"].append(f"{prefix}bn")
        tree = [{"id": f"{prefix}bn", "kind": "battalion", "units": battalion}]
    else:
        tree = companies
    if draw(st.integers(0, 4)) == 0:
        by_kind["attached"].append(f"{prefix}top")
        tree.append({"id": f"{prefix}top", "kind": "attached"})
    return tree, by_kind


def _unit_for(draw: Any, kind: str, units: dict[str, list[str]]) -> str:
    if kind == StandType.pc:
        return draw(st.sampled_from(units["platoon"]))
    if kind == StandType.cc:
        return draw(st.sampled_from(units["company"]))
    if kind == StandType.bc:
        return draw(st.sampled_from(units["battalion"] or units["company"]))
    if kind == StandType.commissar:
        return draw(st.sampled_from(units["platoon"] + units["company"]))
    troop = units["platoon"] + units["hq"] + units["support"] + units["attached"]
    return draw(st.sampled_from(troop + units["company"]))


@st.composite
def stands(draw: Any, side: str, count: int, units: dict[str, list[str]]) -> list[dict[str, Any]]:
    prefix = "d" if side == "defender" else "a"
    result = []
    for i in range(count):
        family = draw(st.sampled_from(["fighting", "fighting", "leader", "other"]))
        if family == "other" and side == "attacker":
            family = "fighting"
        pool = {"fighting": FIGHTING_TYPES, "leader": LEADER_TYPES, "other": OTHER_TYPES}[family]
        kind = draw(st.sampled_from(pool))
        stand: dict[str, Any] = {
            "id": f"{prefix}{i}",
            "type": kind,
            "unit": _unit_for(draw, kind, units),
        }
        if family == "leader":
            stand["rating"] = draw(st.integers(0, 2))
        elif family == "fighting":
            if draw(st.integers(0, 4)) == 0:
                stand["quality"] = draw(st.sampled_from(["green", "veteran"]))
            if draw(st.integers(0, 6)) == 0:
                stand["suppressed"] = True
        result.append(stand)
    return result


@st.composite
def scenarios(draw: Any, max_defenders: int = 4, max_attackers: int = 4) -> dict[str, Any]:
    d_tree, d_units = draw(org_tree("d"))
    a_tree, a_units = draw(org_tree("a"))
    defenders = draw(stands("defender", draw(st.integers(1, max_defenders)), d_units))
    attackers = draw(stands("attacker", draw(st.integers(1, max_attackers)), a_units))
    if not any(a["type"] in ATTACKING for a in attackers):
        attackers[0] = {"id": "a0", "type": "rifle", "unit": a_units["platoon"][0]}
    fighting = [a["id"] for a in attackers if a["type"] in ATTACKING]
    for a in attackers:
        if a["type"] in LEADER_TYPES:
            a["near"] = draw(st.lists(st.sampled_from(fighting), unique=True, max_size=3))
        if draw(st.integers(0, 2)) == 0:  # near by position as well (5a)
            a["position"] = [draw(st.integers(0, 4)), draw(st.integers(0, 2))]
    overrides = draw(
        st.fixed_dictionaries(
            {},
            optional={
                "reallocate_one_by_one": st.booleans(),
                "ties": st.sampled_from(["reroll", "defender", "attacker"]),
                "dice_mode": st.sampled_from(["single", "pool"]),
                "leader_bonus": st.sampled_from(["best", "sum"]),
                "lone_noncombatant_loses": st.booleans(),
                "later_rounds_all_near": st.booleans(),
                "surprise_later_rounds": st.booleans(),
                "near_centres": st.integers(1, 3),
            },
        )
    )
    return {
        "ruleset": {"base": "crossfire", "overrides": overrides},
        "round": draw(st.sampled_from([1, 1, 1, 2])),
        "surprise": draw(st.integers(0, 5)) == 0,
        "stand_width": draw(st.sampled_from([0.5, 1.0, 2.0])),
        "building": {"capacity": 3},
        "defender": {"units": d_tree, "stands": defenders},
        "attacker": {"units": a_tree, "stands": attackers},
    }


@st.composite
def allocations(draw: Any, scenario: dict[str, Any]) -> dict[str, Any]:
    """A random allocation: any depth, often legal, often not."""
    defenders = [s["id"] for s in scenario["defender"]["stands"]]
    attackers = [s["id"] for s in scenario["attacker"]["stands"]]
    names = ["A", "B", "C", "D"][: draw(st.integers(1, min(4, len(defenders))))]
    combats: dict[str, list[str]] = {n: [] for n in names}
    for s in defenders:
        if draw(st.integers(0, 30)) == 0:
            continue
        combats[draw(st.sampled_from(names))].append(s)
    allocation: dict[str, Any] = {"combats": combats}
    depth = draw(st.integers(1, 3))
    if depth >= 2:
        attack: dict[str, list[str]] = {n: [] for n in names}
        for a in attackers:
            target = draw(
                st.sampled_from(
                    [*names, None, None] + (["Z"] if draw(st.integers(0, 40)) == 0 else [])
                )
            )
            if target is not None:
                attack.setdefault(target, []).append(a)
        allocation["attack"] = {n: ids for n, ids in attack.items() if ids}
    if depth >= 3:
        opposed = [n for n in names if allocation["attack"].get(n)]
        moving = [s for n in names if not allocation["attack"].get(n) for s in combats[n]]
        reallocate = {}
        for s in moving:
            if opposed and draw(st.integers(0, 12)) > 0:
                reallocate[s] = draw(st.sampled_from(opposed))
            elif draw(st.booleans()):
                reallocate[s] = draw(st.sampled_from(names))
        if draw(st.integers(0, 20)) == 0:
            reallocate[draw(st.sampled_from(defenders))] = draw(st.sampled_from(names))
        allocation["reallocate"] = reallocate
    return allocation


@st.composite
def near_legal_allocations(draw: Any, scenario: dict[str, Any]) -> dict[str, Any]:
    """A legal allocation picked by the rules model under random weights, then 0-2 stands moved.

    Breaches made this way sit right on the boundary of the rules, where disagreements hide.
    """
    from allocator.core.cpsat import new_solver
    from allocator.games.crossfire.battle import battle_from_data
    from allocator.games.crossfire.model import REALLOCATION, RulesModel, SlotNames

    battle = battle_from_data(scenario)
    model = RulesModel(battle, depth=REALLOCATION)
    decisions = [
        *model.grouping.x.values(),
        *model.attack.y.values(),
        *model.reallocation.z.values(),
    ]
    weights = draw(st.lists(st.integers(-3, 3), min_size=len(decisions), max_size=len(decisions)))
    model.model.maximize(sum(w * v for w, v in zip(weights, decisions, strict=True)))
    solver = new_solver(model.model, time_limit=5)
    solver.solve(model.model)
    names = SlotNames([f"K{c}" for c in model.slots])
    allocation = model.read(solver, names, REALLOCATION).model_dump()
    depth = draw(st.integers(1, 3))
    parts = ["combats", "attack", "reallocate"][:depth]
    allocation = {part: allocation[part] for part in parts}
    combat_names = [*allocation["combats"], "NEW"]
    for _ in range(draw(st.integers(0, 2))):
        part = draw(st.sampled_from(parts))
        if part == "reallocate":
            stand = draw(st.sampled_from([s["id"] for s in scenario["defender"]["stands"]]))
            if draw(st.booleans()) and stand in allocation["reallocate"]:
                del allocation["reallocate"][stand]
            else:
                allocation["reallocate"][stand] = draw(st.sampled_from(combat_names))
            continue
        side = "defender" if part == "combats" else "attacker"
        stand = draw(st.sampled_from([s["id"] for s in scenario[side]["stands"]]))
        for ids in allocation[part].values():
            if stand in ids:
                ids.remove(stand)
        target = draw(st.sampled_from(combat_names + ([None] if part == "attack" else [])))
        if target is not None:
            allocation[part].setdefault(target, []).append(stand)
        allocation[part] = {n: ids for n, ids in allocation[part].items() if ids}
    return allocation
