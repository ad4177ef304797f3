"""Hypothesis strategies: small random scenarios and (often broken) allocations."""

from __future__ import annotations

from typing import Any

from hypothesis import strategies as st

DEFENDER_UNITS = [
    {
        "id": "dbn",
        "kind": "battalion",
        "units": [
            {
                "id": "dc1",
                "kind": "company",
                "units": [{"id": "dc1p1", "kind": "platoon"}, {"id": "dc1p2", "kind": "platoon"}],
            },
            {"id": "dc2", "kind": "company", "units": [{"id": "dc2p1", "kind": "platoon"}]},
            {"id": "dsup", "kind": "support"},
        ],
    }
]
ATTACKER_UNITS = [
    {
        "id": "abn",
        "kind": "battalion",
        "units": [
            {
                "id": "ac1",
                "kind": "company",
                "units": [{"id": "ap1", "kind": "platoon"}, {"id": "ap2", "kind": "platoon"}],
            },
        ],
    }
]
TROOP_UNITS = {"defender": ["dc1p1", "dc1p2", "dc2p1", "dc1", "dsup"], "attacker": ["ap1", "ap2"]}
LEADER_UNITS = {
    "defender": {
        "pc": ["dc1p1", "dc1p2", "dc2p1"],
        "cc": ["dc1", "dc2"],
        "bc": ["dbn"],
        "commissar": ["dc1p1", "dc1"],
    },
    "attacker": {"pc": ["ap1", "ap2"], "cc": ["ac1"], "bc": ["abn"], "commissar": ["ap1"]},
}
DEFENDER_TYPES = [
    "rifle",
    "rifle",
    "smg",
    "jhmg",
    "hmg",
    "mortar",
    "gun",
    "pc",
    "cc",
    "bc",
    "commissar",
    "fo",
]
ATTACKER_TYPES = ["rifle", "rifle", "rifle", "smg", "engineer", "pc", "pc", "cc", "bc", "hmg"]


@st.composite
def stands(draw: Any, side: str, count: int, types: list[str]) -> list[dict[str, Any]]:
    result = []
    prefix = "d" if side == "defender" else "a"
    for i in range(count):
        kind = draw(st.sampled_from(types))
        if kind in LEADER_UNITS[side]:
            unit = draw(st.sampled_from(LEADER_UNITS[side][kind]))
            stand = {
                "id": f"{prefix}{i}",
                "type": kind,
                "unit": unit,
                "rating": draw(st.integers(0, 2)),
            }
        else:
            stand = {
                "id": f"{prefix}{i}",
                "type": kind,
                "unit": draw(st.sampled_from(TROOP_UNITS[side])),
            }
            if draw(st.integers(0, 5)) == 0:
                stand["quality"] = draw(st.sampled_from(["green", "veteran"]))
        result.append(stand)
    return result


@st.composite
def scenarios(draw: Any, max_defenders: int = 4, max_attackers: int = 4) -> dict[str, Any]:
    defenders = draw(stands("defender", draw(st.integers(1, max_defenders)), DEFENDER_TYPES))
    attackers = draw(stands("attacker", draw(st.integers(1, max_attackers)), ATTACKER_TYPES))
    if not any(a["type"] in ("rifle", "smg", "engineer", "cc", "bc") for a in attackers):
        attackers[0] = {"id": "a0", "type": "rifle", "unit": "ap1"}
    fighting = [a["id"] for a in attackers if a["type"] in ("rifle", "smg", "engineer", "cc", "bc")]
    for a in attackers:
        if a["type"] in ("pc", "cc", "bc", "commissar"):
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
            },
        )
    )
    return {
        "ruleset": {"base": "crossfire", "overrides": overrides},
        "surprise": draw(st.integers(0, 5)) == 0,
        "building": {"capacity": 3},
        "defender": {"units": DEFENDER_UNITS, "stands": defenders},
        "attacker": {"units": ATTACKER_UNITS, "stands": attackers},
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
    from allocator.games.crossfire.battle import battle_from_data
    from allocator.games.crossfire.model import REALLOCATION, RulesModel, SlotNames, new_solver

    battle = battle_from_data(scenario)
    model = RulesModel(battle, depth=REALLOCATION)
    decisions = [*model.x.values(), *model.y.values(), *model.z.values()]
    weights = draw(st.lists(st.integers(-3, 3), min_size=len(decisions), max_size=len(decisions)))
    model.model.Maximize(sum(w * v for w, v in zip(weights, decisions, strict=True)))
    solver = new_solver(model.model, time_limit=5)
    solver.Solve(model.model)
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
