"""Snapshots of folded games: a cache that spares a replica reading a whole stream. Never the truth.

A snapshot of a game holds what its stream folded into at one seq S: the engine state (as plain data,
`snapshot_codec`), the record's platform fields (players, options, draw counter, end, …), the engine's
name and version, and the store's `StreamCheckpoint` at S (S's hash, where the store finds it, the
digests of the command ids of seqs 1..S, so appends after S stay idempotent without reading 1..S).

Why it can never be taken for the truth. A reader (`load`) uses a snapshot only if
1. its HMAC-SHA256 checks, under a key only adjudicators hold (so nobody else can make one);
2. it was made by the very engine version that runs now (`engine_version`: the engine's declared
   version if it has one, and a hash of the source and data files of its package, the kit and the
   contract), so a changed engine never resumes from a state an older one folded;
3. the store finds, where it says, the envelope of this game's stream with its seq and hash
   (`store.adopt`), so it names a real place in this stream;
and then folds the stream's tail after S on top. Otherwise it is ignored and the game is folded from
seq 1. The audit never reads snapshots; `check_snapshot` verifies one against a fold from zero.

Format: b"SBS1" + HMAC(key, game id, body) + body; body = zlib(u32 length of the JSON + JSON + the
command map's bytes). The key (32 random bytes) lives in the seed vault under `SNAPSHOT_KEY`, a name no
game id can take (ids have no '='): every adjudicator replica reads the same one; players never do.
Why plain JSON and a signature, not pickle: unpickling runs code named by the bytes; the codec can only
rebuild engine dataclasses. The signature is still needed: a wrong state would decide wrong moves.
"""
from __future__ import annotations

import hashlib
import hmac
import importlib
import json
import struct
import sys
import zlib
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Callable, Protocol

from nats.aio.client import Client as NATS
from nats.js import api
from nats.js.errors import KeyNotFoundError
from nats.js.kv import KeyValue

from starbase_core.command_index import CommandSet, StreamCheckpoint, command_digest
from starbase_core.envelope import Envelope
from starbase_core.gamestream import GameRecord, game_stream, replay
from starbase_core.pause import PauseLog
from starbase_core.seats import SeatControl
from starbase_core.seeds import SeedVault
from starbase_core.undo import UndoLog
from starbase_core.snapshot_codec import from_plain, to_plain
from starbase_rules.contract import Game

FORMAT = 3      # 3: the record's seats, undo log and pause (older formats are ignored: the stream is folded)
MAGIC = b"SBS1"
SNAPSHOT_KEY = "snapshots=hmac-key"
SHARED_PACKAGES = ("kit18xx", "starbase_rules")       # code whose classes a state may hold, besides the engine's
RECORD_FIELDS = ("players", "options", "commitment", "draw_end", "ended", "events")
PLATFORM_PARTS: dict[str, Any] = {"seats": SeatControl, "undo": UndoLog, "pause": PauseLog}


class SnapshotBucket(Protocol):
    async def get(self, game_id: str) -> bytes | None: ...
    async def put(self, game_id: str, data: bytes) -> None: ...


class MemorySnapshotBucket:
    def __init__(self) -> None:
        self.saved: dict[str, bytes] = {}

    async def get(self, game_id: str) -> bytes | None:
        return self.saved.get(game_id)

    async def put(self, game_id: str, data: bytes) -> None:
        self.saved[game_id] = data


class JetStreamSnapshotBucket:
    """A KV bucket (`<event stream>_snapshots`), file-backed and replicated like the event store."""

    def __init__(self, connection: NATS, bucket: str, replicas: int = 1):
        self._nc, self._js = connection, connection.jetstream()
        self.bucket, self.replicas = bucket, replicas
        self._kv: KeyValue | None = None

    async def ensure(self) -> "JetStreamSnapshotBucket":
        self._kv = await self._js.create_key_value(api.KeyValueConfig(    # direct: no JSON, no base64
            bucket=self.bucket, history=1, storage=api.StorageType.FILE, replicas=self.replicas, direct=True))
        return self

    async def get(self, game_id: str) -> bytes | None:
        try:
            return (await self._ready().get(game_id)).value
        except KeyNotFoundError:
            return None

    async def put(self, game_id: str, data: bytes) -> None:
        if len(data) > self._nc.max_payload - 4096:
            raise ValueError(f"a snapshot of {len(data)} bytes is over the server's message size")
        await self._ready().put(game_id, data)

    def _ready(self) -> KeyValue:
        if self._kv is None:
            raise RuntimeError("the snapshot bucket is not ready: call ensure() first")
        return self._kv


