"""One stream's live copy in a lobby process: its recent envelopes, and each one's push text per view.

The feed keeps a `Channel` per stream that someone watches (or watched a moment ago):

- `tail`: the last `TAIL` envelopes of the stream, contiguous by seq. A socket that (re)connects with
  `after` inside the tail is served from it, so a crowd reconnecting after a blip costs no store read.
- `text(envelope, view, encode)`: the push for one view (a seat's player id, or None for every
  spectator), encoded once and then shared: N sockets watching a game cost one redaction and one JSON
  encoding per distinct view, not N. The cache covers the envelopes in the tail and goes with them.
  An envelope `alike` for every view (an event with no secret: most of them) is encoded once for all.

- `audience`: the sockets that are caught up, by view (`Sink`). `deliver` writes new envelopes' frames
  to them straight away, from the feed's hand-out (a command's envelopes together, one write per
  socket): no task per socket wakes up. A sink that would see a gap, or whose reader is too slow, is
  `demoted` and its owner takes over again.

It holds only what the store holds: a gap (the follower restarted) or a store read that does not join
the tail up simply starts the tail again from the newest envelope, and the socket's own checks (skip
what it sent, fill a gap from the store) stay the guarantee that nothing is lost or sent twice.
"""
from __future__ import annotations

from collections import deque
from itertools import islice
from typing import Callable, Hashable

from starbase_core.envelope import Envelope

from starbase_core.outlet import Outlet, frame

TAIL = 64               # envelopes kept per watched stream: a reconnect within them reads no store
GAP, SLOW, GONE = "gap", "slow", "gone"


def _never(envelope: Envelope) -> bool:
    return False


class Sink:
    """A caught-up socket: written to by `Channel.deliver` until it is demoted. Thousands of these sit
    in an audience, so it is a few slots and no future: `demoted(sink, reason)` is called once, when the
    channel stops writing to it (GAP: fill it from the store and join again; SLOW: close it with 4408;
    GONE: the socket is closing, its owner notices by itself)."""
    __slots__ = ("view", "encode", "outlet", "last", "demoted", "channel")

    def __init__(self, view: Hashable, encode: Callable[[Envelope], str], outlet: Outlet, last: int,
                 demoted: Callable[["Sink", str], None], channel: "Channel | None" = None):
        self.view, self.encode, self.outlet, self.last = view, encode, outlet, last
        self.demoted: Callable[[Sink, str], None] | None = demoted
        self.channel = channel

    def demote(self, reason: str) -> None:
        told, self.demoted = self.demoted, None
        if told is not None:
            told(self, reason)


