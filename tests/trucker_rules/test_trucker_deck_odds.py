"""The adventure cards are drawn only when they become known (`trucker_rules.deck`), with the odds of
dealing four piles at the start of the round and shuffling them together at launch. Each test computes
the exact distribution of a draw by following every outcome of every `randbelow` (weights 1/n), and
compares it with the odds of the deal-then-shuffle model worked out by hand."""
from __future__ import annotations

from collections import defaultdict
from fractions import Fraction

from starbase_rules.fair import FairRng
from trucker_rules import catalog, deck
from trucker_rules.game import GAME


class _Path:
    """An rng that answers `randbelow` from a chosen path of outcomes, remembering each n asked."""

    def __init__(self, choices: list[int]):
        self.choices, self.sizes = choices, []

    def randbelow(self, n: int) -> int:
        self.sizes.append(n)
        return self.choices[len(self.sizes) - 1] if len(self.sizes) <= len(self.choices) else 0


def exact_distribution(draw) -> dict:
    """{result: probability} of `draw(rng)` over every sequence of outcomes."""
    odds: dict = defaultdict(Fraction)
    pending = [[]]
    while pending:
        choices = pending.pop()
        rng = _Path(choices)
        result = draw(rng)
        if len(rng.sizes) > len(choices):          # a draw this path has not fixed yet: branch on it
            pending += [choices + [k] for k in range(rng.sizes[len(choices)])]
            continue
        weight = Fraction(1)
        for n in rng.sizes:
            weight /= n
        odds[result if not isinstance(result, list) else tuple(result)] += weight
    return dict(odds)


def _state(round_no: int = 1, options: dict | None = None):
    state = GAME.initial_state()
    for event in GAME.setup(["ann", "bob"], options or {}, FairRng(b"odds")):
        state = GAME.evolve(state, event)
    state.round = round_no
    return state


def _level(level: str) -> list[str]:
    return sorted(c for c, card in catalog.cards().items() if card["level"] == level)


def _see_pile(state, pile: int, cards: list[str]) -> None:
    state.piles[pile - 1] = list(cards)
    state.used_cards += cards
    state.round_cards += cards


def _launch(state) -> None:
    state.deck = sorted(c for pile in state.piles for c in pile)
    state.deck_unseen = deck.unseen_slots_at_launch(state)


def test_a_pile_first_looked_at_holds_each_unseen_card_as_often_as_a_dealt_pile_would():
    state = _state()
    level_one = _level("I")
    other_pile = level_one[:2]
    _see_pile(state, 2, other_pile)                      # given pile 2 was seen: its cards are not in pile 1
    piles = exact_distribution(lambda rng: sorted(deck.draw_pile(state, rng)))
    in_pile = defaultdict(Fraction)
    for cards, chance in piles.items():
        for card in cards:
            in_pile[card] += chance
    unseen = len(level_one) - 2
    assert sum(piles.values()) == 1
    assert all(in_pile[card] == 0 for card in other_pile)
    # Dealt at the start: 2 of the unseen cards of level I, each pair equally likely.
    assert {card: in_pile[card] for card in level_one[2:]} == {card: Fraction(2, unseen) for card in level_one[2:]}
    assert len(piles) == unseen * (unseen - 1) // 2 and len(set(piles.values())) == 1


def test_the_first_card_of_the_flight_comes_as_often_as_after_a_shuffle_of_the_dealt_piles():
    state = _state()
    level_one = _level("I")
    seen = level_one[:2]
    _see_pile(state, 1, seen)                            # ann looked at pile 1; piles 2-4 were never seen
    _launch(state)
    first = exact_distribution(lambda rng: deck.draw_next_card(state, rng))
    assert sum(first.values()) == 1
    # 8 cards shuffled: each seen card is on top 1 time in 8; the other 6 are unseen cards of level I.
    assert all(first[card] == Fraction(1, 8) for card in seen)
    unseen = level_one[2:]
    assert all(first[card] == Fraction(6, 8) / len(unseen) for card in unseen)


def test_the_top_card_has_the_rounds_level_as_when_shuffling_until_it_has():
    state = _state(round_no=2)
    level_one, level_two = _level("I"), _level("II")
    pile = [level_one[0], level_two[0], level_two[1]]
    _see_pile(state, 3, pile)
    _launch(state)
    assert deck.cards_left(state) == 12
    first = exact_distribution(lambda rng: deck.draw_next_card(state, rng))
    assert sum(first.values()) == 1
    # Shuffled until a level II card is on top: each of the 8 level II slots equally likely.
    assert first.get(level_one[0], 0) == 0 and all(catalog.cards()[c]["level"] == "II" for c in first)
    assert first[level_two[0]] == first[level_two[1]] == Fraction(1, 8)
    unseen_two = level_two[2:]
    assert all(first[card] == Fraction(6, 8) / len(unseen_two) for card in unseen_two)
    without_rule = _state(round_no=2, options={"top_card_of_round_level": False})
    _see_pile(without_rule, 3, pile)
    _launch(without_rule)
    any_first = exact_distribution(lambda rng: deck.draw_next_card(without_rule, rng))
    assert any_first[level_one[0]] == Fraction(1, 12)     # every one of the 12 slots equally likely


def test_after_the_first_card_the_next_is_uniform_over_what_is_left():
    state = _state()
    level_one = _level("I")
    _launch(state)                                       # no pile was looked at: 8 unseen cards
    state.deck_unseen = {"I": 7}                         # one card was revealed ...
    state.used_cards.append(level_one[0])
    state.round_cards.append(level_one[0])               # ... and it was level_one[0]
    second = exact_distribution(lambda rng: deck.draw_next_card(state, rng))
    assert level_one[0] not in second
    assert set(second.values()) == {Fraction(1, len(level_one) - 1)}
