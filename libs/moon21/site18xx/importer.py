"""Replaying a game of the site through the Starbase engine: `import_game(data, options)`.

Every move of the saved game (`gamefile.moves`) becomes one or more Starbase commands (`translate`),
each submitted through `GAME.decide` and folded: whose turn it is, every amount and every refusal is
the engine's own. Where the site lets a later action stand for passing a step (it has no separate
"done with tiles"), the import sends the passes Starbase's steps need, and only those (`Replay.reach`).

The first action the engine refuses, or whose outcome differs from what the site recorded (a run's
revenue, a transport's price), stops the import with its index, the action and the reason; with
`keep_going` every such divergence is listed and the move is skipped.
"""
from __future__ import annotations

import copy
from dataclasses import dataclass, field

from moon21 import commands as K
from moon21.game import GAME
from moon21.options import SITE, table_options
from moon21.site18xx.gamefile import GameFile, effective_actions, moves, read_game
from moon21.site18xx.names import UnknownName
from moon21.site18xx.setup import ORIGIN, setup_events
from moon21.site18xx.shadow import Shadow
from moon21.state import State
from starbase_rules.contract import RuleViolation, fold

@dataclass
class Step:
    index: int | None          # the move it stands for (None: a pass the site's steps did not need)
    actor: str
    command: object
    events: list


@dataclass
class Divergence:
    index: int
    action: dict
    code: str
    message: str

    def line(self) -> str:
        return f"action {self.index} (id {self.action.get('id', '?')}, {self.action.get('type')} by " \
               f"{self.action.get('entity')}): {self.code}: {self.message}"


@dataclass
class ImportResult:
    game: GameFile
    options: dict
    setup: list
    steps: list[Step] = field(default_factory=list)
    divergences: list[Divergence] = field(default_factory=list)
    checks: dict = field(default_factory=lambda: {"runs": 0, "purchases": 0})   # compared with the site
    state: State | None = None
    moves: int = 0

    @property
    def result(self) -> dict[str, int] | None:
        """The final result in the site's form: player id -> value; None while the game is not over."""
        outcome = GAME.outcome(self.state)
        if outcome is None:
            return None
        return {s.player: int(s.score) for s in sorted(outcome.standings, key=lambda s: -s.score)}

    def origin(self) -> dict:
        return origin_of(self.game)


class Diverged(Exception):
    def __init__(self, code: str, message: str):
        super().__init__(f"{code}: {message}")
        self.code, self.message = code, message


def origin_of(game: GameFile) -> dict:
    """Where an imported game's setup comes from: the site's seed, or a Starbase export's own setup."""
    if game.starbase is not None:
        return {"site": ORIGIN, "game": game.game_id,
                "setup": {"minerals": game.starbase["minerals"], "held_back": game.starbase["held_back"]}}
    return {"site": ORIGIN, "game": game.game_id, "seed": game.seed}


def import_options(game: GameFile, overrides: dict | None = None) -> dict:
    """The table options of an imported game: the site's ruleset and automatic routing (or a Starbase
    export's own options), then the caller's overrides (e.g. {"ruleset": "rulebook"} to see where the
    rulebook parts ways)."""
    if game.starbase is not None:
        given = dict(game.starbase["options"])
    else:
        given = {"ruleset": SITE}
        if not game.auto_routing:
            given["maximum_revenue"] = "not_enforced"
    if overrides and "ruleset" in overrides:
        given = {}
    given.update(overrides or {})
    return table_options(given)


def import_game(data, overrides: dict | None = None, keep_going: bool = False) -> ImportResult:
    """Replay a saved game of the site; raises BadGameFile for a file that is not one."""
    game = read_game(data)
    options = import_options(game, overrides)
    setup = setup_events(game.players, options, origin_of(game))
    replay = Replay(ImportResult(game, options, setup, state=fold(GAME, setup)))
    all_moves = moves(effective_actions(game.actions))
    replay.result.moves = len(all_moves)
    replay.run(all_moves, keep_going)
    return replay.result


