"""The objectives: what a line of play is worth, as objects in one registry.

Every value is the attacker's: he plays for it to be high, the defender for it to be low.

* ``take``: P(the attacker takes the building), both sides playing every round at their best;
  a line is worth what the states of the fight it leads to are worth (7b);
* ``sweep``: P(the attacker wins every combat this round), the product of the combats' odds;
* ``exchange``: the defending stands removed minus the attacking stands removed this round, on
  average, a sum over the combats.

A :class:`RoundObjective` values a round from its combats alone: in floats over numpy arrays
for the search (:mod:`.search.engine`), exactly in fractions for the line it returns, and by
its form (a :class:`ProductObjective` or a :class:`SumObjective` over the combats) as the
objective of CP-SAT (:mod:`.cp_odds`). A :class:`FightObjective` values a line by the states of
the fight it leads to, which the search values in turn. The command line and the web read a
name once (:func:`objective_named`, or as a pydantic model's field typed :class:`Objective`,
which reads and writes its name) and hand the object on; the words of every objective come
from here (``/api/terms`` serves them to the page).

>>> from fractions import Fraction
>>> sweep = objective_named("sweep")
>>> sweep.round_exact([Fraction(1, 2), Fraction(13, 16)], [1, 1], [1, 2])
Fraction(13, 32)
>>> sweep.describe(Fraction(13, 32))
'a 40.6% chance that the attacker wins every combat'
>>> objective_named("take").bounds, objective_named("exchange").bounds
((Fraction(0, 1), Fraction(1, 1)), None)
>>> objective_named("siege")
Traceback (most recent call last):
...
allocator.core.errors.InputError: unknown objective 'siege' (known: take, sweep, exchange)
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Iterable, Sequence
from fractions import Fraction
from math import prod
from typing import TYPE_CHECKING, Any, ClassVar, Literal, Protocol, TypeVar

from pydantic import GetCoreSchemaHandler, GetJsonSchemaHandler
from pydantic.json_schema import JsonSchemaValue
from pydantic_core import core_schema

from allocator.core.errors import InputError
from allocator.core.exact import fraction_text
from allocator.core.text import article, odds_text, percent, signed

if TYPE_CHECKING:
    import numpy as np

#: A probability, or an array of them: one combat's factor or weights work on either alike.
Odds = TypeVar("Odds", Fraction, "np.ndarray[Any, Any]")


class Fought(Protocol):
    """What a round objective reads of a combat fought (as
    :class:`~allocator.games.crossfire.odds.CombatOdds` gives it; the objectives sit below the
    odds, so they name no module of them)."""

    @property
    def p_attacker_wins(self) -> Fraction: ...

    @property
    def defenders(self) -> Sequence[str]: ...

    @property
    def attackers(self) -> Sequence[str]: ...


class Objective(ABC):
    """What the attacker plays for (the defender for the opposite), and its words.

    Examples
    --------
    >>> take = objective_named("take")
    >>> take.name, take.one_round, take.first_round.name
    ('take', False, 'sweep')
    >>> take.describe(Fraction(7, 8)), take.gap(Fraction(-1, 8))
    ('an 87.5% chance that the attacker takes the building', '-12.5%')
    """

    #: The name on the command line (``--objective``), in the web API and in the JSON.
    name: ClassVar[str]
    #: A short label for a picker: ``take the building (whole fight)``.
    title: ClassVar[str]
    #: What it is, in a sentence for a player (the CLI's help, the page).
    words: ClassVar[str]
    #: What a value says, after "a 40% chance that the" or before "of +0.4 stands".
    label: ClassVar[str]
    #: What a value is: a chance (between 0 and 1) or a number of stands.
    unit: ClassVar[Literal["chance", "stands"]] = "chance"
    #: Whether a line is worth what its round alone gives (else the whole fight's states).
    one_round: ClassVar[bool]

    @property
    def bounds(self) -> tuple[Fraction, Fraction] | None:
        """The least and the most a value can be, or None when it has no bounds.

        A chance lies in [0, 1], so a line worth 0 (or 1) cannot be bettered by the defender
        (or the attacker); a number of stands has no such bound.

        Returns
        -------
        tuple of Fraction, or None
        """
        return (Fraction(0), Fraction(1)) if self.unit == "chance" else None

    @property
    @abstractmethod
    def first_round(self) -> RoundObjective:
        """The round objective that values the first round alone where this one cannot be
        searched (itself, for a round objective; for ``take``, ``sweep``: its value is a lower
        bound of the chance of taking the building)."""

    def describe(self, value: Fraction) -> str:
        """A value in words, the attacker's (the defender wants it low).

        Parameters
        ----------
        value : Fraction

        Returns
        -------
        str

        Examples
        --------
        >>> objective_named("exchange").describe(Fraction(7, 16))
        "an expected exchange of +0.438 stands in the attacker's favour"
        """
        if self.unit == "stands":
            return f"an {self.label} of {signed(value, 3)} stands in the attacker's favour"
        spoken = percent(value)
        return f"{article(spoken)} {spoken} chance that the {self.label}"

    def gap(self, delta: Fraction) -> str:
        """A difference of two values, signed, in the objective's unit.

        >>> objective_named("sweep").gap(Fraction(1, 16))
        '+6.3%'
        >>> objective_named("exchange").gap(Fraction(-1, 4))
        '-0.250 stands'
        """
        if self.unit == "stands":
            return f"{signed(delta, 3)} stands"
        return f"{'+' if delta >= 0 else '-'}{percent(abs(delta), ends=False)}"

    def value_text(self, value: Fraction) -> str:
        """A value as a report shows it: exact, then readable.

        >>> objective_named("sweep").value_text(Fraction(13, 16))
        '13/16 (81.3%)'
        >>> objective_named("exchange").value_text(Fraction(7, 16))
        '7/16 (+0.438 stands)'
        """
        if self.unit == "stands":
            return f"{fraction_text(value)} ({signed(value, 3)} stands)"
        return odds_text(value)

    def __str__(self) -> str:
        return self.name

    def __repr__(self) -> str:
        return f"objective_named({self.name!r})"

    # --- in a pydantic model: read from its name, written as its name -------------------------

    @classmethod
    def __get_pydantic_core_schema__(
        cls, source: Any, handler: GetCoreSchemaHandler
    ) -> core_schema.CoreSchema:
        return core_schema.no_info_plain_validator_function(
            _validated,
            serialization=core_schema.plain_serializer_function_ser_schema(
                lambda found: found.name, return_schema=core_schema.str_schema()
            ),
        )

    @classmethod
    def __get_pydantic_json_schema__(
        cls, schema: core_schema.CoreSchema, handler: GetJsonSchemaHandler
    ) -> JsonSchemaValue:
        return {"enum": list(OBJECTIVES), "type": "string"}


class RoundObjective(Objective):
    """An objective of one round: a line is worth what its combats give this round.

    The values of a round come from each combat's P(attacker wins) and the stands each side has
    in it (after step 6): ``round_floats`` for many lines at once, ``round_exact`` for one.
    """

    one_round = True

    @property
    def first_round(self) -> RoundObjective:
        return self

    @abstractmethod
    def round_floats(
        self,
        p: np.ndarray[Any, Any],
        defending: np.ndarray[Any, Any],
        attacking: np.ndarray[Any, Any],
    ) -> np.ndarray[Any, Any]:
        """The float values of many lines of a round.

        Parameters
        ----------
        p, defending, attacking : numpy.ndarray
            (lines, combats) arrays: P(attacker wins) of each combat, and the defending and the
            attacking stands in it.

        Returns
        -------
        numpy.ndarray
            One value per line.
        """

    @abstractmethod
    def round_exact(
        self, p: Sequence[Fraction], defending: Sequence[int], attacking: Sequence[int]
    ) -> Fraction:
        """The exact value of one line of a round.

        Parameters
        ----------
        p : sequence of Fraction
            Each combat's P(attacker wins).
        defending, attacking : sequence of int
            The defending and the attacking stands in each combat.

        Returns
        -------
        Fraction

        Examples
        --------
        >>> objective_named("exchange").round_exact([Fraction(3, 4)], [2], [1])
        Fraction(5, 4)
        """

    def of_round(self, odds: Iterable[Fought]) -> Fraction:
        """The exact value of a round from its combats' odds.

        Parameters
        ----------
        odds : iterable of Fought
            The round's combats (:func:`~allocator.games.crossfire.odds.round_odds` gives
            their ``CombatOdds``).

        Returns
        -------
        Fraction
        """
        combats = list(odds)
        return self.round_exact(
            [c.p_attacker_wins for c in combats],
            [len(c.defenders) for c in combats],
            [len(c.attackers) for c in combats],
        )


class SeparableObjective(RoundObjective):
    """A round objective whose lines are worth one part from each combat, each part worked out
    from that combat alone, combined (summed or multiplied): the lines of a round can then be
    valued from a table of the parts of the few distinct combats they are made of."""

    @abstractmethod
    def combat_floats(
        self,
        p: np.ndarray[Any, Any],
        defending: np.ndarray[Any, Any],
        attacking: np.ndarray[Any, Any],
    ) -> np.ndarray[Any, Any]:
        """Each combat's part of its line's value, from arrays that broadcast together.

        Parameters
        ----------
        p, defending, attacking : numpy.ndarray
            P(attacker wins) of each combat, and the defending and the attacking stands in it.

        Returns
        -------
        numpy.ndarray
        """

    @abstractmethod
    def combine(self, total: np.ndarray[Any, Any], part: np.ndarray[Any, Any]) -> None:
        """Fold one more combat's parts into the lines' ``total``, in place."""

    def combined(self, parts: Iterable[np.ndarray[Any, Any]]) -> np.ndarray[Any, Any]:
        """The lines' values from their combats' parts, one array per combat, in order.

        >>> import numpy as np
        >>> objective_named("sweep").combined([np.array([0.5, 1.0]), np.array([0.5, 0.25])])
        array([0.25, 0.25])
        """
        columns = iter(parts)
        total: np.ndarray[Any, Any] = next(columns).astype(float)  # a copy, to fold into
        for part in columns:
            self.combine(total, part)
        return total

    def round_floats(
        self,
        p: np.ndarray[Any, Any],
        defending: np.ndarray[Any, Any],
        attacking: np.ndarray[Any, Any],
    ) -> np.ndarray[Any, Any]:
        parts = self.combat_floats(p, defending, attacking)
        return self.combined(parts[:, k] for k in range(parts.shape[1]))


class ProductObjective(SeparableObjective):
    """A round objective that is the product over the combats of a factor of each one's odds
    (CP-SAT maximises the sum of their scaled logarithms)."""

    @abstractmethod
    def factor(self, p: Odds) -> Odds:
        """One combat's factor, from P(attacker wins): a fraction, or an array of floats."""

    def combat_floats(
        self,
        p: np.ndarray[Any, Any],
        defending: np.ndarray[Any, Any],
        attacking: np.ndarray[Any, Any],
    ) -> np.ndarray[Any, Any]:
        return self.factor(p)

    def combine(self, total: np.ndarray[Any, Any], part: np.ndarray[Any, Any]) -> None:
        total *= part

    def round_exact(
        self, p: Sequence[Fraction], defending: Sequence[int], attacking: Sequence[int]
    ) -> Fraction:
        return prod((self.factor(q) for q in p), start=Fraction(1))


