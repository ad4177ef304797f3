"""A step-by-step walkthrough of the procedure on a scenario, for new players.

With an allocation in the file, each step says what it requires here and whether the allocation
followed it (quoting the rule ids and stands when not). Without one, it walks through the
optimal line of play and says why each choice is made, against the runner-up.

>>> from allocator.core.library import folder
>>> from allocator.games.crossfire.battle import load_battle
>>> steps = explain(load_battle(folder("scenarios") / "guide-2hmg-1squad-v-4.yaml")).steps
>>> [s.step for s in steps]
[0, 1, 2, 3, 4, 5, 6, 7]
"""

from __future__ import annotations

from typing import Literal

from allocator.core.text import listing
from allocator.core.violations import Violation
from allocator.games.crossfire.answers import ExplainAnswer, ExplainStep
from allocator.games.crossfire.battle import Battle, Role
from allocator.games.crossfire.check import is_complete
from allocator.games.crossfire.fight import fight_answer
from allocator.games.crossfire.objectives import DEFAULT_OBJECTIVE, Objective
from allocator.games.crossfire.rules import FAMILIES, STEP_TITLES, capacity, check, step_rules
from allocator.games.crossfire.rules.attack import attack_view
from allocator.games.crossfire.schema import Allocation
from allocator.games.crossfire.warnings import battle_warnings
from allocator.games.crossfire.words import combat_sentence, describe_changes, round_sentence

#: The part of the allocation each step's choice is in.
PART_OF_STEP = {1: "combats", 2: "combats", 3: "combats", 4: "attack", 5: "attack", 6: "reallocate"}


def _where(part: dict[str, list[str]]) -> str:
    return "; ".join(f"{name}: {', '.join(ids) or 'nobody'}" for name, ids in part.items())


def requirements(battle: Battle, step: int) -> list[str]:
    """What a step asks of these stands, from the family that owns the step."""
    family = next(f for f in FAMILIES if step in f.STEPS)
    return family.requirements(battle, step)


def _chosen(battle: Battle, allocation: Allocation, step: int) -> str | None:
    if step == 1 and allocation.combats is not None:
        return f"The defender's combats: {_where(allocation.combats)}."
    if step == 4 and allocation.attack is not None:
        return f"The attack: {_where(allocation.attack)}."
    if step == 5 and allocation.attack is not None:
        view = attack_view(battle, allocation.combats or {}, allocation.attack)
        as_squads = []
        for name, head in view.acting.items():
            text = f"{head} takes combat {name} as a squad (4b), so 5a does not bind him there."
            others = [a for a in view.members[name] if a != head and battle.is_commander(a)]
            if others:
                text += (
                    f" {listing(others)} {'joins' if len(others) == 1 else 'join'} him there as "
                    f"{'a leader' if len(others) == 1 else 'leaders'} only, not as a squad (5c)."
                )
            as_squads.append(text)
        return " ".join(as_squads) or None
    if step == 6 and allocation.reallocate is not None:
        moves = "; ".join(f"{s} to {t}" for s, t in allocation.reallocate.items()) or "none"
        return f"Moves: {moves}."
    return None


def _heads(battle: Battle, combats: dict[str, list[str]]) -> list[str]:
    """Step 1's stands: the squads, and the CC or BC who forms a combat holding no squad (1b)."""
    heads = []
    for ids in combats.values():
        squads = [s for s in ids if battle.role(s) == Role.squad]
        commanders = [s for s in ids if battle.is_commander(s)]
        heads += squads or commanders[:1]
    return heads


def stands_of_step(battle: Battle, allocation: Allocation, step: int) -> list[str]:
    """The stands a step places or moves in this allocation, for a picture of the step.

    Step 0 the stands that count against the capacity; 1 the squads and the CCs or BCs who form
    a combat; 2 the crew-served weapons; 3 the rest of the defender; 4 the attacking squads and
    the CC or BC who takes a combat as a squad (4b); 5 the rest of the attacker; 6 the stands
    moved; 7 every stand in a combat.

    Examples
    --------
    >>> from allocator.core.library import folder
    >>> from allocator.games.crossfire.battle import load_battle
    >>> b = load_battle(folder("scenarios") / "guide-2hmg-1squad-v-4.yaml")
    >>> [stands_of_step(b, b.allocation, step) for step in (1, 2, 4)]
    [['d1'], ['h1', 'h2'], ['a1', 'a2', 'a3', 'a4']]
    """
    combats = allocation.combats or {}
    attack = allocation.attack or {}
    defenders = [s for ids in combats.values() for s in ids]
    attackers = [s for ids in attack.values() for s in ids]
    if step == 0:
        return capacity.fighting_stands(battle)
    if step in (1, 3):
        heads = _heads(battle, combats)
        weapons = set(stands_of_step(battle, allocation, 2))
        return heads if step == 1 else [s for s in defenders if s not in heads and s not in weapons]
    if step == 2:
        return [s for s in defenders if battle.role(s) == Role.weapon]
    if step in (4, 5):
        acting = set(attack_view(battle, combats, attack).acting.values()) if attack else set()
        squads = [s for s in attackers if battle.role(s) == Role.squad or s in acting]
        return squads if step == 4 else [s for s in attackers if s not in squads]
    if step == 6:
        return list(allocation.reallocate or {})
    return defenders + attackers


