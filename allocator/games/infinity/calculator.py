"""The Infinity close-combat calculator as a page or a program calls it: two troopers and a
ruleset in, the typed answer out; and the menus (rulesets, ammunition, traits, immunities,
skills with their levels) a page builds its forms from, read from the ruleset profiles.

>>> from allocator.games.infinity.details import InfinityDetails
>>> resolution = close_combat({"attribute": 15, "ps": 8, "vita": 1},
...     {"attribute": 13, "ps": 8, "armour": 1, "vita": 1}, rules="n5")
>>> resolution.distribution["active_wins"]
Fraction(207, 400)
>>> [trooper.side for trooper in resolution.details_of(InfinityDetails).troopers]
['active', 'reactive']
>>> menu = menus().ruleset("n5")
>>> [option.value for option in menu.skill("martial_arts").options]
[0, 1, 2, 3, 4, 5]
"""

from __future__ import annotations

from collections.abc import Mapping
from functools import cache
from pathlib import Path
from typing import Any, Literal, get_args

from pydantic import BaseModel, ConfigDict, Field

from allocator.core.budget import Budget
from allocator.core.library import names, shipped
from allocator.core.limits import Limits
from allocator.core.reader import read_file
from allocator.core.resolution import Resolution
from allocator.core.validation import validate
from allocator.games.infinity.details import Edition, Side
from allocator.games.infinity.melee import Melee
from allocator.games.infinity.modifiers import level_label
from allocator.games.infinity.profile import (
    EDITIONS,
    SKILL_TITLES,
    InfinityProfile,
    SkillLevel,
    default_profile,
)
from allocator.games.infinity.rolls import InfinityResolver
from allocator.games.infinity.troopers import ACTIONS, InfinityEngagement, Trooper, TrooperType

__all__ = ["InfinityMenus", "close_combat", "menus"]

TROOPER_TYPES: tuple[TrooperType, ...] = get_args(TrooperType)


def close_combat(
    active: Trooper | Mapping[str, Any],
    reactive: Trooper | Mapping[str, Any],
    rules: Edition | None = None,
    *,
    melee: Melee | Mapping[str, Any] | None = None,
    profile: InfinityProfile | None = None,
    limits: Limits | None = None,
    budget: Budget | None = None,
) -> Resolution:
    """The exact close combat of ``active`` against ``reactive``.

    Parameters
    ----------
    active, reactive : Trooper or mapping
        Each trooper as a :class:`~allocator.games.infinity.troopers.Trooper` or its fields as
        a mapping (what a page posts): attribute, burst, weapon, ARM, BTS, W/VITA, skills...
    rules : {"n4", "n5"}, optional
        The ruleset; none: the profile's edition, else N4.
    melee : Melee or mapping, optional
        Several troopers in silhouette contact, for the allies' +1 B and the contact rules.
    profile : InfinityProfile, optional
        A profile replacing the shipped one of ``rules`` (it must be of that edition).
    limits : Limits, optional
        The limits (``max_burst``); none: the process's.
    budget : Budget, optional
        The time limit (a server's), checked between the stages of the work; none: no limit.

    Returns
    -------
    Resolution
        The answer the command line prints (``allocator.games.answer.resolve_answer`` makes it
        the typed JSON answer), with an
        :class:`~allocator.games.infinity.details.InfinityDetails` as its details.

    Raises
    ------
    InputError
        A field out of range (named as ``active.burst``), a skill, ammunition or immunity the
        ruleset does not have, a profile of the other edition.
    LimitError
        A Burst over the ``max_burst`` limit.
    TimeLimitError
        When ``budget`` ran out.
    """
    engagement = validate(
        InfinityEngagement,
        {"rules": rules, "active": active, "reactive": reactive, "melee": melee},
    )
    return InfinityResolver(profile, limits).resolve(engagement, budget)


# --- the menus --------------------------------------------------------------------------------


class _Menu(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)


class MenuItem(_Menu):
    name: str = Field(description="What the engagement file says.")
    description: str = ""


class SkillOption(_Menu):
    value: int | str | bool = Field(description="The value of the skill's field in the file.")
    label: str


class SkillMenu(_Menu):
    name: str = Field(description="The field of ``skills`` in the engagement file.")
    title: str
    kind: Literal["level", "flag", "modifier"] = Field(
        description="level: one of the options; flag: true or false; modifier: false, true or"
        " the MOD in brackets."
    )
    options: list[SkillOption]


