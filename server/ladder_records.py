"""The ladder's records in SQL: accounts and the hashes of their keys, each account's events,
challenges, the games the ladder started, and ratings with their history.

Written once for SQLite and PostgreSQL, as :mod:`tavli.server.sql_store` writes the games'
records (whose :class:`~tavli.server.sql_store.SqlStore` takes these methods in): the tables are
part of its schema and the statements are formatted by its dialect. Every change is one
transaction, and an account is told of it (an event appended to its log) in that same
transaction, so that nothing a stream would send can be lost between the change and the telling.
An account's events are numbered 1, 2, 3... with no gap: the account's row counts them, and
appending one takes the row's lock, so two writers never give out one number twice.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Mapping, Sequence
from contextlib import AbstractContextManager
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from tavli.engine.glicko2 import Rating, Result, rate

if TYPE_CHECKING:
    from tavli.server.sql_store import Cursor

LADDER_TABLES = {
    # An account: its handle, the name it shows, whether a bot, whether on the ladder, when a stream
    # of its was last seen open, and its events' count.
    "accounts": """
        CREATE TABLE IF NOT EXISTS accounts (
            handle TEXT NOT NULL PRIMARY KEY,
            display_name TEXT NOT NULL,
            kind TEXT NOT NULL,
            ladder_member INTEGER NOT NULL DEFAULT 0,
            created DOUBLE PRECISION NOT NULL,
            seen DOUBLE PRECISION NOT NULL DEFAULT 0,
            event_count BIGINT NOT NULL DEFAULT 0
        )""",
    # The keyed hash of each API key (never the key), and when it was revoked (NULL: in force).
    "api_keys": """
        CREATE TABLE IF NOT EXISTS api_keys (
            key_hash TEXT NOT NULL PRIMARY KEY,
            handle TEXT NOT NULL REFERENCES accounts (handle),
            created DOUBLE PRECISION NOT NULL,
            revoked DOUBLE PRECISION
        ){without_rowid}""",
    # Each account's events, numbered from 1, as the LadderEvent messages they are sent as.
    "account_events": """
        CREATE TABLE IF NOT EXISTS account_events (
            handle TEXT NOT NULL REFERENCES accounts (handle),
            event_id BIGINT NOT NULL,
            at DOUBLE PRECISION NOT NULL,
            event {bytes} NOT NULL,
            PRIMARY KEY (handle, event_id)
        ){without_rowid}""",
    # Challenges and open seeks (no opponent), with where each stands.
    "challenges": """
        CREATE TABLE IF NOT EXISTS challenges (
            name TEXT NOT NULL PRIMARY KEY,
            challenger TEXT NOT NULL REFERENCES accounts (handle),
            opponent TEXT NOT NULL,
            rules TEXT NOT NULL,
            rated INTEGER NOT NULL,
            state TEXT NOT NULL,
            decline_reason INTEGER NOT NULL DEFAULT 0,
            created DOUBLE PRECISION NOT NULL,
            expires DOUBLE PRECISION NOT NULL,
            game TEXT NOT NULL DEFAULT ''
        )""",
    # The games the ladder started (by a challenge or by pairing), whose seats are accounts'.
    "ladder_games": """
        CREATE TABLE IF NOT EXISTS ladder_games (
            game TEXT NOT NULL PRIMARY KEY,
            seat0 TEXT NOT NULL REFERENCES accounts (handle),
            seat1 TEXT NOT NULL REFERENCES accounts (handle),
            variant TEXT NOT NULL,
            rated INTEGER NOT NULL,
            challenge TEXT NOT NULL DEFAULT '',
            started DOUBLE PRECISION NOT NULL,
            ended DOUBLE PRECISION,
            how TEXT NOT NULL DEFAULT '',
            winner INTEGER NOT NULL DEFAULT -1
        )""",
    # Each event stream open now, on any process or replica, with when it was last seen open: an
    # account is online while one of its streams is seen within a few heartbeats. A stream's row is
    # removed when it closes; a process killed leaves its rows, which stop counting as they age.
    "account_streams": """
        CREATE TABLE IF NOT EXISTS account_streams (
            stream TEXT NOT NULL PRIMARY KEY,
            handle TEXT NOT NULL REFERENCES accounts (handle),
            seen DOUBLE PRECISION NOT NULL
        ){without_rowid}""",
    # Each account's Glicko-2 rating per variant.
    "ratings": """
        CREATE TABLE IF NOT EXISTS ratings (
            handle TEXT NOT NULL REFERENCES accounts (handle),
            variant TEXT NOT NULL,
            rating DOUBLE PRECISION NOT NULL,
            deviation DOUBLE PRECISION NOT NULL,
            volatility DOUBLE PRECISION NOT NULL,
            games BIGINT NOT NULL,
            PRIMARY KEY (handle, variant)
        ){without_rowid}""",
    # The rating each rated match left each of its accounts with.
    "rating_history": """
        CREATE TABLE IF NOT EXISTS rating_history (
            handle TEXT NOT NULL REFERENCES accounts (handle),
            game TEXT NOT NULL,
            variant TEXT NOT NULL,
            rating DOUBLE PRECISION NOT NULL,
            deviation DOUBLE PRECISION NOT NULL,
            at DOUBLE PRECISION NOT NULL,
            opponent TEXT NOT NULL,
            won INTEGER NOT NULL,
            PRIMARY KEY (handle, game)
        ){without_rowid}""",
}
"""Each ladder table's definition, a table after those it refers to."""

