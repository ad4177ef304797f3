"""The quick roll of ``cfalloc resolve infinity``: two troopers from flags, without a file.

Each side's flags (``--active 13/2``, ``--active-ps 8``, ``--active-ammo DA``,
``--active-skill martial_arts=3``, ...) become a trooper of the engagement file, read against
the menus of the ruleset asked for (``--rules n5``), so that a skill, an ammunition or a trait
the ruleset does not have is refused as the file would be, but named by its flag. The file stays
the way to give a full engagement (a melee of several troopers, situational MODs one by one,
a weapon whose DAM is PH).

>>> troopers = quick_troopers({"rules": "n5", "active": "13/1", "active_ps": 8,
...     "active_skill": ["martial_arts=3", "natural_born_warrior"], "reactive": "12/1"})
>>> troopers["active"]["skills"]
{'martial_arts': 3, 'natural_born_warrior': True}
>>> flag_of("active.skills.i_kohl"), flag_of("reactive.ammunition"), flag_of("rules")
('--active-skill i_kohl', '--reactive-ammo', '--rules')
"""

from __future__ import annotations

import re
from functools import cache
from typing import Any

from allocator.core.errors import InputError
from allocator.games.infinity.calculator import RulesetMenu, SkillMenu, menus
from allocator.games.infinity.details import Edition
from allocator.games.infinity.dice import SIDES
from allocator.games.infinity.rolls import parse_roller

__all__ = ["flag_help", "flag_of", "quick_troopers"]

#: The flag of each trooper field, after ``--active`` or ``--reactive`` (the roll itself: none).
FIELD_FLAGS = {
    "attribute": "",
    "modifiers": "",
    "burst": "",
    "action": "-action",
    "damage": "-damage",
    "ps": "-ps",
    "ammunition": "-ammo",
    "traits": "-trait",
    "armour": "-armour",
    "bts": "-bts",
    "vita": "-vita",
    "wounds_taken": "-wounds-taken",
    "type": "-type",
    "allies": "-allies",
    "skills": "-skill",
}
#: The trooper fields a flag gives as it is (its field in the quick roll: ``active_<flag>``).
PLAIN_FIELDS = {
    "action": "action",
    "damage": "damage",
    "ps": "ps",
    "ammunition": "ammo",
    "armour": "armour",
    "bts": "bts",
    "vita": "vita",
    "wounds_taken": "wounds_taken",
    "type": "type",
    "allies": "allies",
}
IMMUNITY = "immunity"
#: What separates the parts of a place: ``skills.immunity[0]``.
PLACE_PARTS = re.compile(r"[.\[]")


def flag_of(place: str) -> str:
    """The flag that gave the trooper field at ``place`` (``active.skills.guard``)."""
    if place == "rules":
        return "--rules"
    side, _, rest = place.partition(".")
    parts = PLACE_PARTS.split(rest)
    flag = f"--{side}{FIELD_FLAGS.get(parts[0], '')}"
    return f"{flag} {parts[1]}" if parts[0] == "skills" and len(parts) > 1 else flag


def flagged(error: InputError) -> InputError:
    """``error`` placed at the flag its trooper field came from."""
    if error.place and error.place.split(".")[0].split("[")[0] in (*SIDES, "rules"):
        error.place = flag_of(error.place)
    return error.located(None)


def _choices(skill: SkillMenu) -> str:
    """How a skill is written after ``--active-skill``: ``martial_arts=1..5``, ``dogged``."""
    if skill.kind == "flag":
        return skill.name
    if skill.kind == "modifier":
        return f"{skill.name}[=MOD]"
    values = [option.value for option in skill.options[1:]]
    numbers = [value for value in values if isinstance(value, int)]
    if len(numbers) == len(values) > 1 and numbers == list(range(numbers[0], numbers[-1] + 1)):
        return f"{skill.name}={numbers[0]}..{numbers[-1]}"
    return f"{skill.name}={'|'.join(str(value) for value in values)}"


def skill_choices(menu: RulesetMenu) -> str:
    """Every skill of a ruleset as the flag takes it."""
    written = [_choices(skill) for skill in menu.skills]
    if menu.immunities:
        written.append(f"{IMMUNITY}={'|'.join(item.name for item in menu.immunities)}")
    return ", ".join(written)


