"""nginx's configuration for the served stack, generated into ``<instance>/run/nginx.conf``.

nginx stands in front of gunicorn and does what a sync worker must never do itself:

- it reads each request whole (headers within ``HEADER_TIMEOUT``, the body with at most
  ``BODY_TIMEOUT`` between two reads, up to the largest body the app accepts) before the app sees
  it, and takes each answer whole from the app at once (``proxy_buffering``), sending it to the
  client at the client's pace (``SEND_TIMEOUT`` between two writes): slow clients hold a few
  kilobytes of nginx, never a worker, and at most ``SEND_BUFFER_KB`` of the kernel's memory;
- it serves ``/static/`` itself from the precompressed tree (``serving.static``) with
  ``sendfile``, marking a URL immutable exactly when its ``?v=`` is the file's content hash;
- it counts each client address's requests and connections in shared memory and answers 429
  (with ``Retry-After``) over a limit, so a flood never reaches the app; addresses in
  ``RATE_LIMIT_EXEMPT`` (a load test, a monitoring probe) are not counted. A request over a
  limit waits for its 429 in one line (``OVER_CAP_LINE``; ``_over_cap_line``): a client refused
  at once comes back at once, and each refusal is work on nginx's core (for a new connection a
  handshake, a request, an answer and a close), while a request waiting costs nothing;
- it keeps the engine's ``200`` answers (``ANSWERS``): a ruling is a pure function of the body
  and the build, so a body asked again is answered from nginx's cache without reaching a worker;
- its own answers (429, 413, 503 when the app cannot be reached) have the app's shape: JSON
  ``{"error": {...}}`` under ``/api/``, a short page elsewhere, with the app's security headers.

It is handed a connection only once the client's first bytes have arrived (``listen …
deferred``, the kernel's ``TCP_DEFER_ACCEPT``), and reads the request in the same turn: a
connection refused over its address's cap costs a quarter to a third less of nginx's core, and
one that sends nothing is kept by the kernel for its first second.

It runs one worker process per core it may use (nginx's ``auto`` counts every core of the
machine, also those ``taskset`` or a container's cpuset keeps it off), and the gunicorn workers
run on the CPU it leaves (``WORKER_POLICY``).

Everything it writes (pid, temporary bodies, error log) stays in ``<instance>/run/``, so two
clones, or two servers of a test run, never share a file."""

from __future__ import annotations

import json
import mimetypes
import os
import shutil
from itertools import product
from pathlib import Path
from typing import NamedTuple

from adjudicator.serving import settings as limits
from adjudicator.serving.settings import Rate, Settings

MODULES = (Path("/usr/lib/nginx/modules/ngx_http_brotli_static_module.so"),)
"""Debian's ``libnginx-mod-http-brotli-static``: sends the ``.br`` twins (loaded when present)."""
FIRE_MAP = "/api/v1/fire-map"
"""The costliest ruling, under a rate of its own too (``settings.FIRE_MAPS``)."""
ANSWERS = "answers"
"""The folder of ``run/`` where nginx keeps the engine's answers (``_answers``)."""
ANSWER_LEVELS = (2,)
"""Hex digits of each level of folders under ``ANSWERS`` (nginx ``levels=2``: 256 folders, ~100
of the ~25,000 answers kept in each); ``_answer_folders`` makes them all at start (~50 ms; the
4,096 of ``levels=1:2`` took 0.8 s)."""
OVER_CAP_STATUS = 420
"""What ``limit_conn`` and ``limit_req`` answer a request over a limit, inside nginx only: every
location sends it to the over-cap line (``_over_cap_locations``), which answers the client 429."""
OVER_CAP_TURN = "/.over-cap-turn"
"""The internal location through which a request over a limit asks the line for its turn."""
TEXT_TYPES = ("text/css", "text/javascript", "text/plain")
"""Sent with ``charset=utf-8``, as the app sends them (nginx always adds it to text/html)."""


