"""From two troopers to two rolls: every skill, ammunition and immunity applied, and why.

:func:`prepare` reads both troopers against a ruleset profile and answers each side's success
value, Burst, special dice and what its hits do (:class:`Attack`), with one
:class:`~allocator.games.infinity.details.ModifierApplied` for every change. The order is the
book's: a skill the enemy cancels (N4 Natural Born Warrior A) does nothing; the user's own MODs
come with its CC Attack; the MODs its skills impose on the enemy apply only in a Face to Face
Roll, and not to an enemy that ignores them (N5 Natural Born Warrior) or that has STR (i-Kohl);
the sum is capped; Berserk may turn the roll into two Normal Rolls.

>>> from allocator.games.infinity.profile import default_profile
>>> from allocator.games.infinity.troopers import InfinityEngagement
>>> engagement = InfinityEngagement.model_validate({"rules": "n5",
...     "active": {"attribute": 15, "ps": 8, "skills": {"martial_arts": 3}},
...     "reactive": {"attribute": 13, "ps": 8}})
>>> prepared = prepare(engagement, default_profile("n5"), {"active": [], "reactive": []})
>>> prepared.active.success_value, prepared.active.special_dice, prepared.reactive.success_value
(18, 1, 10)
>>> print(prepared.modifiers[0].note)
Martial Arts L3 gives +3 to its roll
"""

from __future__ import annotations

from dataclasses import dataclass, field
from math import ceil
from typing import Literal

from allocator.core.errors import InputError
from allocator.core.limits import Limits, default_limits
from allocator.games.infinity.details import ModifiedPart, ModifierApplied, RollKind, Side
from allocator.games.infinity.dice import SIDES
from allocator.games.infinity.profile import (
    SKILL_TITLES,
    AmmunitionRule,
    ImmunityRule,
    InfinityProfile,
    SkillLevel,
)
from allocator.games.infinity.saves import SaveRoll, fails_on
from allocator.games.infinity.troopers import InfinityEngagement, Trooper

Outcome = Literal["wounds", "kills", "effect"]


def other(side: Side) -> Side:
    return "reactive" if side == "active" else "active"


@dataclass(frozen=True)
class Attack:
    """What one side's kept successes do to the other trooper."""

    ammunition: str
    per_hit: tuple[SaveRoll, ...]
    per_critical: tuple[SaveRoll, ...]
    wounds: int
    outcome: Outcome
    effects: tuple[str, ...]
    sentence: str


@dataclass(frozen=True)
class PreparedSide:
    """One side's roll once every skill and MOD is counted."""

    side: Side
    trooper: Trooper
    success_value: int
    burst: int
    special_dice: int
    allies: list[str]
    attack: Attack | None


@dataclass(frozen=True)
class Preparation:
    active: PreparedSide
    reactive: PreparedSide
    roll: RollKind
    modifiers: list[ModifierApplied]

    def of(self, side: Side) -> PreparedSide:
        return self.active if side == "active" else self.reactive


def level_label(skill: str, level: str) -> str:
    """A skill level as players write it: Martial Arts L3, Natural Born Warrior A, Dogged.

    >>> level_label("martial_arts", "3"), level_label("natural_born_warrior", "A")
    ('Martial Arts L3', 'Natural Born Warrior A')
    """
    title = SKILL_TITLES.get(skill, skill)
    if level == "yes":
        return title
    return f"{title} L{level}" if level.isdigit() else f"{title} {level}"


@dataclass
class _Side:
    """What is known of one side while its roll is put together."""

    side: Side
    trooper: Trooper
    levels: dict[str, tuple[str, SkillLevel]]
    immunities: list[tuple[str, ImmunityRule]]
    continuous: bool
    cancelled: bool = False
    berserk: int | None = None
    changes: list[ModifierApplied] = field(default_factory=list)

    @property
    def own(self) -> bool:
        """Its own CC skills apply: it makes a CC Attack and the enemy does not cancel them."""
        return self.trooper.action == "cc_attack" and self.trooper.rolls and not self.cancelled

    def note(self, part: ModifiedPart, change: int | None, source: str, text: str) -> None:
        self.changes.append(
            ModifierApplied(side=self.side, part=part, change=change, source=source, note=text)
        )


