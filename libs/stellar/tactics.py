"""The bots' taste: weights on legal commands so random play still plays the game's plans.

Bots stay weighted-random (playouts must explore), but they lean on the moves a player would make:
grow toward alien planets with a face-down tile and sign The Agreement there, keep CARGO up with the
mining capacity by ordering ships, raise money by issuing shares when the treasury is thin, and use
wormholes and contractors to reach an agreement planet. This pushes playouts into the late game
(signings, scrapping events, era 5 takeovers) that pure random play seldom reaches.
"""
from __future__ import annotations

from stellar import commands as cmd
from stellar import queries as q
from stellar.board import alpha
from stellar.investor import seats
from stellar.state import State, liquid, treasury

BASE = {
    "PlaceOutpost": 6, "BeginExpansion": 6, "OrderShip": 4, "IssueShare": 2, "SignAgreement": 30,
    "DeclineAgreement": 1, "CreateWormhole": 1, "HireContractor": 2, "JerryRig": 4, "CargoBoost": 3,
    "ResearchWormhole": 2, "DevelopPlanets": 2, "PlaceVotes": 1, "UseAlienAlchemist": 0.3,
    "DismantleOutpost": 0.1, "UseLeakedResearch": 0.5, "ReclaimCubes": 0.1, "FinishBuilding": 2,
    "SkipBuilding": 1, "DeclineIssue": 2,
}


def agreement_targets(s: State, corp_id: str) -> list[str]:
    """Alien planets with a face-down tile where this corporation could still sign (or build, for Amethyst)."""
    corp = s.corps[corp_id]
    if not any(p in corp.powers for p in q.ALIEN_BUILDERS) or corp.signed:
        return []
    return [h for h in s.alien_tiles if corp_id not in s.outposts.get(h, [])]


def _distance_to(targets: list[str], hexes: list[str]) -> int:
    board = alpha()
    return min((board.distance(h, t) for h in hexes for t in targets), default=99)


def weight(s: State, command: cmd.Command) -> float:
    kind = command.type
    base = BASE.get(kind, 1.0)
    if kind == "PlaceOutpost":
        return base * _outpost_taste(s, s.build.corp, command.hex)
    if kind == "CreateWormhole":
        corp_id = s.corp_turn.corp
        return base * (40 if command.hex in agreement_targets(s, corp_id) else 1 + q.planet_value(s, command.hex))
    if kind == "FinishBuilding":
        return base * (1 + 1.5 * len(s.build.placed))
    if kind == "OrderShip":
        return base * _ship_taste(s, s.corp_turn.corp)
    if kind == "FinishOrdering":
        return 1.0 if _ship_taste(s, s.corp_turn.corp) > 1 else 6.0
    if s.corp_turn is not None and kind in ("IssueShare", "BeginExpansion", "DeclineIssue"):
        cash = s.ledger.balance(treasury(s.corp_turn.corp))
        if kind == "IssueShare":
            return base * (4 if cash < 8 else 1)
        if kind == "BeginExpansion":
            return base * (0.1 if cash < 2 else 1)
    if kind in ("HireContractor", "JerryRig"):
        cash = s.ledger.balance(liquid(seats(s)[s.inv.seat]))
        rich = 1 + cash / 15 if kind == "HireContractor" else 1
        return base * rich * (2 if agreement_targets(s, command.corp) else 1)
    if kind == "SignAgreement":
        return base * _signing_taste(s)
    return base


def _signing_taste(s: State) -> float:
    """Sign when the corporation's mining capacity is well ahead of the aliens' (a takeover makes its
    shares worth 1), allowing for the face-down shipyard tiles still to raise them (about 4 each, on
    average: bots do not peek) and the tile this signing reveals: a bot bets on part of that."""
    offer = next(p for p in s.pending if p.kind == "sign_offer")
    margin = q.mining_capacity(s, offer.corp) - s.alien_mc
    if margin >= 2 * len(s.shipyard_tiles) + 3:
        return 1.0
    return 0.15 if margin >= 0 else 0.002          # a gamble when only just ahead


def _outpost_taste(s: State, corp_id: str, hex_key: str) -> float:
    """Squared, so good hexes stand out: the planet's value, half its best neighbour's (a step toward a
    good planet), more for an agreement planet or a step toward one, less for each placement penalty."""
    targets = agreement_targets(s, corp_id)
    board = alpha()
    beyond = max((q.planet_value(s, n) for n in board.neighbours[hex_key]
                  if n not in s.outposts or corp_id not in s.outposts[n]), default=0)
    taste = 1 + q.planet_value(s, hex_key) + 0.5 * beyond      # a step toward a good planet counts too
    if hex_key in targets:
        taste += 4
    elif targets and _distance_to(targets, [hex_key]) < _distance_to(targets, q.on_board(s, corp_id)):
        taste += 1.5
    return max(0.2, taste - 0.5 * q.penalty_for(s, corp_id, hex_key, s.build.mode)) ** 2


def _ship_taste(s: State, corp_id: str) -> float:
    """Ships pay when CARGO is what limits the dividend row (or the columns are empty)."""
    corp = s.corps[corp_id]
    if not corp.ordered and not corp.delivered:
        return 4.0
    mc_row = q.mc_row(q.mining_capacity(s, corp_id))
    coming = corp.cargo + sum(corp.ordered)
    return 3.0 if coming < mc_row else 0.3


def share_worth(s: State, corp_id: str, player: str) -> float:
    """A rough value of one more share: the dividends left to come plus a guess at its final value,
    more when the bid's money lands in a treasury the bidder controls or the share wins a presidency."""
    corp = s.corps[corp_id]
    eras_left = max(1, 6 - s.era)
    if not corp.formed or corp.issued == 0:
        per_share, final = 2, 6
    else:
        per_share = q.dividend_per_share(s, corp_id)[1]
        final = q.share_value(s, corp_id) if not corp.signed or q.mining_capacity(s, corp_id) > s.alien_mc else 1
    worth = per_share * eras_left + final
    mine, top = corp.holders.get(player, 0), max(corp.holders.values(), default=0)
    if corp.president == player or corp.president is None or mine + 1 > top:
        worth += 6 + 2 * eras_left           # the money funds a corporation this player runs
    return worth