@cache
def flag_help() -> dict[str, str]:
    """The choices of the flags, from the menus of the shipped rulesets (for ``--help``)."""
    shown = menus()

    def each(what: Any) -> str:
        return "; ".join(f"{menu.name}: {what(menu)}" for menu in shown.rulesets)

    found = {"rules": f"Known: {', '.join(menu.name for menu in shown.rulesets)}."}
    for side in SIDES:
        found |= {
            f"{side}_ammo": each(lambda m: ", ".join(item.name for item in m.ammunition)) + ".",
            f"{side}_trait": each(lambda m: ", ".join(item.name for item in m.traits)) + ".",
            f"{side}_skill": each(skill_choices) + ".",
            f"{side}_type": "Known: " + ", ".join(shown.rulesets[0].trooper_types) + ".",
            f"{side}_action": "Known: "
            + ", ".join(f"{item.name} ({item.description})" for item in shown.rulesets[0].actions)
            + ".",
        }
    return found


def _level(skill: SkillMenu, value: str, flag: str, menu: RulesetMenu) -> int | str | bool:
    known = {str(option.value).lower(): option.value for option in skill.options[1:]}
    if not value:
        raise InputError(f"{skill.title} needs its level: {_choices(skill)}", place=flag)
    if value.lower() not in known:
        raise InputError(
            f"{skill.title} in {menu.title} is {', '.join(map(str, known.values()))}, not"
            f" {value[:20]!r}",
            place=flag,
        )
    return known[value.lower()]


def _skill_value(skill: SkillMenu, value: str, flag: str, menu: RulesetMenu) -> int | str | bool:
    """The value of one skill in the engagement file, from what followed ``NAME=``."""
    if skill.kind == "level":
        return _level(skill, value, flag, menu)
    if skill.kind == "flag":
        if value and value.lower() not in ("yes", "true"):
            raise InputError(f"{skill.title} takes no level (got {value[:20]!r})", place=flag)
        return True
    if not value:
        return True
    if not re.fullmatch(r"[+-]?[0-9]{1,2}", value):
        raise InputError(
            f"{skill.title} takes the MOD in its brackets, e.g. {skill.name}=3 (got"
            f" {value[:20]!r})",
            place=flag,
        )
    return int(value)


def parse_skills(texts: list[str], menu: RulesetMenu, flag: str) -> dict[str, Any]:
    """The ``skills`` of a trooper from its ``--active-skill NAME[=VALUE]`` flags.

    >>> parse_skills(["guard=2", "immunity=shock"], menus().ruleset("n4"), "--active-skill")
    {'guard': 2, 'immunity': ['shock']}
    """
    skills: dict[str, Any] = {}
    known = {skill.name: skill for skill in menu.skills}
    for text in texts:
        name, _, value = (part.strip() for part in text.partition("="))
        name = name.lower().replace("-", "_").replace(" ", "_")
        if name == IMMUNITY:
            immunities = [item.name for item in menu.immunities]
            if value.lower() not in immunities:
                raise InputError(
                    f"no immunity {value[:20]!r} in {menu.title} (known:"
                    f" {', '.join(immunities) or 'none'})",
                    place=flag,
                )
            skills.setdefault(IMMUNITY, []).append(value.lower())
            continue
        if name not in known:
            raise InputError(
                f"no skill {name[:30]!r} in {menu.title} (known: {skill_choices(menu)})",
                place=flag,
            )
        if name in skills:
            raise InputError(f"{known[name].title} is given twice", place=flag)
        skills[name] = _skill_value(known[name], value, flag, menu)
    return skills


def _trooper(side: str, values: dict[str, Any], menu: RulesetMenu) -> dict[str, Any]:
    try:
        trooper = parse_roller(values[side])
    except InputError as error:
        raise error.located(None, f"--{side}") from None
    for field, flag in PLAIN_FIELDS.items():
        value = values.get(f"{side}_{flag}")
        if value is not None:
            trooper[field] = value
    trooper["traits"] = list(values.get(f"{side}_trait") or [])
    trooper["skills"] = parse_skills(values.get(f"{side}_skill") or [], menu, f"--{side}-skill")
    taken, vita = trooper.get("wounds_taken", 0), trooper.get("vita")
    if taken and (vita is None or taken > vita):
        raise InputError(
            f"{taken} wounds taken need a {menu.vita} of at least {taken}"
            + ("" if vita is None else f" (it is {vita}: the trooper would be Dead)"),
            place=f"--{side}-wounds-taken",
        )
    return trooper


def quick_troopers(values: dict[str, Any]) -> dict[str, Any]:
    """The engagement of the flags (``rules``, ``active``, ``reactive``), field by field.

    Parameters
    ----------
    values
        The quick roll's fields by name (``active``, ``active_ps``, ``active_skill``, ...).

    Raises
    ------
    InputError
        A roll that is not SV/B, a skill or immunity the ruleset does not have, a level it does
        not know, wounds taken beyond W/VITA: placed at the flag.
    """
    rules: Edition = values.get("rules") or "n4"
    menu = menus().ruleset(rules)
    engagement: dict[str, Any] = {"rules": rules}
    for side in SIDES:
        engagement[side] = _trooper(side, values, menu)
    return engagement
