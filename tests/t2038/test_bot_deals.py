"""The 2038 bot cannot be exploited through deals (issue 17, item 1).

An adversary seat whose only plan is to ask the bots' companies and players for their ships, privates and
claims at the worst prices the rules allow plays seeded, bounded, engine-only games against two bot seats;
every deal a bot answers is checked against the game's list values.
"""
from __future__ import annotations

import random

from starbase_rules.fair import FairRng
from t2038 import commands as cmd
from t2038.bots import accepted, bot_command
from t2038.deal_values import leaves_it_able_to_run, offer_value, terms_of
from t2038.game import GAME
from t2038.purchases import mandatory_ship_owed
from t2038.state import State

ADVERSARY = "adv"
SEATS = ["bot", ADVERSARY, "cy"]
MAX_COMMANDS = 2500


def _others_holdings(state: State, me: str) -> list:
    """Every ship, private and Independent's claim controlled by another player than `me`."""
    found = []
    for sid, ship in sorted(state.ships.items()):
        if ship.owner.startswith(("c:", "i:")) and ship.kind != "probe" and state.controller(ship.owner) != me:
            found.append(("ship", sid, ship))
    for company, owner in sorted(state.company_owner.items()):
        if owner.startswith("p:") and owner != f"p:{me}":
            found.append(("private", company, None))
    for key, holder in sorted(state.claims.items()):
        if holder.startswith("i:") and state.controller(holder) != me:
            found.append(("claim", key, None))
    return found


def _offers(state: State, me: str, price_of) -> list:
    offers = []
    for kind, what, _ in _others_holdings(state, me):
        if kind == "ship":
            offers.append(cmd.BuyShipFrom(ship=what, price=price_of(state, cmd.BuyShipFrom(ship=what, price=1))))
        elif kind == "private":
            offers.append(cmd.BuyPrivate(company=what, price=price_of(state, cmd.BuyPrivate(company=what, price=1))))
        else:
            hex_, mine = what.split("/")
            offers.append(cmd.BuyIndependentClaim(hex=hex_, mine=int(mine)))
    return offers


def _lowball(state: State, offer) -> int:
    return 1


def _at_value(state: State, offer) -> int:
    return offer_value(state, offer) or 1


class Adversary:
    """Plays like the bot, but whenever its corporation operates it first asks the others for everything
    they hold at `price_of` (each offer once per operating turn), and it accepts every offer it is asked."""

    def __init__(self, price_of):
        self.price_of = price_of
        self.tried: set = set()
        self.offered = 0

    def command(self, state: State, rnd: random.Random):
        if state.pending and state.pending[0][0] == "deal":
            return cmd.AcceptDeal() if accepted(state, ADVERSARY, cmd.AcceptDeal()) else cmd.Decline()
        op = state.operator
        if state.round == "operating" and op.startswith("c:") and state.step != "routes" and state.phase >= 2:
            turn = (state.set_number, state.or_number, op)
            for offer in _offers(state, ADVERSARY, self.price_of):
                key = (turn, offer.model_dump_json())
                if key not in self.tried and accepted(state, ADVERSARY, offer):
                    self.tried.add(key)
                    self.offered += 1
                    return offer
        return bot_command(state, ADVERSARY, rnd)


def play(seed: int, adversary: Adversary) -> tuple[State, list]:
    """One bounded game; returns the final state and every deal a bot seat answered: (terms, accepted,
    able to run afterwards, the buyer's controller). A bot's own offer to buy is never above list value
    (but the whole treasury for a mandatory ship when the bank sells none, 7.3)."""
    rng = FairRng(f"deals-{seed}".encode())
    rnd = random.Random(seed)
    state = GAME.initial_state()
    for event in GAME.setup(SEATS, {"variant": "short"}, rng):
        state = GAME.evolve(state, event)
    answered = []
    for _ in range(MAX_COMMANDS):
        if GAME.outcome(state) is not None:
            break
        actor = GAME.to_act(state)[0]
        if actor == ADVERSARY:
            command = adversary.command(state, rnd)
        else:
            command = bot_command(state, actor, rnd)
            value = offer_value(state, command)
            if value is not None and not mandatory_ship_owed(state, state.operator):
                assert command.price <= value, f"seed {seed}: {actor} offered {command} above its list value"
            if state.pending and state.pending[0][0] == "deal":
                when = state.pending[0][3]
                answered.append((terms_of(state, when), isinstance(command, cmd.AcceptDeal),
                                 leaves_it_able_to_run(state, when), state.controller(when["buyer"])))
        for event in GAME.decide(state, command, actor, rng):
            state = GAME.evolve(state, event)
    return state, answered


def test_an_adversary_asking_the_worst_prices_never_gets_a_deal_and_never_bankrupts_a_bot():
    adversary = Adversary(_lowball)
    asked = 0
    for seed in (2, 3):
        state, answered = play(seed, adversary)
        hostile = [deal for deal in answered if deal[3] == ADVERSARY]
        asked += len(hostile)
        for terms, took, able, _ in hostile:
            if took:
                assert terms.price >= terms.value, f"seed {seed}: sold {terms} below its list value"
                assert able, f"seed {seed}: a sale left {terms.seller} without a ship it could replace"
        assert state.bankrupt not in ("bot", "cy"), f"seed {seed}: {state.bankrupt} went bankrupt"
        gained = sum(terms.value - terms.price for terms, took, _, _ in hostile if took)
        assert gained <= 0, f"seed {seed}: the adversary gained ${gained} of value through deals"
    assert asked >= 5, "the adversary never got to ask a bot for anything: the test proves nothing"



def test_a_deal_at_list_value_is_still_accepted():
    adversary = Adversary(_at_value)
    taken = []
    for seed in (2,):
        _, answered = play(seed, adversary)
        taken += [terms for terms, took, _, buyer in answered if took and buyer == ADVERSARY]
    assert taken, "the bot refused every deal, fair ones too"
    assert all(terms.price >= terms.value for terms in taken)