def render(settings: Settings, manifest: dict[str, str], user: str | None = None,
           pages: Path | None = None, page_cache: dict[str, str] | None = None, build: str = "") -> str:
    """The whole configuration. ``manifest`` is the static tree's ``{path: content hash}``;
    ``user`` the account nginx's workers run as when it is started by root; ``pages`` the folder
    of the pages rendered ahead (``serving.pages``) and ``page_cache`` their ``Cache-Control``;
    ``build`` the digest of the content and the code (``pages.stamp``), part of every cached
    answer's key."""
    from adjudicator.web.offline import WORKER_CSP, WORKER_PATH
    from adjudicator.web.security import SECURITY_HEADERS

    run = settings.run_dir
    brotli = [m for m in MODULES if m.is_file()]
    headers = "".join(f"    add_header {name} {_quote(value)} always;\n" for name, value in SECURITY_HEADERS.items())
    worker_headers = headers.replace(_quote(SECURITY_HEADERS["Content-Security-Policy"]), _quote(WORKER_CSP))
    versioned = "".join(f"    {_quote(f'/static/{path}?{digest}')} 1;\n" for path, digest in sorted(manifest.items()))
    types = _types(manifest)
    exempt = "".join(f"    {address} 1;\n" for address in settings.exempt)
    upload = _max_upload()
    limit = settings.limits
    page_limit = f"limit_req zone=pages burst={settings.pages.burst} nodelay;" if limit else ""
    api_limits = (f"limit_req zone=pages burst={settings.pages.burst} nodelay;\n"
                  f"        limit_req zone=engine burst={settings.engine.burst} nodelay;\n"
                  f"        limit_req zone=fire_maps burst={settings.fire_maps.burst} nodelay;") if limit else ""
    save_limits = f"limit_req zone=saves burst={settings.saves.burst} nodelay;" if limit else ""
    conn_limit = f"limit_conn per_address {settings.connections};" if limit else ""
    over_cap_api, over_cap_page = _to_line("api", limit), _to_line("page", limit)
    answers = _answers(settings, build)
    br = "brotli_static on;" if brotli else ""
    real_ip = "".join(f"    set_real_ip_from {address};\n" for address in settings.real_ip_from)
    if real_ip:  # the client is the address the trusted proxies name (REAL_IP_FROM)
        real_ip += "    real_ip_header X-Forwarded-For;\n    real_ip_recursive on;\n"
    too_large = _quote(_error("too_large", f"the body is larger than {upload} bytes", "(body)"))
    return f"""# Generated by `python -m adjudicator.serving` (README "Serving"); edits are overwritten.
{"".join(f"load_module {m};{chr(10)}" for m in brotli)}{f"user {user};" if user else ""}
worker_processes {len(os.sched_getaffinity(0))};
worker_rlimit_nofile {limits.OPEN_FILES};
pid {run}/nginx.pid;
error_log {run}/nginx-error.log warn;
daemon off;

events {{
    worker_connections {limits.WORKER_CONNECTIONS};
    multi_accept on;
}}

http {{
    types {{
{types}    }}
    default_type application/octet-stream;
    charset utf-8;
    charset_types {" ".join(TEXT_TYPES)};
    server_tokens off;
    access_log off;

    client_body_temp_path {run}/tmp/body;
    proxy_temp_path {run}/tmp/proxy;
    fastcgi_temp_path {run}/tmp/fastcgi;
    uwsgi_temp_path {run}/tmp/uwsgi;
    scgi_temp_path {run}/tmp/scgi;

    sendfile on;
    tcp_nopush on;
    tcp_nodelay on;
    keepalive_timeout {limits.KEEPALIVE_TIMEOUT}s;
    client_header_timeout {limits.HEADER_TIMEOUT}s;
    client_body_timeout {limits.BODY_TIMEOUT}s;
    send_timeout {limits.SEND_TIMEOUT}s;
    reset_timedout_connection on;
    client_header_buffer_size 1k;
    large_client_header_buffers 4 8k;
    client_max_body_size {upload};
    client_body_buffer_size {limits.BODY_IN_MEMORY};
    gzip off;
    map_hash_bucket_size 256;
    map_hash_max_size 8192;
    open_file_cache max=2000 inactive=60s;
    log_not_found off;

{real_ip}
    # -- per-address limits, in shared memory (none for RATE_LIMIT_EXEMPT) ------------------
    geo $limit_exempt {{
        default 0;
{exempt}    }}
    map $limit_exempt $limit_address {{
        1 "";
        default $binary_remote_addr;
    }}
    map $request_method $read_key {{
        GET $limit_address;
        HEAD $limit_address;
        default "";
    }}
    map $request_method $write_key {{
        GET "";
        HEAD "";
        default $limit_address;
    }}
    limit_conn_zone $limit_address zone=per_address:10m;
    limit_req_zone $read_key zone=pages:10m rate={settings.pages.nginx()};
    limit_req_zone $write_key zone=engine:10m rate={settings.engine.nginx()};
    map $uri $fire_map_key {{
        {FIRE_MAP} $write_key;
        default "";
    }}
    limit_req_zone $fire_map_key zone=fire_maps:10m rate={settings.fire_maps.nginx()};
    limit_req_zone $write_key zone=saves:10m rate={settings.saves.nginx()};
{_indent(answers.cache_path, 4)}    limit_req_status {OVER_CAP_STATUS if limit else 429};
    limit_conn_status {OVER_CAP_STATUS if limit else 429};
    limit_req_log_level info;
    limit_conn_log_level info;

{_indent(answers.too_long, 4)}    map $uri $retry_after {{
        /api/v1/situations {settings.saves.retry_after()};
        {FIRE_MAP} {max(settings.engine.retry_after(), settings.fire_maps.retry_after())};
        ~^/api/ {max(settings.engine.retry_after(), settings.pages.retry_after())};
        default {settings.pages.retry_after()};
    }}

    # -- static files: immutable for a year only under their content hash ------------------
    map "$uri?$arg_v" $static_versioned {{
        default 0;
{versioned}    }}
    map "$status:$static_versioned" $static_cache_control {{
        default "no-store";
        "~^(200|206|304):1$" "public, max-age=31536000, immutable";
        "~^(200|206|304):0$" "public, max-age=0, must-revalidate";
    }}

    upstream app {{
        server unix:{settings.socket} fail_timeout=0;
    }}

    server {{
        listen {settings.host}:{settings.port} backlog=4096 sndbuf={limits.SEND_BUFFER_KB}k deferred;
        server_name _;
        {conn_limit}
        error_page 429 @too_many_page;
        {over_cap_page}
        error_page 502 504 =503 @unavailable_page;
        recursive_error_pages on;

        location /static/ {{
            alias {settings.static_root}/;
            gzip_static on;
            gzip_vary on;
            {br}
            etag on;
            add_header Cache-Control $static_cache_control always;
{_indent(headers, 8)}            location = {WORKER_PATH} {{
                alias {settings.static_root}/{WORKER_PATH.removeprefix("/static/")};
                gzip_static on;
                {br}
                add_header Cache-Control $static_cache_control always;
{_indent(worker_headers, 12)}            }}
        }}

        location = /api/v1/situations {{
            {save_limits}
            error_page 429 @too_many_api;
            {over_cap_api}
            error_page 413 @too_large;
            error_page 502 504 =503 @unavailable_api;
            include {run}/proxy.conf;
        }}

        location ~ {answers.endpoints} {{
            {api_limits}
            error_page 429 @too_many_api;
            {over_cap_api}
            error_page 413 @too_large;
            error_page 502 504 =503 @unavailable_api;
            include {run}/proxy.conf;
{_indent(answers.location, 12)}        }}

        location /api/ {{
            {api_limits}
            error_page 429 @too_many_api;
            {over_cap_api}
            error_page 413 @too_large;
            error_page 502 504 =503 @unavailable_api;
            include {run}/proxy.conf;
        }}

        location / {{
            {page_limit}
            error_page 429 @too_many_page;
            {over_cap_page}
            error_page 413 @too_large;
            error_page 502 504 =503 @unavailable_page;
            include {run}/proxy.conf;
        }}
{_rendered(pages, page_cache or {}, headers, brotli, api_limits, page_limit, run)}
{_over_cap_locations(settings) if limit else ""}
        location @too_many_api {{
            types {{ }}
            default_type application/json;
            add_header Retry-After $retry_after always;
{_indent(headers, 8)}            return 429 {_quote(_error("rate_limited", _too_many_text(settings)))};
        }}

        location @too_many_page {{
            types {{ }}
            default_type text/html;
            add_header Retry-After $retry_after always;
{_indent(headers, 8)}            return 429 {_quote(_page("Too many requests", _too_many_text(settings)))};
        }}

        location @too_large {{
            types {{ }}
            default_type application/json;
{_indent(headers, 8)}            return 413 {too_large};
        }}

        location @unavailable_api {{
            types {{ }}
            default_type application/json;
            add_header Retry-After 5 always;
{_indent(headers, 8)}            return 503 {_quote(_error("unavailable", _UNAVAILABLE))};
        }}

        location @unavailable_page {{
            types {{ }}
            default_type text/html;
            add_header Retry-After 5 always;
{_indent(headers, 8)}            return 503 {_quote(_page("Unavailable", _UNAVAILABLE))};
        }}
    }}
{_over_cap_line(settings) if limit else ""}}}
"""