LADDER_INDEXES = {
    "api_keys": ("CREATE INDEX IF NOT EXISTS api_keys_by_account ON api_keys (handle)",),
    "challenges": (
        "CREATE INDEX IF NOT EXISTS challenges_open ON challenges (state, expires)",
        "CREATE INDEX IF NOT EXISTS challenges_by_challenger ON challenges (challenger, state)",
    ),
    "ladder_games": (
        "CREATE INDEX IF NOT EXISTS ladder_games_of_seat0 ON ladder_games (seat0, started)",
        "CREATE INDEX IF NOT EXISTS ladder_games_of_seat1 ON ladder_games (seat1, started)",
    ),
    "account_streams": (
        "CREATE INDEX IF NOT EXISTS account_streams_by_account ON account_streams (handle, seen)",
        "CREATE INDEX IF NOT EXISTS account_streams_by_age ON account_streams (seen)",
    ),
    "ratings": ("CREATE INDEX IF NOT EXISTS ratings_by_rating ON ratings (variant, rating DESC)",),
    "rating_history": ("CREATE INDEX IF NOT EXISTS rating_history_by_time ON rating_history (handle, at)",),
}

OPEN = "open"
"""The state of a challenge waiting for an answer (the others: accepted, declined, cancelled, expired)."""

_ACCOUNT_COLUMNS = "handle, display_name, kind, ladder_member, created, seen"
_CHALLENGE_COLUMNS = "name, challenger, opponent, rules, rated, state, decline_reason, created, expires, game"
_GAME_COLUMNS = "game, seat0, seat1, variant, rated, challenge, started, ended, how, winner"

