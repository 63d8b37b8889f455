"""What carrying one command costs, by transport: the adjudicator's gRPC SubmitStream beside a NATS
request and reply, both around an echo (no store, no engine), so only the link is measured.

Why: under 21Moon load the adjudicator's event loop spends about half its samples in C code with no
Python frame above it (gRPC's asyncio layer and its completion-queue thread, uvloop), and the lobby's
gRPC writes are the largest item of its own samples (docs/lobby-capacity.md). This says how much of that
is the transport's, and what the alternative the stack already runs (NATS) would cost instead.

Each variant, in turn, ROUNDS times: a server process (this script, `serve grpc|nats <address>`) on
uvloop; this process as the client on uvloop, CONCURRENT callers each sending its next message once it
has its reply, paced to RATE messages/s in all, MESSAGES messages. The request is a SubmitRequest as the
lobby sends it; the reply carries three envelopes' JSON of ENVELOPE_BYTES each. Per message: the
server's CPU, the client's (this process), nats-server's (the NATS variant routes two messages through
it; the gRPC one none), from /proc. Figures are printed, never judged; compare the rows of one round.
"""
from __future__ import annotations

import asyncio
import itertools
import json
import os
import statistics
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path[:0] = [str(ROOT / "services"), str(ROOT / "libs")]

MESSAGES = int(os.environ.get("BENCH_RPC_MESSAGES", 4000))
CONCURRENT = int(os.environ.get("BENCH_RPC_CONCURRENT", 4))
RATE = float(os.environ.get("BENCH_RPC_RATE", 300))
ROUNDS = int(os.environ.get("BENCH_RPC_ROUNDS", 3))
ENVELOPE_BYTES = 400
SUBJECT = "bench.rpc.submit"
BENCH_LIMIT_SECONDS = 300
COMMAND = {"game_id": "g1", "actor": "ann", "command_json": json.dumps({"type": "LayTile", "hex": "E9",
           "tile": "7", "rotation": 2}), "command_id": "ann:0123456789abcdef0123456789abcdef"}
REPLY = ["x" * ENVELOPE_BYTES] * 3


def cpu_seconds(pid: int) -> float:
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


# ---- the servers ----------------------------------------------------------------------------------

async def serve_grpc(address: str) -> None:
    import grpc
    from adjudicator.wire import pb, rpc

    class Echo(rpc.AdjudicatorServicer):
        async def SubmitStream(self, requests, context):
            # as the adjudicator answers: each request read, its reply queued, replies yielded in turn
            replies: asyncio.Queue = asyncio.Queue()

            async def read() -> None:
                async for request in requests:
                    reply = pb.EventsReply(events=pb.Events(envelope_json=REPLY))
                    reply.call = request.call
                    replies.put_nowait(reply)
                replies.put_nowait(None)

            reader = asyncio.get_running_loop().create_task(read())
            while (reply := await replies.get()) is not None:
                yield reply
            await reader

    server = grpc.aio.server()
    rpc.add_AdjudicatorServicer_to_server(Echo(), server)
    server.add_insecure_port(address)
    await server.start()
    await server.wait_for_termination()


async def serve_nats(url: str) -> None:
    import nats
    connection = await nats.connect(url)
    reply = json.dumps({"events": REPLY}).encode()

    async def answer(message) -> None:
        json.loads(message.data)
        await connection.publish(message.reply, reply)

    await connection.subscribe(SUBJECT, queue="adjudicator", cb=answer)
    await asyncio.Event().wait()


# ---- the client -----------------------------------------------------------------------------------