def _rendered(pages: Path | None, cache: dict[str, str], headers: str, brotli: list[Path], api_limits: str,
              page_limit: str, run: Path) -> str:
    """Locations answering the pages rendered ahead from their files, and the app (under the
    limits) for any URL there without one."""
    if pages is None:
        return ""
    from adjudicator.serving.pages import SEARCH_DATA, file_for

    files = f"""            root {pages};
            gzip_static on;
            gzip_vary on;
            {"brotli_static on;" if brotli else ""}
            etag on;
{_indent(headers, 12)}"""
    return f"""
        location /rules/ {{
{files}            add_header Cache-Control {_quote(cache.get("/rules/", "no-cache"))};
            try_files $uri.html ${{uri}}index.html @app_page;
        }}

        location = {SEARCH_DATA} {{
{files}            add_header Cache-Control {_quote(cache.get(SEARCH_DATA, "no-cache"))};
            try_files /{file_for(SEARCH_DATA)} @app_api;
        }}

        location @app_page {{
            {page_limit}
            error_page 429 @too_many_page;
            {_to_line("page", bool(page_limit))}
            error_page 502 504 =503 @unavailable_page;
            include {run}/proxy.conf;
        }}

        location @app_api {{
            {api_limits}
            error_page 429 @too_many_api;
            {_to_line("api", bool(api_limits))}
            error_page 502 504 =503 @unavailable_api;
            include {run}/proxy.conf;
        }}
"""


