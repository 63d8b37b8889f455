"""Setup: the seeded deals (alien tiles, shipyard tiles, corporate powers) and New Investor Setup."""
from __future__ import annotations

from dataclasses import fields

from starbase_rules.contract import RuleViolation
from stellar import events as ev
from stellar.board import alpha
from stellar.facts import tables
from stellar.flow import Ctx, advance, gain_power, sell_share
from stellar.state import Options, State

SCARLET = "scarlet_syndicate"


def parse_options(raw: dict) -> Options:
    known = {f.name for f in fields(Options)}
    unknown = sorted(set(raw) - known)
    if unknown:
        raise RuleViolation("UNKNOWN_OPTION", f"unknown table option(s) {unknown}; known: {sorted(known)}")
    options = Options(**raw)
    if options.difficulty not in tables().difficulty:
        raise RuleViolation("BAD_OPTION", f"difficulty must be one of {sorted(tables().difficulty)}")
    if not 0 <= options.starting_cubes * 5 + 1 <= tables().cube_supply or \
            (options.starting_funds is not None and options.starting_funds < 0):
        raise RuleViolation("BAD_OPTION", "starting cubes must fit the 24-cube supply and funds be ≥ 0")
    choices = {"mega_earth_value": ("outposts_present", "lowest_empty_box"),
               "amethyst_power": ("secret_agents", "tax_agents")}
    for name, allowed in choices.items():
        if getattr(options, name) not in allowed:
            raise RuleViolation("BAD_OPTION", f"{name} must be one of {list(allowed)}")
    if options.tax_payment < 0 or options.powers_face_up < 0 or options.powers_face_down < 0 \
            or options.powers_face_up + options.powers_face_down > len(tables().neutral_powers) - 5:
        raise RuleViolation("BAD_OPTION", "the tax payment and power counts must be ≥ 0, and at most 13 "
                                          "powers may be dealt (New Investor Setup gives 5 more)")
    return options


def setup_events(players: list[str], raw_options: dict, rng) -> list:
    t = tables()
    if not 3 <= len(players) <= 5 or len(set(players)) != len(players):
        raise RuleViolation("BAD_PLAYER_COUNT", "Stellar Ventures takes 3 to 5 different players")
    options = parse_options(raw_options)
    funds = t.starting_funds[len(players)] if options.starting_funds is None else options.starting_funds
    if options.new_investor_setup and funds != t.starting_funds[len(players)]:
        raise RuleViolation("BAD_OPTION", "New Investor Setup uses the printed starting funds")
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
    ctx = Ctx(State(), rng)
    ctx.emit(ev.GameSetUp(
        players=list(players), options=vars(options), liquid_funds=funds,
        alien_mc=t.difficulty[options.difficulty],
        alien_tiles=dict(zip(planets, agreement[: len(planets)])), boxed_tiles=agreement[len(planets):],
        shipyard_tiles=dict(zip(slots, yard[: len(slots)])), powers_row=row, powers_pile=pile,
        first_bidder=first_bidder, auction_order=auction_order))
    if options.new_investor_setup:
        _new_investor(ctx, players)
    advance(ctx)
    return ctx.events


def _new_investor(ctx: Ctx, players: list[str]) -> None:
    """The printed diagrams: seat A is the first player, then clockwise; each president buys its one
    share for the corporation's printed treasury, so liquid funds end as printed (ASSUMED data)."""
    layout = tables().new_investor[len(players)]
    seat_of = {letter: players[index] for index, letter in enumerate(sorted(layout["seats"]))}
    for letter, seat in sorted(layout["seats"].items()):
        for corp_id in seat["presides"]:
            spec = layout["corporations"][corp_id]
            sell_share(ctx, corp_id, seat_of[letter], spec["treasury"], "setup")
            gain_power(ctx, corp_id, spec["second_power"], from_row=False)