LADDER_STATEMENTS = {
    "add account": (
        "INSERT INTO accounts (handle, display_name, kind, ladder_member, created) VALUES (?, ?, ?, 0, ?)"
        " ON CONFLICT (handle) DO NOTHING"
    ),
    "account": f"SELECT {_ACCOUNT_COLUMNS} FROM accounts WHERE handle = ?",
    "accounts": f"SELECT {_ACCOUNT_COLUMNS} FROM accounts ORDER BY handle",
    "add key": "INSERT INTO api_keys (key_hash, handle, created) VALUES (?, ?, ?)",
    "account of key": (
        "SELECT a.handle, a.display_name, a.kind, a.ladder_member, a.created, a.seen FROM api_keys k"
        " JOIN accounts a ON a.handle = k.handle WHERE k.key_hash = ? AND k.revoked IS NULL"
    ),
    "revoke keys": "UPDATE api_keys SET revoked = ? WHERE handle = ? AND revoked IS NULL",
    "set member": "UPDATE accounts SET ladder_member = ? WHERE handle = ?",
    "see account": "UPDATE accounts SET seen = ? WHERE handle = ?",
    "open stream": "INSERT INTO account_streams (stream, handle, seen) VALUES (?, ?, ?)",
    "see stream": "UPDATE account_streams SET seen = ? WHERE stream = ?",
    "close stream": "DELETE FROM account_streams WHERE stream = ?",
    "forget streams": "DELETE FROM account_streams WHERE seen < ?",
    "online accounts": (
        "SELECT a.handle, a.display_name, a.kind, a.ladder_member, r.rating, r.deviation, r.games"
        " FROM accounts a LEFT JOIN ratings r ON r.handle = a.handle AND r.variant = ?"
        " WHERE a.handle > ? AND EXISTS"
        " (SELECT 1 FROM account_streams s WHERE s.handle = a.handle AND s.seen >= ?)"
        " ORDER BY a.handle LIMIT ?"
    ),
    "members": (f"SELECT {_ACCOUNT_COLUMNS} FROM accounts WHERE ladder_member = 1 ORDER BY handle"),
    # Takes the account's row (and its lock) for the event's number.
    "count event": "UPDATE accounts SET event_count = event_count + 1 WHERE handle = ? RETURNING event_count",
    "add account event": "INSERT INTO account_events (handle, event_id, at, event) VALUES (?, ?, ?, ?)",
    "events after": (
        "SELECT event_id, at, event FROM account_events WHERE handle = ? AND event_id > ?"
        " ORDER BY event_id LIMIT ?"
    ),
    "account event count": "SELECT event_count FROM accounts WHERE handle = ?",
    "add challenge": f"INSERT INTO challenges ({_CHALLENGE_COLUMNS}) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
    "challenge": f"SELECT {_CHALLENGE_COLUMNS} FROM challenges WHERE name = ?",
    "close challenge": (
        "UPDATE challenges SET state = ?, decline_reason = ?, game = ? WHERE name = ? AND state = 'open'"
    ),
    "open challenges": (
        f"SELECT {_CHALLENGE_COLUMNS} FROM challenges WHERE state = 'open' AND expires > ?"
        " AND (challenger = ? OR opponent = ? OR opponent = '') ORDER BY created, name LIMIT ?"
    ),
    "open challenges of": (
        "SELECT count(*) FROM challenges WHERE challenger = ? AND state = 'open' AND expires > ?"
    ),
    "expired challenges": (
        f"SELECT {_CHALLENGE_COLUMNS} FROM challenges WHERE state = 'open' AND expires <= ?"
        " ORDER BY expires LIMIT ?"
    ),
    "add ladder game": (
        f"INSERT INTO ladder_games ({_GAME_COLUMNS}) VALUES (?, ?, ?, ?, ?, ?, ?, NULL, '', -1)"
    ),
    "ladder game": f"SELECT {_GAME_COLUMNS} FROM ladder_games WHERE game = ?",
    "games in progress": (
        f"SELECT {_GAME_COLUMNS} FROM ladder_games WHERE ended IS NULL AND (seat0 = ? OR seat1 = ?)"
        " ORDER BY started"
    ),
    "count in progress": "SELECT count(*) FROM ladder_games WHERE ended IS NULL AND (seat0 = ? OR seat1 = ?)",
    "all games in progress": (
        f"SELECT {_GAME_COLUMNS} FROM ladder_games WHERE ended IS NULL ORDER BY started LIMIT ?"
    ),
    "games since": "SELECT count(*) FROM ladder_games WHERE (seat0 = ? OR seat1 = ?) AND started >= ?",
    "end ladder game": (
        "UPDATE ladder_games SET ended = ?, how = ?, winner = ? WHERE game = ? AND ended IS NULL"
    ),
    "lock account": "SELECT 1 FROM accounts WHERE handle = ?{row_lock}",
    "rating": "SELECT rating, deviation, volatility, games FROM ratings WHERE handle = ? AND variant = ?",
    "keep rating": (
        "INSERT INTO ratings (handle, variant, rating, deviation, volatility, games)"
        " VALUES (?, ?, ?, ?, ?, ?)"
        " ON CONFLICT (handle, variant) DO UPDATE SET rating = excluded.rating,"
        " deviation = excluded.deviation, volatility = excluded.volatility, games = excluded.games"
    ),
    "add history": (
        "INSERT INTO rating_history (handle, game, variant, rating, deviation, at, opponent, won)"
        " VALUES (?, ?, ?, ?, ?, ?, ?, ?)"
    ),
    "leaderboard": (
        "SELECT a.handle, a.display_name, r.rating, r.deviation, r.games FROM ratings r"
        " JOIN accounts a ON a.handle = r.handle WHERE r.variant = ? AND a.kind = ?"
        " ORDER BY r.rating DESC, a.handle LIMIT ? OFFSET ?"
    ),
    "history": (
        "SELECT game, rating, deviation, at, opponent, won FROM rating_history"
        " WHERE handle = ? AND variant = ? ORDER BY at DESC, game LIMIT ?"
    ),
}


