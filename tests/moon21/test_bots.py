"""21Moon's bots (issue 17): strong enough to take a seat, and never exploitable through a deal.

Seeded, bounded engine-only games (`starbase_rules.arena`); the win counts asserted leave a margin below
what these seeds give (noted beside each), so a change in the random seats' choices does not flip them.
"""
from __future__ import annotations

import pytest

from moon21 import commands as K
from moon21.bots import LEVELS, bot_command
from moon21.game import GAME
from moon21.rules import rules
from moon21.state import P
from starbase_rules.contract import RuleViolation
from starbase_rules.arena import level_seat, play_match, random_seat, rotated, winner


def _wins(level: str, other, seats: int, games: int) -> int:
    wins = 0
    for seed in range(games):
        names = rotated(["bot"] + [f"o{n}" for n in range(1, seats)], seed)
        policies = {name: level_seat(GAME, level) if name == "bot" else other for name in names}
        wins += winner(play_match(GAME, policies, seed)) == "bot"
    return wins


def test_the_strong_bot_beats_two_random_seats():
    assert _wins("strong", random_seat(GAME), 3, 6) >= 5           # these seeds: 6 of 6


def test_the_strong_bot_beats_one_random_seat():
    assert _wins("strong", random_seat(GAME), 2, 6) >= 5           # these seeds: 6 of 6


def test_the_strong_bot_beats_the_normal_one_head_to_head():
    assert _wins("strong", level_seat(GAME, "normal"), 2, 8) >= 6    # these seeds: 8 of 8


def test_the_strong_bot_beats_two_normal_bots_in_most_three_player_games():
    """Strong buys the cheapest shares first and issues all it may: before that (random share order,
    random issue counts) these seeds gave 19 of 30, and 129 of 200 over seeds 0-199 (after: 138)."""
    assert _wins("strong", level_seat(GAME, "normal"), 3, 30) >= 21   # these seeds: 23 of 30


@pytest.mark.parametrize("seed", [1007, 1035, 1037, 1041, 1043])
def test_the_strong_bot_buying_cheap_shares_never_takes_over_a_random_players_corporation(seed):
    """Cheap shares are often those of a corporation without a transport: bought into its presidency,
    the bot paid for the transport and went bankrupt in each of these games (random seats)."""
    names = rotated(["bot", "o1", "o2"], seed)
    policies = {name: level_seat(GAME, "strong") if name == "bot" else random_seat(GAME) for name in names}
    outcome = play_match(GAME, policies, seed)
    assert outcome is not None
    assert next(s.score for s in outcome.standings if s.player == "bot") > 0      # not bankrupt


@pytest.mark.parametrize("seed", [1180, 1208, 1261])
def test_the_strong_bot_keeps_money_for_the_transport_its_corporations_will_need(seed):
    """Random seats selling hand the bot presidencies of corporations whose transports rust at the next
    phase change; spending all its cash on shares, it could not pay for their ₡500-730 transport and went
    bankrupt in each of these games. It now keeps that money back in stock rounds."""
    names = rotated(["bot", "o1", "o2"], seed)
    policies = {name: level_seat(GAME, "strong") if name == "bot" else random_seat(GAME) for name in names}
    outcome = play_match(GAME, policies, seed)
    assert outcome is not None
    assert next(s.score for s in outcome.standings if s.player == "bot") > 0      # not bankrupt


@pytest.mark.parametrize("level", list(LEVELS))
def test_every_level_beats_random_seats_more_often_than_chance(level):
    assert _wins(level, random_seat(GAME), 3, 4) >= 3               # chance: 1.3 of 4


class Adversary:
    """A seat whose only plan is to buy the bots' transports and privates at the lowest prices the rules
    allow (₡1 a transport, a private's minimum), each once an operating turn; otherwise the normal bot."""

    def __init__(self):
        self.proposed: set = set()

    def __call__(self, state, player, rnd):
        op = state.op
        if op is not None and not op.deal and state.kind == "OR" and state.president(op.corp) == player:
            for offer in self._offers(state, player):
                key = (state.set_no, state.or_no, op.corp, repr(offer))
                if key in self.proposed:
                    continue
                try:
                    GAME.decide(state, offer, player, None)
                except RuleViolation:
                    continue
                self.proposed.add(key)
                return offer
        return bot_command(state, player, rnd, GAME.decide)

    @staticmethod
    def _offers(state, me):
        offers = []
        for q in state.active_players():
            if q != me:
                offers += [K.AcquirePrivate(private=p, price=rules().privates[p].sale_min)
                           for p in state.privates_of(P(q))]
        for corp in state.live_corps():
            if state.president(corp) not in (me, None):
                offers += [K.BuyTransport(base=b, from_corp=corp, from_base=fb, transport=t, price=1)
                           for fb in ("LB", "SP") for t in set(state.corps[corp].transports[fb]) for b in ("LB", "SP")]
        return offers


@pytest.mark.parametrize("seed", range(2))
def test_an_adversary_offering_the_worst_deals_never_gets_one_nor_bankrupts_a_bot(seed):
    adversary = Adversary()
    answered = []

    def watching(level):
        bot = level_seat(GAME, level)

        def play(state, player, rnd):
            command = bot(state, player, rnd)
            if isinstance(command, K.AnswerDeal):
                deal = state.op.deal
                value = (rules().privates[deal["private"]].value if deal["kind"] == "private"
                         else rules().transport_cost[deal["transport"]])
                answered.append((command.accept, deal["price"], value))
            return command
        return play

    names = rotated(["adv", "easy", "strong"], seed)
    policies = {"adv": adversary, "easy": watching("easy"), "strong": watching("strong")}
    outcome = play_match(GAME, {name: policies[name] for name in names}, seed)
    assert outcome is not None
    assert adversary.proposed and answered
    assert all(not accepted or price >= value for accepted, price, value in answered), answered
    assert not any(accepted for accepted, price, value in answered if price < value)
    # With no deal below value taken, the adversary is only the normal bot, which may win a game on its own
    # (seed 1, since the strong bot buys differently): no win through a bot, so the winner is not asserted.
    ranks = {s.player: s for s in outcome.standings}
    assert ranks["strong"].score > 0 and ranks["easy"].score >= 0
