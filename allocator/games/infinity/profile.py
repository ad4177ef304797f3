"""The Infinity rulesets: every number the close-combat resolver reads, one profile per edition.

``models/rulesets/infinity.yaml`` is N4 (the default) and ``models/rulesets/infinity-n5.yaml``
is N5. A profile holds the modifier cap, the contact limits, how a save is rolled, the
ammunition, the weapon traits, the immunities and the close-combat skills with their levels;
values its comments mark *unverified* are readings a player may correct in a copy
(``--profile FILE``).

>>> n4, n5 = default_profile("n4"), default_profile("n5")
>>> n4.save_rule, n5.save_rule
('damage_minus_armour', 'armour_plus_ps')
>>> n5.skills["martial_arts"]["3"].special_dice, n4.ammunition["DA"].rolls
(1, ['ARM', 'ARM'])
"""

from __future__ import annotations

from functools import cache
from pathlib import Path
from typing import Annotated, Any, Literal

from pydantic import BaseModel, BeforeValidator, ConfigDict, Field, model_validator

from allocator.core.errors import InputError
from allocator.core.resolution import load_profile, row_reached
from allocator.games.infinity.details import Edition

#: Every Burst in a file is at most this (the highest the ``max_burst`` limit may be raised to);
#: the configured limit is checked before any work.
BURST_BOUND = 200
#: The shipped profile of each edition, by its file name in ``models/rulesets/``.
PROFILE_NAMES: dict[Edition, str] = {"n4": "infinity", "n5": "infinity-n5"}
EDITIONS: tuple[Edition, ...] = ("n4", "n5")

Attribute = Annotated[int, Field(ge=-100, le=100)]
Modifier = Annotated[int, Field(ge=-40, le=40)]
Wording = Literal["n4", "silhouette"]
SaveKind = Literal["ARM", "BTS"]
SaveRule = Literal["damage_minus_armour", "armour_plus_ps"]
SkillName = Literal[
    "martial_arts", "guard", "protheion", "natural_born_warrior", "i_kohl", "special_die"
]
#: What each skill is called at the table.
SKILL_TITLES: dict[str, str] = {
    "martial_arts": "Martial Arts",
    "guard": "Guard",
    "protheion": "Protheion",
    "natural_born_warrior": "Natural Born Warrior",
    "i_kohl": "i-Kohl",
    "special_die": "+1 Special Die",
    "berserk": "Berserk",
    "no_wound_incapacitation": "No Wound Incapacitation",
    "dogged": "Dogged",
}
Name = Annotated[str, Field(min_length=1, max_length=24, pattern=r"^[A-Za-z0-9][A-Za-z0-9/+ -]*$")]


class _Rule(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)


class ContactLimit(_Rule):
    min_base_mm: int = Field(ge=0, le=1000)
    max_models: int = Field(ge=1, le=64)
    rule: str = Field(max_length=64)


def _saves_as_rolls(value: Any) -> Any:
    """An older profile's ``DA: 2`` (two saves against ARM) as ``{rolls: [ARM, ARM]}``."""
    if isinstance(value, int) and not isinstance(value, bool) and 1 <= value <= 10:
        return {"rolls": ["ARM"] * value}
    return value


class AmmunitionRule(_Rule):
    """What each hit of one ammunition makes the target roll, and what a failed save does."""

    rolls: list[SaveKind] = Field(
        min_length=1, max_length=4, description="The saves each hit forces, in order (ARM, BTS)."
    )
    halves: bool = Field(False, description="ARM/BTS halved, rounded up (AP; E/M in N4).")
    wounds: int = Field(1, ge=1, le=5, description="Wounds per failed save (T2: 2).")
    continuous: bool = Field(False, description="A failed save is rolled again until passed.")
    shock: bool = Field(False, description="A failed save kills a W/VITA 1 trooper outright.")
    kills: bool = Field(False, description="A failed save kills outright, whatever W/VITA.")
    fixed: int | None = Field(
        None, ge=0, le=40, description="Replaces the weapon's DAM (N4) or PS (N5)."
    )
    ignores_armour: bool = Field(False, description="The target saves with ARM/BTS 0.")
    effects: list[Name] = Field(
        default_factory=list,
        max_length=4,
        description="A failed save puts the target in these states and wounds nothing.",
    )
    effects_by_type: dict[Name, list[Name]] = Field(
        default_factory=dict, max_length=10, description="More states for some trooper types."
    )
    description: str = Field("", max_length=200)


