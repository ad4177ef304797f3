"""Infinity close combat (N4 or N5): the resolver behind ``cfalloc resolve infinity``.

It reads an :class:`~allocator.games.infinity.troopers.InfinityEngagement` (two troopers, the
ruleset, optionally a melee), applies every skill (:mod:`.modifiers`), rolls exactly
(:mod:`.dice`), counts the failed saves (:mod:`.saves`) and follows each trooper's wound states
over one to five orders (:mod:`.states`). The answer is a
:class:`~allocator.core.resolution.Resolution` whose details are an
:class:`~allocator.games.infinity.details.InfinityDetails`.

>>> odds = face_to_face(12, 1, 12, 1)
>>> odds.neither, odds.active_wins == odds.reactive_wins
(Fraction(19, 100), True)
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from fractions import Fraction
from typing import Any

from pydantic import BaseModel

from allocator.core.budget import Budget
from allocator.core.errors import InputError
from allocator.core.exact import ExactValue
from allocator.core.limits import Limits, default_limits
from allocator.core.resolution import Resolution
from allocator.core.text import listing
from allocator.core.violations import Violation
from allocator.games.infinity.details import (
    InfinityDetails,
    OrdersOutcome,
    RollSummary,
    Side,
    SurvivingHits,
    TrooperOutcome,
    WoundCount,
    Wounds,
    WoundState,
)
from allocator.games.infinity.dice import (
    CRITICAL,
    FACES,
    SIDES,
    DieFaces,
    FaceToFaceOdds,
    RollCounts,
    face_to_face,
    odds_of,
    roll_counts,
    roll_value,
)
from allocator.games.infinity.melee import Melee, MeleeModel, burst_bonus, check_melee
from allocator.games.infinity.modifiers import Attack, Preparation, other, prepare
from allocator.games.infinity.profile import (
    BURST_BOUND,
    SKILL_TITLES,
    InfinityProfile,
    default_profile,
    load_infinity_profile,
)
from allocator.games.infinity.saves import (
    at_least,
    expected_failures,
    failed_saves,
    save_failure,
    wound_distribution,
)
from allocator.games.infinity.states import (
    AFFECTED,
    Target,
    failures_needed,
    harm,
    joint_order,
    orders_chain,
    outcome,
)
from allocator.games.infinity.troopers import InfinityEngagement, Roller, Trooper

__all__ = [
    "BURST_BOUND",
    "CRITICAL",
    "FACES",
    "OUTCOME_WORDS",
    "DieFaces",
    "FaceToFaceOdds",
    "InfinityEngagement",
    "InfinityProfile",
    "InfinityResolver",
    "Melee",
    "MeleeModel",
    "Roller",
    "Trooper",
    "at_least",
    "burst_bonus",
    "check_burst",
    "check_melee",
    "default_profile",
    "face_to_face",
    "load_infinity_profile",
    "parse_roller",
    "roll_value",
    "save_failure",
    "wound_distribution",
]

#: What a time limit that rings in the middle of a resolution stopped.
WHAT = "the exact close combat"
#: What each outcome means, in players' words.
OUTCOME_WORDS = {
    "active_wins": "the active trooper wins",
    "reactive_wins": "the reactive trooper wins",
    "neither": "neither trooper wins",
    "only_active_succeeds": "only the active trooper succeeds",
    "only_reactive_succeeds": "only the reactive trooper succeeds",
    "both_succeed": "both troopers succeed",
    "neither_succeeds": "neither trooper succeeds",
}
ROLL_WORDS = {
    "face_to_face": "Face to Face: the loser's best success cancels the winner's successes up"
    " to it; a critical cancels every non-critical; criticals on both sides cancel everything",
    "normal": "one side does not roll: the other makes a Normal Roll",
    "normal_rolls": "Normal Rolls: neither roll cancels the other; each success of either side"
    " hits",
    "none": "neither side rolls",
}


def _side_step(side: Side, trooper: Trooper, sv: int, burst: int, extra: int) -> str:
    if burst == 0:
        return f"{side}: does not roll"
    faces = DieFaces.at(sv)
    total = sum(trooper.modifiers)
    mods = f" with {total:+d}" if trooper.modifiers else ""
    special = f" and {extra} special die discarded" if extra else ""
    return (
        f"{side}: attribute {trooper.attribute}{mods} gives SV {sv}, Burst {burst}{special}:"
        f" each die succeeds on {faces.successes} of 20 faces, {faces.count[CRITICAL]} of them a"
        " critical"
    )


def _target(trooper: Trooper, profile: InfinityProfile) -> Target | None:
    if trooper.vita is None:
        return None
    keeps = next((skill for skill in profile.fights_on if getattr(trooper.skills, skill)), None)
    return Target(
        trooper.vita, trooper.structure, trooper.wounds_taken, keeps and SKILL_TITLES[keeps]
    )


@dataclass
class InfinityResolver:
    """Face to Face odds, wounds, wound states and melee legality for Infinity (N4 or N5)."""

    profile: InfinityProfile | None = None
    limits: Limits | None = None
    name: str = "infinity"
    engagement_model: type[BaseModel] = InfinityEngagement

    @property
    def rules(self) -> InfinityProfile:
        """The profile given, else the shipped N4 one."""
        return self.profile or default_profile()

    def ruleset(self, engagement: InfinityEngagement) -> InfinityProfile:
        """The profile of the engagement's ruleset; the one given must be of that edition."""
        asked = engagement.rules
        if self.profile is None:
            return default_profile(asked or "n4")
        if asked and asked != self.profile.edition:
            raise InputError(
                f"the engagement asks for {asked} but the profile given is {self.profile.edition}",
                place="rules",
            )
        return self.profile

    def check(self, engagement: InfinityEngagement) -> list[Violation]:
        if engagement.melee is None:
            return []
        return check_melee(engagement.melee, self.ruleset(engagement))

    def success_value(self, roller: Trooper, place: str) -> int:
        """A roller's SV without skills; an InputError when it is outside the profile's range."""
        low, high = self.rules.success_value_range
        sv = roller.success_value(self.rules)
        if not low <= sv <= high:
            raise InputError(f"SV {sv} is outside {low}..{high}", place=place)
        return sv

    def checked_burst(self, roller: Trooper, allies: list[str], place: str) -> int:
        """The dice a roller rolls; refused over the profile's Burst or the ``max_burst`` limit."""
        if roller.burst > self.rules.max_burst:
            raise InputError(
                f"Burst {roller.burst} is over the profile's largest Burst, {self.rules.max_burst}",
                place=f"{place}.burst",
            )
        burst = roller.burst + len(allies)
        what = f"a Burst of {burst}" + (f" ({len(allies)} from allies)" if allies else "")
        return check_burst(burst, what, self.limits, f"{place}.burst")

    def allies(
        self, engagement: InfinityEngagement, profile: InfinityProfile | None = None
    ) -> dict[Side, list[str]]:
        """The allies that add +1 B to each side's attacker: the melee's, or the counted ones."""
        rules = profile or self.ruleset(engagement)
        allies: dict[Side, list[str]] = {"active": [], "reactive": []}
        for side in SIDES:
            counted = engagement.roller(side).allies
            if counted and engagement.melee is not None:
                raise InputError(
                    "give the allies either in the melee or as a number, not both",
                    place=f"{side}.allies",
                )
            allies[side] = [f"ally {n}" for n in range(1, counted + 1)]
        if engagement.melee is not None:
            for side, attacker in self.attackers(engagement):
                allies[side] = burst_bonus(engagement.melee, attacker, rules)
        return allies

    @staticmethod
    def attackers(engagement: InfinityEngagement) -> list[tuple[Side, str]]:
        """The models making the CC Attacks of a melee, by side."""
        melee = engagement.melee
        if melee is None:
            return []
        attackers: list[tuple[Side, str]] = [("active", melee.active_trooper)]
        if melee.reactive_attacker is not None:
            attackers.append(("reactive", melee.reactive_attacker))
        return attackers

    @staticmethod
    def _bonus_step(side: Side, attacker: str, allies: list[str]) -> str:
        if not allies:
            return f"{attacker} ({side}) gets no Burst bonus: no ally is eligible"
        return f"{attacker} ({side}) gets +{len(allies)} B from {listing(allies)}"

    def resolve(self, engagement: InfinityEngagement, budget: Budget | None = None) -> Resolution:
        """The exact close combat; ``budget``, when given, is checked between its stages (the
        rolls, each side's saves, the wound states), as a server bounds its work."""
        budget = budget or Budget(None)
        profile = self.ruleset(engagement)
        allies = self.allies(engagement, profile)
        prepared = prepare(engagement, profile, allies, self.limits)
        active, reactive = prepared.active, prepared.reactive
        counts = roll_counts(
            active.success_value,
            active.burst,
            reactive.success_value,
            reactive.burst,
            active_extra=active.special_dice,
            reactive_extra=reactive.special_dice,
            normal_rolls=prepared.roll == "normal_rolls",
        )
        odds = odds_of(counts)
        steps = [
            self._bonus_step(side, attacker, allies[side])
            for side, attacker in self.attackers(engagement)
        ]
        for side in SIDES:
            roll = prepared.of(side)
            steps.append(
                _side_step(side, roll.trooper, roll.success_value, roll.burst, roll.special_dice)
            )
        steps.append(ROLL_WORDS[prepared.roll])
        wounds: list[Wounds] = []
        for side in SIDES:
            budget.check(WHAT)
            attack = prepared.of(side).attack
            if attack is not None:
                wounds.extend(self._wounds(counts, side, attack, profile))
                steps.append(attack.sentence)
        budget.check(WHAT)
        troopers = self._troopers(prepared, counts, profile)
        budget.check(WHAT)
        for trooper in troopers:
            steps.append(_states_step(trooper, profile.edition))
        details = InfinityDetails(
            active=RollSummary(
                success_value=active.success_value, burst=active.burst, allies=active.allies
            ),
            reactive=RollSummary(
                success_value=reactive.success_value, burst=reactive.burst, allies=reactive.allies
            ),
            surviving_hits=[
                SurvivingHits(
                    winner=side,
                    criticals=crits,
                    successes=crits + plain,
                    chance=ExactValue.of(chance),
                )
                for side in SIDES
                for (crits, plain), chance in odds.survivors(side).items()
            ],
            wounds=wounds,
            rules=profile.edition,
            roll=prepared.roll,
            special_dice={
                side: prepared.of(side).special_dice
                for side in SIDES
                if prepared.of(side).special_dice
            },
            modifiers=prepared.modifiers,
            troopers=troopers,
        )
        return Resolution(
            system=self.name,
            distribution=_outcomes(odds, counts.independent),
            steps=steps,
            violations=self.check(engagement),
            details=details,
        )

    @staticmethod
    def _wounds(
        counts: RollCounts, side: Side, attack: Attack, profile: InfinityProfile
    ) -> list[Wounds]:
        """The wounds the side's hits cause on its foe (none for an effect ammunition)."""
        if attack.outcome == "effect":
            return []
        survivors, total = counts.of(side), counts.total(side)
        most = max(
            ((c + p) * len(attack.per_hit) + c * len(attack.per_critical) for (c, p) in survivors),
            default=0,
        )
        unbounded = any(save.continuous and save.fails_on for save in attack.per_hit)
        listed = -(-profile.listed_wounds // attack.wounds)
        cap = listed if unbounded else max(1, min(most, listed))
        lumped = unbounded or most > cap
        tally = failed_saves(survivors, total, attack.per_hit, attack.per_critical, cap=cap)
        chances = tally.chances()
        reached = Fraction(1)
        rows = []
        for failures, chance in enumerate(chances):
            if chance:
                rows.append(
                    WoundCount(
                        wounds=failures * attack.wounds,
                        exactly=ExactValue.of(chance),
                        at_least=ExactValue.of(reached),
                        lumped=lumped and failures == cap,
                    )
                )
            reached -= chance
        mean = expected_failures(survivors, total, attack.per_hit, attack.per_critical)
        return [
            Wounds(
                target=other(side),
                expected=None if mean is None else ExactValue.of(mean * attack.wounds),
                counts=rows,
            )
        ]

    def _troopers(
        self, prepared: Preparation, counts: RollCounts, profile: InfinityProfile
    ) -> list[TrooperOutcome]:
        """Each trooper's wound states (those with a W/VITA), after one order and within k."""
        targets = {side: _target(prepared.of(side).trooper, profile) for side in SIDES}
        on: dict[Side, dict[int, Fraction]] = {}
        for side in SIDES:
            attack, target = prepared.of(other(side)).attack, targets[side]
            if attack is None or target is None:
                on[side] = {0: Fraction(1)}
                continue
            cap = failures_needed(target, attack.wounds, attack.outcome)
            tally = failed_saves(
                counts.of(other(side)),
                counts.total(other(side)),
                attack.per_hit,
                attack.per_critical,
                cap=cap,
            )
            on[side] = harm(tally, attack.wounds, attack.outcome, target)
        joint = joint_order(on["active"], on["reactive"], counts.independent)
        chain = orders_chain(targets, joint, profile.orders)
        found = []
        for side in SIDES:
            target = targets[side]
            if target is None:
                continue
            attack = prepared.of(other(side)).attack
            effects = list(attack.effects) if attack else []
            first = outcome(chain[0], side, target)
            orders = []
            for number, states in enumerate(chain, 1):
                result = outcome(states, side, target)
                orders.append(
                    OrdersOutcome(
                        orders=number,
                        wounded=ExactValue.of(result.wounded),
                        out_of_the_fight=ExactValue.of(result.out_of_the_fight),
                        dead=ExactValue.of(result.dead),
                        expected_wounds=ExactValue.of(result.expected_wounds),
                    )
                )
            found.append(
                TrooperOutcome(
                    side=side,
                    name=prepared.of(side).trooper.name,
                    vita=target.vita,
                    structure=target.structure,
                    wounds_taken=target.taken,
                    fights_on=target.fights_on,
                    states=[
                        _state_row(state, chance, target, effects)
                        for state, chance in first.states.items()
                        if chance
                    ],
                    expected_wounds=ExactValue.of(first.expected_wounds),
                    orders=orders,
                )
            )
        return found


def _state_row(state: int, chance: Fraction, target: Target, effects: list[str]) -> WoundState:
    exact = ExactValue.of(chance)
    if state == AFFECTED:
        return WoundState(state="affected", effects=effects, chance=exact)
    if state >= target.dead_at:
        return WoundState(state="dead", chance=exact)
    if state == target.vita:
        kind = "fighting_on" if target.fights_on else "unconscious"
        return WoundState(state=kind, wounds_left=0, chance=exact)
    if state == 0:
        return WoundState(state="unhurt", wounds_left=target.vita, chance=exact)
    return WoundState(state="wounded", wounds_left=target.vita - state, chance=exact)


def _states_step(trooper: TrooperOutcome, edition: str) -> str:
    kind = "STR" if trooper.structure else "W" if edition == "n4" else "VITA"
    vita = trooper.vita
    taken = f", {trooper.wounds_taken} already taken" if trooper.wounds_taken else ""
    wounded = f"wounded below {vita} wounds, " if vita > 1 else ""
    at_vita = (
        f"fights on at {vita} ({trooper.fights_on})"
        if trooper.fights_on
        else f"Unconscious at {vita}"
    )
    return (
        f"the {trooper.side} trooper has {kind} {vita}{taken}: {wounded}{at_vita}, Dead at"
        f" {vita + 1}; the exchange is repeated for up to {len(trooper.orders)} orders while both"
        " troopers fight on"
    )


def _outcomes(odds: FaceToFaceOdds, independent: bool) -> dict[str, Fraction]:
    """Who wins; in Normal Rolls, who succeeds alone, both, or neither."""
    active, reactive = odds.active_wins, odds.reactive_wins
    if not independent:
        return {"active_wins": active, "reactive_wins": reactive, "neither": odds.neither}
    return {
        "only_active_succeeds": active * (1 - reactive),
        "only_reactive_succeeds": reactive * (1 - active),
        "both_succeed": active * reactive,
        "neither_succeeds": (1 - active) * (1 - reactive),
    }


def check_burst(burst: int, what: str, limits: Limits | None, place: str | None = None) -> int:
    """``burst``, or the LimitError naming ``max_burst`` when it is over the limit.

    >>> check_burst(30, "a Burst of 30", Limits(max_burst=24), "active.burst")
    Traceback (most recent call last):
    ...
    allocator.core.errors.LimitError: active.burst: a Burst of 30, over the limit of 24 (raise ...)
    """
    limits = limits or default_limits()
    if burst > limits.max_burst:
        raise limits.refuse("max_burst", what, place=place)
    return burst


def parse_roller(text: str) -> dict[str, Any]:
    """``SV/B`` or ``ATTRIBUTE+MOD-MOD/B`` from the command line, as a roller's fields.

    >>> parse_roller("13+3-6/2")
    {'attribute': 13, 'modifiers': [3, -6], 'burst': 2}
    """
    match = re.fullmatch(
        r"\s*(-?[0-9]{1,4})((?:\s*[+-]\s*[0-9]{1,4}){0,20})\s*/\s*([0-9]{1,4})\s*", text
    )
    if not match:
        raise InputError(f"{text[:40]!r} is not SV/B (for example 13/2 or 11+3/1)")
    modifiers = [int(m.replace(" ", "")) for m in re.findall(r"[+-]\s*[0-9]+", match.group(2))]
    return {"attribute": int(match.group(1)), "modifiers": modifiers, "burst": int(match.group(3))}
