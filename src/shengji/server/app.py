"""The routes of ``shengji serve``: the static client, the lobby API and the websocket.

Everything behind the routes lives in :mod:`shengji.server.rooms` and the modules of a room
(:mod:`shengji.server.room`); the protocol is ``docs/protocol.md``. No route returns a room's
hidden state: the websocket sends each connection its own redacted view, and a match's record
(which holds the seed) is served only once the match is over.
"""

from __future__ import annotations

import json
import math
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from pathlib import Path
from typing import Annotated, Any

from fastapi import Body, FastAPI, Request, WebSocket
from fastapi.responses import (
    FileResponse,
    HTMLResponse,
    JSONResponse,
    PlainTextResponse,
    Response,
)
from fastapi.staticfiles import StaticFiles
from starlette.types import ASGIApp, Message, Receive, Scope, Send
from uvicorn.middleware.proxy_headers import ProxyHeadersMiddleware

from shengji.game.config import rules_to_dict
from shengji.server.limits import RateLimit, Settings
from shengji.server.members import Refusal
from shengji.server.options import presets_json
from shengji.server.primer import how_to_play_html
from shengji.server.room_rules import check_rules, rules_errors_json
from shengji.server.rooms import Rooms
from shengji.server.storage import SQLiteStorage, Storage

STATIC = Path(__file__).parent / "static"
"""The browser client, served from the installed package."""
MAX_BODY = 64 * 1024
"""Largest HTTP request body, in bytes (a larger one gets 413)."""


NOT_FINITE = ("JSON numbers must be finite: NaN, Infinity, -Infinity and numbers beyond a "
              "double's range (such as 1e400) are not allowed")
"""The error of a JSON body holding a number that is not finite (400)."""


def _finite(text: str) -> float:
    value = float(text)
    if not math.isfinite(value):
        raise ValueError(NOT_FINITE)
    return value


def _not_finite(text: str) -> float:
    raise ValueError(NOT_FINITE)


TOO_DEEP = "the JSON body is nested too deeply"


def json_fault(body: bytes, content_type: bytes) -> str | None:
    """Why ``body``, sent as JSON (``content_type`` ``application/json`` or
    ``application/*+json``, as FastAPI reads it), reaches no route, or ``None``: a number
    that is not finite (``NaN``, ``Infinity``, ``-Infinity``, which Python's JSON reader
    accepts, or a float beyond range, read as infinity: FastAPI's own 422 answer would fail
    to write it back, a 500), or nesting deeper than the reader can follow (a
    ``RecursionError`` there). Any other fault is left to FastAPI."""
    kind = content_type.split(b";")[0].strip().lower()
    if not body or not (kind == b"application/json" or (
            kind.startswith(b"application/") and kind.endswith(b"+json"))):
        return None
    try:
        json.loads(body, parse_float=_finite, parse_constant=_not_finite)
    except ValueError as problem:
        return NOT_FINITE if NOT_FINITE in str(problem) else None
    except RecursionError:
        return TOO_DEEP
    return None


class BodyLimit:
    """ASGI middleware: HTTP requests with a body over ``limit`` bytes get 413, JSON bodies
    that no route can read 400 (:func:`json_fault`)."""

    def __init__(self, app: ASGIApp, limit: int) -> None:
        self.app = app
        self.limit = limit

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        declared = dict(scope.get("headers") or []).get(b"content-length", b"0")
        if not declared.isdigit() or int(declared) > self.limit:
            await self._refuse(scope, receive, send)
            return
        body = b""  # read it all first (at most the limit): a chunked body has no length
        while True:
            message = await receive()
            if message["type"] != "http.request":
                return  # the client went away
            body += message.get("body", b"")
            if len(body) > self.limit:
                await self._refuse(scope, receive, send)
                return
            if not message.get("more_body", False):
                break
        fault = json_fault(body, dict(scope.get("headers") or []).get(b"content-type", b""))
        if fault is not None:
            answer = JSONResponse({"error": fault}, status_code=400)
            await answer(scope, receive, send)
            return
        replayed = False

        async def replay() -> Message:
            nonlocal replayed
            if replayed:
                return await receive()
            replayed = True
            return {"type": "http.request", "body": body, "more_body": False}

        await self.app(scope, replay, send)

    async def _refuse(self, scope: Scope, receive: Receive, send: Send) -> None:
        answer = JSONResponse({"error": f"request bodies are at most {self.limit} bytes"},
                              status_code=413)
        await answer(scope, receive, send)


