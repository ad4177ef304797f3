"""Words and numbers for people: plain user text, percentages, signed numbers, lists.

Text from a file (titles, names, ids) may hold control characters or terminal escape sequences:
:func:`plain` strips them (the command line also escapes rich markup, in
:func:`allocator.cli.render.safe`).

>>> plain("Farm\\x1b[31m house")
'Farm[31m house'
>>> percent(Fraction(13, 16)), percent(Fraction(1, 3)), percent(Fraction(1, 8), digits=2)
('81.3%', '33.3%', '12.50%')
>>> listing(["d1", "d2", "h1"])
'd1, d2 and h1'
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from decimal import ROUND_HALF_UP, Decimal
from fractions import Fraction

from allocator.core.exact import fraction_text

#: C0 and C1 control characters, and the invisible direction overrides (Trojan-source tricks).
_UNSAFE = re.compile("[\x00-\x08\x0b-\x1f\x7f-\x9f\u200e\u200f\u202a-\u202e\u2066-\u2069]")
_NEWLINES = re.compile("[\n\t]")


def plain(text: object) -> str:
    """``text`` without control characters (newlines and tabs become spaces)."""
    return _UNSAFE.sub("", _NEWLINES.sub(" ", str(text)))


def article(spoken: str) -> str:
    """``a`` or ``an`` before a number as it is read aloud (an 8%, an 18.8%, an 11%, a 1%).

    >>> [article(t) for t in ("8.0%", "18.8%", "11.5%", "80%", "1.2%", "100%")]
    ['an', 'an', 'an', 'an', 'a', 'a']
    """
    whole = spoken.split(".")[0].rstrip("%")
    return "an" if whole.startswith("8") or whole in ("11", "18") else "a"


#: Decimals of a percentage and of a signed expectation, everywhere (the page too: /api/terms).
PERCENT_DIGITS = 1
SIGNED_DIGITS = 2


def percent(value: Fraction | float, digits: int = PERCENT_DIGITS) -> str:
    """A probability as a percentage, rounded half up (13/16 is 81.3% everywhere)."""
    exact = Fraction(value) * 100
    quantum = Decimal(1).scaleb(-digits)
    rounded = (Decimal(exact.numerator) / Decimal(exact.denominator)).quantize(
        quantum, rounding=ROUND_HALF_UP
    )
    return f"{rounded}%"


def signed(value: Fraction | float, digits: int = SIGNED_DIGITS) -> str:
    """A signed number rounded half up: ``+0.44``, ``-1.25``."""
    exact = Fraction(value)
    quantum = Decimal(1).scaleb(-digits)
    rounded = (Decimal(exact.numerator) / Decimal(exact.denominator)).quantize(
        quantum, rounding=ROUND_HALF_UP
    )
    return f"{rounded:+}"


def odds_text(p: Fraction) -> str:
    """A probability as the page and the terminal show it: ``13/16 (81.3%)``."""
    return f"{fraction_text(p)} ({percent(p)})"


def listing(items: Iterable[str], empty: str = "none") -> str:
    """``a``, ``a and b``, ``a, b and c``."""
    items = list(items)
    if not items:
        return empty
    return items[0] if len(items) == 1 else ", ".join(items[:-1]) + f" and {items[-1]}"


def plural(count: int, word: str, words: str | None = None) -> str:
    """``1 squad``, ``2 squads``."""
    return f"{count} {word if count == 1 else (words or word + 's')}"
