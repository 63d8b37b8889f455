"""The site's saved-game file: its shape checked, undo and redo resolved, automatic actions unfolded.

A saved game lists every action ever sent, undone ones included. `effective_actions` keeps the ones
that count, as the site replays them: `undo` cancels the latest action still in force (or, with an
`action_id`, every action after that one; 0: all), `redo` restores the last batch undone, and any
other action forgets what could be redone. Messages are never undone.

`moves` then unfolds what the site ran by itself after an action (`auto_actions`: purchases and passes
programmed by a player), keeping each move's place (`index` in the effective list) for reports.
"""
from __future__ import annotations

from dataclasses import dataclass, field

MAX_ACTIONS = 100_000
NOT_MOVES = frozenset({"message", "program_buy_shares", "program_share_pass", "program_disable",
                       "program_enable", "program_close_pass", "program_auction_bid", "use_graph"})


class BadGameFile(ValueError):
    """The file is not a 21Moon saved game of the site (one line, for people)."""


@dataclass(frozen=True)
class Move:
    index: int                 # place of the action in the effective list (0-based)
    action: dict               # the site's action as saved
    auto: bool = False         # run by the site itself after the action at `index`
    graph: str | None = None   # use_graph recorded after a tile lay: which base(s) reached it

    @property
    def type(self) -> str:
        return self.action["type"]

    @property
    def entity(self):
        return self.action.get("entity")


@dataclass(frozen=True)
class GameFile:
    game_id: str
    players: list[str]                     # site user ids, as text, in seat order
    seed: int
    auto_routing: bool
    actions: list[dict]
    result: dict[str, int] = field(default_factory=dict)
    starbase: dict | None = None           # a Starbase export's own setup and options (the site ignores it)


def read_game(data) -> GameFile:
    if not isinstance(data, dict):
        raise BadGameFile("the file holds no saved game (a JSON object is expected)")
    if data.get("title") != "21Moon":
        raise BadGameFile(f"the saved game is of {data.get('title')!r}, not 21Moon")
    players = data.get("players")
    if not isinstance(players, list) or not all(isinstance(p, dict) and "id" in p for p in players):
        raise BadGameFile("'players' must be a list of {id, name}")
    ids = [str(p["id"]) for p in players]
    if len(set(ids)) != len(ids) or not 2 <= len(ids) <= 5:
        raise BadGameFile("21Moon needs 2 to 5 players with distinct ids")
    actions = data.get("actions")
    if not isinstance(actions, list) or not all(isinstance(a, dict) and isinstance(a.get("type"), str)
                                                for a in actions):
        raise BadGameFile("'actions' must be a list of actions, each with a 'type'")
    if len(actions) > MAX_ACTIONS:
        raise BadGameFile(f"more than {MAX_ACTIONS} actions")
    settings = data.get("settings") or {}
    if not isinstance(settings, dict):
        raise BadGameFile("'settings' must be an object")
    result = data.get("result") or {}
    own = _starbase_setup(data.get("starbase"), ids)
    return GameFile(starbase=own, game_id=str(data.get("id", "")), players=ids,
                    seed=_seed(settings.get("seed"), data.get("id")) if own is None else 0,
                    auto_routing=bool(settings.get("auto_routing", True)), actions=actions,
                    result={str(k): v for k, v in result.items()} if isinstance(result, dict) else {})


def _starbase_setup(own, players: list[str]) -> dict | None:
    if own is None:
        return None
    if not isinstance(own, dict) or not isinstance(own.get("minerals"), dict) \
            or not isinstance(own.get("held_back"), str) or not isinstance(own.get("options", {}), dict):
        raise BadGameFile("'starbase' must hold minerals (hex -> mineral), held_back and options")
    if own.get("seats", players) != players:
        raise BadGameFile("'starbase.seats' must be the players in seat order")
    return {"minerals": {str(k): str(v) for k, v in own["minerals"].items()}, "held_back": own["held_back"],
            "options": dict(own.get("options", {}))}


def _seed(seed, game_id) -> int:
    """The site's seed: `settings.seed`, or else the first run of digits in the game id."""
    if isinstance(seed, int) and not isinstance(seed, bool):
        return seed
    if isinstance(seed, str) and seed.strip().isdigit():
        return int(seed)
    if seed not in (None, ""):
        raise BadGameFile(f"settings.seed must be a whole number, not {seed!r}")
    digits = "".join(ch if ch.isdigit() else " " for ch in str(game_id or "")).split()
    if not digits:
        raise BadGameFile("the game has neither settings.seed nor a numeric id to seed from")
    return int(digits[0])


def effective_actions(actions: list[dict]) -> list[dict]:
    """The actions in force once undo and redo are applied, as the site replays them."""
    kept: list[dict | None] = [None] * len(actions)
    undone: list[list[tuple[int, dict]]] = []
    for i, action in enumerate(actions):
        kind = action["type"]
        if kind == "undo":
            start = _undo_start(actions, kept, action.get("action_id"), i)
            batch = [(j, kept[j]) for j in range(start, i) if kept[j] and kept[j]["type"] != "message"]
            for j, _ in batch:
                kept[j] = None
            undone.append(batch)
        elif kind == "redo":
            if not undone:
                raise BadGameFile(f"action {action.get('id', i)}: redo with nothing undone")
            for j, restored in undone.pop():
                kept[j] = restored
        else:
            if kind != "message":
                undone.clear()
            kept[i] = action
    return [a for a in kept if a is not None]


def _undo_start(actions, kept, target, here: int) -> int:
    if target is None:
        last = [j for j in range(here) if kept[j] and kept[j]["type"] != "message"]
        return last[-1] if last else 0
    if target == 0:
        return 0
    found = next((j for j, a in enumerate(actions) if a.get("id") == target), None)
    if found is None:
        raise BadGameFile(f"undo to action {target}, which the file does not hold")
    return found + 1


def moves(effective: list[dict]) -> list[Move]:
    """Game moves in order: each action that is one, followed by the moves the site ran after it."""
    out = []
    for index, action in enumerate(effective):
        autos = [a for a in action.get("auto_actions") or [] if isinstance(a, dict) and "type" in a]
        graph = next((a.get("graph_id") for a in autos if a["type"] == "use_graph"), None)
        if action["type"] not in NOT_MOVES:
            out.append(Move(index, action, graph=graph))
        out += [Move(index, a, auto=True) for a in autos if a["type"] not in NOT_MOVES]
    return out