PROXY = """# Included by nginx.conf for every location the app answers.
proxy_pass http://app;
proxy_set_header Host $http_host;
proxy_set_header X-Forwarded-For $remote_addr;
proxy_set_header X-Forwarded-Proto $scheme;
proxy_buffering on;
proxy_request_buffering on;
proxy_buffer_size 16k;
proxy_buffers 32 16k;
proxy_busy_buffers_size 64k;
proxy_max_temp_file_size 64m;
proxy_read_timeout {read_timeout}s;
proxy_send_timeout 10s;
proxy_connect_timeout 5s;
proxy_next_upstream off;
"""
"""``X-Forwarded-For`` is set to the address nginx sees (never appended to what a client sent), and
the app trusts exactly one proxy hop (``PROXY_HOPS=1``), so no client can pick its own address."""

_UNAVAILABLE = ("The server could not answer (it is restarting or overloaded). What you sent may or may not have "
                "been done: send it again in a few seconds. That is always safe: a ruling changes nothing, and the "
                "same situation saved again gets the same id, never a second copy.")


class Answers(NamedTuple):
    """nginx's cache of engine answers: its ``proxy_cache_path`` line, the location's pattern and
    the directives inside the location."""

    cache_path: str
    too_long: str
    endpoints: str
    location: str


def _answers(settings: Settings, build: str) -> Answers:
    """The engine's ``200`` answers kept by nginx, the proxy-level twin of ``web.answer_cache``.

    A ruling is a pure function of the request's body, its media type (another type is the app's
    415), the build (the content and the code: ``build``) and the work budget (a smaller one may
    refuse with 422): the key is made of exactly those, so an answer is only ever given again to
    the same question under the same rules. Only ``200`` answers are kept (a refusal is cheap to
    make again); the variant per ``Accept-Encoding`` follows the app's ``Vary``. A body nginx
    had to write to a file (larger than ``BODY_IN_MEMORY``) is never looked up nor kept: its
    text is not in memory to be part of the key; nor is one of ``ANSWER_BODY_LIMIT`` bytes or
    more, whose key would not fit in nginx's proxy buffer (nginx checks the key's length before
    it reads ``proxy_cache_bypass``, so such a body is also left out of the key). One identical
    question asked by many at once goes to a worker once (``proxy_cache_lock``); the others get
    its answer. ``X-Answer-Cache`` says where an answer came from (``HIT``, ``MISS``,
    ``BYPASS``)."""
    from adjudicator.engine.api import ENDPOINTS

    names = "|".join(sorted(ENDPOINTS))
    digits = len(str(limits.ANSWER_BODY_LIMIT)) - 1
    assert 10**digits == limits.ANSWER_BODY_LIMIT, "ANSWER_BODY_LIMIT must be a power of ten"
    return Answers(
        cache_path=(f"proxy_cache_path {settings.run_dir / ANSWERS} levels={':'.join(map(str, ANSWER_LEVELS))} "
                    "keys_zone=answers:"
                    f"{limits.ANSWER_KEYS_MB}m max_size={limits.ANSWER_CACHE_MB}m inactive={limits.ANSWER_IDLE} "
                    "use_temp_path=off;\n"),
        too_long=("map $content_length $answer_body_too_long {\n"
                  f'    "~^[0-9]{{1,{digits}}}$" "";\n'
                  "    default 1;\n"
                  "}\n"
                  "map $content_length $answer_body {\n"
                  f'    "~^[0-9]{{1,{digits}}}$" $request_body;\n'
                  '    default "";\n'
                  "}\n"),
        endpoints=_quote(f"^/api/v1/({names})$"),
        location=("proxy_cache answers;\n"
                  "proxy_cache_methods POST;\n"
                  f'proxy_cache_key "{build}/{settings.work_budget}|'
                  '$uri|$content_type|$content_length|$answer_body";\n'
                  "proxy_cache_valid 200 " + limits.ANSWER_IDLE + ";\n"
                  "proxy_cache_bypass $request_body_file $answer_body_too_long;\n"
                  "proxy_no_cache $request_body_file $answer_body_too_long;\n"
                  "proxy_cache_lock on;\n"
                  "proxy_cache_lock_timeout 5s;\n"
                  "add_header X-Answer-Cache $upstream_cache_status always;\n"))