@dataclass(frozen=True)
class AccountRecord:
    """An account as stored; ``kind`` is "bot" or "human"."""

    handle: str
    display_name: str
    kind: str
    ladder_member: bool
    created: float
    seen: float = 0.0  # when a stream of the account's was last seen open (0: never)

    @classmethod
    def of_row(cls, row: Sequence[Any]) -> AccountRecord:
        handle, display_name, kind, member, created, seen = row
        return cls(handle, display_name, kind, bool(member), float(created), float(seen))


@dataclass(frozen=True)
class ChallengeRecord:
    """A challenge as stored: ``opponent`` "" for an open seek, ``rules`` the rule set's dict."""

    name: str
    challenger: str
    opponent: str
    rules: str
    rated: bool
    state: str
    decline_reason: int
    created: float
    expires: float
    game: str = ""

    @classmethod
    def of_row(cls, row: Sequence[Any]) -> ChallengeRecord:
        name, challenger, opponent, rules, rated, state, reason, created, expires, game = row
        return cls(name, challenger, opponent, rules, bool(rated), state, int(reason), created, expires, game)

    def row(self) -> tuple[Any, ...]:
        return (
            self.name,
            self.challenger,
            self.opponent,
            self.rules,
            int(self.rated),
            self.state,
            self.decline_reason,
            self.created,
            self.expires,
            self.game,
        )


@dataclass(frozen=True)
class LadderGameRecord:
    """A game the ladder started: the accounts at its seats; ``ended`` None while it is played,
    ``winner`` the winning seat (-1: none, an aborted game)."""

    game: str
    seats: tuple[str, str]
    variant: str
    rated: bool
    challenge: str
    started: float
    ended: float | None = None
    how: str = ""
    winner: int = -1

    @classmethod
    def of_row(cls, row: Sequence[Any]) -> LadderGameRecord:
        game, seat0, seat1, variant, rated, challenge, started, ended, how, winner = row
        return cls(game, (seat0, seat1), variant, bool(rated), challenge, started, ended, how, int(winner))

    def seat_of(self, handle: str) -> int | None:
        """The seat ``handle`` plays, or None."""
        return self.seats.index(handle) if handle in self.seats else None


@dataclass(frozen=True)
class StoredEvent:
    """One of an account's events: its number, when, and the LadderEvent's bytes (without either)."""

    event_id: int
    at: float
    event: bytes


@dataclass(frozen=True)
class OnlineAccount:
    """An account with an event stream open now, and its rating in the variant asked about."""

    handle: str
    display_name: str
    kind: str
    ladder_member: bool
    rating: Rating
    games: int


@dataclass(frozen=True)
class Standing:
    """One account's place on a leaderboard."""

    handle: str
    display_name: str
    rating: float
    deviation: float
    games: int


@dataclass(frozen=True)
class RatedMatch:
    """A rating an account's rated match left it with."""

    game: str
    rating: float
    deviation: float
    at: float
    opponent: str
    won: bool


Tell = tuple[str, bytes]
"""An event for an account: its handle and the LadderEvent's bytes."""

TellAfterRating = Callable[[int, Rating | None], bytes]
"""The event of a game's end for the account at a seat, given its rating after (None: not rated)."""


class HandleTaken(Exception):
    """An account with that handle exists already."""


