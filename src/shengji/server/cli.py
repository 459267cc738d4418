"""``shengji serve``: its options and its entry point (imports the server only when run)."""

from __future__ import annotations

import argparse
import gc
import os
import re
import socket
import sqlite3
import stat
import sys
from pathlib import Path

from shengji.arguments import number, output_file_problem, whole_number
from shengji.game.files import file_kind
from shengji.players import THINK_LIMITS

DEFAULT_DB = "shengji.sqlite3"

HOUR = 3600
"""The longest ``--bot-time`` and ``--hello-timeout``, in seconds."""
DAY = 24 * 3600
"""The longest ``--absent-grace``, in seconds (as a host may choose)."""
YEAR = 365 * 24 * 3600
"""The longest ``--host-grace`` and ``--idle-expiry``, in seconds."""
BIG = 1_000_000
"""The most of any count or rate (rooms, connections, messages per second)."""
SQLITE_HEADER = b"SQLite format 3\0"
"""The first 16 bytes of every SQLite database file."""
WILDCARDS = frozenset(("0.0.0.0", "::"))
"""``--host`` values that listen on every address of the machine."""


def network_address() -> str | None:
    """This machine's address on its local network (the one its default route leaves
    from), or ``None`` if it has none; nothing is sent (a UDP socket only picks a route)."""
    try:
        with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as probe:
            probe.connect(("10.255.255.255", 1))
            address = str(probe.getsockname()[0])
    except OSError:
        return None
    return None if address.startswith(("127.", "0.")) else address