def _answer_folders(root: Path) -> None:
    """Every folder nginx may keep an answer in (``ANSWER_LEVELS``), made before it starts.
    nginx makes one only when an answer first needs it: it tries the file, fails, makes the
    folder and tries again. Emptied at every start, the cache met a missing folder in most of its
    first few thousand answers (``levels=1:2``): for a ruling computed afresh nginx made 2.9
    ``openat`` (242 µs each) and 1.7 ``mkdir`` (362 µs) calls, over half its system time. With
    the folders made, 2 ``openat`` (36 µs: the lookup that misses, and the new file), no
    ``mkdir``, and 0.54 ms of system time a ruling against 2.0 (``strace -c`` on nginx's worker,
    ``bench/battle_distinct.lua`` at 64 connections; strace's own cost included)."""
    for path in product(*(range(16**digits) for digits in ANSWER_LEVELS)):
        folders = (f"{n:0{digits}x}" for n, digits in zip(path, ANSWER_LEVELS, strict=True))
        root.joinpath(*folders).mkdir(parents=True, exist_ok=True)


def _to_line(kind: str, limit: bool) -> str:
    """A location's ``error_page`` sending a request over a limit to the line (``OVER_CAP_STATUS``)."""
    return f"error_page {OVER_CAP_STATUS} =429 @over_cap_{kind};" if limit else ""


def _over_cap_locations(settings: Settings) -> str:
    """Where a request over a limit goes (``OVER_CAP_STATUS``): it asks the over-cap line
    (``_over_cap_line``) for its turn in a subrequest (``auth_request``, which the line always
    denies, at its turn), then gets the usual 429 of its kind. A subrequest, because
    ``proxy_pass`` in the refused request itself would first read its whole body (a trickled one
    for good, into a buffer of its declared length); this way nginx reads none of it while it
    waits, and discards it as it answers. The first error page sent it here, hence
    ``recursive_error_pages``; the line's failure (500) is a 429 too. A request over its rate was
    refused before the connection cap was counted (``limit_req`` runs first), and a named location
    counts it again: ``limit_conn_dry_run``, or one over its rate from an address at its cap would
    be refused there with the internal status itself."""
    line = settings.over_cap
    ask = (f"location = {OVER_CAP_TURN} {{\n"
           "    internal;\n"
           "    proxy_pass http://over_cap;\n"
           "    proxy_method GET;\n"
           "    proxy_pass_request_headers off;\n"
           "    proxy_pass_request_body off;\n"
           '    proxy_set_header Content-Length "";\n'
           f"    proxy_read_timeout {line.longest_wait() + 5}s;\n"
           "}\n")
    return _indent(ask, 8) + "".join(f"""
        location @over_cap_{kind} {{
            limit_conn_dry_run on;
            auth_request {OVER_CAP_TURN};
            error_page 403 429 500 =429 @too_many_{kind};
            try_files /none =429;
        }}
""" for kind in ("api", "page"))