def explain_allocation(battle: Battle, allocation: Allocation) -> list[ExplainStep]:
    if allocation.reallocate is None and is_complete(allocation):
        allocation = allocation.model_copy(update={"reallocate": {}})  # all opposed: none moves
    violations = check(battle, allocation)
    steps = []
    for step in range(7):
        part = PART_OF_STEP.get(step)
        given = part is None or getattr(allocation, part) is not None
        broken = [v for v in violations if v.step == step]
        text = requirements(battle, step)
        if (chosen := _chosen(battle, allocation, step)) is not None:
            text.append(chosen)
        text += [f"Broken: {v.rule} - {v.message}" for v in broken]
        steps.append(
            ExplainStep(
                step=step,
                title=STEP_TITLES[step],
                rules=step_rules(step),
                text=text,
                status=("broken" if broken else "followed") if given else "not given",
                violations=broken if given else [],
                stands=stands_of_step(battle, allocation, step) if given else [],
            )
        )
    steps.append(_resolution(battle, allocation, violations))
    return steps


def _resolution(battle: Battle, allocation: Allocation, violations: list[Violation]) -> ExplainStep:
    from allocator.games.crossfire.odds import round_answer, round_odds

    title, rules = STEP_TITLES[7], step_rules(7)
    if violations or not is_complete(allocation):
        return ExplainStep(
            step=7,
            title=title,
            rules=rules,
            text=["The combats are rolled once the allocation is complete and legal."],
            status="not reached",
            violations=[],
        )
    odds = round_answer(
        round_odds(
            battle, allocation.combats or {}, allocation.attack or {}, allocation.reallocate or {}
        )
    )
    text = requirements(battle, 7)[:1] + [combat_sentence(c) for c in odds.combats]
    text.append(round_sentence(odds))
    return ExplainStep(
        step=7,
        title=title,
        rules=rules,
        text=text,
        status="followed",
        violations=[],
        odds=odds,
        stands=stands_of_step(battle, allocation, 7),
    )


def explain_optimal(
    battle: Battle, objective: Objective, time_limit: float | None
) -> ExplainAnswer:
    """The walkthrough of the optimal line of play (for a fight objective: round 1 of the whole
    fight), with why each side chooses as it does. One time budget bounds both sides'
    searches."""
    from allocator.core.budget import Budget
    from allocator.games.crossfire.search.solve import DEFAULT_TIME_LIMIT, SolveOutcome, solve
    from allocator.games.crossfire.words import fight_sentence, why

    budget = Budget.of_answer(time_limit or DEFAULT_TIME_LIMIT)
    defender = solve(battle, "defender", objective, budget=budget)
    line = defender.line
    attacker = solve(
        battle.with_allocation(Allocation(combats=line.combats)),
        "attacker",
        objective,
        budget=budget,
        after=defender,
    )
    steps = explain_allocation(battle, line.allocation())
    proven = defender.proven and attacker.proven
    best = "Best" if proven else "Best found (not proven optimal)"
    value = objective.describe(line.value)
    if not proven and not objective.one_round:
        value = f"at least {value}"

    def against_runner_up(outcome: SolveOutcome, part: str) -> str:
        runner = outcome.choices.runner_up
        if runner is None:
            return ""
        return (
            f" The runner-up ({describe_changes(getattr(line, part), getattr(runner, part))}) "
            f"gives {objective.describe(runner.value)}: "
            f"{objective.gap(runner.value - line.value)} for the attacker."
        )

    steps[1].text.append(
        f"{best} grouping for the defender: against the attacker's best answer, {value}."
        + against_runner_up(defender, "combats")
    )
    steps[4].text.append(
        f"{best} answer for the attacker: {value}." + against_runner_up(attacker, "attack")
    )
    if line.reallocate:
        moves = "; ".join(f"{s} to {t}" for s, t in line.reallocate.items())
        steps[6].text.append(f"The defender's best moves: {moves}.")
    fight = None
    if not objective.one_round:
        fight = fight_answer(defender)
        steps[7].text.append(fight_sentence(fight))
        steps[7].text.append(why(defender))
    label: Literal["optimal", "best found"] = "optimal" if proven else "best found"
    for step in steps:
        if step.status == "followed":
            step.status = label
    return ExplainAnswer(
        title=battle.title,
        mode=label,
        objective=objective,
        steps=steps,
        warnings=defender.warnings,
        fight=fight,
    )


def explain(
    battle: Battle, objective: Objective = DEFAULT_OBJECTIVE, time_limit: float | None = None
) -> ExplainAnswer:
    """The walkthrough: of the file's allocation, or of the optimal line when it has none."""
    allocation = battle.allocation
    if allocation is not None and allocation.combats is not None:
        return ExplainAnswer(
            title=battle.title,
            mode="check",
            steps=explain_allocation(battle, allocation),
            warnings=battle_warnings(battle),
        )
    return explain_optimal(battle, objective, time_limit)