def add_serve_arguments(parser: argparse.ArgumentParser) -> None:
    """The options of ``shengji serve``."""
    from shengji.server.limits import SEED_BITS, Settings

    d = Settings()
    parser.add_argument("--host", default="127.0.0.1", help="address to listen on "
                        "(default 127.0.0.1; 0.0.0.0 for every interface)")
    parser.add_argument("--port", type=whole_number(1, 65535), default=8000,
                        help="port, 1 to 65535 (default 8000)")
    parser.add_argument("--db", default=DEFAULT_DB,
                        help=f"SQLite file holding the rooms (default ./{DEFAULT_DB})")
    parser.add_argument("--deal-pace", type=number(0, 10, unit="seconds"), default=d.deal_pace,
                        metavar="SECONDS",
                        help=f"seconds between cards of the deal (default {d.deal_pace}; 0: "
                             "instant)")
    parser.add_argument("--bot-delay", type=number(0, 60, unit="seconds"), default=d.bot_delay,
                        metavar="SECONDS",
                        help=f"seconds a computer player waits before acting "
                             f"(default {d.bot_delay})")
    parser.add_argument("--seed", type=whole_number(0, (1 << SEED_BITS) - 1), default=None,
                        metavar="N",
                        help="deal every match from this seed, 0 to 2**48-1: the same deals in "
                             "every room (demonstrations, tests, duplicate play; whoever knows "
                             "it can work out the hands; default: a secret random seed per "
                             "match)")
    parser.add_argument("--bot-time", type=number(THINK_LIMITS[0], HOUR, unit="seconds"),
                        default=d.bot_time, metavar="SECONDS",
                        help="seconds a computer player may think before a random legal action "
                             "is played for it, and a suggestion before it is dropped "
                             f"(at least {THINK_LIMITS[0]:g}; default {d.bot_time:g})")
    parser.add_argument("--max-connections", type=whole_number(1, BIG), default=d.max_connections,
                        help=f"connections per room at most (default {d.max_connections})")
    parser.add_argument("--max-member-connections", type=whole_number(1, BIG),
                        default=d.max_member_connections,
                        help="connections of one member at most "
                             f"(default {d.max_member_connections})")
    parser.add_argument("--max-address-connections", type=whole_number(0, BIG),
                        default=d.max_address_connections, metavar="N",
                        help="websocket connections from one client address at most, over "
                             "every room (default 0: no limit; behind a reverse proxy use "
                             "--proxy-headers, or the proxy counts as one address)")
    parser.add_argument("--max-address-pending", type=whole_number(0, BIG),
                        default=d.max_address_pending, metavar="N",
                        help="connections from one client address that have not said hello "
                             f"yet, at most (default {d.max_address_pending}; 0: no limit); "
                             "they never count towards --max-connections")
    parser.add_argument("--hello-timeout",
                        type=number(0, HOUR, above=True, unit="seconds"), default=d.hello_timeout,
                        metavar="SECONDS", help="seconds a connection has to say hello "
                                                f"(default {d.hello_timeout:g})")
    parser.add_argument("--max-message", type=whole_number(1024, 64 << 20),
                        default=d.max_message, metavar="BYTES",
                        help=f"largest client message (default {d.max_message})")
    parser.add_argument("--rate", type=number(0, BIG, above=True, unit="a second"),
                        default=d.rate,
                        help=f"messages per second per connection (default {d.rate:g})")
    parser.add_argument("--burst", type=whole_number(1, BIG), default=d.burst,
                        help=f"messages at once per connection (default {d.burst})")
    parser.add_argument("--max-rooms", type=whole_number(1, BIG), default=d.max_rooms,
                        help=f"live rooms at most (default {d.max_rooms})")
    parser.add_argument("--rooms-per-minute", type=whole_number(1, BIG), default=d.room_creation,
                        help="rooms one client address may open per minute "
                             f"(default {d.room_creation})")
    parser.add_argument("--max-spectators", type=whole_number(1, BIG), default=d.max_spectators,
                        help=f"spectators per room at most (default {d.max_spectators})")
    parser.add_argument("--host-grace", type=number(0, YEAR, unit="seconds"),
                        default=d.host_grace, metavar="SECONDS",
                        help="seconds the host may be away before a connected player becomes "
                             f"host (default {d.host_grace:g})")
    parser.add_argument("--absent-grace", type=number(0, DAY, unit="seconds"),
                        default=d.absent_grace, metavar="SECONDS",
                        help="seconds a seated player may be away during a match before a "
                             "computer player plays for them until they return (default "
                             f"{d.absent_grace:g}; 0: never; each room's host may choose)")
    parser.add_argument("--proxy-headers", action="store_true",
                        help="behind a reverse proxy: take the client's address from the "
                             "X-Forwarded-For header set by a proxy of --forwarded-allow-ips "
                             "(the per-address limits then count real clients, not the proxy)")
    parser.add_argument("--forwarded-allow-ips", metavar="IPS", default=None,
                        help="the proxies trusted with --proxy-headers: comma-separated "
                             "addresses or networks, * for any (default 127.0.0.1,::1; "
                             "giving it implies --proxy-headers)")
    parser.add_argument("--idle-expiry",
                        type=number(0, YEAR, above=True, unit="seconds"), default=d.idle_expiry,
                        metavar="SECONDS",
                        help="delete a room nobody is in after this long without activity "
                             f"(default {d.idle_expiry:g})")


def forwarded_allow_ips(args: argparse.Namespace) -> str | None:
    """The trusted proxies of ``--proxy-headers``/``--forwarded-allow-ips`` (``None``: the
    forwarding headers are ignored; the app applies them, not uvicorn)."""
    if args.forwarded_allow_ips is not None:
        return str(args.forwarded_allow_ips)
    return "127.0.0.1,::1" if args.proxy_headers else None


def _tables(path: Path) -> set[str]:
    """The tables of the SQLite database at ``path`` (opened read-only)."""
    db = sqlite3.connect(f"{path.resolve().as_uri()}?mode=ro", uri=True)
    try:
        rows = db.execute("SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT "
                          "LIKE 'sqlite!_%' ESCAPE '!'").fetchall()
    finally:
        db.close()
    return {str(name) for (name,) in rows}


