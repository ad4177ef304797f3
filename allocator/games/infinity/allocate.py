"""Infinity: the contact arrangement that best wounds one chosen target, found with CP-SAT.

Each free trooper may move into silhouette contact with one enemy it can reach; a base takes no
more models than its contact limit. One trooper in contact with the chosen target attacks, with
+1 B for every other ally touching it; the target answers with its own roll, if it has one.
The solver picks the arrangement and the attacker that maximise P(at least one wound), and the
exact chance of the chosen arrangement is then recomputed in fractions.

>>> problem = AllocationProblem(target="t", troopers=[
...     FreeTrooper(name="a", attribute=13, damage=13, reach=["t"]),
...     FreeTrooper(name="b", attribute=15, damage=13, reach=["t"])],
...     targets=[EnemyTarget(name="t", armour=1)])
>>> plan = allocate(problem)
>>> plan.contacts, plan.attacker, plan.burst
({'a': 't', 'b': 't'}, 'b', 2)
"""

from __future__ import annotations

from contextlib import nullcontext
from dataclasses import dataclass
from fractions import Fraction
from math import ceil

from pydantic import BaseModel, ConfigDict, Field, model_validator

from allocator.core.budget import Budget
from allocator.core.errors import InputError
from allocator.core.limits import Limits, default_limits
from allocator.core.resolution import Resolution
from allocator.games.infinity.details import AllocationDetails
from allocator.games.infinity.dice import FACES, face_to_face
from allocator.games.infinity.profile import InfinityProfile, default_profile
from allocator.games.infinity.rolls import InfinityResolver, check_burst
from allocator.games.infinity.saves import fails_on, wound_distribution
from allocator.games.infinity.troopers import Roller

SCALE = 10**9
"""Probabilities enter the solver as integers out of SCALE; the answer is recomputed exactly."""

#: What the one outcome means, in players' words (the target's name is added).
OUTCOME_WORDS = {"at_least_one_wound": "at least one wound on"}


class FreeTrooper(Roller):
    """An active trooper free to engage: its roll and the enemies it can reach this order."""

    name: str
    reach: list[str] = Field(
        min_length=1, description="Enemy models it can move into silhouette contact with."
    )

    @model_validator(mode="after")
    def _has_damage(self) -> FreeTrooper:
        if not isinstance(self.damage, int):
            raise ValueError(f"trooper {self.name} needs a damage value (a number) to wound")
        return self


class EnemyTarget(BaseModel):
    """An enemy model, the models already touching it, and the roll it answers with."""

    model_config = ConfigDict(extra="forbid")

    name: str
    base_mm: int = Field(25, gt=0, le=1000)
    armour: int = Field(0, ge=0, le=100)
    touching: int = Field(
        0, ge=0, le=64, description="Models already in silhouette contact with it."
    )
    allies_touching: int = Field(
        0, ge=0, le=64, description="Of those, active allies (not free) that add +1 B."
    )
    reaction: Roller | None = Field(None, description="Its Face to Face answer; none: no roll.")

    @model_validator(mode="after")
    def _allies_among_touching(self) -> EnemyTarget:
        if self.allies_touching > self.touching:
            raise ValueError(
                f"allies_touching ({self.allies_touching}) is more than touching ({self.touching})"
            )
        return self


class AllocationProblem(BaseModel):
    """The free troopers, the enemies and the one target to wound."""

    model_config = ConfigDict(extra="forbid")

    troopers: list[FreeTrooper] = Field(min_length=1)
    targets: list[EnemyTarget] = Field(min_length=1)
    target: str

    @model_validator(mode="after")
    def _known_names(self) -> AllocationProblem:
        for kind, items in (("troopers", self.troopers), ("targets", self.targets)):
            names = [item.name for item in items]
            if len(set(names)) != len(names):
                raise ValueError(f"two {kind} share a name")
        enemies = {enemy.name for enemy in self.targets}
        unknown = {name for t in self.troopers for name in t.reach} | {self.target}
        if unknown - enemies:
            raise ValueError(f"unknown targets: {', '.join(sorted(unknown - enemies))}")
        return self

    def enemy(self, name: str) -> EnemyTarget:
        return next(enemy for enemy in self.targets if enemy.name == name)


@dataclass(frozen=True)
class ContactPlan:
    """The chosen arrangement: trooper -> enemy it touches, the attacker and its chance."""

    contacts: dict[str, str]
    attacker: str
    burst: int
    wound_chance: Fraction


def wound_chance(
    trooper: FreeTrooper, burst: int, enemy: EnemyTarget, profile: InfinityProfile
) -> Fraction:
    """P(at least one wound on ``enemy``) when ``trooper`` attacks it with ``burst`` dice."""
    reaction = enemy.reaction or Roller(attribute=0, burst=0)
    odds = face_to_face(
        trooper.success_value(profile), burst, reaction.success_value(profile), reaction.burst
    )
    rule = profile.rule_of(trooper.ammunition, "ammunition")
    armour = 0 if rule.ignores_armour else ceil(enemy.armour / 2) if rule.halves else enemy.armour
    damage = rule.fixed if rule.fixed is not None else int(trooper.damage or 0)
    failure = Fraction(fails_on(profile.save_rule, damage, armour), FACES)
    wounds = wound_distribution(
        odds.active, failure, len(rule.rolls), profile.extra_saves_per_critical
    )
    return 1 - wounds.get(0, Fraction(0))


