"""Setup: the seeded deals (alien tiles, shipyard tiles, corporate powers) and New Investor Setup."""
from __future__ import annotations

from stellar import events as ev
from stellar.board import alpha
from stellar.facts import tables
from stellar.flow import Tx, gain_power, sell_share
from stellar.state import Options

SCARLET = "scarlet_syndicate"


def option_problems(options: dict, players: list[str]) -> list[str]:
    """The combinations the declaration cannot say (each value alone is checked from `Options`)."""
    problems = []
    if options["powers_face_up"] + options["powers_face_down"] > len(tables().neutral_powers) - 5:
        problems.append("at most 13 powers may be dealt (New Investor Setup gives 5 more)")
    funds = options["starting_funds"]
    if options["new_investor_setup"] and funds is not None and funds != tables().starting_funds[len(players)]:
        problems.append("New Investor Setup uses the printed starting funds")
    return problems


def begin(tx: Tx, players: list[str], raw_options: dict) -> None:
    t, rng = tables(), tx.rng
    options = Options(**raw_options)
    funds = t.starting_funds[len(players)] if options.starting_funds is None else options.starting_funds
    agreement = list(t.agreement_tiles)
    if options.first_play:
        agreement.remove(4)                      # first play: the 4-chevron tile is not used
    agreement = rng.shuffle(agreement)
    planets = sorted(alpha().of_kind("alien_planet"))
    yard = rng.shuffle(list(t.shipyard_tiles))
    slots = [s.level for s in t.shipyard if s.tile_slot]
    neutral = list(t.neutral_powers)
    face_up, face_down = options.powers_face_up, options.powers_face_down
    if options.new_investor_setup:
        given = {c["second_power"] for c in t.new_investor[len(players)]["corporations"].values()}
        row, pile = rng.shuffle([p for p in neutral if p not in given])[: face_up], []
    elif options.first_play:
        row = list(t.first_play_powers)
        pile = rng.shuffle([p for p in neutral if p not in row])[: face_down]
    else:
        chosen = rng.shuffle(neutral)[: face_up + face_down]
        row, pile = chosen[: face_up], chosen[face_up:]
    first_bidder = players[rng.randbelow(len(players))]
    by_turn = sorted((spec for spec in t.corps.values() if spec.home), key=lambda spec: spec.initial_turn_order)
    auction_order = [spec.id for spec in reversed(by_turn)]        # 5th to 1st in turn order
    if options.random_auction_order:
        auction_order = rng.shuffle(auction_order)
    tx.emit(ev.GameSetUp(
        players=list(players), options=vars(options), liquid_funds=funds,
        alien_mc=t.difficulty[options.difficulty],
        alien_tiles=dict(zip(planets, agreement[: len(planets)])), boxed_tiles=agreement[len(planets):],
        shipyard_tiles=dict(zip(slots, yard[: len(slots)])), powers_row=row, powers_pile=pile,
        first_bidder=first_bidder, auction_order=auction_order))
    if options.new_investor_setup:
        _new_investor(tx, players)


def _new_investor(tx: Tx, players: list[str]) -> None:
    """The printed diagrams: seat A is the first player, then clockwise; each president buys its one
    share for the corporation's printed treasury, so liquid funds end as printed (ASSUMED data)."""
    layout = tables().new_investor[len(players)]
    seat_of = {letter: players[index] for index, letter in enumerate(sorted(layout["seats"]))}
    for letter, seat in sorted(layout["seats"].items()):
        for corp_id in seat["presides"]:
            spec = layout["corporations"][corp_id]
            sell_share(tx, corp_id, seat_of[letter], spec["treasury"], "setup")
            gain_power(tx, corp_id, spec["second_power"], from_row=False)