def database_problem(name: str) -> str | None:
    """Why ``--db name`` is not this server's database to open (or create), or ``None``:
    a file that is there must be empty or an SQLite database with no tables but the
    server's own (:data:`shengji.server.storage._SCHEMA`); nothing else is overwritten."""
    if name == ":memory:":
        return None
    path = Path(name)
    try:
        mode = os.stat(path).st_mode
    except FileNotFoundError:
        return output_file_problem("--db", name)  # a database to create
    except (OSError, ValueError) as error:
        return f"--db {name}: {getattr(error, 'strerror', None) or error}"
    if not stat.S_ISREG(mode):
        return f"--db {name}: that is {file_kind(mode)}, not a database file"
    try:
        with open(path, "rb") as file:  # a regular file: no wait
            head = file.read(len(SQLITE_HEADER))
    except OSError as error:
        return f"--db {name}: cannot read it: {error.strerror}"
    if not head:
        return None
    if head != SQLITE_HEADER:
        return (f"--db {name}: not an SQLite database; refusing to overwrite it (name a new "
                "file or the server's database)")
    from shengji.server.storage import _SCHEMA

    ours = set(re.findall(r"CREATE TABLE IF NOT EXISTS (\w+)", _SCHEMA))
    try:
        others = sorted(_tables(path) - ours)
    except sqlite3.Error as error:
        return f"--db {name}: cannot read the SQLite database: {error}"
    if others:
        return (f"--db {name}: the SQLite database of another program (tables "
                f"{', '.join(others[:5])}{'...' if len(others) > 5 else ''}); refusing to "
                "change it")
    return None


def serve_main(args: argparse.Namespace) -> int:
    """Run ``shengji serve`` until interrupted."""
    import uvicorn

    from shengji.players.learned import check_shipped_models
    from shengji.server.app import create_app
    from shengji.server.limits import Settings

    refused = database_problem(args.db)
    damaged = check_shipped_models()  # the computer seats read them later, in their rooms
    if refused or damaged:
        print(f"shengji serve: {refused or damaged[0]}", file=sys.stderr)
        return 2
    settings = Settings(deal_pace=args.deal_pace, bot_delay=args.bot_delay, seed=args.seed,
                        max_message=args.max_message, rate=args.rate, burst=args.burst,
                        max_rooms=args.max_rooms, max_spectators=args.max_spectators,
                        idle_expiry=args.idle_expiry, host_grace=args.host_grace,
                        bot_time=args.bot_time, max_connections=args.max_connections,
                        max_member_connections=args.max_member_connections,
                        max_address_connections=args.max_address_connections,
                        max_address_pending=args.max_address_pending,
                        hello_timeout=args.hello_timeout, absent_grace=args.absent_grace,
                        room_creation=args.rooms_per_minute,
                        forwarded_allow_ips=forwarded_allow_ips(args))
    try:
        app = create_app(args.db, settings)
    except Exception as problem:  # e.g. a database that cannot be opened
        print(f"shengji serve: cannot open {args.db}: {problem}", file=sys.stderr)
        return 2
    # Rooms hold many small long-lived objects: full collections of a large heap stall every
    # room at once, so collect the young generation less often and freeze what start-up made.
    gc.set_threshold(50_000, 20, 100)
    gc.freeze()
    try:  # listen first, so that a port in use is one clear line, not a traceback
        family = socket.AF_INET6 if ":" in args.host else socket.AF_INET
        listener = socket.socket(family, socket.SOCK_STREAM)
        listener.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        listener.bind((args.host, args.port))
        listener.listen(2048)
    except OSError as problem:
        print(f"shengji serve: cannot listen on {args.host}:{args.port}: {problem.strerror}",
              file=sys.stderr)
        return 2
    port = listener.getsockname()[1]
    host = f"[{args.host}]" if ":" in args.host else args.host
    config = uvicorn.Config(app, log_level="warning", ws_ping_interval=20.0, proxy_headers=False,
                            ws_max_size=max(4 * args.max_message, 65536))
    if args.host in WILDCARDS:  # every address of this machine: name one friends can open
        host = "127.0.0.1" if args.host == "0.0.0.0" else "[::1]"
        lan = network_address()
        where = (f"; friends on your network open http://{lan}:{port}/" if lan else
                 f"; friends open this machine's network address, port {port}")
    else:
        where = ""
    print(f"shengji serve: open http://{host}:{port}/{where} (rooms in {args.db}; Ctrl-C "
          "stops)", flush=True)
    uvicorn.Server(config).run(sockets=[listener])
    return 0
