"""Player names: what may be one, and the key that makes look-alikes collide (pure, no I/O).

A name is 2 to 24 characters after Unicode NFKC normalisation: letters of one script (Latin, Greek,
Cyrillic, Han with kana, …), ASCII digits, and single spaces, `-`, `_` or `.` between them. Control,
format and bidi characters (U+202E, zero-width joiners, …) are refused outright, as are names mixing
scripts ("раypal": Cyrillic р, а with Latin letters).

Uniqueness is decided on a *skeleton*: the name case-folded, each character replaced by the plainest
ASCII letter or digit it can be mistaken for (Unicode's confusables, from the `confusables` package),
separators dropped. "Ann", "ANN", "аnn" (all-Cyrillic look-alike), "A.nn" and "Ann_" share one skeleton,
so only the first of them is ever registered; "I1l" and "lll" do too.
"""
from __future__ import annotations

import unicodedata
from functools import lru_cache

from confusables import CONFUSABLE_MAP

from lobby.exceptions import Conflict, Invalid

MIN_LENGTH, MAX_LENGTH = 2, 24
SEPARATORS = frozenset(" -_.")
# Scripts that are written together: Japanese mixes Han and kana; Korean Hangul and Han.
SCRIPT_FAMILIES = {"HIRAGANA": "CJK", "KATAKANA": "CJK", "HANGUL": "CJK", "KATAKANA-HIRAGANA": "CJK"}
# Skeletons no one may take: the lobby's own words, and the guests' names.
RESERVED = ("admin", "moderator", "system", "starbase", "deletedplayer", "guest")


def normalise(raw: str) -> str:
    return unicodedata.normalize("NFKC", raw).strip()


def check_name(raw: str) -> tuple[str, str]:
    """(the name as shown, its skeleton), or INVALID_NAME saying what is wrong."""
    name = normalise(raw)
    for ch in name:
        category = unicodedata.category(ch)
        if category[0] == "C" or category in ("Zl", "Zp"):
            raise Invalid("a name may not hold control, invisible or text-direction characters", "INVALID_NAME")
    if not MIN_LENGTH <= len(name) <= MAX_LENGTH:
        raise Invalid(f"a name is {MIN_LENGTH} to {MAX_LENGTH} characters long", "INVALID_NAME")
    scripts = set()
    for ch in name:
        if ch in SEPARATORS:
            continue
        if ch.isascii() and ch.isdigit():
            continue
        if not unicodedata.category(ch).startswith("L"):
            raise Invalid("a name holds letters, digits 0-9, and single spaces, '-', '_' or '.' between "
                          f"them (not {ch!r})", "INVALID_NAME")
        scripts.add(script_of(ch))
    if len(scripts) > 1:
        raise Invalid(f"a name is written in one script, not a mix ({', '.join(sorted(scripts)).lower()})",
                      "INVALID_NAME")
    if name[0] in SEPARATORS or name[-1] in SEPARATORS or any(
            a in SEPARATORS and b in SEPARATORS for a, b in zip(name, name[1:])):
        raise Invalid("spaces, '-', '_' and '.' go singly between letters or digits", "INVALID_NAME")
    if not scripts:
        raise Invalid("a name needs at least one letter", "INVALID_NAME")
    key = skeleton(name)
    if any(key == skeleton(word) or (word == "guest" and key.startswith(skeleton(word))) for word in RESERVED):
        raise Conflict("this name is reserved", "NAME_TAKEN")
    return name, key


def script_of(letter: str) -> str:
    """The script of a letter, from the first word of its Unicode name ("CYRILLIC SMALL LETTER A")."""
    try:
        word = unicodedata.name(letter).split()[0]
    except ValueError:
        return "UNKNOWN"
    return SCRIPT_FAMILIES.get(word, word)


def skeleton(name: str) -> str:
    return "".join(_plainest(ch) for ch in name.casefold() if ch not in SEPARATORS)


@lru_cache(maxsize=4096)
def _plainest(ch: str) -> str:
    """The smallest ASCII letter (else digit) `ch` is confusable with (itself when none)."""
    candidates = [c.casefold() for c in (ch, *CONFUSABLE_MAP.get(ch, ())) if len(c) == 1 and c.isascii()
                  and c.isalnum()]
    letters = [c for c in candidates if c.isalpha()]
    return min(letters or candidates) if candidates else ch
