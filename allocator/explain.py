"""A step-by-step walkthrough of the procedure on a scenario, for new players.

With an allocation in the file, each step says what it requires here and whether the allocation
followed it (quoting the rule ids and stands when not). Without one, it walks through the
optimal line of play and says why each choice is made, against the runner-up.

>>> from allocator.battle import load_battle
>>> steps = explain(load_battle("models/scenarios/seed-2hmg-1squad-v-4.yaml"))["steps"]
>>> [s["step"] for s in steps]
[0, 1, 2, 3, 4, 5, 6, 7]
"""

from __future__ import annotations

from typing import Any

from allocator.battle import Battle, Role
from allocator.check import is_complete, round_report
from allocator.rules import RULES, check, troops_in_building
from allocator.schema import Allocation
from allocator.violations import Violation

TITLES = {
    0: "The building",
    1: "Step 1 - the defender splits into the smallest groups",
    2: "Step 2 - crew-served weapons pair up",
    3: "Step 3 - the rest of the defender joins",
    4: "Step 4 - the attacker covers every combat",
    5: "Step 5 - the attacker's leaders join",
    6: "Step 6 - the defender folds unopposed combats in",
    7: "Step 7 - each combat is rolled",
}
STEP_RULES = {step: [r for r, rule in RULES.items() if rule.step == step] for step in range(7)}


def _list(ids: list[str]) -> str:
    if not ids:
        return "none"
    return ", ".join(ids[:-1]) + f" and {ids[-1]}" if len(ids) > 1 else ids[0]


def _where(allocation: dict[str, list[str]]) -> str:
    return "; ".join(f"{name}: {', '.join(ids) or 'nobody'}" for name, ids in allocation.items())


def requirements(battle: Battle, step: int) -> list[str]:
    """What a step asks of these particular stands."""
    d, a = battle.defender, battle.attacker
    squads, weapons = d.ids(Role.squad), d.ids(Role.weapon)
    commanders = [s for s in d.ids(Role.leader) if battle.is_commander(s)]
    if step == 0:
        name, capacity = battle.scenario.building.name, battle.capacity
        return [
            f"{name} holds at most {capacity} squads and crew-served weapons (B1, B2); the "
            f"defender has {len(squads) + len(weapons)} there. Leaders, FOs and snipers do "
            "not count."
        ]
    if step == 1:
        lines = [
            f"Every squad is a combat of its own (1a): {_list(squads)}."
            if squads
            else "The defender has no squad in the building."
        ]
        if commanders and not squads:
            who = "each CC and BC" if len(commanders) > 1 else commanders[0]
            lines.append(f"So {who} must form a combat of his own (1b).")
        elif commanders:
            lines.append(
                f"{_list(commanders)} may form a combat of his own (1b), though the "
                "attacker may then gang up on him."
            )
        return lines
    if step == 2:
        lines = []
        for w in weapons:
            partners = [s for s in squads + commanders if battle.same_organisation(w, s)]
            lines.append(
                f"{w} may pair with one of {_list(partners)} (its own organisational unit, 2a) "
                "or fight alone; no squad takes two weapons (2b)."
                if partners
                else f"{w} has no squad of its organisational unit here, so it fights alone (2a)."
            )
        return lines or ["The defender has no crew-served weapon: nothing to pair."]
    if step == 3:
        lines = []
        for leader in d.ids(Role.leader):
            troops = troops_in_building(battle, leader)
            lines.append(
                f"{leader} may join a combat holding one of his troops: {_list(troops)} (3b)."
                if troops
                else f"{leader} has none of his troops here, so he fights alone (3c)"
                + (
                    " and, as a PC, is lost without a roll."
                    if battle.platoon_leader(leader)
                    else "."
                )
            )
        others = d.ids(Role.noncombatant)
        if others:
            lines.append(
                f"{_list(others)} join any combat (3a); they do not fight and share its fate."
            )
        return lines or ["No leaders, FOs or snipers to place."]
    if step == 4:
        attack_squads = a.ids(Role.squad)
        attack_commanders = [s for s in a.ids(Role.leader) if battle.is_commander(s)]
        lines = [
            f"The attacker has {len(attack_squads)} squad{'s' if len(attack_squads) != 1 else ''} "
            f"({_list(attack_squads)}). They "
            "must cover every defending combat before any combat gets a second (4a); the "
            "rest go anywhere (4c). Every squad goes in (4e)."
        ]
        if attack_commanders:
            lines.append(
                f"If there are fewer squads than combats, {_list(attack_commanders)} "
                "joining the assault must take an otherwise unopposed combat (4b)."
            )
        if a.ids(Role.weapon):
            lines.append(
                f"{_list(a.ids(Role.weapon))} stay out: crew-served weapons do not assault (4d)."
            )
        return lines
    if step == 5:
        lines = []
        for leader in a.ids(Role.leader):
            near = [s for s in a.ids(Role.squad) if battle.near(leader, s)]
            own = [s for s in near if battle.commands(leader, s)]
            text = (
                f"{leader} may join a combat only beside a squad within one stand width: "
                f"{_list(near)} (5a)"
            )
            if battle.platoon_leader(leader):
                text += f"; as a PC, only with his own troops: {_list(own)} (5b)"
            lines.append(text + ".")
        return lines or ["The attacker has no leaders."]
    return [
        "A combat that got no attacker is dissolved: every stand in it moves into a combat "
        "that has attackers (6a), without piling more weapons than squads and CC/BC heads "
        "into one when that can be avoided (6b). With every combat opposed nothing moves (6c)."
    ]