def _read_skills(side: Side, trooper: Trooper, profile: InfinityProfile) -> _Side:
    """The trooper's skills, immunities and traits as the ruleset defines them."""
    ruleset = f"the {profile.edition} ruleset"
    levels: dict[str, tuple[str, SkillLevel]] = {}
    for skill, level in trooper.skills.levels().items():
        place, title = f"{side}.skills.{skill}", SKILL_TITLES[skill]
        table = profile.skills.get(skill)  # type: ignore[call-overload]
        if not table:
            raise InputError(f"{title} is not in {ruleset}", place=place)
        if level not in table:
            known = ", ".join("true" if name == "yes" else name for name in table)
            shown = "true" if level == "yes" else level
            raise InputError(f"{title} in {ruleset} is {known}, not {shown}", place=place)
        levels[skill] = (level, table[level])
    for skill in ("no_wound_incapacitation", "dogged"):
        if getattr(trooper.skills, skill) and skill not in profile.fights_on:
            raise InputError(
                f"{SKILL_TITLES[skill]} is not in {ruleset}", place=f"{side}.skills.{skill}"
            )
    if trooper.skills.berserk is not False and profile.berserk is None:
        raise InputError(f"Berserk is not in {ruleset}", place=f"{side}.skills.berserk")
    immunities = []
    for number, name in enumerate(trooper.skills.immunity):
        if name not in profile.immunities:
            known = ", ".join(profile.immunities) or "none"
            raise InputError(
                f"no immunity {name!r} in {ruleset} (known: {known})",
                place=f"{side}.skills.immunity[{number}]",
            )
        immunities.append((name, profile.immunities[name]))
    profile.rule_of(trooper.ammunition, f"{side}.ammunition")  # named even when it is not used
    continuous = False
    for number, name in enumerate(trooper.traits):
        if name not in profile.traits:
            known = ", ".join(profile.traits) or "none"
            raise InputError(
                f"no weapon trait {name!r} in {ruleset} (known: {known})",
                place=f"{side}.traits[{number}]",
            )
        continuous = continuous or profile.traits[name].continuous
    return _Side(side, trooper, levels, immunities, continuous)


def prepare(
    engagement: InfinityEngagement,
    profile: InfinityProfile,
    allies: dict[Side, list[str]],
    limits: Limits | None = None,
) -> Preparation:
    """Both sides' rolls and attacks, every skill and MOD applied, and the list of changes.

    Parameters
    ----------
    engagement : InfinityEngagement
        The two troopers (the ruleset is ``profile``'s).
    profile : InfinityProfile
        The ruleset's numbers: skills, ammunition, immunities, the cap.
    allies : dict of side to list of str
        The allies adding +1 B to each side's attacker.
    limits : Limits, optional
        ``max_burst`` is checked against every bonus before any roll.

    Returns
    -------
    Preparation
        Each side's SV, Burst, special dice and :class:`Attack`, the kind of roll, and every
        :class:`~allocator.games.infinity.details.ModifierApplied`.

    Raises
    ------
    InputError
        A skill, ammunition, immunity or trait the ruleset lacks, a weapon strength of the
        other edition, an SV out of range, a Burst over the profile's (each naming its place).
    LimitError
        A Burst, with its bonuses and special dice, over ``max_burst``.
    """
    sides = {side: _read_skills(side, engagement.roller(side), profile) for side in SIDES}
    for side in SIDES:
        foe = sides[other(side)]
        cancelling = [
            level_label(skill, level)
            for skill, (level, rule) in foe.levels.items()
            if rule.cancels_opponent_skills
        ]
        own = sides[side]
        if cancelling and foe.trooper.rolls and (own.levels or own.trooper.skills.berserk):
            own.cancelled = True
            own.note(
                "attribute",
                None,
                f"{cancelling[0]} ({foe.side})",
                f"the {foe.side} trooper's {cancelling[0]} cancels its close-combat skills",
            )
    normal_rolls = False
    for state in sides.values():
        berserk = state.trooper.skills.berserk
        if berserk is False or not state.own or profile.berserk is None:
            continue
        rule = profile.berserk
        state.berserk = berserk if berserk is not True else (rule.attack or 0)
        normal_rolls = normal_rolls or rule.normal_rolls
    rolling = [side for side in SIDES if sides[side].trooper.rolls]
    roll: RollKind
    if len(rolling) == 2:
        roll = "normal_rolls" if normal_rolls else "face_to_face"
    else:
        roll = "normal" if rolling else "none"
    if roll == "normal_rolls":
        berserker = next(s for s in SIDES if sides[s].berserk is not None)
        sides[berserker].note(
            "roll",
            None,
            "Berserk",
            "Berserk: both troopers make Normal Rolls instead of a Face to Face Roll",
        )
    prepared = {
        side: _prepare_side(sides[side], sides[other(side)], roll, allies[side], profile, limits)
        for side in SIDES
    }
    changes = [change for side in SIDES for change in sides[side].changes]
    return Preparation(prepared["active"], prepared["reactive"], roll, changes)


