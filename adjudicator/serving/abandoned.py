"""Requests nobody waits for any more are dropped before the app computes them.

Under a burst, nginx queues requests on gunicorn's socket (``backlog``) while every sync worker is
busy. A client that gives up meanwhile (a phone that lost the page, a load generator whose run
ended, a client past nginx's timeouts) makes nginx close its connection to the app, but the
request it already wrote stays in the socket: without this check a worker would later read it and
compute the whole ruling, search or fire map for a closed connection, while the clients still
waiting queue behind that dead work.

nginx hands over whole requests (``proxy_request_buffering``), so once gunicorn has read a
request, a connection from which nothing more can be read but its end is one nginx has closed.
The check is one ``poll`` and a one-byte peek; a request whose body gunicorn has not read yet
(larger than its first read) is never taken for abandoned."""

from __future__ import annotations

import select
import socket
from collections.abc import Callable, Iterable
from typing import Any

CLIENT_CLOSED = "499 Client Closed Request"
"""What the access log shows for a dropped request (nginx's own code for it); nobody reads it."""

WsgiApp = Callable[[dict[str, Any], Callable[..., Any]], Iterable[bytes]]


def peer_closed(sock: socket.socket) -> bool:
    """True when ``sock``'s peer has closed it and nothing is left to read."""
    try:
        poller = select.poll()
        poller.register(sock, select.POLLIN | select.POLLRDHUP)
        if not poller.poll(0):
            return False
        return sock.recv(1, socket.MSG_PEEK | socket.MSG_DONTWAIT) == b""
    except (OSError, ValueError):  # reset (closed too, but let the app's write find it), or no socket
        return False


def drop_abandoned(app: WsgiApp) -> WsgiApp:
    """``app``, skipped for a request whose connection (``gunicorn.socket``) is closed already."""

    def guarded(environ: dict[str, Any], start_response: Callable[..., Any]) -> Iterable[bytes]:
        sock = environ.get("gunicorn.socket")
        if sock is not None and peer_closed(sock):
            start_response(CLIENT_CLOSED, [("Content-Length", "0")])
            return [b""]
        return app(environ, start_response)

    return guarded
