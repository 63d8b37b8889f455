"""Player names: what may be one, and the key that makes look-alikes collide (pure, no I/O).

A name is 2 to 24 characters after Unicode NFKC normalisation: letters of one script (Latin, Greek,
Cyrillic, Han with kana, …), ASCII digits, and single spaces, `-`, `_` or `.` between them. Control,
format and bidi characters (U+202E, zero-width joiners, …) are refused outright, as are names mixing
scripts ("раypal": Cyrillic р, а with Latin letters).

Uniqueness is decided on a *skeleton*: the name without accents, each character replaced by the plainest
ASCII letter it can be mistaken for (Unicode's confusables, as the `confusable-homoglyphs` package ships
them, closed under "looks like"), case-folded, separators dropped. "Ann", "ANN", "ΑΝΝ" (Greek), "A.nn",
"Ánn" and "Ann_" share one skeleton, so only the first of them is ever registered; "I1l" and "lll" too.
Scripts are Unicode's (the same package's data).
"""
from __future__ import annotations

import unicodedata
from functools import lru_cache

from confusable_homoglyphs.categories import alias
from confusable_homoglyphs.confusables import confusables_data

from lobby.exceptions import Conflict, Invalid

MIN_LENGTH, MAX_LENGTH = 2, 24
SEPARATORS = frozenset(" -_.")
# Scripts that are written together: Japanese mixes Han and kana; Korean Hangul and Han.
SCRIPT_FAMILIES = {"HIRAGANA": "HAN", "KATAKANA": "HAN", "HANGUL": "HAN"}
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
    """The Unicode script of a letter (LATIN, CYRILLIC, HAN, …)."""
    try:
        script = alias(letter)
    except (KeyError, TypeError):
        return "UNKNOWN"
    return SCRIPT_FAMILIES.get(script, script)


def skeleton(name: str) -> str:
    plain = "".join(ch for ch in unicodedata.normalize("NFD", name) if unicodedata.category(ch) != "Mn")
    return "".join(_representative(ch) for ch in plain if ch not in SEPARATORS)


@lru_cache(maxsize=None)
def _classes() -> dict[str, str]:
    """Every character that looks like another, mapped to one representative of its look-alike class:
    the smallest ASCII letter (else digit) in the class. Built once from the confusables data, joining
    each character with its one-character look-alikes and ASCII letters with their other case."""
    parent: dict[str, str] = {}

    def root(ch: str) -> str:
        while parent.setdefault(ch, ch) != ch:
            parent[ch] = parent[parent[ch]]
            ch = parent[ch]
        return ch

    def join(a: str, b: str) -> None:
        parent[root(a)] = root(b)

    for ch, looks in confusables_data.items():
        for look in looks:
            if len(look["c"]) == 1:
                join(ch, look["c"])
    for ch in "abcdefghijklmnopqrstuvwxyz":
        join(ch, ch.upper())
    members: dict[str, list[str]] = {}
    for ch in parent:
        members.setdefault(root(ch), []).append(ch)
    chosen = {}
    for group in members.values():
        plain = sorted(c.lower() for c in group if c.isascii() and c.isalnum())
        letters = [c for c in plain if c.isalpha()]
        representative = (letters or plain or [None])[0]
        if representative is not None:
            chosen.update({c: representative for c in group})
    return chosen


def _representative(ch: str) -> str:
    return _classes().get(ch) or _classes().get(ch.casefold()) or ch.casefold()