def _signed(value: int) -> str:
    return f"{value:+d}"


def _prepare_side(
    state: _Side,
    foe: _Side,
    roll: RollKind,
    allies: list[str],
    profile: InfinityProfile,
    limits: Limits | None,
) -> PreparedSide:
    trooper, side = state.trooper, state.side
    total = sum(trooper.modifiers)
    if trooper.modifiers:
        state.note("attribute", total, "the file", f"the MODs given add up to {_signed(total)}")
    fireteam = profile.fireteam_bonus(trooper.fireteam) if trooper.fireteam >= 2 else None
    if state.own:
        for skill, (level, rule) in state.levels.items():
            label = level_label(skill, level)
            if rule.attack:
                total += rule.attack
                state.note(
                    "attribute",
                    rule.attack,
                    label,
                    f"{label} gives {_signed(rule.attack)} to its roll",
                )
            if rule.note and not (rule.cancels_opponent_skills or rule.ignores_opponent_modifiers):
                state.note("roll", None, label, f"{label}: {rule.note}")
        if state.berserk is not None:
            total += state.berserk
            state.note(
                "attribute",
                state.berserk,
                "Berserk",
                f"Berserk gives {_signed(state.berserk)} to its CC",
            )
        if fireteam and fireteam.attack:
            total += fireteam.attack
            state.note(
                "attribute",
                fireteam.attack,
                "Fireteam",
                f"a Fireteam of {trooper.fireteam} gives {_signed(fireteam.attack)} in CC",
            )
    if trooper.fireteam >= 2 and fireteam is None and trooper.action == "cc_attack":
        state.note(
            "burst",
            None,
            "Fireteam",
            f"a Fireteam of {trooper.fireteam} gives no bonus to a CC Attack in {profile.title}",
        )
    if roll == "face_to_face" and not foe.cancelled and foe.trooper.rolls:
        total += _imposed(state, foe)
    cap = profile.modifier_cap
    capped = max(-cap, min(cap, total))
    if capped != total:
        state.note(
            "attribute",
            capped - total,
            "the modifier cap",
            f"the MODs add up to {_signed(total)}, capped at {_signed(capped)}",
        )
    success_value = trooper.attribute + capped
    low, high = profile.success_value_range
    if trooper.rolls and not low <= success_value <= high:
        raise InputError(f"SV {success_value} is outside {low}..{high}", place=side)
    burst, special_dice = _dice(state, allies, fireteam.burst if fireteam else 0, profile, limits)
    return PreparedSide(
        side=side,
        trooper=trooper,
        success_value=success_value,
        burst=burst,
        special_dice=special_dice,
        allies=allies,
        attack=_attack(state, foe, profile),
    )


def _imposed(state: _Side, foe: _Side) -> int:
    """The MODs the foe's skills impose on this side's Face to Face roll."""
    ignoring = next(
        (
            level_label(skill, level)
            for skill, (level, rule) in state.levels.items()
            if rule.ignores_opponent_modifiers
        ),
        None,
    )
    action = foe.trooper.action
    total = 0
    for skill, (level, rule) in foe.levels.items():
        if not rule.opponent:
            continue
        if action != "cc_attack" and not (rule.opponent_when_dodging and action == "dodge"):
            continue
        label = level_label(skill, level)
        source, mod = f"{label} ({foe.side})", _signed(rule.opponent)
        if rule.not_against_structure and state.trooper.structure:
            state.note(
                "attribute",
                0,
                source,
                f"the {foe.side} trooper's {label} does nothing to a trooper with STR",
            )
        elif ignoring and not state.cancelled and rule.opponent < 0:
            state.note(
                "attribute",
                0,
                ignoring,
                f"{ignoring} ignores {mod} from the {foe.side} trooper's {label}",
            )
        else:
            total += rule.opponent
            state.note(
                "attribute",
                rule.opponent,
                source,
                f"the {foe.side} trooper's {label} gives {mod} to this roll",
            )
    return total