async def grpc_sender(address: str):
    import grpc
    from adjudicator.wire import pb, rpc
    channel = grpc.aio.insecure_channel(address)
    waiting: dict[int, asyncio.Future] = {}
    outbox: asyncio.Queue = asyncio.Queue()

    async def outgoing():
        while True:
            yield await outbox.get()

    call = rpc.AdjudicatorStub(channel).SubmitStream(outgoing())

    async def read() -> None:
        async for reply in call:
            waiting.pop(reply.call).set_result(reply)

    reader = asyncio.get_running_loop().create_task(read())
    calls = itertools.count(1)

    async def send() -> None:
        number = next(calls)
        waiting[number] = asyncio.get_running_loop().create_future()
        outbox.put_nowait(pb.SubmitRequest(**COMMAND, call=number))
        await waiting[number]

    async def close() -> None:
        reader.cancel()
        call.cancel()
        await channel.close()

    return send, close


async def nats_sender(url: str):
    import nats
    connection = await nats.connect(url)
    request = json.dumps(COMMAND).encode()

    async def send() -> None:
        json.loads((await connection.request(SUBJECT, request, timeout=5)).data)

    return send, connection.close


async def drive(send) -> float:
    """MESSAGES messages from CONCURRENT callers paced to RATE in all; the seconds it took."""
    interval = CONCURRENT / RATE

    async def caller() -> None:
        due = time.monotonic()
        for _ in range(MESSAGES // CONCURRENT):
            await send()
            due += interval
            if (late := due - time.monotonic()) > 0:
                await asyncio.sleep(late)

    started = time.monotonic()
    await asyncio.gather(*(caller() for _ in range(CONCURRENT)))
    return time.monotonic() - started


async def measure(kind: str, address: str, server_pid: int, nats_pid: int) -> dict:
    send, close = await (grpc_sender(address) if kind == "grpc" else nats_sender(address))
    try:
        for _ in range(50):         # connected, warm
            await send()
        before = cpu_seconds(server_pid), time.process_time(), cpu_seconds(nats_pid)
        seconds = await drive(send)
        after = cpu_seconds(server_pid), time.process_time(), cpu_seconds(nats_pid)
    finally:
        await close()
    sent = MESSAGES // CONCURRENT * CONCURRENT
    server, client, nats_server = ((b - a) * 1000 / sent for a, b in zip(before, after))
    return {"rate": sent / seconds, "server": server, "client": client, "nats": nats_server}


def main() -> None:
    import uvloop
    from starbase_core.servers import NatsServer, free_port
    print(f"one command's link: {MESSAGES} messages a round, {CONCURRENT} callers paced to {RATE:.0f}/s, an echo "
          f"server; CPU ms per message (server / client / nats-server / all three)")
    rows: dict[str, list[float]] = {"gRPC SubmitStream": [], "NATS request-reply": []}
    with NatsServer() as nats_server:
        for index in range(ROUNDS):
            for label, kind in (("gRPC SubmitStream", "grpc"), ("NATS request-reply", "nats")):
                address = f"127.0.0.1:{free_port()}" if kind == "grpc" else nats_server.url
                server = subprocess.Popen([sys.executable, __file__, "serve", kind, address])
                try:
                    time.sleep(2.0)
                    got = uvloop.run(measure(kind, address, server.pid, nats_server.process.pid))
                finally:
                    server.kill()
                    server.wait()
                total = got["server"] + got["client"] + got["nats"]
                rows[label].append(total)
                print(f"  round {index + 1}  {label:20s} {got['rate']:6.0f}/s  {got['server']:.3f} / "
                      f"{got['client']:.3f} / {got['nats']:.3f} / {total:.3f}", flush=True)
    grpc_total, nats_total = (statistics.median(v) for v in rows.values())
    print(f"  median of all three: gRPC {grpc_total:.3f}, NATS {nats_total:.3f} ms per message "
          f"(NATS / gRPC {nats_total / grpc_total:.2f})")


if __name__ == "__main__":
    if sys.argv[1:2] == ["serve"]:
        import uvloop
        uvloop.run(serve_grpc(sys.argv[3]) if sys.argv[2] == "grpc" else serve_nats(sys.argv[3]))
    else:
        main()