class SumObjective(SeparableObjective):
    """A round objective that is the sum over the combats of what each stand in it is worth,
    by the combat's odds (linear in the stands: CP-SAT's objective is exact in integers)."""

    @abstractmethod
    def weights(self, p: Odds) -> tuple[Odds, Odds]:
        """What each defending and each attacking stand of a combat adds, from P(attacker wins):
        fractions, or arrays of floats."""

    def combat_floats(
        self,
        p: np.ndarray[Any, Any],
        defending: np.ndarray[Any, Any],
        attacking: np.ndarray[Any, Any],
    ) -> np.ndarray[Any, Any]:
        per_defender, per_attacker = self.weights(p)
        parts: np.ndarray[Any, Any] = per_defender * defending + per_attacker * attacking
        return parts

    def combine(self, total: np.ndarray[Any, Any], part: np.ndarray[Any, Any]) -> None:
        total += part

    def round_exact(
        self, p: Sequence[Fraction], defending: Sequence[int], attacking: Sequence[int]
    ) -> Fraction:
        total = Fraction(0)
        for q, d, a in zip(p, defending, attacking, strict=True):
            per_defender, per_attacker = self.weights(q)
            total += per_defender * d + per_attacker * a
        return total


class FightObjective(Objective):
    """An objective of the whole fight: a line is worth the expected value of the states of the
    fight its round leads to (each searched the same way, both sides at their best), and a
    state where the fight is over (7b) is worth :meth:`end_value`."""

    one_round = False

    @abstractmethod
    def end_value(self, taken: bool) -> Fraction:
        """What a fight that is over is worth.

        Parameters
        ----------
        taken : bool
            Whether the attacker took the building (else it is held, also when the rounds
            allowed run out).

        Returns
        -------
        Fraction
        """

    def fight_floats(
        self, prob: np.ndarray[Any, Any], children: np.ndarray[Any, Any]
    ) -> np.ndarray[Any, Any]:
        """The float values of many lines from their outcomes.

        Parameters
        ----------
        prob, children : numpy.ndarray
            (lines, outcomes) arrays: the probability of each way the round ends, and the value
            of the state it leads to.

        Returns
        -------
        numpy.ndarray
            One value per line.
        """
        values: np.ndarray[Any, Any] = (prob * children).sum(axis=1)
        return values

    def fight_exact(self, outcomes: Iterable[tuple[Fraction, Fraction]]) -> Fraction:
        """The exact value of one line from its outcomes: (probability, value of the state it
        leads to) pairs.

        >>> outcomes = [(Fraction(1, 4), Fraction(1)), (Fraction(3, 4), Fraction(0))]
        >>> objective_named("take").fight_exact(outcomes)
        Fraction(1, 4)
        """
        return sum((p * value for p, value in outcomes), Fraction(0))


