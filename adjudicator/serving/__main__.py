"""``python -m adjudicator.serving``: what `make serve` runs.

Brings the precompressed static tree up to date, writes nginx's configuration into the instance
folder, starts gunicorn on its unix socket and nginx on ``HOST:PORT``, and stays in front of
both: SIGTERM or SIGINT (Ctrl-C) stops them (so does the end of the process that started it,
`make`), and if either exits on its own the other is stopped
too and the command fails, so a supervisor (or a terminal) sees one process that is up or down."""

from __future__ import annotations

import argparse
import os
import pwd
import shutil
import signal
import subprocess
import sys
import time
from pathlib import Path

from adjudicator.serving import nginx, pages, static
from adjudicator.serving.settings import Settings, from_env

SOCKET_WAIT = 60
"""Seconds gunicorn has to bind its socket (a first start builds the database and index)."""


def nginx_binary() -> str:
    found = shutil.which("nginx") or next((p for p in ("/usr/sbin/nginx", "/sbin/nginx") if Path(p).is_file()), None)
    if found is None:
        raise SystemExit("nginx is not installed: `make serve` installs Debian's nginx when missing")
    return found


def prepare(settings: Settings, render_pages: bool = True) -> Path:
    """The static tree synced (and the pages rendered ahead, unless ``render_pages`` is false) and
    nginx's configuration written; the configuration's path."""
    synced = static.sync(settings.static_source, settings.static_root)
    if synced.copied or synced.removed:
        print(f"static files: {synced.files} in {settings.static_root} ({synced.copied} copied, "
              f"{synced.twins} compressed twins written, {synced.removed} removed)", flush=True)
    user = pwd.getpwuid(os.getuid()).pw_name if os.geteuid() == 0 else None
    manifest = static.manifest(settings.static_root)
    rendered = pages.render(settings.instance, settings.pages_root, manifest) if render_pages else None
    # The build's digest names the rendered pages' folder: hashed again only when none was rendered.
    build = rendered.name if rendered else pages.stamp(manifest)
    return nginx.write(settings, manifest, user, rendered, pages.cache_control(rendered) if rendered else None, build)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m adjudicator.serving", description=__doc__)
    parser.add_argument("--host")
    parser.add_argument("--port", type=int)
    parser.add_argument("--workers", type=int)
    parser.add_argument("--app", help="the WSGI app gunicorn loads (default: adjudicator:create_app())")
    parser.add_argument("--check", action="store_true", help="write the configuration, test it with nginx -t, exit")
    args = parser.parse_args(argv)
    settings = from_env(os.environ, host=args.host, port=args.port, workers=args.workers, app=args.app)
    conf = prepare(settings, render_pages=not args.check)
    binary = nginx_binary()
    nginx_command = [binary, "-e", str(settings.run_dir / "nginx-error.log"), "-p", str(settings.run_dir),
                     "-c", str(conf)]
    if args.check:
        return subprocess.run([*nginx_command, "-t"]).returncode
    settings.socket.unlink(missing_ok=True)
    env = {**os.environ, "PROXY_HOPS": os.environ.get("PROXY_HOPS") or "1"}
    app_server = subprocess.Popen(
        [sys.executable, "-m", "gunicorn", "-c", "python:adjudicator.serving.gunicorn_conf", "--no-control-socket",
         "--workers", str(settings.workers), "--bind", f"unix:{settings.socket}", settings.app], env=env)
    stopping = False

    def stop(_signum: int, _frame: object) -> None:
        nonlocal stopping
        stopping = True

    for signum in (signal.SIGTERM, signal.SIGINT, signal.SIGHUP):
        signal.signal(signum, stop)
    deadline = time.monotonic() + SOCKET_WAIT
    while not settings.socket.exists() and app_server.poll() is None and not stopping:
        if time.monotonic() > deadline:
            print(f"gunicorn did not bind {settings.socket} within {SOCKET_WAIT} s", file=sys.stderr)
            break
        time.sleep(0.05)
    proxy = subprocess.Popen(nginx_command) if app_server.poll() is None and not stopping else None
    if proxy is not None:
        print(f"serving http://{settings.host}:{settings.port}/ (nginx, then {settings.workers} gunicorn sync "
              f"workers on unix:{settings.socket})", flush=True)
    processes = [p for p in (app_server, proxy) if p is not None]
    parent = os.getppid()
    while not stopping and all(p.poll() is None for p in processes) and len(processes) == 2:
        time.sleep(0.2)
        if os.getppid() != parent:  # `make` was killed on its own: do not outlive it
            stopping = True
    for process in processes:
        if process.poll() is None:
            process.send_signal(signal.SIGTERM)
    for process in processes:
        try:
            process.wait(timeout=15)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait()
    settings.socket.unlink(missing_ok=True)
    return 0 if stopping else 1


if __name__ == "__main__":
    raise SystemExit(main())