class Channel:
    def __init__(self, stream: str) -> None:
        self.stream = stream
        self.subscribers: set = set()
        self.tail: deque[Envelope] = deque(maxlen=TAIL)
        self.handed = 0                 # the last seq handed out live (`add`)
        self._texts: dict[int, dict[Hashable, str]] = {}     # seq → view → push text
        self._frames: dict[int, dict[Hashable, bytes]] = {}  # seq → view → that text as a frame
        self.audience: dict[Hashable, set[Sink]] = {}
        self._alike: Callable[[Envelope], bool] = _never
        self._alike_at: dict[int, bool] = {}                  # seq → its `alike` answer, while in the tail

    @property
    def alike(self) -> Callable[[Envelope], bool]:
        """Whether an envelope's push is the same for every view (its watchers say: `Feed.catch_up`);
        then its text and frame are kept under the spectators' view, which sees no less than anyone."""
        return self._alike

    @alike.setter
    def alike(self, alike: Callable[[Envelope], bool]) -> None:
        if alike is not self._alike:
            self._alike, self._alike_at = alike, {}

    def add(self, envelope: Envelope) -> bool:
        """A live envelope, in the order the feed hands them out. False when it was handed out already
        (from its command's reply, then by the follow): its watchers then had it. One only read from the
        store is still handed out (a socket that subscribed before that read may be owed it)."""
        if envelope.seq <= self.handed:
            return False
        self.handed = envelope.seq
        if self.tail and envelope.seq <= self.tail[-1].seq:
            return True                             # held already (read from the store)
        if self.tail and envelope.seq != self.tail[-1].seq + 1:
            self._restart()                         # a gap: the tail must stay contiguous
        self._push(envelope)
        return True

    def seed(self, envelopes: list[Envelope]) -> None:
        """Envelopes read from the store: joined to the tail when they meet it without a gap."""
        if not envelopes:
            return
        if not self.tail or envelopes[-1].seq < self.tail[0].seq - 1:
            if self.tail:
                return                              # older and apart from the tail: keep the live part
        elif envelopes[0].seq > self.tail[-1].seq + 1:
            self._restart()                         # newer and apart: the store is ahead, start from it
        held = {e.seq: e for e in envelopes}
        held.update((e.seq, e) for e in self.tail)
        run = [held[max(held)]]                     # the contiguous run that ends with the newest
        while len(run) < TAIL and run[-1].seq - 1 in held:
            run.append(held[run[-1].seq - 1])
        self._restart()
        for envelope in reversed(run):
            self._push(envelope)

    def run(self, first: int, count: int) -> list[Envelope] | None:
        """The envelopes from seq `first`, `count` of them, if the tail holds them all; else None."""
        tail = self.tail
        if not tail or first < tail[0].seq or first + count - 1 > tail[-1].seq:
            return None
        start = first - tail[0].seq
        return list(islice(tail, start, start + count))

    def covers(self, after: int) -> bool:
        """Whether every envelope past `after` that this process has seen is in the tail."""
        return bool(self.tail) and self.tail[0].seq <= after + 1

    def since(self, after: int) -> list[Envelope]:
        return [e for e in self.tail if e.seq > after]

    def text(self, envelope: Envelope, view: Hashable, encode: Callable[[], str]) -> str:
        """The push of `envelope` for `view`, encoded at most once while the envelope is in the tail."""
        if not self._holds(envelope):
            return encode()                         # older than the live copy: not worth keeping
        # A stream's envelope at a seq never changes (append-only), whichever copy of it the socket holds.
        views = self._texts.setdefault(envelope.seq, {})
        view = self._kept_as(envelope, view)
        found = views.get(view)
        if found is None:
            found = views[view] = encode()
        return found

    def _holds(self, envelope: Envelope) -> bool:
        return envelope.stream == self.stream and bool(self.tail) and \
            self.tail[0].seq <= envelope.seq <= self.tail[-1].seq

    def join(self, sink: Sink) -> None:
        sink.channel = self
        self.audience.setdefault(sink.view, set()).add(sink)

    def leave(self, sink: Sink) -> None:
        sinks = self.audience.get(sink.view)
        if sinks is not None:
            sinks.discard(sink)
            if not sinks:
                del self.audience[sink.view]

    def deliver(self, envelopes: list[Envelope]) -> None:
        """Write new envelopes (contiguous by seq: one command's, say) to every caught-up socket: each
        view's frames made once, the same bytes for every socket of it, and all a socket is owed in one
        write (a syscall, a segment and a wake-up of its reader per command, not per event)."""
        first, last = envelopes[0].seq, envelopes[-1].seq
        alike = [self._is_alike(e) for e in envelopes]
        shared: dict[int, bytes] = {}       # by the seq a socket had: what it is owed when all alike, any view
        for view, sinks in list(self.audience.items()):
            owed: dict[int, bytes] = {}     # by the seq a socket had: the frames it is owed, joined
            for sink in list(sinks):
                had = sink.last
                if had >= last:
                    continue
                if had < first - 1:
                    sinks.discard(sink)
                    sink.demote(GAP)            # its owner fills the gap from the store, then comes back
                    continue
                data = owed.get(had)
                if data is None:
                    start = had + 1 - first
                    if all(alike[start:]):      # most commands: the same bytes for every view
                        data = shared.get(had)
                        if data is None:
                            data = shared[had] = self._joined(envelopes[start:], None, sink)
                    else:
                        data = self._joined(envelopes[start:], view, sink)
                    owed[had] = data
                if sink.outlet.write(data):
                    sink.last = last
                else:
                    sinks.discard(sink)
                    sink.demote(SLOW if sink.outlet.slow() else GONE)   # its owner ends the socket
            if not sinks:
                self.audience.pop(view, None)

    def _joined(self, envelopes: list[Envelope], view: Hashable, sink: Sink) -> bytes:
        frames = [self.frame(e, view, lambda e=e: sink.encode(e)) for e in envelopes]
        return frames[0] if len(frames) == 1 else b"".join(frames)

    def frame(self, envelope: Envelope, view: Hashable, encode: Callable[[], str]) -> bytes:
        kept_as = self._kept_as(envelope, view)
        found = self._frames.get(envelope.seq, {}).get(kept_as)
        if found is None:
            found = frame(self.text(envelope, view, encode))
            if envelope.seq in self._texts:         # cached with its text, dropped with it
                self._frames.setdefault(envelope.seq, {})[kept_as] = found
        return found

    def _kept_as(self, envelope: Envelope, view: Hashable) -> Hashable:
        return None if self._is_alike(envelope) else view

    def _is_alike(self, envelope: Envelope) -> bool:
        # asked for every view of every envelope delivered: answered once per envelope in the tail
        alike = self._alike_at.get(envelope.seq)
        if alike is None:
            alike = self._alike(envelope)
            if self._holds(envelope):           # kept while in the tail (`_push` drops it with it)
                self._alike_at[envelope.seq] = alike
        return alike

    def _push(self, envelope: Envelope) -> None:
        if len(self.tail) == TAIL:
            self._texts.pop(self.tail[0].seq, None)
            self._frames.pop(self.tail[0].seq, None)
            self._alike_at.pop(self.tail[0].seq, None)
        self.tail.append(envelope)

    def _restart(self) -> None:
        self.tail.clear()
        self._texts.clear()
        self._frames.clear()
        self._alike_at.clear()
