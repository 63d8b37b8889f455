"""`legal_actions` lists exactly the candidates `decide` accepts, on positions of a bot game of every
round and operating step, although it skips the commands bound to other steps (`OR_STEPS`) and does
not play the automatic flow after each accepted candidate."""
from moon21 import legal
from moon21.game import GAME
from starbase_rules.contract import RuleViolation
from starbase_rules.playout import playout


def accepted_by_decide(state, player) -> list[dict]:
    out = []
    for command in legal._candidates(state, player):
        try:
            GAME.decide(state, command, player, None)
        except RuleViolation:
            continue
        out.append(command.model_dump())
    return out


def test_legal_actions_are_the_candidates_that_decide_accepts_at_every_kind_of_position():
    game = playout(GAME, ["ann", "bob", "cy", "dee"], seed=5, check=False)
    state, seen = GAME.initial_state(), set()
    for index, event in enumerate(game.events):
        state = GAME.evolve(state, event)
        actors = GAME.to_act(state)
        if index % 9 or not actors:
            continue
        seen.add((state.kind, state.op.step if state.op else None))
        for player in state.players:
            expected = accepted_by_decide(state, player) if player in actors else []
            assert GAME.legal_actions(state, player) == expected, (index, player)
    assert {("ISR", None), ("SR", None), ("OR", "tiles"), ("OR", "run")} <= seen
