"""``shengji serve``: play with friends in the browser.

The server is authoritative: clients send actions in the record notation over a websocket,
the server checks them with the engine, applies them, logs them in SQLite before replying,
and sends every connection its own redacted state. The protocol is ``docs/protocol.md``.

Importing :mod:`shengji` never imports this package; it needs FastAPI, uvicorn and pydantic.
"""
