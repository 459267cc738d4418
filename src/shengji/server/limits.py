"""The server's settings and limits, each configurable (``shengji serve --help``)."""

from __future__ import annotations

import time
from dataclasses import dataclass

SEED_BITS = 48
"""A match's seed is a whole number of this many bits (stored in SQLite's 64-bit integers)."""
SUGGEST_GRACE = 1.0
"""Seconds a suggestion may take beyond ``bot_time`` (a search stops between its sampled
deals, a little after its time) before it is dropped."""


@dataclass(frozen=True)
class Settings:
    """Pace and limits of a server; the defaults suit people playing in browsers."""

    deal_pace: float = 0.15
    """Seconds between cards of the deal drawn for people (0: the deal is instant)."""
    bot_delay: float = 0.6
    """Seconds a computer player waits before acting (0: at once)."""
    seed: int | None = None
    """The seed every match is dealt from (the same deals in every room and match: for
    demonstrations, tests and duplicate play; whoever knows it can work out every hand);
    ``None``: a secret random seed per match."""
    bot_time: float = 5.0
    """Seconds a computer player may think (off the event loop); then a random legal action
    is played for it. The suggestion player may be given up to this long (a room option);
    a suggestion taking :data:`SUGGEST_GRACE` longer is dropped."""
    max_message: int = 16 * 1024
    """Largest message a client may send, in bytes."""
    rate: float = 20.0
    """Messages per second a connection may send on average..."""
    burst: int = 40
    """...and at most this many at once."""
    max_rooms: int = 1000
    """Live rooms at most; creating another is refused."""
    room_creation: int = 10
    """Rooms one client address may open per minute (bursts of as many)."""
    unjoined_expiry: float = 600.0
    """A room nobody joined (said ``hello`` in) this long after its creation is deleted."""
    max_spectators: int = 20
    """Members without a seat per room at most."""
    max_members: int = 50
    """Connected members per room at most."""
    member_expiry: float = 600.0
    """A member without a seat who is away this long is forgotten (their token then joins as
    a new member)."""
    max_connections: int = 100
    """Websocket connections per room at most."""
    max_member_connections: int = 3
    """Connections of one member (say, browser tabs) at most."""
    max_address_connections: int = 0
    """Websocket connections from one client address at most, over every room (0: no limit;
    behind a reverse proxy only with ``forwarded_allow_ips``, else the proxy is one address)."""
    max_address_pending: int = 16
    """Connections from one client address that have not said ``hello`` yet, over every room,
    at most (0: no limit). They do not count towards ``max_connections``: sockets that never
    say hello cannot lock a room, and are closed after ``hello_timeout``."""
    hello_timeout: float = 5.0
    """Seconds a new connection has to say ``hello`` before it is closed."""
    absent_grace: float = 60.0
    """Seconds a seated person may be away during a match before a computer player plays
    their seat until they return (a room's host may choose another grace; 0: never)."""
    idle_expiry: float = 24 * 3600.0
    """A room nobody is connected to and nothing happened in for this long is deleted."""
    chat_history: int = 100
    """Chat lines kept per room (and sent to a member who joins)."""
    chat_rate: float = 1.0
    """Chat lines per second a member may send on average..."""
    chat_burst: int = 5
    """...and at most this many at once."""
    host_grace: float = 60.0
    """Seconds the host may be away before a connected member (a seated person first)
    becomes the host."""
    forwarded_allow_ips: str | None = None
    """Behind a reverse proxy: the proxies (comma-separated addresses or networks, ``*`` for
    any) whose ``X-Forwarded-For`` header gives the client's address for the per-address
    limits; ``None``: the header is ignored and the connecting address counts."""


class RateLimit:
    """A token bucket: ``rate`` per second on average, ``burst`` at once."""

    def __init__(self, rate: float, burst: int) -> None:
        self.rate = rate
        self.burst = float(burst)
        self.tokens = float(burst)
        self.stamp = time.monotonic()

    def full(self) -> bool:
        """True when the bucket has refilled (it may be forgotten)."""
        return self.tokens + (time.monotonic() - self.stamp) * self.rate >= self.burst

    def allow(self) -> bool:
        """Take one token if there is one."""
        now = time.monotonic()
        self.tokens = min(self.burst, self.tokens + (now - self.stamp) * self.rate)
        self.stamp = now
        if self.tokens < 1.0:
            return False
        self.tokens -= 1.0
        return True
