"""The hostile patterns of issue 28, run against a served stack for a fixed time, from loopback
addresses other than 127.0.0.1 (every address of 127.0.0.0/8 is this machine, and each is its own
client to the proxy's limits):

- ``slow_bodies``: 60 addresses each try to hold 90 connections (5,400 in all) that declare a
  100 KB request body and trickle it a byte every two seconds;
- ``slow_readers``: 10 addresses each hold 40 requests for the largest static file (Pyodide's
  8.6 MB wasm) and read nothing;
- ``worst_fire_map``: six connections of one address loop the costliest legal ``/fire-map``
  (``bench/hostile.py``), each request with a unit named anew, so that no answer the proxy kept
  (``serving.nginx._answers``) spares the workers: every one is ruled;
- ``flood``: 32 connections of one address loop ``POST /api/v1/battle`` as fast as they can, far
  over its rate (the proxy answers 429).

Run as ``python bench/attack.py <pattern> <port> <seconds>``; prints what the attacker saw as JSON
(answers by status, connections refused or closed by the server). ``bench/load.py`` starts it."""

from __future__ import annotations

import asyncio
import json
import os
import resource
import signal
import socket
import sys
import time
from collections import Counter
from collections.abc import Iterator
from itertools import count, repeat
from pathlib import Path
from typing import Any

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO))


Stream = tuple[asyncio.StreamReader, asyncio.StreamWriter]


async def connect(port: int, source: str, rcvbuf: int | None = None) -> Stream:
    sock = socket.socket()
    if rcvbuf:
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, rcvbuf)
    sock.bind((source, 0))
    sock.setblocking(False)
    await asyncio.get_running_loop().sock_connect(sock, ("127.0.0.1", port))
    return await asyncio.open_connection(sock=sock)


async def counted_connect(port: int, source: str, stats: Stats, pause: float,
                          rcvbuf: int | None = None) -> Stream | None:
    """A connection for an attacker's loop, counted in ``stats``: None (after ``pause`` seconds) when
    the server refused it, so the loop tries again."""
    try:
        stream = await connect(port, source, rcvbuf)
    except OSError:
        stats.errors += 1
        await asyncio.sleep(pause)
        return None
    stats.opened += 1
    return stream


async def status_of(reader: asyncio.StreamReader) -> int:
    line = await reader.readline()
    return int(line.split()[1]) if line.startswith(b"HTTP/") else 0


class Stats:
    def __init__(self) -> None:
        self.statuses: Counter[int] = Counter()
        self.opened = 0
        self.closed_by_server = 0
        self.refused = 0
        self.errors = 0
        self.held = 0
        self.most_held = 0

    def hold(self, delta: int) -> None:
        self.held += delta
        self.most_held = max(self.most_held, self.held)


async def slow_body(port: int, source: str, until: float, stats: Stats) -> None:
    """One connection after another that declares a 100 KB body and trickles it: ``held`` counts
    those the server kept past the first two seconds; one refused at once (a 429 over the
    address's connections, or a reset) is ``refused``, one cut later ``closed_by_server``."""
    while time.monotonic() < until:
        stream = await counted_connect(port, source, stats, 1)
        if stream is None:
            continue
        reader, writer = stream
        writer.write(b"POST /api/v1/battle HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\n"
                     b"Content-Length: 100000\r\n\r\n{")
        held = False
        try:
            while time.monotonic() < until:
                read = asyncio.ensure_future(reader.read(1))
                done, _ = await asyncio.wait({read}, timeout=2)
                if done:  # the server answered (429 over the cap) or closed the connection
                    first = read.result()
                    if first:
                        rest = await reader.readline()
                        stats.statuses[int((first + rest).split()[1])] += 1
                    elif held:
                        stats.closed_by_server += 1
                    else:
                        stats.refused += 1
                    break
                read.cancel()
                if not held:
                    held = True
                    stats.hold(1)
                writer.write(b" ")
                await writer.drain()
        except OSError:
            if held:
                stats.closed_by_server += 1
            else:
                stats.refused += 1
        finally:
            if held:
                stats.hold(-1)
            writer.close()
        await asyncio.sleep(1)


