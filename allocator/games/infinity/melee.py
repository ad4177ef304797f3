"""Several troopers in one close combat: who touches whom, who attacks, and the +1 B of allies.

Active turn: the attacker gets +1 B for each ally in silhouette contact with its target, not Null
or Immobilized. Reactive turn: +1 B for each ally engaged with the active trooper, not Null or
Immobilized and not having declared Dodge, Idle or Reset; the ``n4`` wording also needs the
Engaged State, the ``silhouette`` wording (N5) only silhouette contact. :func:`check_melee`
reports the contact limits, the attackers' own contact and every ally claimed wrongly.

>>> melee = Melee(models=[MeleeModel(name="a", side="active"),
...     MeleeModel(name="b", side="active"), MeleeModel(name="t", side="reactive")],
...     contacts=[("a", "t"), ("b", "t")], active_trooper="a", active_target="t")
>>> from allocator.games.infinity.profile import default_profile
>>> burst_bonus(melee, "a", default_profile())
['b']
"""

from __future__ import annotations

from typing import Literal

from pydantic import BaseModel, ConfigDict, Field, model_validator

from allocator.core.violations import Violation
from allocator.games.infinity.details import Side
from allocator.games.infinity.profile import InfinityProfile, Wording


class MeleeModel(BaseModel):
    """A model of the close combat: its side, base, state and declared skill."""

    model_config = ConfigDict(extra="forbid")

    name: str
    side: Side
    base_mm: int = Field(25, gt=0, le=1000)
    state: Literal["normal", "null", "immobilized"] = "normal"
    declared: Literal["cc_attack", "dodge", "idle", "reset", "none"] = "none"
    engaged: bool = Field(True, description="In the Engaged State (read by the N4 wording).")


class Melee(BaseModel):
    """Who touches whom, who attacks, and which allies each attacker claims as a Burst bonus."""

    model_config = ConfigDict(extra="forbid")

    models: list[MeleeModel] = Field(min_length=2, max_length=100)
    contacts: list[tuple[str, str]] = Field(
        max_length=1000, description="Pairs of models in silhouette contact."
    )
    active_trooper: str = Field(description="The active model that makes the CC Attack.")
    active_target: str = Field(description="The reactive model it attacks.")
    reactive_attacker: str | None = Field(None, description="The reactive model attacking back.")
    claimed_allies: dict[str, list[str]] = Field(
        default_factory=dict, max_length=100, description="Allies an attacker counts for +1 B."
    )
    wording: Wording | None = Field(None, description="None: the profile's wording.")

    @model_validator(mode="after")
    def _known_names(self) -> Melee:
        names = {model.name for model in self.models}
        if len(names) != len(self.models):
            raise ValueError("two models share a name")
        mentioned = [name for pair in self.contacts for name in pair]
        mentioned += [self.active_trooper, self.active_target, *self.claimed_allies]
        mentioned += [name for allies in self.claimed_allies.values() for name in allies]
        if self.reactive_attacker:
            mentioned.append(self.reactive_attacker)
        unknown = sorted(set(mentioned) - names)
        if unknown:
            raise ValueError(f"unknown models: {', '.join(unknown)}")
        return self

    def model(self, name: str) -> MeleeModel:
        return next(model for model in self.models if model.name == name)

    def touching(self, name: str) -> set[str]:
        return {b for a, b in self.contacts if a == name} | {
            a for a, b in self.contacts if b == name
        }


def _ineligibility(melee: Melee, attacker: str, ally: str, wording: Wording) -> str | None:
    """Why ``ally`` adds no Burst to ``attacker``, or None when it does."""
    model, attacking = melee.model(ally), melee.model(attacker)
    if ally == attacker:
        return "is the attacker itself"
    if model.side != attacking.side:
        return "is not an ally of the attacker"
    if model.state != "normal":
        return f"is {model.state.capitalize()}"
    if attacking.side == "active":
        if melee.active_target not in melee.touching(ally):
            return f"is not in silhouette contact with the target {melee.active_target}"
        return None
    if model.declared in ("dodge", "idle", "reset"):
        return f"declared {model.declared.capitalize()}"
    if melee.active_trooper not in melee.touching(ally):
        return f"is not in silhouette contact with the active trooper {melee.active_trooper}"
    if wording == "n4" and not model.engaged:
        return "is not in the Engaged State (N4 wording)"
    return None


def burst_bonus(melee: Melee, attacker: str, profile: InfinityProfile) -> list[str]:
    """The allies that give ``attacker`` +1 B each (the melee's wording, else the profile's)."""
    wording = melee.wording or profile.wording
    return [
        model.name
        for model in melee.models
        if _ineligibility(melee, attacker, model.name, wording) is None
    ]


def check_melee(melee: Melee, profile: InfinityProfile) -> list[Violation]:
    """Contact limits per base, the attackers' own contact, and every claimed ally."""
    violations: list[Violation] = []
    for model in melee.models:
        limit = profile.contact_limit(model.base_mm)
        touching = sorted(melee.touching(model.name))
        if len(touching) > limit.max_models:
            violations.append(
                Violation(
                    rule=limit.rule,
                    step=0,
                    message=f"{model.name} ({model.base_mm} mm base) has {len(touching)} models"
                    f" in silhouette contact; at most {limit.max_models} may touch it.",
                    stands=[model.name, *touching],
                )
            )
    attacks: list[tuple[Side, str, str]] = [("active", melee.active_trooper, melee.active_target)]
    if melee.reactive_attacker:
        attacks.append(("reactive", melee.reactive_attacker, melee.active_trooper))
    for side, name, foe in attacks:
        model = melee.model(name)
        if model.side != side:
            problem = f"is on the {model.side} side"
        elif model.state != "normal":
            problem = f"is {model.state.capitalize()}"
        elif foe not in melee.touching(name):
            problem = f"is not in silhouette contact with {foe}"
        else:
            continue
        violations.append(
            Violation(
                rule="INF-attacker",
                step=0,
                message=f"{name} cannot make the {side} CC Attack: it {problem}.",
                stands=[name],
            )
        )
    wording = melee.wording or profile.wording
    for attacker, allies in melee.claimed_allies.items():
        for ally in allies:
            reason = _ineligibility(melee, attacker, ally, wording)
            if reason:
                violations.append(
                    Violation(
                        rule="INF-ally",
                        step=0,
                        message=f"{ally} is counted for +1 B to {attacker} but {reason}.",
                        stands=[attacker, ally],
                    )
                )
    return violations
