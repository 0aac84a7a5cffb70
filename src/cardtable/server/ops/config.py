"""Settings of a table server, with defaults suited to a small public server."""

from __future__ import annotations

import dataclasses
from pathlib import Path

from ...bots.review import TABLE_DECISIONS
from ...settings import default_data_dir

__all__ = ["ServerConfig", "default_data_dir", "sqlite_url"]


def sqlite_url(data_dir: Path) -> str:
    return f"sqlite+aiosqlite:///{data_dir / 'cardtable.db'}"


@dataclasses.dataclass(frozen=True)
class ServerConfig:
    """Everything a server needs to know; ``db_url`` None means SQLite in ``data_dir``."""

    data_dir: Path = dataclasses.field(default_factory=default_data_dir)
    db_url: str | None = None
    #: This server's name in room leases (None: host name, process id and a random
    #: suffix, so a restarted process is a new node).
    node_id: str | None = None
    #: Seconds a room's lease lasts without renewal; it is renewed every third of it.
    #: A node that dies holds its rooms that long (see docs/operations.md).
    lease_seconds: float = 15.0
    #: Seconds the move writer waits, when it was idle, for more moves to commit with
    #: the first (see :class:`cardtable.server.storage.group_commit.MoveWriter`); ``cardtable
    #: serve`` waits 2 ms (``--commit-gather-ms``), the library commits at once.
    commit_gather_seconds: float = 0.0
    #: Upgrade a PostgreSQL schema older than this version's at start (``--migrate``);
    #: without it such a start is refused (see :mod:`cardtable.server.storage.schema`).
    migrate: bool = False
    #: Seconds a bot waits before moving, so people can follow.
    bot_pause: float = 0.6
    #: Worker processes for bot moves and hints, shared by every room (None: one per
    #: core; 0: ``bot_workers`` threads of the server process instead, and reviews in
    #: threads too). See :mod:`cardtable.server.rooms.bot_seats`.
    bot_processes: int | None = None
    #: Bot threads when ``bot_processes`` is 0.
    bot_workers: int = 2
    #: Seconds a bot's move or a hint may take in a worker before the worker is killed
    #: (a move is then retried once, then played by a simpler bot).
    bot_timeout: float = 20.0
    #: Seconds a post-game review may take in its worker.
    review_timeout: float = 600.0
    #: Thinking time of the move advisor for one ``hint`` (in the bot workers).
    hint_milliseconds: float = 300.0
    #: Post-game ``review`` (in workers of their own): the most decisions reviewed, spread
    #: over the game; the precise judge (:mod:`cardtable.sim.judge`) sets the re-deals of
    #: each. Counts, not times: a review of a game is the same every time. See
    #: docs/bots.md for what a review costs.
    review_decisions: int = TABLE_DECISIONS
    #: Reviews computed at once on the whole server, each in its own worker (one more
    #: is refused as busy).
    review_workers: int = 1
    #: The bot that plays for a human who has been away longer than ``grace_seconds``.
    away_bot: str = "greedy"
    grace_seconds: float = 60.0
    #: Largest WebSocket message accepted, in bytes (larger ones close with 1009).
    max_message_bytes: int = 16_384
    #: Token bucket per connection: ``rate_burst`` messages at once, ``rate_per_second`` after.
    rate_per_second: float = 10.0
    rate_burst: int = 40
    #: Live rooms one client address may have created.
    rooms_per_client: int = 20
    #: A room nobody is connected to expires after this many idle seconds.
    room_ttl_seconds: float = 3600.0
    sweep_seconds: float = 60.0
    #: Seconds a new WebSocket has to send its ``hello``, counted from when its room was
    #: found, whatever else it sends meanwhile (``--hello-seconds``).
    hello_timeout: float = 5.0
    #: Open WebSockets one client address may hold on this node (``--sockets-per-address``):
    #: a tab per room a player watches, a family or a classroom behind one address. One
    #: more is closed with 4029 ``too_many_sockets`` (docs/protocol.md, "Limits").
    sockets_per_address: int = 100
    #: Open WebSockets on this node (``--max-sockets``), under the process's open-file
    #: limit (``ulimit -n``) less the database pool and the workers: one more is closed
    #: with 1013 ``server_full``, so a client tries again later (another node, behind a
    #: proxy).
    max_sockets: int = 5000
    #: Browser origins allowed to open WebSockets besides the server's own host.
    allowed_origins: tuple[str, ...] = ()
    #: Host names the table answers to (the ``Host`` header), against DNS rebinding; an
    #: address (``127.0.0.1``, ``[::1]``) is always answered, ``*`` answers any name.
    #: ``cardtable serve`` adds the name it listens on (see :mod:`cardtable.server.edges.guard`).
    allowed_hosts: tuple[str, ...] = ("localhost",)
    #: Room code look-ups that find nothing, per client address: ``lookup_burst`` at
    #: once, then one every ``lookup_miss_seconds`` (see :mod:`cardtable.server.ops.limits`).
    lookup_burst: int = 20
    lookup_miss_seconds: float = 60.0
    #: On PostgreSQL (a cluster), the look-ups that find nothing one address may make on
    #: all the nodes together in ``lookup_window`` seconds, counted in the database (see
    #: :mod:`cardtable.server.edges.lookups`): the per-node limit would let N nodes allow N times
    #: as many.
    lookup_cluster_misses: int = 35
    lookup_window: float = 900.0
    #: Accounts (see docs/players.md): how long a session lasts, and the sign-in limits:
    #: failed attempts per address and per name in ``signin_window`` seconds.
    session_days: float = 30.0
    signin_window: float = 900.0
    signin_per_address: int = 30
    signin_per_name: int = 10
    #: Every sign-in per address (successes too) and successful sign-ins per account
    #: per ``signin_window``: sessions cost a password hash each and pile up.
    signins_per_address: int = 60
    signins_per_account: int = 20
    #: Live sessions one account keeps (the oldest ends when a new one opens), and the
    #: browsers it remembers as its own (docs/players.md, "Sign-in limits").
    sessions_per_account: int = 10
    browsers_per_account: int = 20
    #: Accounts registered per address per ``signin_window``.
    register_per_address: int = 5
    #: Per address, the account requests that read a session (who am I, sign out,
    #: claim, delete): ``session_reads_burst`` at once, then ``session_reads_per_second``.
    session_reads_burst: int = 60
    session_reads_per_second: float = 2.0
    #: The Argon2id cost of a password (see :mod:`cardtable.server.players.passwords`; the tests
    #: make it cheap): memory in KiB and passes.
    password_memory_kib: int = 65_536
    password_time_cost: int = 3
    #: Messages queued for one slow connection before it is dropped.
    send_queue_size: int = 1000
    #: Joins of a seat per address: ``joins_burst`` at once, then ``joins_per_second``.
    joins_burst: int = 10
    joins_per_second: float = 0.2
    #: Seats of public tables waiting for their game that one address may hold at once
    #: on a node (a private table, joined by its link, does not count).
    public_seats_per_address: int = 4

    def database_url(self) -> str:
        return self.db_url if self.db_url is not None else sqlite_url(self.data_dir)

    def uses_sqlite(self) -> bool:
        return self.database_url().startswith("sqlite")