async def slow_reader(port: int, source: str, path: str, until: float, stats: Stats) -> None:
    while time.monotonic() < until:
        stream = await counted_connect(port, source, stats, 1, rcvbuf=4096)
        if stream is None:
            continue
        reader, writer = stream
        writer.write(f"GET {path} HTTP/1.1\r\nHost: x\r\n\r\n".encode())
        stats.hold(1)
        try:
            stats.statuses[await asyncio.wait_for(status_of(reader), timeout=10)] += 1
            # then read nothing more (asyncio buffers 64 KB and stops reading): nginx fills the
            # window and waits; past its send_timeout it drops the connection, and this one is
            # replaced after 15 s
            await asyncio.sleep(max(0.0, min(15.0, until - time.monotonic())))
        except (TimeoutError, OSError):
            stats.closed_by_server += 1
        finally:
            stats.hold(-1)
            writer.close()


def renamed(body: bytes) -> Iterator[bytes]:
    """``body`` again and again, its first unit (``"u0"``) named anew each time: the same work for
    the engine, another question for the proxy's cache of answers."""
    head, tail = body.split(b'"u0"', 1)
    for n in count():
        yield head + f'"u0-{n:08d}"'.encode() + tail


async def looping(port: int, source: str, path: str, bodies: Iterator[bytes], until: float, stats: Stats) -> None:
    while time.monotonic() < until:
        stream = await counted_connect(port, source, stats, 0.2)
        if stream is None:
            continue
        reader, writer = stream
        try:
            while time.monotonic() < until:
                body = next(bodies)
                writer.write((f"POST {path} HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\n"
                              f"Content-Length: {len(body)}\r\n\r\n").encode() + body)
                status = await status_of(reader)
                if not status:
                    stats.closed_by_server += 1
                    break
                length = 0
                while True:
                    line = await reader.readline()
                    if line in (b"\r\n", b""):
                        break
                    if line.lower().startswith(b"content-length:"):
                        length = int(line.split(b":")[1])
                await reader.readexactly(length)
                stats.statuses[status] += 1
        except (OSError, asyncio.IncompleteReadError):
            stats.closed_by_server += 1
        finally:
            writer.close()


async def run(pattern: str, port: int, seconds: float) -> dict[str, Any]:
    until = time.monotonic() + seconds
    stats = Stats()
    if pattern == "slow_bodies":
        tasks = [slow_body(port, f"127.0.2.{a}", until, stats) for a in range(1, 61) for _ in range(90)]
    elif pattern == "slow_readers":
        wasm = next((REPO / "build" / "static" / "offline").glob("pyodide-*/pyodide.asm.wasm"))
        path = "/static/" + wasm.relative_to(REPO / "build" / "static").as_posix()
        tasks = [slow_reader(port, f"127.0.3.{a}", path, until, stats) for a in range(1, 11) for _ in range(40)]
    elif pattern == "worst_fire_map":
        from bench.hostile import worst_fire_map

        bodies = renamed(json.dumps(worst_fire_map()).encode())
        tasks = [looping(port, "127.0.4.1", "/api/v1/fire-map", bodies, until, stats) for _ in range(6)]
    elif pattern == "flood":
        tasks = [looping(port, "127.0.5.1", "/api/v1/battle", repeat(b'{"units": []}'), until, stats)
                 for _ in range(32)]
    else:
        raise SystemExit(f"unknown pattern {pattern!r}")
    started = time.monotonic()
    CURRENT[:] = [(pattern, stats, started)]
    asyncio.get_running_loop().add_signal_handler(signal.SIGTERM, report_and_exit)
    await asyncio.gather(*tasks)
    return summary(pattern, stats, time.monotonic() - started)


CURRENT: list[tuple[str, Stats, float]] = []


def summary(pattern: str, stats: Stats, elapsed: float) -> dict[str, Any]:
    return {"pattern": pattern, "seconds": round(elapsed, 1), "statuses": dict(sorted(stats.statuses.items())),
            "requests_per_s": round(sum(stats.statuses.values()) / max(elapsed, 0.001), 1),
            "connections_opened": stats.opened, "most_held_at_once": stats.most_held,
            "refused_at_once": stats.refused, "closed_by_server": stats.closed_by_server,
            "connect_errors": stats.errors}


def main() -> None:
    pattern, port, seconds = sys.argv[1], int(sys.argv[2]), float(sys.argv[3])
    _, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    resource.setrlimit(resource.RLIMIT_NOFILE, (hard, hard))
    print(json.dumps(asyncio.run(run(pattern, port, seconds))), flush=True)


def report_and_exit(*_: object) -> None:
    """SIGTERM: print what was seen so far and stop at once (``bench/load.py`` ends each attack so)."""
    print(json.dumps(summary(CURRENT[0][0], CURRENT[0][1], time.monotonic() - CURRENT[0][2])), flush=True)
    os._exit(0)


if __name__ == "__main__":
    main()
