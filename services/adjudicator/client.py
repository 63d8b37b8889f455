"""A small async client for the adjudicator, for the lobby and tools.

    client = AdjudicatorClient("127.0.0.1:50051")
    envelopes = await client.submit(game_id, actor, {"type": "Draw"}, command_id)   # RuleViolation if refused
    await client.submit(game_id, actor, command, command_id, expected_seq=41)  # only if seq 41 is the last
    await client.close()

`submit` and `create_game` are idempotent on their command id, so on UNAVAILABLE (a replica died, maybe
between its append and its reply) the client retries with the same id and gets the same events.
Several targets may be given as "host1:50051,host2:50051" (or a DNS name with several addresses).
Game affinity: every call about a game goes to the same replica while that replica is up, so its cache
of the game is warm (a game whose commands alternate between replicas makes each read the other's
appends back from the store first). The games are hashed into `streams` shards; every call names its
game's shard in a header, and gRPC's own ring-hash balancer maps the shard to a replica: the same one
from every client with the same addresses, the next one on the ring while that one is down, and back
once it answers again. Correctness never rests on it (the store orders each game's commands).
`submit` sends its command on its shard's long-lived SubmitStream (`streams.py`: cheaper per command
for both ends than a call each), with unary Submit's answers, refusals, retries and timeouts; against an
adjudicator without SubmitStream (UNIMPLEMENTED: a rolling upgrade) it uses Submit for a while, then tries
the stream again. Given `nats` (ADJUDICATOR_LINK=nats: a NatsSubmit on the service's own NATS
connection), `submit` sends each command as a NATS request instead (`nats_link.py`: cheaper still, the
shard placed on a replica by the replicas' hellos), and so do `to_act`, `legal_actions` and `view`, to the
same replica (`_read`); every other call stays on gRPC. With tracing on,
each command's span travels in its request's `traceparent`.
A service builds its client with `AdjudicatorClient.from_settings(settings, nats=connection)`: its
caller secret (`ADJUDICATOR_TOKEN_FILE`) goes with every call, over mutual TLS when `ADJUDICATOR_TLS` is on.
"""
from __future__ import annotations

import asyncio
import json
import os
import uuid
import zlib
from typing import Callable

import grpc
import structlog
from opentelemetry import trace

from adjudicator.nats_link import NatsSubmit
from adjudicator.streams import MAX_AGE as STREAM_SECONDS, SubmitStreams, status_was_lost
from adjudicator.wire import SUBMIT_SPAN, SUBMIT_SPAN_ATTRIBUTES, pb, rpc
from starbase_core import tracing
from starbase_core.compact_json import compact
from starbase_core.credentials import secret_from_file
from starbase_core.envelope import Envelope, run_of
from starbase_core.tls import TlsFiles
from starbase_rules.contract import RuleViolation

RETRYABLE = {grpc.StatusCode.UNAVAILABLE, grpc.StatusCode.DEADLINE_EXCEEDED}
UNARY_FOR = 60.0        # seconds on unary Submit after an adjudicator said it has no SubmitStream (or NATS door)
SHARDS = 32             # shards of games (a stream each): about even over 2 to 4 replicas on the ring
SHARD_HEADER = "starbase-shard"
# Ring hash on a request header without xDS (gRFC A76) is still behind this switch in gRPC's core, which
# reads it whenever a channel's service config is parsed; without it the config below is refused.
os.environ["GRPC_EXPERIMENTAL_RING_HASH_SET_REQUEST_HASH_KEY"] = "true"
SERVICE_CONFIG = json.dumps({"loadBalancingConfig": [{"ring_hash_experimental": {"requestHashHeader": SHARD_HEADER}}]})
log = structlog.get_logger(__name__)


def shard_of(game_id: str, shards: int) -> int:
    """The game's shard: the same in every process (crc32, not Python's salted hash)."""
    return zlib.crc32(game_id.encode()) % shards