class RulesetMenu(_Menu):
    name: Edition
    title: str
    strength: Literal["damage", "ps"] = Field(description="The weapon field saves read.")
    vita: Literal["W", "VITA"]
    max_burst: int
    modifier_cap: int
    orders: int
    ammunition: list[MenuItem]
    traits: list[MenuItem]
    immunities: list[MenuItem]
    skills: list[SkillMenu]
    actions: list[MenuItem]
    trooper_types: list[str]
    unverified: list[str]

    def skill(self, name: str) -> SkillMenu:
        return next(skill for skill in self.skills if skill.name == name)


class FieldMenu(_Menu):
    """One field of a trooper: how a profile writes it, what it is, its bounds and default."""

    name: str = Field(description="The trooper's field in the engagement file.")
    label: str = Field(description="How a profile writes it: CC, B, ARM, ...")
    description: str
    minimum: int | None = None
    maximum: int | None = None
    max_length: int | None = Field(None, description="The longest text it takes.")
    default: int | str | bool | None = None


class ExampleMenu(_Menu):
    """A shipped engagement of two troopers to start from."""

    name: str = Field(description="Its name (`cfalloc resolve infinity --example-name NAME`).")
    description: str
    engagement: InfinityEngagement


class InfinityMenus(_Menu):
    """What a calculator page offers: one menu per ruleset, the troopers' fields, the words of
    the two sides, and the shipped examples of two troopers."""

    default: Edition
    rulesets: list[RulesetMenu]
    fields: list[FieldMenu] = Field(default_factory=list)
    sides: dict[Side, str] = Field(default_factory=dict, description="Each side's name.")
    examples: list[ExampleMenu] = Field(default_factory=list)
    start: str | None = Field(None, description="The example a page opens with.")

    def ruleset(self, name: Edition) -> RulesetMenu:
        return next(menu for menu in self.rulesets if menu.name == name)


def _describe(skill: str, level: str, rule: SkillLevel) -> str:
    parts = [
        f"{what} {value:+d}"
        for what, value in (
            ("attack", rule.attack),
            ("opponent", rule.opponent),
            ("damage", rule.damage),
        )
        if value
    ]
    parts += [f"+{rule.burst} B"] if rule.burst else []
    parts += [f"+{rule.special_dice} SD"] if rule.special_dice else []
    parts += [rule.note] if rule.note else []
    label = level_label(skill, level)
    return f"{label} ({', '.join(parts)})" if parts else label


def _skill_menus(profile: InfinityProfile) -> list[SkillMenu]:
    found = []
    for skill, table in profile.skills.items():
        options = [SkillOption(value=False if "yes" in table else 0, label="none")]
        for level, rule in table.items():
            value: int | str | bool = (
                True if level == "yes" else int(level) if level.isdigit() else level
            )
            options.append(SkillOption(value=value, label=_describe(skill, level, rule)))
        kind: Literal["level", "flag"] = "flag" if list(table) == ["yes"] else "level"
        found.append(SkillMenu(name=skill, title=SKILL_TITLES[skill], kind=kind, options=options))
    berserk = profile.berserk
    if berserk is not None:
        rolls = ", Normal Rolls for both" if berserk.normal_rolls else ""
        if berserk.attack is None:  # the MOD in its brackets: Berserk (+3) is 3
            chosen = [
                SkillOption(value=mod, label=f"Berserk ({mod:+d} CC{rolls})")
                for mod in range(1, profile.modifier_cap + 1)
            ]
        else:
            chosen = [SkillOption(value=True, label=f"Berserk ({berserk.attack:+d} CC{rolls})")]
        found.append(
            SkillMenu(
                name="berserk",
                title="Berserk",
                kind="modifier",
                options=[SkillOption(value=False, label="none"), *chosen],
            )
        )
    for fights_on in profile.fights_on:
        title = SKILL_TITLES[fights_on]
        found.append(
            SkillMenu(
                name=fights_on,
                title=title,
                kind="flag",
                options=[
                    SkillOption(value=False, label="none"),
                    SkillOption(value=True, label=f"{title} (fights on at 0)"),
                ],
            )
        )
    return found


def ruleset_menu(profile: InfinityProfile) -> RulesetMenu:
    """The menus of one ruleset profile.

    >>> ruleset_menu(default_profile("n5")).vita
    'VITA'
    """
    n4 = profile.save_rule == "damage_minus_armour"
    return RulesetMenu(
        name=profile.edition,
        title=profile.title,
        strength="damage" if n4 else "ps",
        vita="W" if profile.edition == "n4" else "VITA",
        max_burst=profile.max_burst,
        modifier_cap=profile.modifier_cap,
        orders=profile.orders,
        ammunition=[
            MenuItem(name=name, description=rule.description)
            for name, rule in profile.ammunition.items()
        ],
        traits=[
            MenuItem(name=name, description=rule.description)
            for name, rule in profile.traits.items()
        ],
        immunities=[
            MenuItem(name=name, description=rule.description)
            for name, rule in profile.immunities.items()
        ],
        skills=_skill_menus(profile),
        actions=[MenuItem(name=name, description=words) for name, words in ACTIONS.items()],
        trooper_types=list(TROOPER_TYPES),
        unverified=profile.unverified,
    )


