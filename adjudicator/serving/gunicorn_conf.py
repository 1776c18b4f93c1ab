"""gunicorn's configuration in the served stack (``-c python:adjudicator.serving.gunicorn_conf``).

Sync workers: one request at a time per process, on a local unix socket that only nginx talks
to. The views are CPU-bound (rulings, search, page rendering): a worker that cooperatively shares
its process between connections (gevent) makes every connection it holds wait behind whichever
view is computing, which is what pushed ``/battle``'s p99 to seconds. Slow clients are nginx's to
absorb (it hands over whole requests and takes whole answers), so a worker is never held by one.

After the app is loaded each worker first asks itself for the pages whose first answer builds
something per process (``WARM_UP``: the search index opened, the templates compiled, the
compressed bodies cached; ~0.5 s of CPU), so no player's request pays for it (on a loaded machine
a worker's first search took 24 s at a load average of 19), then freezes its start-up heap out of the garbage collector
(``gc.freeze``): the content, the rulebook, the line-of-sight tables and the compiled templates
are hundreds of thousands of objects that live as long as the process, and a full collection
otherwise walks them all (~55 ms) in the middle of some request. Its app is wrapped so that a
request nginx gave up on while it waited on the socket is dropped, not computed
(``abandoned.py``). Each worker runs on the CPU nginx leaves (``WORKER_POLICY``, see there)."""

from __future__ import annotations

import gc
import logging
import os
from typing import Any

from werkzeug.test import Client

from adjudicator.serving.abandoned import drop_abandoned
from adjudicator.serving.settings import APP_TIMEOUT, WORKER_POLICY

worker_class = "sync"
timeout = APP_TIMEOUT
graceful_timeout = 5
"""Seconds a stopping worker may finish its request in (a ruling takes milliseconds)."""
backlog = 2048
"""Connections nginx may queue on the socket while every worker is busy."""
limit_request_line = 8190
"""nginx already refuses a request line over 8 KB (``large_client_header_buffers``)."""
loglevel = "warning"

WARM_UP = ("/", "/search?q=forest", "/builder")
"""Pages each worker answers once before it takes requests (see the module doc)."""


def warm_up(app: Any, alive: Any = None) -> None:
    """One request to each ``WARM_UP`` page through ``app``; a failure is logged, never fatal (the
    page then builds what it needs on its first real request, as without the warm-up). ``alive``
    (the worker's heartbeat) is called before each: on a loaded machine loading the app and warming
    it up took longer than the worker timeout, and the master killed the worker mid-warm-up again
    and again."""
    client = Client(app)
    for path in WARM_UP:
        if alive is not None:
            alive()
        try:
            client.get(path, headers={"Accept-Encoding": "br, gzip"}).close()
        except Exception:  # a warm-up must never stop a worker
            logging.getLogger("gunicorn.error").exception("warm-up request %s failed", path)


def post_fork(server: Any, worker: Any) -> None:
    """A new worker yields the CPU to nginx (``WORKER_POLICY``)."""
    os.sched_setscheduler(0, WORKER_POLICY, os.sched_param(0))


def post_worker_init(worker: Any) -> None:
    """Freeze what the app built at start-up out of the collector's reach, and skip abandoned
    requests, once it has answered the warm-up pages (see the module doc)."""
    warm_up(worker.wsgi, getattr(worker, "notify", None))
    worker.wsgi = drop_abandoned(worker.wsgi)
    gc.collect()
    gc.freeze()
