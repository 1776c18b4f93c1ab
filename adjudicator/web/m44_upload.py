"""``POST /api/v1/import/m44``: a scenario from the official editor, mapped through the content
(``adjudicator.m44``), with every name that did not map listed."""

from __future__ import annotations

from typing import Any

from flask import Blueprint, jsonify, request
from werkzeug.exceptions import RequestEntityTooLarge

from adjudicator.m44 import M44Error, import_m44, loads
from adjudicator.web.errors import ApiError
from adjudicator.web.requests import rulebook

bp = Blueprint("m44", __name__)

MAX_M44_BYTES = 1024 * 1024
"""Scenario files carry long historical texts in several languages; a megabyte is ample."""
M44_TYPES = ("application/json", "multipart/form-data")


@bp.post("/api/v1/import/m44")
def import_scenario() -> Any:
    """A ``.m44`` scenario as the body (JSON), or as the ``file`` field of a form upload."""
    request.max_content_length = MAX_M44_BYTES
    if request.mimetype not in M44_TYPES:
        # text/plain (or a form) is what a page on any other site may post without asking: only a
        # JSON body (which needs a CORS preflight) or a file upload is accepted
        raise ApiError(f"send the .m44 file as {' or '.join(M44_TYPES)}", field="(body)", status=415,
                       code="unsupported_media_type")
    if request.mimetype == "multipart/form-data" and request.headers.get("Sec-Fetch-Site") == "cross-site":
        raise ApiError("a form upload must come from this site", field="(body)", status=403, code="cross_site")
    too_large = ApiError(f"the file is larger than {MAX_M44_BYTES} bytes", field="(body)", status=413,
                         code="too_large")
    if request.content_length is not None and request.content_length > MAX_M44_BYTES:
        raise too_large  # before reading: the framework's own 413 names no field and no limit
    try:
        upload = request.files.get("file") if request.mimetype == "multipart/form-data" else None
        raw = upload.read(MAX_M44_BYTES + 1) if upload is not None else request.get_data(cache=False)
    except RequestEntityTooLarge:  # a chunked body that runs past the limit
        raise too_large from None
    if len(raw) > MAX_M44_BYTES or (upload is None and request.content_length is None and len(raw) >= MAX_M44_BYTES):
        raise too_large
    if not raw.strip():
        raise ApiError("send the .m44 file as the request body", field="(body)", code="empty")
    try:
        result = import_m44(loads(raw), rulebook())
    except M44Error as exc:
        raise ApiError(exc.message, field=exc.field, code="invalid_m44") from None
    return jsonify(result.as_dict())
