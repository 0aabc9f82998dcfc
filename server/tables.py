"""The games being played: each at a table, with its match, its seats and its watchers.

:class:`Tables` is the service's domain layer. It creates games, finds them (loading them from
the store when they are not in memory, and keeping at most ``capacity`` in memory), checks the
seat token, the etag and the request_id of every action, applies it to the engine's match, writes
its events in one transaction and wakes the watchers. An action is acknowledged only after its
transaction commits; if the write fails, the table is reloaded from the store, so memory never
runs ahead of what is stored.
"""

from __future__ import annotations

import hashlib
import hmac
import secrets
import threading
import time
from collections import OrderedDict
from collections.abc import Callable, Iterator
from dataclasses import dataclass, fields, replace
from typing import Any, Literal

from engine.dice import SeededDice
from engine.events import Event, Side, event_from_dict
from engine.game import MatchState, apply, new_match
from engine.match import Match
from engine.rules import RuleSet
from server.errors import BadRequest, GameNotFound, StaleEtag, WrongSeatToken
from server.store import Append, GameRecord, Store, StoreConflict

DiceMode = Literal["system", "seeded", "verifiable"]


@dataclass
class Table:
    """One game or match in memory."""

    record: GameRecord
    rules: RuleSet
    match: Match
    lock: threading.Condition

    @property
    def name(self) -> str:
        return self.record.name

    @property
    def etag(self) -> str:
        return str(self.match.version)

    def seat_of(self, token: str) -> Side:
        """The seat ``token`` belongs to.

        :raises WrongSeatToken: if it belongs to neither.
        """
        digest = _hash_token(token)
        for seat in (0, 1):
            if hmac.compare_digest(digest, self.record.token_hashes[seat]):
                return seat  # type: ignore[return-value]
        raise WrongSeatToken("that token holds no seat at this game")


Action = Callable[[Match, Side], object]
Snapshot = Callable[[Table], bytes]