class AdjudicatorClient:
    """`token`: this caller's secret, sent as `authorization: Bearer …` with every call (None: none, for
    an adjudicator without a callers file). `tls`: mutual TLS with the adjudicator (CA, our certificate).
    `streams`: how many shards the games are hashed into, each with its SubmitStream (0: a unary Submit
    per command, over SHARDS shards); `stream_seconds`: how long a stream takes commands before a new
    one replaces it (`streams.py`). `nats`: (connection, subject) to send Submit as NATS requests on
    (`nats_link.py`) instead."""

    def __init__(self, target: str, *, timeout: float = 10.0, retries: int = 8, retry_delay: float = 0.1,
                 token: str | None = None, tls: TlsFiles | None = None, streams: int = SHARDS,
                 stream_seconds: float = STREAM_SECONDS, nats: tuple | None = None):
        if "," in target:
            target = "ipv4:" + target if not target.startswith(("ipv4:", "dns:")) else target
        self.target = target
        self.timeout, self.retries, self.retry_delay = timeout, retries, retry_delay
        caller = (("authorization", f"Bearer {token}"),) if token else ()
        self._shards = streams or SHARDS
        self._metadata = [caller + ((SHARD_HEADER, str(shard)),) for shard in range(self._shards)]
        options = [("grpc.service_config", SERVICE_CONFIG), ("grpc.enable_retries", 0)]
        interceptors = tracing.grpc_client_interceptors()
        if tls is not None:
            ca, chain, key = tls.read()
            credentials = grpc.ssl_channel_credentials(ca, key, chain)
            self._channel = grpc.aio.secure_channel(target, credentials, options=options, interceptors=interceptors)
        else:
            self._channel = grpc.aio.insecure_channel(target, options=options, interceptors=interceptors)
        self._stub = rpc.AdjudicatorStub(self._channel)
        self._streams = SubmitStreams(self._stub, self._metadata, max_age=stream_seconds) if streams > 0 else None
        self._nats = NatsSubmit(nats[0], nats[1], self._shards, token) if nats is not None else None
        self._unary_until = 0.0         # loop time until which `submit` uses unary Submit (UNIMPLEMENTED)
        self._grpc_reads_until = 0.0    # loop time until which the reads of `wire.CALLS` go by gRPC
        # `held(stream, first seq, count)`: those envelopes when the caller holds them already (the
        # lobby's live copy, which the store's follow often fills before a command's reply comes); a
        # reply's envelopes are then taken from there (the same run: `run_of`), not decoded again.
        self.held: Callable[[str, int, int], list[Envelope] | None] | None = None

    @classmethod
    def from_settings(cls, settings, *, nats=None, **options) -> "AdjudicatorClient":
        """The client a service configures with ADJUDICATOR_TARGET, ADJUDICATOR_TOKEN_FILE, ADJUDICATOR_TLS
        and the TLS_* files; with ADJUDICATOR_LINK=nats, Submit goes over `nats` (the service's own NATS
        connection) on ADJUDICATOR_SUBJECT."""
        tls = None
        if settings.adjudicator_tls:
            if not (settings.tls_ca_file and settings.tls_cert_file and settings.tls_key_file):
                raise ValueError("ADJUDICATOR_TLS needs TLS_CA_FILE, TLS_CERT_FILE and TLS_KEY_FILE")
            tls = TlsFiles(settings.tls_ca_file, settings.tls_cert_file, settings.tls_key_file)
        if settings.adjudicator_link == "nats":
            if nats is None:
                raise ValueError("ADJUDICATOR_LINK=nats needs the service's NATS connection")
            options["nats"] = (nats, settings.adjudicator_subjects)
        return cls(settings.adjudicator_target, token=secret_from_file(settings.adjudicator_token_file),
                   tls=tls, **options)

    def __repr__(self) -> str:    # never the token
        return f"AdjudicatorClient({self.target!r})"

    async def close(self) -> None:
        if self._streams is not None:
            self._streams.close()
        if self._nats is not None:
            await self._nats.close()
        await self._channel.close()

    async def __aenter__(self):
        return self

    async def __aexit__(self, *exc_info):
        await self.close()

    async def create_game(self, game_id: str, game: str, players: list[str], options: dict | None = None,
                          command_id: str | None = None) -> list[Envelope]:
        request = pb.CreateGameRequest(game_id=game_id, game=game, players=players,
                                       options_json=json.dumps(options or {}),
                                       command_id=command_id or f"create-{game_id}")
        return _envelopes(await self._call(self._stub.CreateGame, request))

    async def submit(self, game_id: str, actor: str, command: dict, command_id: str | None = None, *,
                     expected_seq: int | None = None, played_by: str | None = None) -> list[Envelope]:
        """`expected_seq`: refuse (STALE_POSITION) unless the game's last envelope is still this seq.
        `played_by`: who plays the seat when not its own player (`starbase_core.seats`)."""
        request = pb.SubmitRequest(game_id=game_id, actor=actor, command_json=compact(command),
                                   command_id=command_id or uuid.uuid4().hex, expected_seq=expected_seq or 0,
                                   played_by=played_by or "")
        return _envelopes(await self._call(self._submit_once, request), self.held)

    async def submit_with_turn(self, game_id: str, actor: str, command: dict, command_id: str | None = None, *,
                               expected_seq: int | None = None,
                               played_by: str | None = None) -> tuple[list[Envelope], dict | None]:
        """`submit`, and who owes a decision right after the command's events: {"seq", "to_act", "ended"}
        as `to_act` would answer at the last event's seq; None when the adjudicator does not say (a
        retried command id, an undo, an adjudicator older than the field)."""
        request = pb.SubmitRequest(game_id=game_id, actor=actor, command_json=compact(command),
                                   command_id=command_id or uuid.uuid4().hex, expected_seq=expected_seq or 0,
                                   played_by=played_by or "")
        reply = await self._call(self._submit_once, request)
        envelopes = _envelopes(reply, self.held)
        if not reply.HasField("turn") or not envelopes or reply.turn.seq != envelopes[-1].seq:
            return envelopes, None
        return envelopes, {"seq": reply.turn.seq, "to_act": list(reply.turn.to_act), "ended": reply.turn.ended}

    async def view(self, game_id: str, viewer: str | None = None) -> dict:
        reply = await self._read("GetView", pb.GetViewRequest(game_id=game_id, viewer=viewer or ""))
        return json.loads(_json(reply))

    async def view_at(self, game_id: str, seq: int, viewer: str | None = None) -> dict:
        """The game at a past seq as `viewer` saw it (read-only; every seat's view once it is over)."""
        reply = await self._call(self._stub.ViewAt, pb.ViewAtRequest(game_id=game_id, seq=seq, viewer=viewer or ""))
        return json.loads(_json(reply))

    async def to_act(self, game_id: str) -> dict:
        """{"game_id", "seq", "to_act", "ended"}: who owes a decision now."""
        return json.loads(_json(await self._read("ToAct", pb.ToActRequest(game_id=game_id))))

    async def legal_actions(self, game_id: str, player: str) -> list[dict]:
        reply = await self._read("LegalActions", pb.LegalActionsRequest(game_id=game_id, player=player))
        return json.loads(_json(reply))

    async def _read(self, method: str, request):
        """A read about one game (`wire.CALLS`): over NATS, where the game's commands go (that replica's
        cache of it is current; on gRPC the ring could pick the other, which then read back all the
        first had appended), when the commands go by NATS; else, or against adjudicators without that
        door (UNIMPLEMENTED: a rolling upgrade), by gRPC for a while."""
        unary = getattr(self._stub, method)
        if self._nats is None or asyncio.get_running_loop().time() < self._grpc_reads_until:
            return await self._call(unary, request)
        shard = shard_of(request.game_id, self._shards)

        async def over_nats(request, *, timeout: float, wait_for_ready: bool, metadata):
            if asyncio.get_running_loop().time() >= self._grpc_reads_until:     # (a retry after the fallback)
                try:
                    return await self._nats.call(method, request, pb.JsonReply, shard, timeout)
                except grpc.aio.AioRpcError as error:
                    if error.code() != grpc.StatusCode.UNIMPLEMENTED:
                        raise
                    log.warning("adjudicator_reads_by_grpc", target=self.target, reason=error.details(),
                                grpc_seconds=UNARY_FOR)
                    self._grpc_reads_until = asyncio.get_running_loop().time() + UNARY_FOR
            return await unary(request, timeout=timeout, wait_for_ready=wait_for_ready, metadata=metadata)

        return await self._call(over_nats, request)

    async def _call(self, method, request):
        """`method(request, timeout=, wait_for_ready=, metadata=)` (a unary stub method, or `_submit_once`),
        retried on UNAVAILABLE and DEADLINE_EXCEEDED with backoff, each attempt within `timeout`; its
        metadata names the shard of the request's game."""
        delay = self.retry_delay
        metadata = self._metadata[shard_of(request.game_id, self._shards)]
        for attempt in range(self.retries + 1):
            try:
                return await method(request, timeout=self.timeout, wait_for_ready=attempt > 0, metadata=metadata)
            except grpc.aio.AioRpcError as error:
                if error.code() not in RETRYABLE or attempt == self.retries:
                    raise
            await asyncio.sleep(delay)
            delay = min(delay * 2, 2.0)

    async def _submit_once(self, request, *, timeout: float, wait_for_ready: bool, metadata):
        """One attempt of a Submit: over NATS when so configured, else on a SubmitStream unless there is
        none (or the adjudicator has none)."""
        streams = self._streams
        if asyncio.get_running_loop().time() < self._unary_until or (streams is None and self._nats is None):
            return await self._stub.Submit(request, timeout=timeout, wait_for_ready=wait_for_ready, metadata=metadata)
        shard = shard_of(request.game_id, self._shards)
        if self._nats is not None:
            send = lambda: self._nats.send(request, shard, timeout)     # noqa: E731
        else:
            send = lambda: streams.send(request, shard, timeout, wait_for_ready)     # noqa: E731
        try:
            if not tracing.enabled():
                return await send()
            # The span unary Submit's call would have had (the gRPC interceptor's), its context in the request.
            with tracing.tracer().start_as_current_span(SUBMIT_SPAN, kind=trace.SpanKind.CLIENT,
                                                        attributes=SUBMIT_SPAN_ATTRIBUTES):
                request.traceparent = tracing.headers().get("traceparent", "")
                return await send()
        except grpc.aio.AioRpcError as error:
            if status_was_lost(error):
                # Its stream ended as it was being written, and gRPC lost why (a refusal of this caller
                # reads as a failure): the same command id at once on a unary call, whose status gRPC
                # keeps. Stored once either way; a failure there is retried as any other.
                request.traceparent = ""
                return await self._stub.Submit(request, timeout=timeout, wait_for_ready=wait_for_ready,
                                               metadata=metadata)
            if error.code() != grpc.StatusCode.UNIMPLEMENTED:
                raise
            reason = error.details()
        # An adjudicator older than SubmitStream or than the NATS door (a rolling upgrade): unary Submit
        # for a while.
        now = asyncio.get_running_loop().time()
        if now >= self._unary_until:        # once, not for every request that was waiting on the stream
            log.warning("adjudicator_submit_unary", target=self.target, reason=reason,
                        unary_seconds=UNARY_FOR)
            self._unary_until = now + UNARY_FOR
        request.traceparent = ""
        return await self._stub.Submit(request, timeout=timeout, wait_for_ready=wait_for_ready, metadata=metadata)


def _envelopes(reply, held=None) -> list[Envelope]:
    if reply.WhichOneof("result") == "violation":
        raise RuleViolation(reply.violation.code, reply.violation.message)
    texts = reply.events.envelope_json
    if held is not None and texts and (run := run_of(texts[0], texts[-1])) is not None:
        stream, first, last_hash = run
        found = held(stream, first, len(texts))
        if found and len(found) == len(texts) and found[0].stream == stream and found[0].seq == first \
                and found[-1].hash == last_hash:
            return found
    return [Envelope.model_validate_json(text) for text in texts]


def _json(reply) -> str:
    if reply.WhichOneof("result") == "violation":
        raise RuleViolation(reply.violation.code, reply.violation.message)
    return reply.json