def _dice(
    state: _Side,
    allies: list[str],
    fireteam_burst: int,
    profile: InfinityProfile,
    limits: Limits | None,
) -> tuple[int, int]:
    """The Burst (with every bonus) and the special dice; refused over the profile or the limit."""
    trooper, side = state.trooper, state.side
    place = f"{side}.burst"
    if trooper.burst > profile.max_burst:
        raise InputError(
            f"Burst {trooper.burst} is over the profile's largest Burst, {profile.max_burst}",
            place=place,
        )
    if not trooper.rolls:
        return 0, 0
    from_skills = special = 0
    if state.own:
        for skill, (level, rule) in state.levels.items():
            label = level_label(skill, level)
            if rule.burst:
                from_skills += rule.burst
                state.note("burst", rule.burst, label, f"{label} gives +{rule.burst} B")
            if rule.special_dice:
                special += rule.special_dice
                state.note(
                    "special_dice",
                    rule.special_dice,
                    label,
                    f"{label} gives +{rule.special_dice} SD: one more die rolled, its lowest"
                    " discarded once both sides have rolled",
                )
        if fireteam_burst:
            from_skills += fireteam_burst
            state.note(
                "burst", fireteam_burst, "Fireteam", f"its Fireteam gives +{fireteam_burst} B"
            )
    if special > profile.max_special_dice:
        state.note(
            "special_dice",
            profile.max_special_dice - special,
            "the ruleset",
            f"special dice do not add up: {profile.max_special_dice} at most",
        )
        special = profile.max_special_dice
    if allies:
        state.note("burst", len(allies), "allies", f"+{len(allies)} B for the allies in the fight")
    burst = trooper.burst + from_skills + len(allies)
    bonus = [f"{len(allies)} from allies"] if allies else []
    bonus += [f"{from_skills} from skills"] if from_skills else []
    what = f"a Burst of {burst}" + (f" ({', '.join(bonus)})" if bonus else "")
    limits = limits or default_limits()
    if burst > limits.max_burst:
        raise limits.refuse("max_burst", what, place=place)
    if burst + special > limits.max_burst:
        raise limits.refuse(
            "max_burst",
            f"{burst + special} dice (Burst {burst} and {special} special)",
            place=place,
        )
    return burst, special


def _armour(foe: _Side, kind: str, ammunition: str, rule: AmmunitionRule) -> int:
    """The ARM or BTS the foe saves with against this ammunition (noted when it changes)."""
    value = foe.trooper.armour if kind == "ARM" else foe.trooper.bts
    if rule.ignores_armour:
        if value:
            foe.note(
                "armour", -value, ammunition, f"{ammunition}: it saves with {kind} 0, not {value}"
            )
        return 0
    if rule.halves:
        halved = ceil(value / 2)
        if halved != value:
            foe.note(
                "armour",
                halved - value,
                ammunition,
                f"{ammunition} halves its {kind} {value} to {halved} (rounded up)",
            )
        return halved
    return value