class Tables:
    """Every game the server keeps, behind one lock per game."""

    def __init__(
        self,
        store: Store,
        *,
        capacity: int = 10_000,
        shared: bool = False,
        clock: Callable[[], float] = time.time,
    ) -> None:
        """``shared``: other processes act on the same store, so every read of a game first
        checks that no other process has extended its log (and reloads it if one has)."""
        self.store = store
        self.capacity = capacity
        self.shared = shared
        self.clock = clock
        self._tables: OrderedDict[str, Table] = OrderedDict()
        self._lock = threading.Lock()

    # --- creating and finding ------------------------------------------------------------

    def create(
        self, rules: RuleSet, *, dice_mode: DiceMode, dice_seed: str, request_id: str, answer: Callable[[Table, tuple[str, str]], bytes]
    ) -> bytes:
        """Create a game; returns ``answer(table, tokens)``, the serialized response, which a
        retry with the same ``request_id`` gets again.

        :raises BadRequest: for a seeded game without a seed.
        """
        if request_id:
            earlier = self.store.response("", request_id)
            if earlier is not None:
                return earlier
        if dice_mode == "seeded" and not dice_seed:
            raise BadRequest("seeded dice need a dice_seed")
        tokens = (secrets.token_urlsafe(24), secrets.token_urlsafe(24))
        now = self.clock()
        verifiable = dice_mode == "verifiable"
        match = Match(rules, dice=SeededDice(dice_seed) if dice_mode == "seeded" else None, verifiable=verifiable)
        seed = match.seed_in_play
        record = GameRecord(
            name=f"games/{secrets.token_hex(8)}",
            rules=rules_to_dict(rules),
            token_hashes=(_hash_token(tokens[0]), _hash_token(tokens[1])),
            dice_mode=dice_mode,
            # Seeded: the seed; verifiable: the secret seed of the game in play, kept to resume.
            dice_seed=dice_seed if dice_mode == "seeded" else seed.hex() if seed is not None else "",
            created=now,
            updated=now,
        )
        table = Table(record, rules, match, threading.Condition())
        response = answer(table, tokens)
        # A verifiable game's first event, the commitment to its seed, is stored with the game.
        self.store.create(record, [event.to_dict() for event in match.events], request_id, response)
        self._remember(table)
        return response

    def get(self, name: str) -> Table:
        """The table of game ``name``.

        :raises GameNotFound: if there is no such game.
        """
        with self._lock:
            table = self._tables.get(name)
            if table is not None:
                self._tables.move_to_end(name)
        if table is not None and not (self.shared and self.store.event_count(name) != table.match.version):
            return table
        return self._load(name)

    def list(self, page_size: int, after: tuple[float, str] | None) -> list[Table]:
        """A page of games, newest first, after the cursor ``(created, name)``."""
        return [self.get(record.name) for record in self.store.list(page_size, after)]

    # --- acting ----------------------------------------------------------------------------

    def act(self, name: str, token: str, etag: str, request_id: str, action: Action, answer: Snapshot) -> bytes:
        """Make ``action`` for the seat ``token`` holds; returns ``answer(table)``, serialized.

        :raises GameNotFound, WrongSeatToken, StaleEtag: as their names say.
        :raises ActionError: if the rules forbid the action now; nothing changes then.
        """
        table = self.get(name)
        with table.lock:
            seat = table.seat_of(token)
            if request_id:
                earlier = self.store.response(name, request_id)
                if earlier is not None:
                    return earlier
            if etag and etag != table.etag:
                raise StaleEtag(f"the game has moved on since etag {etag}; it is now at {table.etag}")
            first = table.match.version
            try:
                action(table.match, seat)
                # The answer shows this action's time, as GetGame will once it is stored.
                table.record = replace(table.record, updated=self.clock())
                response = answer(table)
                self._write(table, first, table.match.events[first:], request_id, response)
            except BaseException:
                if table.match.version != first:
                    # Memory went ahead of the store: the game is read again from the store.
                    self._forget(name)
                raise
            table.lock.notify_all()
            return response

    def _write(self, table: Table, first: int, events: list[Event], request_id: str, response: bytes) -> None:
        seed = table.match.seed_in_play
        append = Append(
            name=table.name,
            first_sequence=first,
            events=[event.to_dict() for event in events],
            updated=table.record.updated,
            dice_seed=seed.hex() if seed is not None else table.record.dice_seed,
            request_id=request_id,
            response=response,
        )
        try:
            self.store.append(append)
        except StoreConflict:
            raise StaleEtag("another action on this game came first; read it again") from None
        table.record = replace(table.record, updated=append.updated, dice_seed=append.dice_seed)

    # --- watching ----------------------------------------------------------------------------

    def watch(
        self, name: str, from_sequence: int, active: Callable[[], bool], *, poll: float = 0.5
    ) -> Iterator[tuple[int, Event, MatchState, Table]]:
        """Every event from ``from_sequence`` on, with the match state just after it, then the
        live ones as they come, until ``active()`` turns false."""
        table = self.get(name)
        state = new_match(table.rules)
        sequence = 0
        while active():
            with table.lock:
                events = table.match.events[sequence:]
                if not events:
                    table.lock.wait(poll)
            if not events:
                # The game may have been reloaded meanwhile (evicted, or moved on in another
                # process): follow the table now in use.
                table = self.get(name)
                continue
            for event in events:
                state = apply(state, event)
                if sequence >= from_sequence:
                    yield sequence, event, state, table
                sequence += 1

    # --- memory ------------------------------------------------------------------------------

    def _load(self, name: str) -> Table:
        loaded = self.store.load(name)
        if loaded is None:
            raise GameNotFound(f"there is no game {name!r}")
        record, stored_events = loaded
        rules = rules_from_dict(record.rules)
        verifiable = record.dice_mode == "verifiable"
        match = Match.replay(
            rules,
            [event_from_dict(event) for event in stored_events],
            dice=_dice_for(record),
            verifiable=verifiable,
            seed_in_play=bytes.fromhex(record.dice_seed) if verifiable and record.dice_seed else None,
        )
        table = Table(record, rules, match, threading.Condition())
        with self._lock:
            existing = self._tables.get(name)
            if existing is not None and existing.match.version >= table.match.version:
                return existing
        self._remember(table)
        return table

    def _remember(self, table: Table) -> None:
        with self._lock:
            self._tables[table.name] = table
            while len(self._tables) > self.capacity:
                self._tables.popitem(last=False)

    def _forget(self, name: str) -> None:
        with self._lock:
            self._tables.pop(name, None)

    def in_memory(self) -> int:
        with self._lock:
            return len(self._tables)


def rules_to_dict(rules: RuleSet) -> dict[str, Any]:
    return {field.name: getattr(rules, field.name) for field in fields(rules) if field.init}


def rules_from_dict(data: dict[str, Any]) -> RuleSet:
    return RuleSet(**data)


def _dice_for(record: GameRecord) -> SeededDice | None:
    # Seeded games derive every throw from the seed and the throw's index, so they resume exactly.
    return SeededDice(record.dice_seed) if record.dice_mode == "seeded" else None


def _hash_token(token: str) -> str:
    return hashlib.sha256(token.encode("utf-8")).hexdigest()
