"""Random, mostly wrong commands thrown at states met in a game: each is either refused with a
RuleViolation that leaves the state unchanged, or accepted with every invariant still holding."""
import copy
import random

from moon21.game import GAME
from starbase_rules.contract import RuleViolation, fold
from starbase_rules.playout import playout

CORPS = ["VH", "SSF", "SWP", "HMQ", "ITC", "LG", "KR", "XX"]
HEXES = ["D10", "E9", "F8", "G7", "G5", "C7", "A7", "ZZ", "E5", "G13"]


def random_command(r: random.Random) -> dict:
    kind = r.choice(["Pass", "BuyPrivate", "BidOnPrivate", "SellShares", "BuyShare", "StartCorporation",
                     "SwapCertificate", "TakeTunnelShare", "IssueShares", "LayTile", "LayTerminal", "PlaceDepot",
                     "PlaceResearchMarker", "MoveTransport", "RunTransports", "BuyTransport", "AcquirePrivate",
                     "UseUnContract", "AnswerDeal", "DeclareBankruptcy"])
    private = r.choice(["P1", "P2", "P3", "P4", "P5", "P6", "P9"])
    corp = r.choice(CORPS)
    fields = {
        "BuyPrivate": {"private": private},
        "BidOnPrivate": {"private": private, "amount": r.choice([-5, 0, 35, 50, 10000])},
        "AcquirePrivate": {"private": private, "price": r.choice([0, 1, 45, 1000])},
        "SellShares": {"corp": corp, "count": r.randint(-1, 6), "seller": r.choice(["player", "corporation"])},
        "BuyShare": {"corp": corp, "source": r.choice(["ipo", "pool"])},
        "StartCorporation": {"corp": corp, "par": r.choice([50, 60, 90, 100])},
        "SwapCertificate": {"corp": corp, "take": f"{r.choice(CORPS)}_{r.randint(0, 9)}",
                            "give": f"{r.choice(CORPS)}_{r.randint(0, 9)}"},
        "TakeTunnelShare": {"corp": corp},
        "IssueShares": {"count": r.randint(-1, 6)},
        "LayTile": {"base": r.choice(["LB", "SP"]), "hex": r.choice(HEXES),
                    "tile": r.choice(["5M", "7", "9", "X29", "X1", "999"]), "rotation": r.randint(-1, 6)},
        "LayTerminal": {"rotation": r.randint(-1, 6)},
        "PlaceDepot": {"hex": r.choice(HEXES), "depot": r.randint(-1, 2)},
        "PlaceResearchMarker": {"hex": r.choice(HEXES)},
        "MoveTransport": {"from_base": r.choice(["LB", "SP"]), "transport": r.choice([2, 3, 99])},
        "RunTransports": {"runs": r.choice([{}, {"SP": [{"transport": 2, "stops": ["E9-0", "D10-0"]}]},
                                            {"LB": [{"transport": 99}]}, {"SP": [{}]}])},
        "BuyTransport": {"base": r.choice(["LB", "SP"]), "from_corp": r.choice([None] + CORPS),
                         "transport": r.choice([None, 2, 10]), "price": r.choice([None, -1, 1, 10000])},
        "UseUnContract": {"action": r.choice(["add", "remove", "none"]), "transport_type": r.choice([None, 2, 3, 10])},
        "AnswerDeal": {"accept": r.random() < 0.5},
    }.get(kind, {})
    return {"type": kind, **fields}


def test_random_commands_are_refused_cleanly_or_keep_the_invariants():
    r = random.Random(5)
    game = playout(GAME, ["ann", "bob", "cy"], 9, check=False)
    state = GAME.initial_state()
    tried = 0
    for number, event in enumerate(game.events):
        state = GAME.evolve(state, event)
        if number % 9:
            continue
        for _ in range(4):
            actor = r.choice(GAME.to_act(state) + state.players)
            before = copy.deepcopy(state)
            tried += 1
            try:
                events = GAME.decide(state, GAME.parse_command(random_command(r)), actor, None)
            except RuleViolation:
                assert state == before
                continue
            assert GAME.invariants(fold(GAME, events, copy.deepcopy(state))) == []
    assert tried > 100
