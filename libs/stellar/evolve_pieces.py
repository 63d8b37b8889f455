"""evolve handlers for the pieces: outposts, ships and CARGO, technology cubes, alien tiles and capacity."""
from __future__ import annotations

from stellar import events as ev
from stellar.board import MEGA_EARTH
from stellar.facts import tables
from stellar.rules import RULES
from stellar.state import Corp, State


def _cap(value: int) -> int:
    return max(0, min(tables().cargo_max, value))


@RULES.evolves(ev.OutpostPlaced)
def _outpost_placed(s: State, e: ev.OutpostPlaced) -> None:
    s.outposts.setdefault(e.hex, []).append(e.corp)
    if e.hex == MEGA_EARTH:          # "built in the bottom-most empty box"
        taken = set(s.mega_boxes.values())
        s.mega_boxes[e.corp] = next(box for box in range(len(taken) + 1) if box not in taken)
    s.corps[e.corp].supply -= 1
    if s.build is not None and not e.free:
        s.build.placed.append(e.hex)
        s.build.penalties += e.penalty


def _take_outpost(s: State, corp: Corp, hex_key: str | None) -> None:
    if hex_key is None:
        corp.supply -= 1
        return
    s.outposts[hex_key].remove(corp.id)
    if hex_key == MEGA_EARTH:        # the box it leaves stays empty; nobody slides down
        del s.mega_boxes[corp.id]
    if not s.outposts[hex_key]:
        del s.outposts[hex_key]


@RULES.evolves(ev.OutpostRemoved)
def _outpost_removed(s: State, e: ev.OutpostRemoved) -> None:
    corp = s.corps[e.corp]
    _take_outpost(s, corp, e.hex)
    corp.supply += 1


@RULES.evolves(ev.OutpostsBoxed)
def _outposts_boxed(s: State, e: ev.OutpostsBoxed) -> None:
    s.corps[e.corp].supply -= e.count
    s.corps[e.corp].boxed += e.count


@RULES.evolves(ev.LoanTaken)
def _loan(s: State, e: ev.LoanTaken) -> None:
    corp = s.corps[e.corp]
    _take_outpost(s, corp, e.hex)
    corp.loans += 1


@RULES.evolves(ev.NebulaConverted)
def _nebula(s: State, e: ev.NebulaConverted) -> None:
    s.converted_nebulae.append(e.hex)
    if e.tile_index >= 0:            # -1: the box was empty, the nebula is an alien planet without a tile
        del s.boxed_tiles[e.tile_index]
        s.alien_tiles[e.hex] = e.chevrons


@RULES.evolves(ev.TechnologyGained)
def _tech_gained(s: State, e: ev.TechnologyGained) -> None:
    s.investors[e.player].cubes += e.count
    if e.reason != "reclaimed":
        s.cube_supply -= e.count


@RULES.evolves(ev.TechnologySpent)
def _tech_spent(s: State, e: ev.TechnologySpent) -> None:
    s.investors[e.player].cubes -= e.count
    if e.use == "launder":
        s.cube_supply += e.count
    elif e.use == "cargo_boost":
        s.corps[e.corp].boost_cubes += e.count
    elif e.use == "wormhole":
        s.corps[e.corp].wormhole = s.corps[e.corp].wormhole_cube = True
    elif e.use == "develop":
        s.developed.extend(e.hexes)


@RULES.evolves(ev.CubesReclaimed)
def _cubes_reclaimed(s: State, e: ev.CubesReclaimed) -> None:
    corp = s.corps[e.corp]
    corp.boost_cubes -= e.boost
    if e.wormhole:
        corp.wormhole = corp.wormhole_cube = False
    s.investors[e.player].cubes += e.boost + (1 if e.wormhole else 0)


@RULES.evolves(ev.AgreementSigned)
def _signed(s: State, e: ev.AgreementSigned) -> None:
    corp = s.corps[e.corp]
    corp.signed = True
    corp.agreement_planets = e.alien_planets
    corp.charter -= 1
    corp.aliens += 1
    s.alien_tiles.pop(e.hex, None)
    s.agreement_tiles_gone += 1


