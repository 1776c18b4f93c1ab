"""Web layer: thin blueprints over the catalogue, the database and the engine."""

from __future__ import annotations

from typing import Any

from flask import Flask, render_template

from adjudicator.web.errors import error_json, register_error_handlers, wants_json


def register(app: Flask) -> None:
    from adjudicator.web import (
        api_engine,
        api_rules,
        builder,
        m44_upload,
        offline,
        pages,
        search_views,
        situations,
        sources,
    )
    from adjudicator.web.answer_cache import register_answer_cache
    from adjudicator.web.budget import register_budget
    from adjudicator.web.compression import register_compression
    from adjudicator.web.context import register_context
    from adjudicator.web.security import close_file_responses, page_etags, register_security

    register_error_handlers(app)
    register_budget(app)
    register_answer_cache(app, app.extensions["catalogue"].content_hash)
    register_context(app)
    register_security(app)
    register_compression(app)  # compressed once per body, not per request
    app.after_request(page_etags)  # after Compress, so it runs before it (tags on plain bytes)
    app.after_request(close_file_responses)  # after Compress, so it runs before it
    for module in (pages, sources, api_rules, api_engine, search_views, builder, situations, m44_upload,
                   offline):
        app.register_blueprint(module.bp)


def register_broken_content(app: Flask, exc: Exception) -> None:
    """Serve 503 naming the content problems instead of rules that failed validation."""

    from adjudicator.web.context import register_context
    from adjudicator.web.security import register_security

    register_context(app)
    register_security(app)

    @app.before_request
    def content_invalid() -> Any:
        message = f"The rule content does not validate:\n{exc}"
        if wants_json():
            return error_json(503, "content_invalid", message)
        return render_template("error.html", status=503, title="Content invalid", message=message), 503
