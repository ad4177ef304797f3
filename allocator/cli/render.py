"""Drawing answers in the terminal with rich: user text made safe, titled tables.

Text from a file (titles, names, ids) may hold control characters, terminal escape sequences or
rich markup. :func:`safe` strips the first two (:func:`allocator.core.text.plain`) and escapes
the third, so that it prints as written; every readable output passes user text through it.

>>> safe("Farm\\x1b[31m [b]house[/b]")
'Farm[31m \\\\[b]house\\\\[/b]'
"""

from __future__ import annotations

from collections.abc import Iterable

from rich.markup import escape
from rich.table import Table

from allocator.core.text import plain


def safe(text: object) -> str:
    """``text`` ready to be interpolated into rich markup: no control characters, no markup."""
    return escape(plain(text))


def titled_table(title: str, columns: Iterable[str], right: Iterable[str] = ()) -> Table:
    """A rich table titled on the left, with these columns (those in ``right`` right-justified).

    Numbers (the right-justified columns) stay on one line while the words beside them can
    wrap; a number still too long for the terminal goes on over the next line, never cut.

    >>> [c.header for c in titled_table("Odds", ["combat", "p"], right=["p"]).columns]
    ['combat', 'p']
    """
    table = Table(title=title, title_justify="left")
    right = set(right)
    for column in columns:
        number = column in right
        table.add_column(
            column, justify="right" if number else "left", no_wrap=number, overflow="fold"
        )
    return table