@RULES.evolves(ev.AlienTileDiscarded)
def _tile_discarded(s: State, e: ev.AlienTileDiscarded) -> None:
    s.alien_tiles.pop(e.hex, None)
    s.agreement_tiles_gone += 1


@RULES.evolves(ev.AlienCapacityRaised)
def _alien_raised(s: State, e: ev.AlienCapacityRaised) -> None:
    s.alien_mc += e.amount


@RULES.evolves(ev.AlienCapacityShifted)
def _alien_shifted(s: State, e: ev.AlienCapacityShifted) -> None:
    s.alien_mc = max(0, s.alien_mc + e.amount)


@RULES.evolves(ev.AgentsBonusGained)
def _agents(s: State, e: ev.AgentsBonusGained) -> None:
    s.corps[e.corp].agents_bonus += e.amount


@RULES.evolves(ev.ShipOrdered)
def _ship_ordered(s: State, e: ev.ShipOrdered) -> None:
    if s.shipyard[e.level] > 0:
        s.shipyard[e.level] -= 1
    s.corps[e.corp].ordered.append(e.level)
    if s.corp_turn is not None:
        s.corp_turn.ordered_now += 1


@RULES.evolves(ev.SectionOpened)
def _section_opened(s: State, e: ev.SectionOpened) -> None:
    s.opened_sections.append(e.level)


@RULES.evolves(ev.ShipyardTileRevealed)
def _tile_revealed(s: State, e: ev.ShipyardTileRevealed) -> None:
    s.shipyard_tiles.pop(e.level, None)


@RULES.evolves(ev.ShipsScrapped)
def _ships_scrapped(s: State, e: ev.ShipsScrapped) -> None:
    s.scrapped_levels.append(e.level)
    if s.shipyard[e.level] > 0:
        s.ships_out[e.level] += s.shipyard[e.level]
        s.shipyard[e.level] = 0
    for corp in s.corps.values():
        delivered = [lv for lv in corp.delivered if lv == e.level]
        ordered = [lv for lv in corp.ordered if lv == e.level]
        corp.delivered = [lv for lv in corp.delivered if lv != e.level]
        corp.ordered = [lv for lv in corp.ordered if lv != e.level]
        if corp.id in e.saved and delivered:
            corp.spare_ship = delivered.pop()
        corp.cargo = _cap(corp.cargo - sum(delivered))
        s.ships_out[e.level] += len(delivered) + len(ordered)


@RULES.evolves(ev.ShipyardShipScrapped)
def _yard_scrapped(s: State, e: ev.ShipyardShipScrapped) -> None:
    if s.shipyard[e.level] > 0:
        s.shipyard[e.level] -= 1
        s.ships_out[e.level] += 1


@RULES.evolves(ev.SpareShipScrapped)
def _spare_scrapped(s: State, e: ev.SpareShipScrapped) -> None:
    corp = s.corps[e.corp]
    corp.cargo = _cap(corp.cargo - corp.spare_ship)
    s.ships_out[corp.spare_ship] += 1
    corp.spare_ship = None


@RULES.evolves(ev.ShipsDelivered)
def _delivered(s: State, e: ev.ShipsDelivered) -> None:
    corp = s.corps[e.corp]
    corp.cargo = _cap(corp.cargo + sum(corp.ordered))
    corp.delivered.extend(corp.ordered)
    corp.ordered = []


@RULES.evolves(ev.CargoChanged)
def _cargo(s: State, e: ev.CargoChanged) -> None:
    corp = s.corps[e.corp]
    corp.cargo = _cap(corp.cargo + e.amount)


@RULES.evolves(ev.ShipInsured)
def _insured(s: State, e: ev.ShipInsured) -> None:
    corp = s.corps[e.corp]
    corp.delivered.remove(e.level)
    corp.cargo = _cap(corp.cargo - e.level)
    s.ships_out[e.level] += 1