def create_app(db: str | Path = ":memory:", settings: Settings | None = None,
               storage: Storage | None = None) -> FastAPI:
    """The ASGI application: rooms kept in ``storage`` (default: SQLite at ``db``)."""
    chosen = settings if settings is not None else Settings()
    store = storage if storage is not None else SQLiteStorage(db)
    rooms = Rooms(store, chosen)

    @asynccontextmanager
    async def lifespan(app: FastAPI) -> AsyncIterator[None]:
        await rooms.start()
        try:
            yield
        finally:
            await rooms.stop()
            store.close()

    app = FastAPI(title="shengji", lifespan=lifespan, docs_url=None, redoc_url=None,
                  openapi_url=None)
    app.state.rooms = rooms
    app.add_middleware(BodyLimit, limit=MAX_BODY)
    if chosen.forwarded_allow_ips is not None:  # outermost: every layer sees the real client
        app.add_middleware(ProxyHeadersMiddleware, trusted_hosts=chosen.forwarded_allow_ips)
    presets = presets_json(chosen.bot_time)
    creators: dict[str, RateLimit] = {}

    def may_create(client: str) -> bool:
        if len(creators) > 10_000:  # forget addresses whose bucket is full again
            for address in [a for a, bucket in creators.items() if bucket.full()]:
                del creators[address]
        bucket = creators.get(client)
        if bucket is None:
            per_minute = chosen.room_creation
            bucket = creators[client] = RateLimit(per_minute / 60.0, per_minute)
        return bucket.allow()

    def page() -> Response:
        index = STATIC / "index.html"
        if not index.is_file():
            return PlainTextResponse("the browser client is not installed", status_code=404)
        return FileResponse(index, headers={"Cache-Control": "no-cache"})

    @app.get("/", include_in_schema=False)
    async def lobby() -> Response:
        return page()

    @app.get("/r/{code}", include_in_schema=False)
    async def room_page(code: str) -> Response:
        return page()

    @app.get("/how-to-play", include_in_schema=False)
    async def how_to_play() -> Response:  # the rules primer (the page's How to play link)
        return HTMLResponse(how_to_play_html())

    @app.get("/api/presets")
    async def get_presets() -> dict[str, Any]:
        return presets

    @app.post("/api/rules/check")
    async def rules_check(preset: Annotated[str, Body()], table: Annotated[int, Body()],
                          rules: Annotated[dict[str, Any], Body()]) -> dict[str, Any]:
        checked, errors = check_rules(preset, table, rules)
        return {"ok": checked is not None, **rules_errors_json(errors),
                "rules": rules_to_dict(checked) if checked is not None else None}

    @app.post("/api/rooms")
    async def create_room(request: Request, preset: Annotated[str, Body()],
                          table: Annotated[int, Body()],
                          rules: Annotated[dict[str, Any] | None, Body()] = None) -> Response:
        if not may_create(request.client.host if request.client else ""):
            return JSONResponse({"errors": {"room": "too many rooms opened from this address: "
                                            f"at most {chosen.room_creation} a minute"},
                                 "code": "rate"}, status_code=429)
        try:
            code = rooms.create(preset, table, rules or {})
        except Refusal as refusal:
            if refusal.code == "bad-rules":
                return JSONResponse(json.loads(str(refusal)), status_code=400)
            return JSONResponse({"errors": {"room": str(refusal)}, "code": refusal.code},
                                status_code=503)
        return JSONResponse({"room": code}, status_code=201)

    @app.get("/api/rooms/{code}/record")
    async def record(code: str) -> Response:
        room = rooms.rooms.get(code)
        if room is None:
            return JSONResponse({"error": f"there is no room {code!r}"}, status_code=404)
        text = await room.record()
        if text is None:
            return JSONResponse({"error": "the record is available once the match is over"},
                                status_code=409)
        return Response(text, media_type="application/toml", headers={
            "Content-Disposition": f'attachment; filename="shengji-{code}.toml"'})

    @app.websocket("/ws/{code}")
    async def socket(websocket: WebSocket, code: str) -> None:
        await rooms.serve(code, websocket)

    app.mount("/static", StaticFiles(directory=STATIC, check_dir=False), name="static")
    return app
