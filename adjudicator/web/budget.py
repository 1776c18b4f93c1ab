"""The engine work budget of one API request (``adjudicator.engine.budget``).

Every ``POST /api/`` request runs its engine calls under a budget of ``ENGINE_WORK_BUDGET`` work
units (``Config.engine_work_budget``, default ``config.DEFAULT_WORK_BUDGET``). A request that
needs more gets a 422 ``too_complex`` naming the request body, instead of holding a worker for as
long as the engine would run: one legal but pathological situation (a board of frozen rivers, a
French Resistance target, a dozen flags) must not be able to slow the site for everyone."""

from __future__ import annotations

from flask import Flask, Response, g, request

from adjudicator.config import current
from adjudicator.engine import budget
from adjudicator.engine.api import too_complex_error
from adjudicator.web.errors import error_json


def register_budget(app: Flask) -> None:
    @app.before_request
    def open_budget() -> None:
        if request.method == "POST" and request.path.startswith("/api/"):
            g.work_budget_token = budget.open_budget(current().engine_work_budget)

    @app.teardown_request
    def close_budget(_exc: BaseException | None) -> None:
        token = g.pop("work_budget_token", None)
        if token is not None:
            budget.close_budget(token)

    @app.errorhandler(budget.WorkBudgetExceeded)
    def too_complex(exc: budget.WorkBudgetExceeded) -> tuple[Response, int]:
        error = too_complex_error(exc.limit)["error"]  # the offline engine answers the same
        return error_json(422, error["code"], error["message"], error["field"])