def _attack(state: _Side, foe: _Side, profile: InfinityProfile) -> Attack | None:
    """What this side's kept successes do to the foe: the saves and what a failure costs."""
    trooper, side = state.trooper, state.side
    n4 = profile.save_rule == "damage_minus_armour"
    wrong, needed = ("ps", "damage") if n4 else ("damage", "ps")
    if getattr(trooper, needed) is None:
        if getattr(trooper, wrong) is not None:
            raise InputError(
                f"{profile.title} saves against {'DAM' if n4 else 'PS'}: give"
                f" {needed}, not {wrong}",
                place=f"{side}.{wrong}",
            )
        return None
    if getattr(trooper, wrong) is not None:
        raise InputError(
            f"give {needed} only: {profile.title} has no {'PS' if n4 else 'DAM'}",
            place=f"{side}.{wrong}",
        )
    if not (trooper.rolls and trooper.action == "cc_attack"):
        return None
    name = trooper.ammunition
    rule = profile.rule_of(name, f"{side}.ammunition")
    for immunity, immune in foe.immunities:
        if name in immune.unaffected_by:
            foe.note(
                "saves",
                None,
                immune.description or immunity,
                f"{name} forces no save on it ({immune.description or immunity})",
            )
            return Attack(
                name, (), (), 1, "wounds", (), f"{name} forces no save on the {foe.side} trooper"
            )
        if name in immune.as_normal:
            foe.note(
                "saves",
                None,
                immune.description or immunity,
                f"{immune.description or immunity}: {name} counts as N against it",
            )
            name, rule = "N", profile.ammunition["N"]
    value = _weapon_value(state, rule, n4, name)
    armour = {kind: _armour(foe, kind, name, rule) for kind in dict.fromkeys(rule.rolls)}
    continuous = rule.continuous or state.continuous
    per_hit = tuple(
        SaveRoll(fails_on(profile.save_rule, value, armour[kind]), continuous)
        for kind in rule.rolls
    )
    critical_kind = rule.rolls[0]
    per_critical: tuple[SaveRoll, ...] = (
        SaveRoll(fails_on(profile.save_rule, value, armour[critical_kind])),
    )
    per_critical *= profile.extra_saves_per_critical
    if any(immune.ignores_critical_saves for _, immune in foe.immunities) and per_critical:
        foe.note("saves", None, "Immunity (Critical)", "a critical forces no extra save on it")
        per_critical = ()
    outcome: Outcome = "wounds"
    effects = tuple(rule.effects) + tuple(rule.effects_by_type.get(foe.trooper.type or "", []))
    if rule.kills:
        outcome = "kills"
    elif effects:
        outcome = "effect"
    elif rule.shock:
        outcome = _shock(foe, name)
    strength = f"DAM {value}" if n4 else f"PS {value}"
    kinds = " and ".join(
        f"{kind} {armour[kind]} (failing on"
        f" {fails_on(profile.save_rule, value, armour[kind])} of 20 faces)"
        for kind in armour
    )
    worth = {"kills": "kills outright", "effect": f"makes it {' and '.join(effects)}"}
    failure = worth.get(outcome, f"is {rule.wounds} wound{'s' if rule.wounds > 1 else ''}")
    sentence = (
        f"the {foe.side} trooper saves against {strength} with {kinds}: each hit forces"
        f" {len(per_hit)} save{'s' if len(per_hit) > 1 else ''} ({name})"
        + (f", a critical {len(per_critical)} more" if per_critical else "")
        + ("; a failed save is rolled again until passed" if continuous else "")
        + f"; each failed save {failure}"
    )
    return Attack(name, per_hit, per_critical, rule.wounds, outcome, effects, sentence)


def _weapon_value(state: _Side, rule: AmmunitionRule, n4: bool, name: str) -> int:
    """The DAM (N4) or PS (N5) the saves are rolled against, with the skills' damage MODs."""
    trooper = state.trooper
    strength = "DAM" if n4 else "PS"
    if rule.fixed is not None:
        state.note("damage", None, name, f"{name} has a fixed {strength} of {rule.fixed}")
        return rule.fixed
    damage_mods = [
        (level_label(skill, level), level_rule.damage)
        for skill, (level, level_rule) in state.levels.items()
        if level_rule.damage and state.own
    ]
    if not n4:
        value = trooper.ps or 0
        for label, mod in damage_mods:
            value -= mod
            state.note("damage", -mod, label, f"{label} lowers the PS by {mod}")
        return value
    if trooper.damage == "PH":
        value = trooper.ph or 0
        for label, mod in damage_mods:
            value += mod
            state.note("damage", mod, label, f"{label} gives {_signed(mod)} to the DAM (PH)")
        return value
    for label, mod in damage_mods:
        state.note(
            "damage",
            0,
            label,
            f"{label}'s {_signed(mod)} DAM does nothing: the weapon's DAM is not PH",
        )
    return int(trooper.damage or 0)


def _shock(foe: _Side, name: str) -> Outcome:
    """Shock kills a W/VITA 1 trooper outright, unless it has STR or is immune to it."""
    target = foe.trooper
    immune = next((n for n, rule in foe.immunities if rule.ignores_shock), None)
    if immune is not None:
        foe.note(
            "state",
            None,
            f"Immunity ({immune})",
            f"{name} is Normal against it: it is immune to Shock",
        )
    elif target.vita is None:
        foe.note("state", None, name, f"{name}: give its W/VITA to know whether Shock kills it")
    elif target.structure or target.vita > 1:
        why = "it has STR" if target.structure else f"W/VITA {target.vita}"
        foe.note(
            "state",
            None,
            name,
            f"{name} does not kill it outright ({why})",
        )
    else:
        foe.note("state", None, name, f"{name}: a failed save kills it outright (W/VITA 1)")
        return "kills"
    return "wounds"