Saves = Annotated[AmmunitionRule, BeforeValidator(_saves_as_rolls)]


class TraitRule(_Rule):
    continuous: bool = Field(False, description="Continuous Damage: saves repeat until passed.")
    description: str = Field("", max_length=200)


class ImmunityRule(_Rule):
    ignores_shock: bool = False
    ignores_critical_saves: bool = Field(
        False, description="The extra save of a critical is not rolled."
    )
    as_normal: list[Name] = Field(
        default_factory=list, max_length=40, description="Ammunition treated as N against it."
    )
    unaffected_by: list[Name] = Field(
        default_factory=list, max_length=40, description="Ammunition that forces no save on it."
    )
    description: str = Field("", max_length=200)


class SkillLevel(_Rule):
    """One level of a close-combat skill: its MODs and what else it does."""

    attack: Modifier = Field(0, description="MOD to the user's CC when it makes a CC Attack.")
    opponent: Modifier = Field(0, description="MOD to the enemy's roll in a Face to Face Roll.")
    damage: Modifier = Field(0, description="MOD to PH for the damage of a PH-based weapon.")
    burst: int = Field(0, ge=0, le=10, description="More Burst for the user's CC Attack.")
    special_dice: int = Field(
        0, ge=0, le=5, description="Extra dice rolled, one discarded each (+1 SD)."
    )
    cancels_opponent_skills: bool = Field(
        False, description="The enemy's close-combat skills do nothing (N4 NBW A)."
    )
    ignores_opponent_modifiers: bool = Field(
        False, description="The MODs the enemy's skills impose on its roll do nothing (N5 NBW)."
    )
    opponent_when_dodging: bool = Field(
        False, description="The opponent MOD applies also when the user Dodges (i-Kohl)."
    )
    not_against_structure: bool = Field(
        False, description="The opponent MOD does nothing to a trooper with STR (i-Kohl)."
    )
    note: str = Field("", max_length=200, description="What else the level does, in words.")


def _text_keys(value: Any) -> Any:
    """Level names as text: YAML reads ``1:`` as a number."""
    if isinstance(value, dict):
        return {str(key) if isinstance(key, int) else key: level for key, level in value.items()}
    return value


Levels = Annotated[dict[Name, SkillLevel], BeforeValidator(_text_keys)]


class BerserkRule(_Rule):
    attack: Modifier | None = Field(
        description="Its MOD to CC; none: the MOD in brackets on the trooper, Berserk (+3)."
    )
    normal_rolls: bool = Field(description="Both troopers make Normal Rolls, not Face to Face.")


class FireteamBonus(_Rule):
    members: int = Field(ge=2, le=10)
    attack: Modifier = 0
    burst: int = Field(0, ge=0, le=5)