class LadderRecords:
    """The ladder's part of a SQL store (see the module's words)."""

    _sql: dict[str, str]

    def _writing(self) -> AbstractContextManager[Cursor]:
        raise NotImplementedError

    def _reading(self) -> AbstractContextManager[Cursor]:
        raise NotImplementedError

    def _reading_one(self) -> AbstractContextManager[Cursor]:
        """A cursor for one read statement, which sees every write committed before it: a read
        transaction of its own, unless the driver can send the statement alone."""
        return self._reading()

    def _written(self, cursor: Cursor, name: str, event_count: int) -> None:
        raise NotImplementedError

    # --- accounts and keys ---------------------------------------------------------------------

    def add_account(self, account: AccountRecord, key_hash: str) -> None:
        """Store a new account with its first key.

        :raises HandleTaken: if the handle is taken.
        """
        with self._writing() as cursor:
            added = cursor.execute(
                self._sql["add account"],
                (account.handle, account.display_name, account.kind, account.created),
            )
            if added.rowcount != 1:
                raise HandleTaken(account.handle)
            cursor.execute(self._sql["add key"], (key_hash, account.handle, account.created))

    def add_api_key(self, handle: str, key_hash: str, now: float) -> None:
        with self._writing() as cursor:
            cursor.execute(self._sql["add key"], (key_hash, handle, now))

    def revoke_api_keys(self, handle: str, now: float) -> int:
        """Revoke every key of ``handle`` in force; returns how many."""
        with self._writing() as cursor:
            return int(cursor.execute(self._sql["revoke keys"], (now, handle)).rowcount)

    def account(self, handle: str) -> AccountRecord | None:
        row = self._read_one("account", (handle,))
        return None if row is None else AccountRecord.of_row(row)

    def accounts(self) -> list[AccountRecord]:
        return [AccountRecord.of_row(row) for row in self._ladder_read_all("accounts", ())]

    def account_of_key(self, key_hash: str) -> AccountRecord | None:
        """The account whose key in force hashes to ``key_hash``."""
        row = self._read_one("account of key", (key_hash,))
        return None if row is None else AccountRecord.of_row(row)

    def set_ladder_member(self, handle: str, member: bool) -> None:
        with self._writing() as cursor:
            cursor.execute(self._sql["set member"], (int(member), handle))

    # --- presence -----------------------------------------------------------------------------

    def open_stream(self, stream: str, handle: str, now: float) -> None:
        """Note that ``handle``'s event stream ``stream`` (a name no other stream has) opened at ``now``."""
        with self._writing() as cursor:
            cursor.execute(self._sql["open stream"], (stream, handle, now))
            cursor.execute(self._sql["see account"], (now, handle))

    def see_streams(self, streams: Mapping[str, str], now: float, *, forget_before: float) -> None:
        """Note that each of ``streams`` (a stream's name to its account's handle) is open at
        ``now``, and remove the streams of any process last seen before ``forget_before`` (their
        process is gone), in one transaction."""
        with self._writing() as cursor:
            cursor.executemany(self._sql["see stream"], [(now, stream) for stream in sorted(streams)])
            handles = sorted(set(streams.values()))
            cursor.executemany(self._sql["see account"], [(now, handle) for handle in handles])
            cursor.execute(self._sql["forget streams"], (forget_before,))

    def close_stream(self, stream: str, handle: str, now: float) -> None:
        """Note that ``handle``'s stream ``stream`` closed at ``now``: the grace period of the
        account's games counts from here."""
        with self._writing() as cursor:
            cursor.execute(self._sql["close stream"], (stream,))
            cursor.execute(self._sql["see account"], (now, handle))

    def online_accounts(self, variant: str, after: str, since: float, most: int) -> list[OnlineAccount]:
        """The accounts with a stream seen open since ``since``, by handle from the one after
        ``after``, at most ``most``, each with its rating in ``variant`` (a new one for none)."""
        rows = self._ladder_read_all("online accounts", (variant, after, since, most))
        return [
            OnlineAccount(
                handle,
                name,
                kind,
                bool(member),
                Rating() if rating is None else Rating(rating, deviation),
                int(games or 0),
            )
            for handle, name, kind, member, rating, deviation, games in rows
        ]

    def ladder_members(self) -> list[AccountRecord]:
        return [AccountRecord.of_row(row) for row in self._ladder_read_all("members", ())]

    # --- events --------------------------------------------------------------------------------

    def tell(self, tells: Sequence[Tell], at: float) -> None:
        """Append each event to its account's log, in one transaction."""
        with self._writing() as cursor:
            self._tell(cursor, tells, at)

    def events_after(self, handle: str, after: int, most: int) -> list[StoredEvent]:
        rows = self._ladder_read_all("events after", (handle, after, most))
        return [StoredEvent(int(event_id), at, bytes(event)) for event_id, at, event in rows]

    def account_event_count(self, handle: str) -> int:
        row = self._read_one("account event count", (handle,))
        return 0 if row is None else int(row[0])

    # --- challenges ----------------------------------------------------------------------------

    def add_challenge(self, challenge: ChallengeRecord, tells: Sequence[Tell], *, most_open: int) -> bool:
        """Store ``challenge`` and tell ``tells``, unless its challenger has ``most_open`` open
        challenges and seeks already (False then, nothing stored). The challenger's row is locked
        first, so that two challenges made at once, by any processes, are counted one after the other."""
        with self._writing() as cursor:
            cursor.execute(self._sql["lock account"], (challenge.challenger,))
            counted = (challenge.challenger, challenge.created)
            (open_now,) = cursor.execute(self._sql["open challenges of"], counted).fetchone()
            if open_now >= most_open:
                return False
            cursor.execute(self._sql["add challenge"], challenge.row())
            self._tell(cursor, tells, challenge.created)
        return True

    def challenge(self, name: str) -> ChallengeRecord | None:
        row = self._read_one("challenge", (name,))
        return None if row is None else ChallengeRecord.of_row(row)

    def open_challenges(self, handle: str, now: float, most: int) -> list[ChallengeRecord]:
        rows = self._ladder_read_all("open challenges", (now, handle, handle, most))
        return [ChallengeRecord.of_row(row) for row in rows]

    def expired_challenges(self, now: float, most: int) -> list[ChallengeRecord]:
        rows = self._ladder_read_all("expired challenges", (now, most))
        return [ChallengeRecord.of_row(row) for row in rows]

    def close_challenge(
        self,
        name: str,
        state: str,
        tells: Sequence[Tell],
        at: float,
        *,
        decline_reason: int = 0,
        game: LadderGameRecord | None = None,
    ) -> bool:
        """Close the open challenge ``name`` as ``state`` (and store the ``game`` it starts),
        telling ``tells``; False, with nothing changed, if it was not open any more."""
        with self._writing() as cursor:
            closed = (state, decline_reason, "" if game is None else game.game, name)
            if cursor.execute(self._sql["close challenge"], closed).rowcount != 1:
                return False
            if game is not None:
                self._add_ladder_game(cursor, game)
            self._tell(cursor, tells, at)
        return True

    # --- games ---------------------------------------------------------------------------------

    def add_ladder_game(self, game: LadderGameRecord, *, most_at_once: int | None = None) -> bool:
        """Store ``game``; with ``most_at_once``, only if neither account plays that many games
        already (False then, nothing stored). The accounts' rows are locked first, so that two
        processes pairing at once never start more games for an account than it may have."""
        with self._writing() as cursor:
            if most_at_once is not None:
                for handle in sorted(game.seats):
                    cursor.execute(self._sql["lock account"], (handle,))
                for handle in game.seats:
                    (playing,) = cursor.execute(self._sql["count in progress"], (handle, handle)).fetchone()
                    if playing >= most_at_once:
                        return False
            self._add_ladder_game(cursor, game)
        return True

    def ladder_game(self, game: str) -> LadderGameRecord | None:
        row = self._read_one("ladder game", (game,))
        return None if row is None else LadderGameRecord.of_row(row)

    def games_in_progress(self, handle: str | None = None, most: int = 1000) -> list[LadderGameRecord]:
        """The ladder games of ``handle`` (of everyone: None) not ended yet, oldest first."""
        if handle is None:
            rows = self._ladder_read_all("all games in progress", (most,))
        else:
            rows = self._ladder_read_all("games in progress", (handle, handle))
        return [LadderGameRecord.of_row(row) for row in rows]

    def games_since(self, handle: str, since: float) -> int:
        """How many ladder games ``handle`` has started since ``since``."""
        return int(self._read_one("games since", (handle, handle, since))[0])

    def end_ladder_game(
        self, game: LadderGameRecord, how: str, winner: int, at: float, tell: TellAfterRating
    ) -> bool:
        """Record that ``game`` ended (``winner`` -1: nobody won), rate it if it is rated and won,
        and tell both accounts (``tell`` makes each one's event); False, with nothing changed, if
        its end was recorded first (by this process or another)."""
        with self._writing() as cursor:
            ended = (at, how, winner, game.game)
            if cursor.execute(self._sql["end ladder game"], ended).rowcount != 1:
                return False
            after: list[Rating | None] = [None, None]
            if game.rated and winner >= 0:
                after = list(self._rate(cursor, game, winner, at))
            self._tell(cursor, [(game.seats[seat], tell(seat, after[seat])) for seat in (0, 1)], at)
        return True

    # --- ratings -------------------------------------------------------------------------------

    def rating(self, handle: str, variant: str) -> tuple[Rating, int]:
        """``handle``'s rating in ``variant`` and its rated matches (a new one for none)."""
        with self._reading() as cursor:
            return self._rating(cursor, handle, variant)

    def leaderboard(self, variant: str, kind: str, most: int, offset: int) -> list[Standing]:
        rows = self._ladder_read_all("leaderboard", (variant, kind, most, offset))
        return [
            Standing(handle, name, rating, deviation, int(games))
            for handle, name, rating, deviation, games in rows
        ]

    def rating_history(self, handle: str, variant: str, most: int) -> list[RatedMatch]:
        rows = self._ladder_read_all("history", (handle, variant, most))
        return [
            RatedMatch(game, rating, deviation, at, opponent, bool(won))
            for game, rating, deviation, at, opponent, won in rows
        ]

    # --- the machinery -------------------------------------------------------------------------

    def _rate(self, cursor: Cursor, game: LadderGameRecord, winner: int, at: float) -> Iterator[Rating]:
        """Each seat's rating after the rated ``game`` that ``winner`` won, kept with its history."""
        # The accounts' rows are locked first, in one order, so that two games of one account ending
        # at once are rated one after the other (and never wait on each other's rows).
        for handle in sorted(game.seats):
            cursor.execute(self._sql["lock account"], (handle,))
        before = {handle: self._rating(cursor, handle, game.variant) for handle in game.seats}
        for seat in (0, 1):
            handle, opponent = game.seats[seat], game.seats[1 - seat]
            (rating, games), (opponent_rating, _) = before[handle], before[opponent]
            won = seat == winner
            after = rate(rating, [Result(opponent_rating, 1.0 if won else 0.0)])
            cursor.execute(
                self._sql["keep rating"],
                (handle, game.variant, after.rating, after.deviation, after.volatility, games + 1),
            )
            cursor.execute(
                self._sql["add history"],
                (handle, game.game, game.variant, after.rating, after.deviation, at, opponent, int(won)),
            )
            yield after

    def _rating(self, cursor: Cursor, handle: str, variant: str) -> tuple[Rating, int]:
        row = cursor.execute(self._sql["rating"], (handle, variant)).fetchone()
        if row is None:
            return Rating(), 0
        rating, deviation, volatility, games = row
        return Rating(rating, deviation, volatility), int(games)

    def _add_ladder_game(self, cursor: Cursor, game: LadderGameRecord) -> None:
        cursor.execute(
            self._sql["add ladder game"],
            (game.game, *game.seats, game.variant, int(game.rated), game.challenge, game.started),
        )

    def _tell(self, cursor: Cursor, tells: Sequence[Tell], at: float) -> None:
        for handle, event in tells:
            (event_id,) = cursor.execute(self._sql["count event"], (handle,)).fetchone()
            cursor.execute(self._sql["add account event"], (handle, event_id, at, event))
            self._written(cursor, account_name(handle), int(event_id))

    def _read_one(self, purpose: str, parameters: Sequence[Any]) -> Any:
        with self._reading_one() as cursor:
            return cursor.execute(self._sql[purpose], parameters).fetchone()

    def _ladder_read_all(self, purpose: str, parameters: Sequence[Any]) -> list[Any]:
        with self._reading() as cursor:
            return list(cursor.execute(self._sql[purpose], parameters).fetchall())


def account_name(handle: str) -> str:
    """The resource name of the account ``handle``: "accounts/{handle}"."""
    return f"accounts/{handle}"