@dataclass(frozen=True)
class Captured:
    """A game's snapshot taken under its lock, as plain data that no later command can change."""

    game_id: str
    seq: int
    body: dict
    commands: bytes


class Snapshots:
    def __init__(self, bucket: SnapshotBucket, key: bytes, games: Callable[[str], Game]):
        self.bucket, self._key, self.games = bucket, key, games

    @classmethod
    async def open(cls, bucket: SnapshotBucket, vault: SeedVault,
                   games: Callable[[str], Game]) -> "Snapshots":
        return cls(bucket, await vault.get_or_create(SNAPSHOT_KEY), games)

    def capture(self, record: GameRecord, checkpoint: StreamCheckpoint) -> Captured:
        """Copy what a snapshot needs out of the live record (which the next command changes in place).
        Raises `snapshot_codec.Unsupported` for a state the codec cannot rebuild exactly."""
        if checkpoint.seq != record.last_seq or checkpoint.hash != record.last_hash:
            raise ValueError(f"the store's checkpoint is at seq {checkpoint.seq}, the game at {record.last_seq}")
        body = {"format": FORMAT, "game_id": record.game_id, "engine": record.engine.name,
                "engine_version": engine_version(record.engine), "stream": checkpoint.stream,
                "seq": checkpoint.seq, "hash": checkpoint.hash, "position": checkpoint.position,
                "state": to_plain(record.state),
                **{name: _copied(getattr(record, name)) for name in RECORD_FIELDS},
                **{name: _copied(getattr(record, name).as_plain()) for name in PLATFORM_PARTS}}
        return Captured(record.game_id, record.last_seq, body, checkpoint.commands.to_bytes())

    async def save(self, captured: Captured) -> int:
        """Encode, sign and store a captured snapshot; the number of bytes stored."""
        blob = seal_snapshot(self._key, captured)
        await self.bucket.put(captured.game_id, blob)
        return len(blob)

    async def load(self, game_id: str, store) -> GameRecord | None:
        """The game as its snapshot has it, if the snapshot may be used (see the module's docstring);
        the store then knows the stream up to the snapshot's seq. None: fold the stream from seq 1."""
        blob = await self.bucket.get(game_id)
        if blob is None or not _signed_by(self._key, game_id, blob):
            return None
        body, commands = open_snapshot(blob)
        if body["format"] != FORMAT or body["game_id"] != game_id or body["stream"] != game_stream(game_id):
            return None
        engine = self.games(body["engine"])
        if body["engine_version"] != engine_version(engine):
            return None
        checkpoint = StreamCheckpoint(body["stream"], body["seq"], body["hash"], body["position"],
                                      CommandSet.from_bytes(commands))
        if not await store.adopt(checkpoint):
            return None
        return _record(game_id, engine, body)


def seal_snapshot(key: bytes, captured: Captured) -> bytes:
    text = json.dumps(captured.body, separators=(",", ":"), ensure_ascii=False).encode()
    body = zlib.compress(struct.pack("<I", len(text)) + text + captured.commands, 6)
    return MAGIC + _mac(key, captured.game_id, body) + body


def open_snapshot(blob: bytes) -> tuple[dict, bytes]:
    """The JSON body and the command map's bytes of a snapshot (its signature is not checked here)."""
    if not blob.startswith(MAGIC):
        raise ValueError("not a Starbase snapshot")
    data = zlib.decompress(blob[len(MAGIC) + 32:])
    (length,) = struct.unpack_from("<I", data)
    return json.loads(data[4:4 + length]), data[4 + length:]