def check_sizes(problem: AllocationProblem, profile: InfinityProfile, limits: Limits) -> None:
    """Refuse, before any work, what is over a limit: troopers, targets, SV and Burst."""
    for kind, count in (("troopers", len(problem.troopers)), ("targets", len(problem.targets))):
        if count > limits.max_stands_per_side:
            raise limits.refuse("max_stands_per_side", f"{count} {kind}", place=kind)
    rolls = InfinityResolver(profile, limits)
    target = problem.enemy(problem.target)
    room = profile.contact_limit(target.base_mm).max_models - target.touching
    for number, trooper in enumerate(problem.troopers):
        place = f"troopers[{number}]"
        rule = profile.rule_of(trooper.ammunition, f"{place}.ammunition")
        if "BTS" in rule.rolls or rule.effects:
            raise InputError(
                f"the arrangement reads wounds against ARM; {trooper.ammunition} is not one",
                place=f"{place}.ammunition",
            )
        if trooper.traits or trooper.skills.levels():
            raise InputError("the arrangement reads no skills and no weapon traits", place=place)
        rolls.success_value(trooper, place)
        most = rolls.checked_burst(trooper, [], place) + target.allies_touching + max(room - 1, 0)
        check_burst(most, f"a Burst of up to {most} with allies", limits, f"{place}.burst")
    for number, enemy in enumerate(problem.targets):
        if enemy.reaction is not None:
            place = f"targets[{number}].reaction"
            rolls.success_value(enemy.reaction, place)
            rolls.checked_burst(enemy.reaction, [], place)


def allocate(
    problem: AllocationProblem,
    profile: InfinityProfile | None = None,
    limits: Limits | None = None,
    budget: Budget | None = None,
) -> ContactPlan:
    """Solve the arrangement with CP-SAT (imported here: it costs a third of a second), within
    ``budget``: the exact best arrangement, or :class:`TimeLimitError` when it runs out."""
    from allocator.core.cpsat import cp_model, new_solver

    rules = profile or default_profile()
    check_sizes(problem, rules, limits or default_limits())
    target = problem.enemy(problem.target)
    model = cp_model.CpModel()
    touch = {
        (trooper.name, enemy): model.new_bool_var(f"{trooper.name}->{enemy}")
        for trooper in problem.troopers
        for enemy in trooper.reach
    }
    for trooper in problem.troopers:
        model.add_at_most_one(touch[trooper.name, enemy] for enemy in trooper.reach)
    for enemy in problem.targets:
        room = rules.contact_limit(enemy.base_mm).max_models - enemy.touching
        on_enemy = [var for (_, name), var in touch.items() if name == enemy.name]
        if room < 0:
            raise InputError(f"{enemy.name} already has more models touching it than allowed")
        model.add(sum(on_enemy) <= room)
    on_target = {name: var for (name, enemy), var in touch.items() if enemy == target.name}
    if not on_target:
        raise InputError(f"no free trooper can reach {target.name}")
    free_room = min(
        len(on_target), rules.contact_limit(target.base_mm).max_models - target.touching
    )
    if free_room <= 0:
        raise InputError(f"{target.name} has no room for another model in contact")
    chances: dict[tuple[str, int], Fraction] = {}
    choose = {}
    for trooper in problem.troopers:
        if trooper.name not in on_target:
            continue
        for helpers in range(free_room):
            burst = trooper.burst + target.allies_touching + helpers
            chances[trooper.name, helpers] = wound_chance(trooper, burst, target, rules)
            var = model.new_bool_var(f"{trooper.name} attacks with {helpers} helpers")
            others = [v for name, v in on_target.items() if name != trooper.name]
            model.add(sum(others) == helpers).only_enforce_if(var)
            model.add_implication(var, on_target[trooper.name])
            choose[trooper.name, helpers] = var
    model.add_exactly_one(choose.values())
    committed = sum(touch.values())
    score = sum(round(chances[key] * SCALE) * var for key, var in choose.items())
    model.maximize(score * (len(touch) + 1) - committed)
    if budget is not None:
        budget.check("the best arrangement")
    solver = new_solver(
        model,
        budget.remaining(floor=0.001) if budget is not None else None,
        budget.memory_left_mb() if budget is not None else None,
    )
    with nullcontext() if budget is None else budget.stopping(solver.stop_search):
        status = solver.solve(model)
    if status in (cp_model.FEASIBLE, cp_model.UNKNOWN) and budget is not None:
        raise budget.ran_out("the best arrangement")
    if status != cp_model.OPTIMAL:
        raise InputError(f"no arrangement found (solver status {solver.status_name(status)})")
    attacker, helpers = next(key for key, var in choose.items() if solver.value(var))
    trooper = next(t for t in problem.troopers if t.name == attacker)
    return ContactPlan(
        contacts={name: enemy for (name, enemy), var in touch.items() if solver.value(var)},
        attacker=attacker,
        burst=trooper.burst + target.allies_touching + helpers,
        wound_chance=chances[attacker, helpers],
    )


def allocation_resolution(
    problem: AllocationProblem,
    profile: InfinityProfile | None = None,
    limits: Limits | None = None,
    budget: Budget | None = None,
) -> Resolution:
    """The best arrangement as a resolution: its exact chance, the contacts and the attacker."""
    plan = allocate(problem, profile, limits, budget)
    moves = [
        f"{trooper} moves into contact with {enemy}" for trooper, enemy in plan.contacts.items()
    ]
    steps = [
        "of every way the free troopers can move into contact (no base touched by more models"
        " than its limit) and every choice of attacker, this one gives the best chance of at"
        " least one wound (between equal chances, the one that moves the fewest troopers)",
        *moves,
        f"{plan.attacker} attacks {problem.target} with Burst {plan.burst}",
    ]
    details = AllocationDetails(
        target=problem.target, contacts=plan.contacts, attacker=plan.attacker, burst=plan.burst
    )
    return Resolution(
        "infinity-allocate", {"at_least_one_wound": plan.wound_chance}, steps, [], details
    )
