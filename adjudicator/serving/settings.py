"""Every setting of the served stack, read once from the environment (README "Serving").

The proxy's limits are per client address and live in nginx's shared memory: a request over a
limit is answered 429 by nginx and never reaches the app. The numbers are chosen for people at a
table: a builder change asks for about three rulings, a service worker's first visit fetches
~230 pages at once, a browser opens six connections."""

from __future__ import annotations

import os
import re
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path

from adjudicator import REPO_ROOT
from adjudicator.config import DEFAULT_WORK_BUDGET, load_config


@dataclass(frozen=True)
class Rate:
    """A rate: ``amount`` per ``per`` ("second" or "minute"), and a burst of ``burst`` more before
    it applies. For the per-address request rates the burst is answered at once (nginx
    ``limit_req ... nodelay``); for the over-cap line (``OVER_CAP_LINE``) it is how many may wait."""

    amount: int
    per: str
    burst: int

    def nginx(self) -> str:
        return f"{self.amount}r/{'s' if self.per == 'second' else 'm'}"

    @property
    def period(self) -> int:
        """Seconds in ``per``."""
        return 1 if self.per == "second" else 60

    def retry_after(self) -> int:
        """Seconds until the leaky bucket lets one more request through."""
        return max(1, -(-self.period // self.amount))

    def longest_wait(self) -> int:
        """Seconds the last of ``burst`` waiting requests waits (rounded up)."""
        return -(-self.burst * self.period // self.amount)

    def text(self) -> str:
        return f"{self.amount} per {self.per}; burst {self.burst}"


RATE = re.compile(r"^\s*(\d+)\s*(?:per|/)\s*(second|minute)\s*(?:;\s*burst\s*(\d+))?\s*$")

PAGES = Rate(30, "second", 300)
"""``GET`` of pages, search and the JSON API (not static files): a first visit's service worker
precaches ~230 pages at once, within the burst."""
ENGINE = Rate(10, "second", 40)
"""Every ``POST /api/…`` but saves (rulings, ``.m44`` import)."""
FIRE_MAPS = Rate(2, "second", 10)
"""``POST /api/v1/fire-map``, on top of ``ENGINE``: a rate for the costliest ruling. What one
address may make the workers spend is its rate times the costliest legal request: every other
ruling stays under ~20 ms of CPU, 10 a second (``ENGINE``) is at most ~0.2 s of CPU a second; a
fire map may take up to 100 ms (the 200-unit board of mountains: ~40 ms here, at times ~100),
so 10 a second was half a core: six connections looping it doubled the p99 of rulings computed
afresh (``bench/load.py``). At 2 a second it is the same ~0.2 s as the others. The builder
asks for one fire map per change while a unit is selected (``builder-firemap.js``), beside three
to five other rulings (``builder-requests.js``): past the bursts (10 fire maps, 40 rulings) both
rates let about two changes a second through."""
SAVES = Rate(20, "minute", 20)
"""``POST /api/v1/situations``; the app also counts saves per day (``adjudicator.ratelimit``)."""
CONNECTIONS_PER_ADDRESS = 32
"""Open connections per client address (a browser opens six; a table's shared address a few
browsers' worth)."""
OVER_CAP_LINE = Rate(100, "second", 4096)
"""Requests over a limit of their address (its connections, or a request rate) wait in one line,
and are answered 429 in turn at this rate; up to ``burst`` of them wait, and one more is answered
at once. Refusing a connection at once cost nginx ~45 microseconds of its core (a handshake, a
request, an answer and a close), and a client refused at once comes back at once: 60 addresses
trickling 5,400 bodies had ~2,200 refused a second, in waves, and the pages' p99 was 2.0-4.4 times
its unattacked p99; 32 connections looping a ruling over its rate got ~8,600 429s a second, and
rulings computed afresh took 2.8-3.3 times longer. A request waiting in line costs nothing while
it waits (docs/serving.md, "The line")."""

HEADER_TIMEOUT = 10
"""Seconds to send the request line and headers."""
BODY_TIMEOUT = 10
"""Seconds between two reads of a request body (nginx reads the whole body before the app sees
it, so a trickled body holds a few kilobytes of nginx, never a worker)."""
SEND_TIMEOUT = 10
"""Seconds between two writes of a response a client does not read."""
SEND_BUFFER_KB = 256
"""The kernel's send buffer per client connection (the kernel doubles it): what a client that
stops reading can hold of the machine's memory, and what closing it at ``SEND_TIMEOUT`` frees.
Left to the kernel it grew to 4 MB a connection: 400 stalled readers of the Pyodide wasm held
1.2 GB of kernel memory (0.16 GB with this limit), and closing them together at the timeout
stalled nginx ~130 ms. 512 KB in flight still carries 40 Mbit/s at a 100 ms round trip."""
KEEPALIVE_TIMEOUT = 15
APP_TIMEOUT = 30
"""gunicorn restarts a worker that spends longer on one request (the engine's work budget
bounds every ruling far below this)."""
PROXY_READ_TIMEOUT = APP_TIMEOUT + 5
WORKER_CONNECTIONS = 16384
"""Connections per nginx worker process: a proxied request holds two, a connection waiting in the
over-cap line three (``OVER_CAP_LINE``: its own, and both ends of its place in line), so a full
line takes 12,288 and leaves 4,096."""
OPEN_FILES = WORKER_CONNECTIONS + 3072
"""nginx's file descriptors per worker: one per connection, and room for the files it keeps open
(``open_file_cache``, 2,000) and its temporary bodies."""
UPLOAD_ENVELOPE = 64 * 1024
"""The proxy buffers a body up to the largest the app accepts (a ``.m44`` file, ``MAX_M44_BYTES``)
plus a form's envelope, and answers 413 beyond; the app applies each endpoint's own limit."""
BODY_IN_MEMORY = 256 * 1024
"""A body up to this size is buffered in memory, a larger one in a file of the instance folder."""
ANSWER_CACHE_MB = 128
"""The engine answers nginx keeps on disk (``<instance>/run/answers``), least recently used
dropped first: ~25,000 ``/battle`` answers. Emptied at every start."""
ANSWER_KEYS_MB = 8
"""nginx's shared memory for the keys of those answers (~8,000 keys a megabyte)."""
ANSWER_IDLE = "30m"
"""An answer not asked for this long is dropped."""
ANSWER_BODY_LIMIT = 10_000
"""Bytes: a body this long or longer is answered by a worker and not kept. nginx stores the whole
key (the body included) in the proxy buffer (``proxy_buffer_size``, 16 KB): a longer key is
refused with an error logged for every request. A power of ten, so nginx can tell by the number
of digits of ``Content-Length``; a builder's ruling is 1-3 KB, an imported scenario's 5-30 KB."""
WORKER_POLICY = os.SCHED_IDLE
"""The gunicorn workers' CPU scheduling policy: they run on the CPU nginx leaves. nginx spends
microseconds on a request (a static file, a kept answer, a 429) and a worker milliseconds (a
ruling). A lower ``nice`` only shrinks the workers' share: a woken nginx still waits for the
running ruling's time slice, which doubled the pages' p99 while the costliest ``/fire-map`` kept
the workers busy. Under ``SCHED_IDLE`` the kernel hands the core to nginx the moment it wakes, and
the workers still use every cycle nothing else wants (``bench/load.py``, 64 connections, rule
page p99 under that attack: 2.5-3.4 times its unattacked p99 at ``nice 10``, 1.0-1.4 times now).
Anything else the machine runs at normal priority comes first too (PostgreSQL, whose answers the
workers wait for anyway): the stack is meant to have its machine to itself."""


def _rate(environ: Mapping[str, str], name: str, default: Rate) -> Rate:
    raw = environ.get(name)
    if not raw:
        return default
    match = RATE.match(raw)
    if match is None:
        raise SystemExit(f"{name}={raw!r}: write it as '<n> per second|minute; burst <n>'")
    return Rate(int(match[1]), match[2], int(match[3] or 0))


def _addresses(environ: Mapping[str, str], name: str) -> tuple[str, ...]:
    """A comma-separated list of addresses or networks (``127.0.0.1, 10.0.0.0/8``), checked."""
    import ipaddress

    found = tuple(a.strip() for a in environ.get(name, "").split(",") if a.strip())
    for address in found:
        try:
            ipaddress.ip_network(address, strict=False)
        except ValueError:
            raise SystemExit(f"{name}: {address!r} is not an address or a network") from None
    return found


def _flag(environ: Mapping[str, str], name: str, default: bool) -> bool:
    raw = environ.get(name)
    return default if raw is None or raw == "" else raw.lower() not in ("0", "false", "no", "off")


@dataclass(frozen=True)
class Settings:
    host: str = "127.0.0.1"
    port: int = 5000
    workers: int = 2 * (os.cpu_count() or 1) + 1
    app: str = "adjudicator:create_app()"
    instance: Path = REPO_ROOT / "instance"
    static_source: Path = REPO_ROOT / "adjudicator" / "static"
    static_root: Path = REPO_ROOT / "build" / "static"
    pages_root: Path = REPO_ROOT / "build" / "pages"
    limits: bool = True
    pages: Rate = PAGES
    engine: Rate = ENGINE
    fire_maps: Rate = FIRE_MAPS
    saves: Rate = SAVES
    connections: int = CONNECTIONS_PER_ADDRESS
    over_cap: Rate = OVER_CAP_LINE
    exempt: tuple[str, ...] = field(default_factory=tuple)
    real_ip_from: tuple[str, ...] = field(default_factory=tuple)
    """Proxies in front of nginx (a TLS terminator, a load balancer) whose ``X-Forwarded-For``
    names the client: without them every client would share the proxy's address and its limits."""
    nginx: str = "nginx"
    work_budget: int = DEFAULT_WORK_BUDGET
    """The app's ``ENGINE_WORK_BUDGET``, read from the same environment the workers get: part of
    the key of every answer the proxy keeps (a smaller budget may refuse what a larger answers)."""

    @property
    def run_dir(self) -> Path:
        """The stack's generated configuration, pid files, temporary bodies and logs: in the
        instance folder, or, when that is read-only (it is then served as it is), a folder under
        /tmp named after it."""
        run = self.instance / "run"
        try:
            run.mkdir(parents=True, exist_ok=True)
            probe = run / f".probe-{os.getpid()}"
            probe.touch()
            probe.unlink()
            return run
        except OSError:
            import hashlib

            return Path("/tmp") / f"adjudicator-run-{hashlib.sha256(str(self.instance).encode()).hexdigest()[:16]}"

    @property
    def socket(self) -> Path:
        """gunicorn's unix socket (``_socket``)."""
        return self._socket("app")

    @property
    def over_cap_socket(self) -> Path:
        """Where nginx keeps its over-cap line (``OVER_CAP_LINE``; ``_socket``)."""
        return self._socket("over-cap")

    def _socket(self, name: str) -> Path:
        """A unix socket of the stack: in the instance folder when its path fits a socket address
        (108 bytes), else under /tmp named after the instance folder, so two clones (or two test
        servers) never share one."""
        path = self.run_dir / f"{name}.sock"
        self.run_dir.mkdir(parents=True, exist_ok=True)
        if len(str(path)) < 100:
            return path
        import hashlib

        digest = hashlib.sha256(str(self.instance).encode()).hexdigest()[:16]
        return Path("/tmp") / f"adjudicator-{digest}{'' if name == 'app' else '-' + name}.sock"


def from_env(environ: Mapping[str, str], **given: object) -> Settings:
    """The settings from ``environ`` (README "Serving"; the launcher passes its environment, read
    once at start-up), with ``given`` on top."""
    values: dict[str, object] = {
        "instance": Path(environ.get("ADJUDICATOR_INSTANCE") or REPO_ROOT / "instance").resolve(),
        "limits": _flag(environ, "RATELIMIT_ENABLED", True),
        "pages": _rate(environ, "RATE_LIMIT_PAGES", PAGES),
        "engine": _rate(environ, "RATE_LIMIT_ENGINE", ENGINE),
        "fire_maps": _rate(environ, "RATE_LIMIT_FIRE_MAP", FIRE_MAPS),
        "saves": _rate(environ, "RATE_LIMIT_SAVES", SAVES),
        "connections": int(environ.get("CONNECTIONS_PER_ADDRESS") or CONNECTIONS_PER_ADDRESS),
        "over_cap": _rate(environ, "OVER_CAP_LINE", OVER_CAP_LINE),
        "exempt": _addresses(environ, "RATE_LIMIT_EXEMPT"),
        "real_ip_from": _addresses(environ, "REAL_IP_FROM"),
        "work_budget": load_config(environ).engine_work_budget,
    }
    values.update({k: v for k, v in given.items() if v is not None})
    return Settings(**values)  # type: ignore[arg-type]