def check_snapshot(blob: bytes, envelopes: list[Envelope], games: Callable[[str], Game]) -> list[str]:
    """What is wrong with a snapshot, against its game's whole stream folded from seq 1 (empty: nothing).
    Needs no key: it compares what the snapshot says with what the stream says."""
    body, commands = open_snapshot(blob)
    seq = body["seq"]
    if not envelopes or len(envelopes) < seq or envelopes[seq - 1].seq != seq:
        return [f"the stream has no seq {seq}"]
    folded = replay(body["game_id"], envelopes[:seq], games)
    problems = []
    if folded.last_hash != body["hash"]:
        problems.append(f"seq {seq} has hash {folded.last_hash}, the snapshot says {body['hash']}")
    if body["engine"] != folded.engine.name:
        problems.append(f"the game is {folded.engine.name}, the snapshot says {body['engine']}")
    for name in RECORD_FIELDS:
        if _copied(getattr(folded, name)) != body[name]:
            problems.append(f"{name} differs from the fold")
    for name in PLATFORM_PARTS:
        if _copied(getattr(folded, name).as_plain()) != body[name]:
            problems.append(f"{name} differs from the fold")
    engine = folded.engine
    package_names = engine_packages(engine)
    if from_plain(body["state"], package_names) != folded.state:
        problems.append("the engine state differs from the fold from seq 1")
    held = {command_digest(e.command_id) for e in envelopes[:seq] if e.command_id is not None}
    if set(CommandSet.from_bytes(commands).items()) != held:
        problems.append("its command ids are not those of seqs 1 to its seq")
    return problems


def _record(game_id: str, engine: Game, body: dict) -> GameRecord:
    state = from_plain(body["state"], engine_packages(engine))
    return GameRecord(game_id=game_id, engine=engine, state=state, last_seq=body["seq"],
                      last_hash=body["hash"], **{name: body[name] for name in RECORD_FIELDS},
                      **{name: part.from_plain(body[name]) for name, part in PLATFORM_PARTS.items()})


def _copied(value: Any) -> Any:
    return json.loads(json.dumps(value))        # plain JSON data, shared with nothing live


def _mac(key: bytes, game_id: str, body: bytes) -> bytes:
    return hmac.new(key, game_id.encode() + b"\n" + body, hashlib.sha256).digest()


def _signed_by(key: bytes, game_id: str, blob: bytes) -> bool:
    signature = blob[len(MAGIC):len(MAGIC) + 32]
    return blob.startswith(MAGIC) and hmac.compare_digest(signature, _mac(key, game_id, blob[len(MAGIC) + 32:]))


# ---- engine versions ------------------------------------------------------------------------------

_VERSIONS: dict[type, str] = {}


def engine_packages(engine: Game) -> tuple[str, ...]:
    """The packages whose code an engine's state may hold: the engine's own package, the kit, the contract."""
    module = type(engine).__module__
    return (module.rpartition(".")[0] or module, *SHARED_PACKAGES)


def engine_version(engine: Game) -> str:
    """The engine's declared version (if the engine declares one) and a digest of every file of its
    packages (`engine_packages`: source and data alike), computed once per engine class."""
    found = _VERSIONS.get(type(engine))
    if found is None:
        digest = hashlib.sha256()
        for package in engine_packages(engine):
            for path, content in _package_files(package):
                digest.update(f"{package}/{path}\n".encode() + hashlib.sha256(content).digest())
        declared = getattr(engine, "version", None) or getattr(getattr(engine, "metadata", None), "version", None)
        found = _VERSIONS[type(engine)] = f"{declared or '-'}+{digest.hexdigest()[:32]}"
    return found


def _package_files(package: str) -> list[tuple[str, bytes]]:
    module = sys.modules.get(package) or importlib.import_module(package)
    source = Path(module.__file__ or "")
    if source.name != "__init__.py":                # a single-module "package"
        return [(source.name, source.read_bytes())]
    files = (p for p in sorted(source.parent.rglob("*")) if p.is_file()
             and "__pycache__" not in p.parts and p.suffix not in (".pyc", ".pyo"))
    return [(str(p.relative_to(source.parent)), p.read_bytes()) for p in files]
