"""Look-alike names (issue 45): a confusable skeleton in the spirit of Unicode TR39, and blank names.

Two seat names that look alike must not both be accepted: ``Рlayer 2`` (a Cyrillic Р),
``P1ayer 2``, ``PIayer 2``, ``Player ٢`` (an Arabic-Indic two) and ``PLAYER2`` all read as
``Player 2``.  :func:`fold` maps a name to a key that such names share:

1. characters that display as nothing (:data:`BLANK`: the default-ignorable code points,
   the Hangul fillers U+3164 and U+FFA0, the braille blank U+2800, ...) are removed;
2. NFKC, then every decimal digit of any script becomes its ASCII digit;
3. each character is replaced by the representative of its confusable class (the TR39
   skeleton step), before and after case folding (``I`` looks like ``l``, but ``i``
   does not, so the skeleton is taken of the name as typed too);
4. white space and punctuation are dropped.

The classes come from Unicode's ``confusables.txt`` as shipped by the
``confusable_homoglyphs`` package (its ``confusables.json``; read once, nothing is downloaded):
characters listed as each other's homoglyphs are joined (single code points only), and each
class is represented by its ASCII member if it has one, else its lowest code point.
"""

from __future__ import annotations

import json
import unicodedata
from functools import lru_cache
from importlib import resources

#: Code points that display as blank or as nothing, beyond white space, control and format characters
#: (Unicode's Default_Ignorable_Code_Point set and the fillers that render empty).
BLANK = frozenset(
    [0x00AD, 0x034F, 0x061C, 0x115F, 0x1160, 0x17B4, 0x17B5, 0x180E, 0x2800, 0x3164, 0xFEFF, 0xFFA0]
    + list(range(0x180B, 0x1810)) + list(range(0x200B, 0x2010)) + list(range(0x202A, 0x202F))
    + list(range(0x2060, 0x2070)) + list(range(0xFE00, 0xFE10)) + list(range(0xFFF0, 0xFFF9))
    + list(range(0x1BCA0, 0x1BCA4)) + list(range(0x1D173, 0x1D17B)) + list(range(0xE0000, 0xE1000))
)


def blank(ch: str) -> bool:
    """True if ``ch`` displays as nothing or as empty space."""
    o = ord(ch)
    return o in BLANK or ch.isspace() or unicodedata.category(ch) in ("Cc", "Cf", "Zs", "Zl", "Zp", "Mn", "Me", "Cn", "Co", "Cs")


def is_blank(text: str) -> bool:
    """True if ``text`` shows nothing: every character is blank (or a mark on nothing)."""
    return all(blank(ch) for ch in text)


@lru_cache(maxsize=1)
def _classes() -> dict[str, str]:
    """Each confusable code point's class representative."""
    raw = json.loads(resources.files("confusable_homoglyphs").joinpath("confusables.json").read_text("utf-8"))
    parent: dict[str, str] = {}

    def find(c: str) -> str:
        while parent.get(c, c) != c:
            parent[c] = parent.get(parent[c], parent[c])
            c = parent[c]
        return c

    for ch, homoglyphs in raw.items():
        if len(ch) != 1:
            continue
        for h in homoglyphs:
            other = "".join(c for c in h["c"] if ord(c) not in BLANK)
            if len(other) != 1:
                continue
            a, b = find(ch), find(other)
            if a != b:
                parent[max(a, b, key=_rank)] = min(a, b, key=_rank)
    return {c: find(c) for c in list(parent)}


def _rank(c: str) -> tuple[int, int]:
    return (0 if c.isascii() and c.isalnum() else 1 if c.isascii() else 2, ord(c))


def skeleton(text: str) -> str:
    """Each character replaced by its confusable class's representative (NFD before and after)."""
    classes = _classes()
    return unicodedata.normalize("NFD", "".join(classes.get(c, c) for c in unicodedata.normalize("NFD", text)))


def fold(text: str) -> str:
    """The key of a name: names with the same key look alike (see the module docs)."""
    s = "".join(ch for ch in text if ord(ch) not in BLANK)
    s = unicodedata.normalize("NFKC", s)
    s = "".join(str(unicodedata.decimal(ch)) if unicodedata.category(ch) == "Nd" else ch for ch in s)
    s = skeleton(skeleton(s).casefold()).casefold()
    s = skeleton(s)
    return "".join(ch for ch in s if ch.isalnum() and not unicodedata.combining(ch))
