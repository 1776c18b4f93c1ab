"""gunicorn's configuration in the served stack (``-c python:adjudicator.serving.gunicorn_conf``).

Sync workers: one request at a time per process, on a local unix socket that only nginx talks
to. The views are CPU-bound (rulings, search, page rendering): a worker that cooperatively shares
its process between connections (gevent) makes every connection it holds wait behind whichever
view is computing, which is what pushed ``/battle``'s p99 to seconds. Slow clients are nginx's to
absorb (it hands over whole requests and takes whole answers), so a worker is never held by one.

After the app is loaded each worker freezes its start-up heap out of the garbage collector
(``gc.freeze``): the content, the rulebook, the line-of-sight tables and the compiled templates
are hundreds of thousands of objects that live as long as the process, and a full collection
otherwise walks them all (~55 ms) in the middle of some request."""

from __future__ import annotations

import gc
from typing import Any

from adjudicator.serving.settings import APP_TIMEOUT

worker_class = "sync"
timeout = APP_TIMEOUT
graceful_timeout = 5
"""Seconds a stopping worker may finish its request in (a ruling takes milliseconds)."""
backlog = 2048
"""Connections nginx may queue on the socket while every worker is busy."""
limit_request_line = 8190
"""nginx already refuses a request line over 8 KB (``large_client_header_buffers``)."""
loglevel = "warning"


def post_worker_init(worker: Any) -> None:
    """Freeze what the app built at start-up out of the collector's reach (see the module doc)."""
    gc.collect()
    gc.freeze()