class InfinityProfile(BaseModel):
    """The numbers of ``models/rulesets/infinity.yaml`` (N4) or ``infinity-n5.yaml`` (N5)."""

    model_config = ConfigDict(extra="forbid")

    edition: Edition = Field("n4", description="The ruleset it describes.")
    title: str = Field("Infinity N4", max_length=80)
    modifier_cap: int = Field(ge=0, le=40)
    success_value_range: tuple[Attribute, Attribute]
    max_burst: int = Field(ge=1, le=BURST_BOUND, description="The largest Burst a side declares.")
    contact_limits: list[ContactLimit] = Field(min_length=1, max_length=20)
    save_rule: SaveRule = Field(
        "damage_minus_armour",
        description="damage_minus_armour: a save fails on d20 <= DAM - ARM (N4);"
        " armour_plus_ps: it passes on d20 <= ARM + PS (N5).",
    )
    ammunition: dict[Name, Saves] = Field(min_length=1, max_length=40)
    extra_saves_per_critical: int = Field(ge=0, le=10)
    traits: dict[Name, TraitRule] = Field(default_factory=dict, max_length=20)
    immunities: dict[Name, ImmunityRule] = Field(default_factory=dict, max_length=20)
    skills: dict[SkillName, Levels] = Field(default_factory=dict)
    berserk: BerserkRule | None = None
    fights_on: list[Literal["no_wound_incapacitation", "dogged"]] = Field(
        default_factory=list,
        description="Skills that keep a trooper fighting at 0 W/VITA instead of Unconscious.",
    )
    max_special_dice: int = Field(1, ge=0, le=5, description="Most extra dice a roll gets.")
    fireteam: list[FireteamBonus] = Field(
        default_factory=list, max_length=10, description="Bonuses a Fireteam gives in CC."
    )
    wording: Wording
    orders: int = Field(5, ge=1, le=10, description="Orders the repeated exchange is shown for.")
    listed_wounds: int = Field(
        24, ge=1, le=60, description="Most wounds listed one by one (Continuous Damage)."
    )
    unverified: list[str] = Field(
        default_factory=list, max_length=100, description="Values not checked against the book."
    )

    @model_validator(mode="after")
    def _consistent(self) -> InfinityProfile:
        low, high = self.success_value_range
        if low > high:
            raise ValueError(f"success_value_range [{low}, {high}] is upside down")
        if "N" not in self.ammunition:
            raise ValueError("ammunition needs N (Normal): Total Immunity turns others into it")
        for name, immunity in self.immunities.items():
            unknown = sorted(
                set(immunity.as_normal + immunity.unaffected_by) - set(self.ammunition)
            )
            if unknown:
                raise ValueError(f"immunity {name} names unknown ammunition {', '.join(unknown)}")
        return self

    def contact_limit(self, base_mm: int) -> ContactLimit:
        """The limit row for a base: the largest ``min_base_mm`` the base reaches."""
        return row_reached(
            self.contact_limits,
            lambda row: row.min_base_mm,
            base_mm,
            f"no contact limit in the profile for a {base_mm} mm base",
        )

    def saves(self, ammunition: str) -> int:
        """Saves each hit of ``ammunition`` forces.

        >>> default_profile().saves("EXP")
        3
        """
        return len(self.rule_of(ammunition, "ammunition").rolls)

    def rule_of(self, ammunition: str, place: str) -> AmmunitionRule:
        """The rule of one ammunition, or an InputError naming ``place`` and the known ones."""
        if ammunition not in self.ammunition:
            known = ", ".join(self.ammunition)
            raise InputError(
                f"no ammunition {ammunition!r} in the {self.edition} ruleset (known: {known})",
                place=place,
            )
        return self.ammunition[ammunition]

    def fireteam_bonus(self, members: int) -> FireteamBonus | None:
        """The bonus of a Fireteam of ``members`` (the largest row reached), if there is one."""
        reached = [row for row in self.fireteam if members >= row.members]
        return max(reached, key=lambda row: row.members) if reached else None


@cache
def default_profile(edition: Edition = "n4") -> InfinityProfile:
    """The shipped profile of ``edition``, read once.

    >>> default_profile("n5").title
    'Infinity N5'
    """
    return load_profile(InfinityProfile, PROFILE_NAMES[edition])


def load_infinity_profile(path: Path | None) -> InfinityProfile | None:
    """A user's profile file; none when no file is given (the engagement's ruleset decides).

    >>> load_infinity_profile(None) is None
    True
    """
    return load_profile(InfinityProfile, "infinity", path) if path else None