class Replay:
    def __init__(self, result: ImportResult):
        self.result = result
        self.shadow = Shadow()
        self.turns: set[tuple] = set()

    @property
    def state(self) -> State:
        return self.result.state

    # -- driving ---------------------------------------------------------------------------------
    def run(self, all_moves, keep_going: bool) -> None:
        from moon21.site18xx.translate import translate
        position = 0
        while position < len(all_moves):
            move = all_moves[position]
            mark = (len(self.result.steps), GAME.copy_state(self.state), copy.deepcopy(self.shadow))
            try:
                used = translate(self, move, all_moves[position + 1:])
            except (Diverged, RuleViolation, UnknownName, KeyError, TypeError, ValueError) as problem:
                code, message = _describe(problem)
                self.result.divergences.append(Divergence(move.index, move.action, code, message))
                del self.result.steps[mark[0]:]
                self.result.state, self.shadow = mark[1], mark[2]
                if not keep_going:
                    return
                used = 0
            position += 1 + used
        self.finish()
        for kind, name in (("OR", "operating_turns"), ("CR", "corporate_turns")):
            self.result.checks[name] = len([t for t in self.turns if t[0] == kind and t[-1] is not None])

    def finish(self) -> None:
        """After the last action the site's game is over: play the passes that end it here too."""
        for _ in range(50):
            s = self.state
            if s.ended or s.kind != "OR" or s.op is None:
                return
            try:
                self.end_turn(None)
            except (Diverged, RuleViolation):
                return

    # -- submitting --------------------------------------------------------------------------------
    def submit(self, index: int | None, actor: str | None, command) -> list:
        if actor is None:
            raise Diverged("NO_ACTOR", "nobody here could send this action")
        events = GAME.decide(self.state, command, actor, None)
        if index is not None:                  # a site move decided in this corporation's turn
            self.turns.add(_turn_key(self.state))
        self.result.state = fold(GAME, events, self.state)
        self.result.steps.append(Step(index, actor, command, events))
        self.shadow.follow(self.state, events)
        return events

    def try_first(self, index: int | None, actor: str | None, commands: list) -> list:
        """Submit the first of `commands` the engine accepts (all refused: the first refusal)."""
        refusal = None
        for command in commands:
            try:
                return self.submit(index, actor, command)
            except RuleViolation as refused:
                refusal = refusal or refused
        raise refusal or Diverged("NOTHING_TO_SEND", "no command stands for this action")

    # -- operating turns: the passes Starbase's steps need ------------------------------------------
    def president(self, corp: str) -> str | None:
        return self.state.president(corp) if corp in self.state.corps else None

    def turn_of(self, corp: str) -> None:
        """End operating turns until it is `corp`'s (the site moved on without a word)."""
        for _ in range(20):
            s = self.state
            if s.kind != "OR" or s.op is None or s.op.corp == corp:
                return
            self.end_turn(None)
        raise Diverged("NOT_ITS_TURN", f"{corp} does not operate next here")

    def reach(self, step: str) -> None:
        """Pass the steps before `step` in the current operating turn (tiles -> token -> run -> buy)."""
        order = ("tiles", "token", "run", "buy")
        for _ in range(4):
            op = self.state.op
            if op is None or order.index(op.step) >= order.index(step):
                return
            self.step_pass(op.corp)

    def step_pass(self, corp: str) -> None:
        actor = self.president(corp)
        if self.state.op.step == "run":       # the site skipped the run: it had nothing to run
            self.submit(None, actor, K.RunTransports(runs={"LB": [], "SP": []}))
        else:
            self.submit(None, actor, K.Pass())

    def end_round(self) -> None:
        """The site's next action belongs to a later round: end this operating round here."""
        for _ in range(20):
            if self.state.kind != "OR" or self.state.op is None:
                return
            self.end_turn(None)
        raise Diverged("ROUND_DOES_NOT_END", "the operating round does not end here")

    def end_turn(self, index: int | None) -> None:
        corp = self.state.op.corp
        for _ in range(6):
            op = self.state.op
            if op is None or op.corp != corp:
                return
            self.step_pass(corp)
        raise Diverged("TURN_DOES_NOT_END", f"{corp}'s turn does not end here")


def _turn_key(s: State) -> tuple:
    """Which corporation turn a move falls in (None outside corporation turns)."""
    corp = s.op.corp if s.kind == "OR" and s.op else s.cr.current if s.kind == "CR" and s.cr else None
    return s.kind, s.set_no, s.or_no, corp


def _describe(problem: Exception) -> tuple[str, str]:
    if isinstance(problem, (Diverged, RuleViolation)):
        return problem.code, problem.message
    if isinstance(problem, UnknownName):
        return "UNKNOWN_NAME", str(problem)
    return "MALFORMED_ACTION", f"{type(problem).__name__}: {problem}"

