"""The Infinity engagement file: two troopers, the ruleset, and optionally a melee of several.

A trooper is what a player reads off a profile: the attribute it rolls (CC for a CC Attack,
PH for a Dodge) with the situational MODs, its Burst, its weapon (DAM in N4 or PS in N5, the
ammunition, traits such as Continuous Damage), its ARM and BTS, its W/VITA (STR with
``structure``), the wounds it has already taken, and its close-combat skills. The older short
form (an attribute, modifiers, a Burst, a DAM, an ammunition and an ARM) is the same model with
the other fields left out.

>>> engagement = InfinityEngagement.model_validate({"rules": "n5",
...     "active": {"attribute": 15, "ps": 8, "skills": {"martial_arts": 3}},
...     "reactive": {"attribute": 13, "ps": 8, "armour": 1, "vita": 1}})
>>> engagement.active.skills.martial_arts, engagement.reactive.vita
(3, 1)
"""

from __future__ import annotations

from typing import Annotated, Literal

from pydantic import BaseModel, ConfigDict, Field, model_validator

from allocator.games.infinity.details import Edition, Side
from allocator.games.infinity.melee import Melee
from allocator.games.infinity.profile import BURST_BOUND, Attribute, InfinityProfile, Name

Action = Literal["cc_attack", "dodge", "none"]
TrooperType = Literal["LI", "MI", "HI", "TAG", "REM", "SK", "WB", "VH"]
Level = Annotated[int, Field(ge=0, le=9)]

#: The players' words for each action.
ACTIONS: dict[str, str] = {
    "cc_attack": "CC Attack",
    "dodge": "Dodge",
    "none": "no roll",
}


class Skills(BaseModel):
    """The close-combat skills a trooper uses (all it has: each only helps, but Berserk)."""

    model_config = ConfigDict(extra="forbid")

    martial_arts: Level = Field(0, description="Martial Arts level (0: none).")
    guard: Level | bool = Field(0, description="Guard level in N4; true in N5.")
    protheion: Level = Field(0, description="Protheion level (N4).")
    natural_born_warrior: Literal["A", "B"] | bool = Field(
        False, description="Natural Born Warrior: A or B in N4, true in N5."
    )
    i_kohl: Level = Field(0, description="i-Kohl level (N4).")
    special_die: bool = Field(False, description="+1 Special Die on its CC Attack (N5).")
    berserk: bool | Annotated[int, Field(ge=-12, le=12)] = Field(
        False, description="Berserk: true, or the MOD in its brackets, Berserk (+3) is 3."
    )
    no_wound_incapacitation: bool = Field(False, description="Keeps fighting at 0 W/VITA.")
    dogged: bool = Field(False, description="Keeps fighting at 0 W/VITA.")
    immunity: list[Name] = Field(
        default_factory=list, max_length=8, description="Immunities: shock, total, critical."
    )

    def levels(self) -> dict[str, str]:
        """Each levelled skill it has, with the name of its level in a profile's table.

        >>> Skills(martial_arts=3, natural_born_warrior=True).levels()
        {'martial_arts': '3', 'natural_born_warrior': 'yes'}
        """
        found: dict[str, str] = {}
        for name in ("martial_arts", "guard", "protheion", "natural_born_warrior", "i_kohl"):
            value = getattr(self, name)
            if value is True:
                found[name] = "yes"
            elif value is not False and value != 0:
                found[name] = str(value)
        if self.special_die:
            found["special_die"] = "yes"
        return found


class Trooper(BaseModel):
    """One side of the close combat: its roll, its weapon, its protection and its skills."""

    model_config = ConfigDict(extra="forbid")

    name: str = Field("", max_length=80, description="Shown in the report.")
    type: TrooperType | None = Field(None, description="LI, MI, HI, TAG, REM, ... (E/M reads it).")
    action: Action = Field("cc_attack", description="cc_attack, dodge or none (no roll).")
    attribute: Attribute = Field(description="The attribute rolled against (CC, PH, ...).")
    modifiers: list[Annotated[int, Field(ge=-100, le=100)]] = Field(
        default_factory=list, max_length=20, description="Situational MODs, summed and capped."
    )
    burst: int = Field(
        1, ge=0, le=BURST_BOUND, description="Dice declared before bonuses (0: no roll)."
    )
    weapon: str = Field("", max_length=80, description="The weapon's name, for the report.")
    damage: Annotated[int, Field(ge=0, le=100)] | Literal["PH"] | None = Field(
        None,
        description="N4: the weapon's DAM, or PH (the trooper's PH, with the skills' damage"
        " MODs); none: no saves computed.",
    )
    ph: Attribute | None = Field(None, description="PH, for a weapon whose DAM is PH.")
    ps: int | None = Field(None, ge=0, le=40, description="N5: the weapon's PS.")
    ammunition: Name = Field("N", description="One of the ruleset's ammunition (N, AP, DA, ...).")
    traits: list[Name] = Field(
        default_factory=list, max_length=8, description="Weapon traits: continuous."
    )
    armour: int = Field(0, ge=0, le=100, description="ARM, for the saves it makes.")
    bts: int = Field(0, ge=0, le=100, description="BTS, for the saves it makes.")
    vita: int | None = Field(
        None, ge=1, le=20, description="W (N4), VITA (N5), or STR with structure; none: no states."
    )
    structure: bool = Field(False, description="Its W/VITA is STR.")
    wounds_taken: int = Field(0, ge=0, le=20, description="Wounds it has already taken.")
    allies: int = Field(0, ge=0, le=20, description="Allies giving it +1 B each (without a melee).")
    fireteam: int = Field(0, ge=0, le=10, description="Members of its Fireteam (0: none).")
    skills: Skills = Field(default_factory=Skills)

    @model_validator(mode="after")
    def _consistent(self) -> Trooper:
        if self.vita is None and self.wounds_taken:
            raise ValueError("wounds_taken needs vita (its W/VITA or STR)")
        if self.vita is not None and self.wounds_taken > self.vita:
            raise ValueError(
                f"wounds_taken {self.wounds_taken} is more than vita {self.vita}: it is Dead"
            )
        if self.damage == "PH" and self.ph is None:
            raise ValueError("a damage of PH needs ph")
        return self

    @property
    def rolls(self) -> bool:
        return self.action != "none" and self.burst > 0

    def success_value(self, profile: InfinityProfile) -> int:
        """The attribute with the file's MODs, capped, and no skill (the contact arrangement's
        reading of a roll)."""
        cap = profile.modifier_cap
        return self.attribute + max(-cap, min(cap, sum(self.modifiers)))


#: The older name of a trooper: one side of a roll.
Roller = Trooper


class InfinityEngagement(BaseModel):
    """A close combat of two troopers, optionally in a melee that adds Burst for allies.

    >>> engagement = InfinityEngagement(
    ...     active=Trooper(attribute=12), reactive=Trooper(attribute=12))
    >>> from allocator.games.infinity.rolls import InfinityResolver
    >>> InfinityResolver().resolve(engagement).distribution["neither"]
    Fraction(19, 100)
    """

    model_config = ConfigDict(extra="forbid")

    rules: Edition | None = Field(None, description="n4 or n5; none: n4, or the --profile's.")
    active: Trooper
    reactive: Trooper
    melee: Melee | None = None

    def roller(self, side: Side) -> Trooper:
        return self.active if side == "active" else self.reactive
