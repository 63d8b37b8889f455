"""The round's adventure cards, drawn only when they become known.

No card of a round exists anywhere, stream included, before someone may know it: a pile's cards are
drawn when a player first looks at it while building (`PileTaken.cards`, that player's eyes only), and
the rest of the deck one card at a time, when the flight needs the next card (`CardRevealed.card`).

The odds are those of dealing every pile at the start of the round and shuffling the piles together
at launch, because each draw is uniform over what is still unknown:
- a pile's cards, level by level (the recipe's count of each), are a uniform draw without replacement
  from the cards of that level nobody has seen, exactly what an undealt pile would hold given the
  piles already seen (the piles are exchangeable);
- the next card is a uniform choice over the deck's remaining slots, each slot a seen card or an unseen
  card of some level, so the order is a uniform shuffle revealed one card at a time; an unseen slot of
  level L then takes a uniform unseen card of L. The first card of a round is chosen among the slots of
  the round's level when `top_card_of_round_level` holds (shuffling again until the top card has that
  level leaves it uniform among those slots, the rest in uniform order);
- cards of earlier rounds that were never seen are not set aside by identity: drawing from every
  unseen card is the same, because a uniformly chosen unseen set removed first would leave each later
  draw uniform over what remains.
"""
from __future__ import annotations

from trucker_rules import catalog
from trucker_rules.state import TruckerState

LEVEL_OF_ROUND = {1: "I", 2: "II", 3: "III"}


def _unseen(state: TruckerState, level: str) -> list[str]:
    """The cards of `level` nobody has seen that this round may still draw, in canonical order."""
    seen = set(state.round_cards) if state.options.get("reuse_cards", False) else set(state.used_cards)
    return sorted(cid for cid, card in catalog.cards().items() if card["level"] == level and cid not in seen)


def draw_pile(state: TruckerState, rng) -> list[str]:
    """The cards of a pile looked at for the first time: the recipe's count of each level."""
    drawn: list[str] = []
    for level, count in catalog.deck_recipe(state.round)["per_pile"].items():
        pool = [c for c in _unseen(state, level) if c not in drawn]
        for _ in range(count):
            drawn.append(pool.pop(rng.randbelow(len(pool))))
    return drawn


def unseen_slots_at_launch(state: TruckerState) -> dict[str, int]:
    """How many cards of each level the piles nobody looked at hold (they join the deck unseen)."""
    per_pile = catalog.deck_recipe(state.round)["per_pile"]
    unlooked = sum(1 for pile in state.piles if not pile)
    return {level: count * unlooked for level, count in per_pile.items() if count * unlooked}


def cards_left(state: TruckerState) -> int:
    return len(state.deck) + sum(state.deck_unseen.values())


def draw_next_card(state: TruckerState, rng) -> str:
    """The card the flight reveals next (the deck must not be empty)."""
    slots: list[tuple[str, str | None]] = [(catalog.cards()[c]["level"], c) for c in sorted(state.deck)]
    for level in sorted(state.deck_unseen):
        slots += [(level, None)] * state.deck_unseen[level]
    full = sum(catalog.deck_recipe(state.round)["per_pile"].values()) * catalog.deck_recipe(state.round)["piles"]
    if len(slots) == full and state.options.get("top_card_of_round_level", True):
        slots = [slot for slot in slots if slot[0] == LEVEL_OF_ROUND[state.round]]
    level, card = slots[rng.randbelow(len(slots))]
    if card is not None:
        return card
    pool = _unseen(state, level)
    return pool[rng.randbelow(len(pool))]