class Sweep(ProductObjective):
    name = "sweep"
    title = "win every combat this round"
    words = "the chance that the attacker wins every combat this round"
    label = "attacker wins every combat"

    def factor(self, p: Odds) -> Odds:
        return p


class Exchange(SumObjective):
    name = "exchange"
    title = "exchange: stands removed, theirs minus ours"
    words = "the defending stands removed minus the attacking stands removed this round, on average"
    label = "expected exchange"
    unit = "stands"

    def weights(self, p: Odds) -> tuple[Odds, Odds]:
        return p, p - 1  # a defending stand is removed when the attacker wins, his own when not


class Take(FightObjective):
    name = "take"
    title = "take the building (whole fight)"
    words = (
        "the chance that the attacker takes the building over the whole fight, both sides "
        "playing every round at their best"
    )
    label = "attacker takes the building"

    def __init__(self, first_round: RoundObjective):
        self._first_round = first_round

    @property
    def first_round(self) -> RoundObjective:
        return self._first_round

    def end_value(self, taken: bool) -> Fraction:
        return Fraction(int(taken))


_sweep = Sweep()
#: Every objective by name, the default first.
OBJECTIVES: dict[str, Objective] = {o.name: o for o in (Take(_sweep), _sweep, Exchange())}
#: What every command and the page play for unless told otherwise: the question players ask.
DEFAULT_OBJECTIVE = next(iter(OBJECTIVES.values()))


def objective_named(name: str) -> Objective:
    """The objective called ``name``.

    Parameters
    ----------
    name : str
        As on the command line: ``take``, ``sweep`` or ``exchange``.

    Returns
    -------
    Objective

    Raises
    ------
    InputError
        When no objective has that name (the message names the known ones).

    Examples
    --------
    >>> objective_named("exchange").unit
    'stands'
    """
    found = OBJECTIVES.get(name)
    if found is None:
        known = ", ".join(OBJECTIVES)
        raise InputError(f"unknown objective {name[:40]!r} (known: {known})")
    return found


def _validated(value: Any) -> Objective:
    """A model's field: an objective, or its name (pydantic's error adds what it got)."""
    if isinstance(value, Objective):
        return value
    found = OBJECTIVES.get(value) if isinstance(value, str) else None
    if found is None:
        raise ValueError(f"unknown objective (known: {', '.join(OBJECTIVES)})")
    return found