#: How a trooper profile writes each field of a trooper.
FIELD_LABELS: dict[str, str] = {
    "name": "Name",
    "type": "Type",
    "action": "Action",
    "attribute": "CC",
    "modifiers": "MOD",
    "burst": "B",
    "weapon": "Weapon",
    "damage": "DAM",
    "ph": "PH",
    "ps": "PS",
    "ammunition": "Ammunition",
    "traits": "Traits",
    "armour": "ARM",
    "bts": "BTS",
    "vita": "W/VITA",
    "structure": "STR",
    "wounds_taken": "Wounds taken",
    "allies": "Allies",
    "fireteam": "Fireteam",
    "skills": "Skills",
}
#: The example a page opens with: both rulesets' newer one, skills on both sides, wound states.
START_EXAMPLE = "martial-arts"
#: Each side, as the rules name it.
SIDE_NAMES: dict[Side, str] = {"active": "Active trooper", "reactive": "Reactive trooper"}


def _bound(schema: Mapping[str, Any], key: str) -> int | None:
    """A number's bound in a field's JSON Schema (of its number branch, or of its items)."""
    for part in (schema, schema.get("items", {}), *schema.get("anyOf", ())):
        if key in part:
            bound: int = part[key]
            return bound
    return None


def field_menus() -> list[FieldMenu]:
    """Every field of a trooper, from its model.

    >>> burst = next(f for f in field_menus() if f.name == "burst")
    >>> burst.label, burst.minimum, burst.default
    ('B', 0, 1)
    """
    schema = Trooper.model_json_schema()["properties"]
    found = []
    for name, info in Trooper.model_fields.items():
        default = info.get_default(call_default_factory=True)
        found.append(
            FieldMenu(
                name=name,
                label=FIELD_LABELS[name],
                description=info.description or "",
                minimum=_bound(schema[name], "minimum"),
                maximum=_bound(schema[name], "maximum"),
                max_length=_bound(schema[name], "maxLength"),
                default=default if isinstance(default, int | str | bool) else None,
            )
        )
    return found


def _first_sentence(path: Path) -> str:
    """The first sentence of a shipped file's heading comment."""
    lines = []
    for line in path.read_text(encoding="utf-8").splitlines():
        if not line.startswith("#"):
            break
        lines.append(line.lstrip("#").strip())
    text = " ".join(lines)
    return text.split(". ")[0].removesuffix(".")


@cache
def example_menus() -> tuple[ExampleMenu, ...]:
    """The shipped engagements of two troopers (a melee needs the file), read once."""
    found = []
    for name in names("scenarios", "infinity"):
        path = shipped("scenarios", name, what="Infinity example", subfolder="infinity")
        engagement = validate(InfinityEngagement, read_file(path), file=path.name)
        if engagement.melee is None:
            found.append(
                ExampleMenu(name=name, description=_first_sentence(path), engagement=engagement)
            )
    return tuple(found)


def menus(profiles: Mapping[Edition, InfinityProfile] | None = None) -> InfinityMenus:
    """The menus of every ruleset (the shipped profiles unless others are given).

    Parameters
    ----------
    profiles : mapping of edition to InfinityProfile, optional
        The profiles to read; none: the shipped N4 and N5 ones.

    Returns
    -------
    InfinityMenus
        For each ruleset: its ammunition, traits, immunities, skills with their options (the
        value to send, and a label), actions and trooper types; the troopers' fields (label,
        bounds, default), the sides' names and the shipped examples of two troopers.

    Examples
    --------
    >>> n5 = menus().ruleset("n5")
    >>> n5.strength, n5.skill("martial_arts").options[3].label
    ('ps', 'Martial Arts L3 (attack +3, opponent -3, +1 SD)')
    """
    chosen = (
        dict(profiles) if profiles else {edition: default_profile(edition) for edition in EDITIONS}
    )
    return InfinityMenus(
        default="n4" if "n4" in chosen else next(iter(chosen)),
        rulesets=[ruleset_menu(profile) for profile in chosen.values()],
        fields=field_menus(),
        sides=SIDE_NAMES,
        examples=list(example_menus()),
        start=START_EXAMPLE,
    )
