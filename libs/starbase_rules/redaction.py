"""Hidden information in events, declared on the event class and blanked by the base's `redact`.

An event names its secret fields in the class variable `secret_fields`, each with who may still see it:

    class GameSetUp(Event):
        secret_fields: ClassVar[dict[str, str]] = {"alien_tiles": HIDDEN, "lucky": OWN_ENTRY}
        ...
    class CardDrawn(Event):
        secret_fields: ClassVar[dict[str, str]] = {"card": seen_by("player")}

    HIDDEN            nobody (until another event reveals it)
    OWN_ENTRY         a dict keyed by player: each player sees its own entry only
    seen_by("field")  only the player named in the event's `field`

A blanked value keeps its shape and loses its content: a dict keeps its keys (values None), a list
becomes its length, anything else None. So a viewer learns that there are 7 face-down tiles and where,
never what they are. A spectator (viewer None) sees no secret at all.
"""
from __future__ import annotations

from typing import Any

HIDDEN = "hidden"
OWN_ENTRY = "own_entry"
_SEEN_BY = "seen_by:"


def seen_by(field: str) -> str:
    return _SEEN_BY + field


def secrets_of(event: Any) -> dict[str, str]:
    return secrets_of_type(type(event))


def secrets_of_type(kind: type) -> dict[str, str]:
    secret: dict[str, str] = getattr(kind, "secret_fields", {})
    return secret


def blank(value: Any) -> Any:
    if isinstance(value, dict):
        return {key: None for key in value}
    if isinstance(value, (list, tuple)):
        return len(value)
    return None


def may_see(event: Any, who: str, viewer: str | None) -> bool:
    """Whether `viewer` may see the whole of a secret field guarded by `who` (OWN_ENTRY: see `redact_data`)."""
    if viewer is None or who in (HIDDEN, OWN_ENTRY):
        return False
    if who.startswith(_SEEN_BY):
        return bool(getattr(event, who[len(_SEEN_BY):], None) == viewer)
    raise ValueError(f"{type(event).__name__}: unknown secrecy {who!r}")


def redact_event(event: Any, viewer: str | None) -> dict:
    """The event as `viewer` may see it: `event.model_dump()` with its secret fields blanked."""
    data: dict = event.model_dump()
    for field, who in secrets_of(event).items():
        if who == OWN_ENTRY:
            entries = data[field]
            data[field] = {key: value if key == viewer else None for key, value in entries.items()}
        elif not may_see(event, who, viewer):
            data[field] = blank(data[field])
    return data