def _verdict(step: int, violations: list[Violation], given: bool) -> dict[str, Any]:
    broken = [v for v in violations if v.step == step]
    if not given:
        return {"status": "not given", "violations": []}
    return {
        "status": "broken" if broken else "followed",
        "violations": [v.model_dump() for v in broken],
    }


def explain_allocation(battle: Battle, allocation: Allocation) -> list[dict[str, Any]]:
    violations = check(battle, allocation)
    depth = {
        0: True,
        1: allocation.combats is not None,
        2: allocation.combats is not None,
        3: allocation.combats is not None,
        4: allocation.attack is not None,
        5: allocation.attack is not None,
        6: allocation.reallocate is not None,
    }
    chosen = {
        1: f"The defender's combats: {_where(allocation.combats or {})}.",
        4: f"The attack: {_where(allocation.attack or {})}.",
        6: "Moves: "
        + ("; ".join(f"{s} to {t}" for s, t in (allocation.reallocate or {}).items()) or "none")
        + ".",
    }
    steps = []
    for step in range(7):
        text = requirements(battle, step)
        if step in chosen and depth[step]:
            text.append(chosen[step])
        entry = {"step": step, "title": TITLES[step], "rules": STEP_RULES[step], "text": text}
        entry |= _verdict(step, violations, depth[step])
        for v in entry["violations"]:
            text.append(f"Broken: {v['rule']} - {v['message']}")
        steps.append(entry)
    steps.append(_resolution(battle, allocation, legal=not violations))
    return steps


def _resolution(battle: Battle, allocation: Allocation, legal: bool) -> dict[str, Any]:
    entry: dict[str, Any] = {"step": 7, "title": TITLES[7], "rules": [], "violations": []}
    if not legal or not is_complete(allocation):
        entry |= {
            "status": "not reached",
            "text": ["The combats are rolled once the allocation is complete and legal."],
        }
        return entry
    report = round_report(battle, allocation)
    text = [
        f"Combat {c['name']}: attacker {c['attacker_total']} against defender "
        f"{c['defender_total']}; the attacker wins with probability "
        f"{c['p_attacker_wins_exact']} ({c['p_attacker_wins']:.1%})"
        + (f" - {c['decided']}" if c.get("decided") else "")
        + "."
        for c in report["combats"]
    ]
    text.append(
        f"The attacker wins every combat with probability {report['sweep']['exact']} "
        f"({report['sweep']['value']:.1%}); the loser of each combat loses all its stands there, "
        "and if both sides survive the procedure runs again from step 1 (7b)."
    )
    return entry | {"status": "followed", "text": text, "odds": report}


def _gap(objective: str, delta: Any) -> str:
    return f"{float(delta):+.1%}" if objective == "sweep" else f"{float(delta):+.3f} stands"


def explain_optimal(battle: Battle, objective: str) -> list[dict[str, Any]]:
    from allocator.solve import SolveResult, describe_changes, describe_value, solve

    defender = solve(battle, "defender", objective)
    line = defender.line
    attacker = solve(
        battle.with_allocation(Allocation(combats=line.combats)), "attacker", objective
    )
    steps = explain_allocation(battle, line.allocation())
    value = describe_value(objective, line.value)

    def against_runner_up(result: SolveResult, part: str) -> str:
        runner = result.runner_up
        if runner is None:
            return ""
        return (
            f" The runner-up ({describe_changes(getattr(line, part), getattr(runner, part))}) "
            f"gives {describe_value(objective, runner.value)}: "
            f"{_gap(objective, runner.value - line.value)} for the attacker."
        )

    steps[1]["text"].append(
        f"Best grouping for the defender: against the attacker's best answer, {value}."
        + against_runner_up(defender, "combats")
    )
    steps[4]["text"].append(
        f"Best answer for the attacker: {value}." + against_runner_up(attacker, "attack")
    )
    if line.reallocate:
        steps[6]["text"].append(
            "The defender's best moves: "
            + "; ".join(f"{s} to {t}" for s, t in line.reallocate.items())
            + "."
        )
    for step in steps:
        step["status"] = "optimal" if step["status"] == "followed" else step["status"]
    return steps


def explain(battle: Battle, objective: str = "sweep") -> dict[str, Any]:
    """The walkthrough as data: a title, the mode and one entry per step (0-7)."""
    allocation = battle.allocation
    title = battle.scenario.title or battle.scenario.building.name
    if allocation is not None and allocation.combats is not None:
        return {"title": title, "mode": "check", "steps": explain_allocation(battle, allocation)}
    return {
        "title": title,
        "mode": "optimal",
        "objective": objective,
        "steps": explain_optimal(battle, objective),
    }