def _over_cap_line(settings: Settings) -> str:
    """The over-cap line (``OVER_CAP_LINE``): a server of its own on a unix socket, so that its
    ``limit_req`` counts a request of its own. In the refused request nginx has counted the rates
    already (``limit_req`` runs once a request, and before ``limit_conn``), so it could not be
    made to wait there. Every place in the line is one key's: the line is the same for every
    address, and a request over a limit from a new address waits like the others. Its answer is
    403, a denial for ``auth_request``, at the client's turn or at once when the line is full;
    ``try_files`` is the first handler that runs after ``limit_req`` (``return`` would answer
    before it). Its socket's backlog holds a full line arriving at once (with nginx's default of
    511, 3,480 refused together overflowed it: each a 429 at once and two lines of error log)."""
    line = settings.over_cap
    return f"""
    limit_req_zone over_cap zone=over_cap:1m rate={line.nginx()};

    upstream over_cap {{
        server unix:{settings.over_cap_socket};
    }}

    server {{
        listen unix:{settings.over_cap_socket} backlog={line.burst};
        limit_req_status 403;
        location / {{
            limit_req zone=over_cap burst={line.burst};
            try_files /none =403;
        }}
    }}
"""


def proxy_conf(settings: Settings) -> str:
    return PROXY.format(read_timeout=limits.PROXY_READ_TIMEOUT)


def _max_upload() -> int:
    from adjudicator.web.m44_upload import MAX_M44_BYTES

    return MAX_M44_BYTES + limits.UPLOAD_ENVELOPE


def _too_many_text(settings: Settings) -> str:
    return (f"Too many requests from this address: each may ask for {_rate_words(settings.pages)} pages or "
            f"searches, {_rate_words(settings.engine)} rulings and {_rate_words(settings.saves)} saves. "
            "Wait the seconds Retry-After gives, then try again.")


def _rate_words(rate: Rate) -> str:
    return f"{rate.amount} a {rate.per}"


def _error(code: str, message: str, field: str | None = None) -> str:
    return json.dumps({"error": {"code": code, "message": message, "field": field}})


def _page(title: str, message: str) -> str:
    return (f'<!doctype html><html lang="en"><meta charset="utf-8"><meta name="viewport" '
            f'content="width=device-width, initial-scale=1"><title>{title} · adjudicator</title>'
            f"<h1>{title}</h1><p>{message}</p></html>")


def _types(manifest: dict[str, str]) -> str:
    """The media type of every suffix under /static/, as the app (Python's ``mimetypes``) names it,
    so a file has the same type whoever serves it (``application/wasm`` matters: browsers compile
    wasm as it streams only under that type)."""
    by_type: dict[str, set[str]] = {}
    for path in manifest:
        suffix = Path(path).suffix
        kind = mimetypes.guess_type(f"x{suffix}")[0] if suffix else None
        if kind:
            by_type.setdefault(kind, set()).add(suffix.lstrip("."))
    by_type.setdefault("text/html", set()).add("html")
    return "".join(f"        {kind} {' '.join(sorted(suffixes))};\n" for kind, suffixes in sorted(by_type.items()))


def _quote(value: str) -> str:
    """An nginx string: single-quoted, with quotes and backslashes escaped."""
    return "'" + value.replace("\\", "\\\\").replace("'", "\\'") + "'"


def _indent(block: str, spaces: int) -> str:
    pad = " " * spaces
    return "".join(pad + line.lstrip() + "\n" for line in block.splitlines())


def write(settings: Settings, manifest: dict[str, str], user: str | None = None, pages: Path | None = None,
          page_cache: dict[str, str] | None = None, build: str = "") -> Path:
    """Write nginx.conf and proxy.conf into the instance's run folder; the path of nginx.conf. The
    answers kept by an earlier start are dropped (their key names their build, so they could
    never be given again under another; dropping them frees their disk at once)."""
    run = settings.run_dir
    shutil.rmtree(run / ANSWERS, ignore_errors=True)
    _answer_folders(run / ANSWERS)
    for folder in ("tmp/body", "tmp/proxy", "tmp/fastcgi", "tmp/uwsgi", "tmp/scgi"):
        (run / folder).mkdir(parents=True, exist_ok=True)
    (run / "proxy.conf").write_text(proxy_conf(settings))
    settings.over_cap_socket.unlink(missing_ok=True)  # left by an nginx that was killed
    conf = run / "nginx.conf"
    conf.write_text(render(settings, manifest, user, pages, page_cache, build))
    return conf
