"""Words and numbers for people: plain user text, percentages, signed numbers, lists.

Text from a file (titles, names, ids) may hold control characters, terminal escape sequences or
characters a terminal shows as nothing or obeys: direction overrides (Trojan-source tricks),
zero-width characters, line separators. :func:`plain` escapes every one of them visibly, as
``\\u202e`` (the command line also escapes rich markup, in
:func:`allocator.cli.render.safe`).

>>> plain("Farm\\x1b[31m house\\u202e")
'Farm\\\\u001b[31m house\\\\u202e'
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

#: What a terminal shows as nothing (or as something else) besides the control characters:
#: every format character (Unicode category Cf: the soft hyphen, the Arabic letter mark U+061C,
#: the zero-width ones U+200B-U+200F, the direction embeddings, overrides and isolates, word
#: joiners, the byte order mark U+FEFF, tags), the line and paragraph separators (Zl, Zp), lone
#: surrogates, and characters that print as blank: the combining grapheme joiner, the Khmer
#: inherent vowels, the Mongolian variation selectors and the Hangul fillers. As the inside of
#: a regular expression's character class.
INVISIBLE = (
    "\u00ad\u034f\u0600-\u0605\u061c\u06dd\u070f\u0890\u0891\u08e2\u115f\u1160\u17b4\u17b5"
    "\u180b-\u180f\u200b-\u200f\u2028-\u202e\u2060-\u2064\u2066-\u206f\u3164\ud800-\udfff"
    "\ufeff\uffa0\ufff9-\ufffb\U000110bd\U000110cd\U00013430-\U0001343f\U0001bca0-\U0001bca3"
    "\U0001d173-\U0001d17a\U000e0001\U000e0020-\U000e007f"
)
#: C0 (but newline and tab) and C1 control characters, DEL, and the invisible ones.
_UNSAFE = re.compile(f"[\x00-\x08\x0b-\x1f\x7f-\x9f{INVISIBLE}]")
_NEWLINES = re.compile("[\n\t]")


def escaped(character: str) -> str:
    """One character as its escape: ``\\u202e``, ``\\U000e0001``.

    >>> print(escaped("\\u202e"), escaped("\\x1b"), escaped("\\U000e0001"))
    \\u202e \\u001b \\U000e0001
    """
    code = ord(character)
    return f"\\u{code:04x}" if code <= 0xFFFF else f"\\U{code:08x}"


def plain(text: object) -> str:
    """``text`` on one line with every control and invisible character escaped (newlines and
    tabs become spaces)."""
    return _UNSAFE.sub(lambda m: escaped(m.group()), _NEWLINES.sub(" ", str(text)))


def article(spoken: str) -> str:
    """``a`` or ``an`` before a number as it is read aloud (an 8%, an 18.8%, an 11%, a 1%).

    >>> [article(t) for t in ("8.0%", "18.8%", "11.5%", "80%", "1.2%", "100%", "over 99.9%")]
    ['an', 'an', 'an', 'an', 'a', 'a', 'an']
    """
    if spoken.startswith(("over", "under")):
        return "an"
    whole = spoken.split(".")[0].rstrip("%")
    return "an" if whole.startswith("8") or whole in ("11", "18") else "a"


#: Decimals of a percentage and of a signed expectation, everywhere (the page too: /api/terms).
PERCENT_DIGITS = 1
SIGNED_DIGITS = 2


def percent(value: Fraction | float, digits: int = PERCENT_DIGITS, ends: bool = True) -> str:
    """A probability as a percentage, rounded half up (13/16 is 81.3% everywhere).

    With ``ends``, 100% and 0% are said only of exactly 1 and 0: a chance that merely rounds
    to them is "over 99.9%" or "under 0.1%" (a difference of two chances passes ``False``).

    >>> percent(Fraction(1)), percent(Fraction(999999, 1000000)), percent(Fraction(1, 10**6))
    ('100.0%', 'over 99.9%', 'under 0.1%')
    >>> percent(Fraction(999999, 1000000), ends=False), percent(Fraction(1, 2000), digits=0)
    ('100.0%', 'under 1%')
    """
    exact = Fraction(value)
    text = _rounded(exact * 100, digits)
    if ends and 0 < exact < 1:
        step = Decimal(1).scaleb(-digits)
        if Decimal(text) >= 100:
            return f"over {Decimal(100) - step}%"
        if Decimal(text) <= 0:
            return f"under {step}%"
    return f"{text}%"


def _rounded(exact: Fraction, digits: int) -> Decimal:
    quantum = Decimal(1).scaleb(-digits)
    return (Decimal(exact.numerator) / Decimal(exact.denominator)).quantize(
        quantum, rounding=ROUND_HALF_UP
    )


def signed(value: Fraction | float, digits: int = SIGNED_DIGITS) -> str:
    """A signed number rounded half up: ``+0.44``, ``-1.25``."""
    return f"{_rounded(Fraction(value), digits):+}"


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
