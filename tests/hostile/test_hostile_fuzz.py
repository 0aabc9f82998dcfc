"""A fuzzer over every RPC of RulesService and GamesService, against `tavli serve` as a process.

Requests are built by hypothesis from the services' own descriptors: every field of every request
message, nested messages and oneofs included, set or not, to random values or to near-valid ones
(the names, seat tokens, etags and legal plays of real games being played meanwhile), to text of a
few hundred KB, to enum numbers the API does not define, to page tokens forged every way (deeply
nested JSON in base64, 10^30 timestamps, negative numbers, what is not JSON at all), to plays like
``24/23(111...)`` with a 5,000-digit count and XGIDs with a 5,000-digit field, and to request_ids
drawn from a small pool so that they are reused across methods, seats and bodies.

What must hold, for each of more than 10,000 requests: no answer is INTERNAL or UNKNOWN (nor
UNAVAILABLE, nor a unary call left hanging), every refusal carries a google.rpc.ErrorInfo of domain
"tavli" and says why in words, and a refused action leaves its game exactly as it was (GetGame
before and after). After the run the server's log holds no traceback and the server still serves.
"""

from __future__ import annotations

import base64
import functools
import os
import random
import re
import time
from collections import Counter
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import grpc
from google.protobuf import message_factory
from google.protobuf.descriptor import Descriptor, FieldDescriptor, MethodDescriptor
from grpc_health.v1 import health_pb2, health_pb2_grpc
from hypothesis import HealthCheck, Phase, given, settings, strategies as st

from tavli.clients.client import Seat, TavliClient
from tavli.v1 import (
    board_pb2,
    games_service_pb2 as games_pb2,
    games_service_pb2_grpc,
    rules_service_pb2 as rules_pb2,
    rules_service_pb2_grpc,
)
from tests.hostile.campaign import (
    SERVER_FAULTS,
    Figures,
    figures_fixture,  # noqa: F401 - the fixture `figures`
    random_action,
    refusal_of,
    serve,
    stop,
    tracebacks,
)
from tests.server_play import RPC_TIMEOUT
from tests.supervision import log_lines

EXAMPLES = int(os.environ.get("TAVLI_FUZZ_EXAMPLES", "1450"))
REQUESTS_PER_EXAMPLE = (7, 8)
LEAST_REQUESTS = 10_000
WATCH_SECONDS = 0.05  # a fuzzed watch is read this long, then hung up on

GAMES_SERVICE = games_pb2.DESCRIPTOR.services_by_name["GamesService"]
RULES_SERVICE = rules_pb2.DESCRIPTOR.services_by_name["RulesService"]
ACTIONS = frozenset(
    {
        "RollDice",
        "PlayMove",
        "OfferDouble",
        "TakeDouble",
        "DropDouble",
        "BeaverDouble",
        "OfferResignation",
        "AcceptResignation",
        "RejectResignation",
        "OfferRematch",
        "AcceptRematch",
    }
)
# Refusals a client may get for what it sent; every other code is the server's fault.
CLIENT_CODES = frozenset(
    {
        grpc.StatusCode.INVALID_ARGUMENT,
        grpc.StatusCode.FAILED_PRECONDITION,
        grpc.StatusCode.NOT_FOUND,
        grpc.StatusCode.PERMISSION_DENIED,
        grpc.StatusCode.ABORTED,
        grpc.StatusCode.RESOURCE_EXHAUSTED,
        grpc.StatusCode.OUT_OF_RANGE,
    }
)

START_ID = "4HPwATDgc/ABMA"
XGID = "XGID=-b----E-C---eE---c-e----B-:0:0:1:00:0:0:0:0:10"
FIVE_THOUSAND = "1" * 5000


def _b64(raw: bytes) -> str:
    return base64.urlsafe_b64encode(raw).decode()


def _xgid_with_a_long_field(number: int) -> str:
    parts = XGID.removeprefix("XGID=").split(":")
    parts[number] = FIVE_THOUSAND
    return "XGID=" + ":".join(parts)


FORGED_PAGE_TOKENS = [
    _b64(b"[" * 100_000),
    _b64(b'{"a":' * 20_000 + b"1" + b"}" * 20_000),
    _b64(b'{"created": 1e30, "name": "games/0"}'),
    _b64(b'{"created": ' + b"1" + b"0" * 30 + b', "name": "games/0"}'),
    _b64(b'{"created": -1e30, "name": "games/0"}'),
    _b64(b'{"created": 1e999, "name": "games/0"}'),
    _b64(b'{"created": NaN, "name": "games/0"}'),
    _b64(b'{"created": -5, "name": 5}'),
    _b64(b'{"created": "yesterday", "name": "games/0"}'),
    _b64(b'{"sequence": -1}'),
    _b64(b'{"sequence": -' + b"9" * 30 + b"}"),
    _b64(b'{"sequence": 1' + b"0" * 30 + b"}"),
    _b64(b'{"sequence": ' + FIVE_THOUSAND.encode() + b"}"),
    _b64(b'{"sequence": 1.5}'),
    _b64(b'{"sequence": true}'),
    _b64(b'{"sequence": "3"}'),
    _b64(b'{"sequence": [3]}'),
    _b64(b"not json at all"),
    _b64(b"\xff\xfe\x00garbage"),
    _b64(b"null"),
    _b64(b"[]"),
    _b64(b"12"),
    "!!!not base64!!!",
    "a",
    "====",
    "eyJzZXF1ZW5jZSI6",  # cut off mid-JSON
]
NOTATIONS = [
    "24/23(" + FIVE_THOUSAND + ")",
    "13/7(" + "9" * 5000 + ")",
    "bar/" + "2" * 5000,
    "24/23(4)(4)(4)",
    "24/" + "1" * 5000 + "*",
    "6/off(4) 6/off(4)",
    "25/22* 25/22* 25/22* 25/22* 25/22*",
    "pass",
    "",
    "13/7 13/7 13/7 13/7 13/7 13/7",
    "24/18/13/7/1/off",
    "0/0",
    "-1/-7",
    "24/23" + " 24/23" * 2000,
]
POSITION_IDS = [
    START_ID,
    "AACA/z8AAAb+Pw",
    "xHPwASTgc/ABMA",
    "////////////////",
    "4HPwATDgc/ABM",
    "=" * 14,
    "A" * 5000,
    "",
]
XGIDS = [XGID, "XGID=", "XGID=" + ":" * 5000, XGID.replace(":10", ":" + FIVE_THOUSAND)] + [
    _xgid_with_a_long_field(number) for number in range(10)
]
REQUEST_IDS = ["r1", "r2", "r3", "r4", "shared", ""]


@dataclass
class Live:
    """The real games the fuzzer aims at, and what it knows of them."""

    names: list[str] = field(default_factory=list)
    seats: dict[str, tuple[Seat, Seat]] = field(default_factory=dict)
    states: dict[str, games_pb2.Game] = field(default_factory=dict)
    plays: list[str] = field(default_factory=lambda: ["24/18 13/10", "8/5 6/5", "13/8 13/11", "24/23 24/21"])
    plays_by_game: dict[str, list[str]] = field(default_factory=dict)
    stale_etags: list[str] = field(default_factory=list)
    page_tokens: list[str] = field(default_factory=list)

    def tokens(self) -> list[str]:
        return [seat.token for seats in self.seats.values() for seat in seats]

    def etags(self) -> list[str]:
        return [game.etag for game in self.states.values()]


LIVE = Live()


POOL_INDEX = st.integers(0, 10_000)


def _from_pool(pool: Callable[[], list[str]]) -> st.SearchStrategy[str]:
    # The pools grow while the fuzzer runs; an index drawn is read against the pool as it is then.
    return POOL_INDEX.map(lambda index: _pick(pool(), index))


def _pick(pool: list[str], index: int) -> str:
    return (pool or [""])[index % len(pool or [""])]


def _long(pieces: list[str], least: int, most: int) -> st.SearchStrategy[str]:
    # Built in Python from a drawn size, so that hypothesis's own buffer stays small.
    return st.builds(
        lambda piece, size: (piece * (size // len(piece) + 1))[:size],
        st.sampled_from(pieces),
        st.integers(least, most),
    )


# .mat records, whole and cut anywhere: clean, with a problem, a header alone, a money session.
_MAT_GAME = (
    " Game 1\n Alice : 0                      Bob : 0\n  1) 31: 8/5 6/5                  42: 8/4 6/4\n"
)
MAT_RECORDS = [
    " 3 point match\n\n" + _MAT_GAME + "  2)  Doubles => 2                Drops\n      Wins 1 point\n",
    " 3 point match\n\n" + _MAT_GAME + "  2) 65: 12/1                    ???\n",
    '; [Variation "Long Nardi"]\n 5 point match\n',
    " 0 point match\n\n" + _MAT_GAME,
]
OVERSIZED = _long(["a", "é", "9", "games/", "24/23 ", "\x00", "🎲", "XGID=-b"], 20_000, 400_000)
RANDOM_TEXT = st.text(max_size=30)
TEXT_BY_FIELD: dict[str, st.SearchStrategy[str]] = {
    "name": st.one_of(
        _from_pool(lambda: LIVE.names),
        _from_pool(lambda: LIVE.names),
        _from_pool(lambda: LIVE.names),
        st.sampled_from(
            ["", "games/", "games/0000000000000000", "../games/x", "games/%00", "games/ab/cd", "GAMES/x"]
        ),
    ),
    "seat_token": st.one_of(
        _from_pool(LIVE.tokens), _from_pool(LIVE.tokens), st.sampled_from(["", "x" * 32, "=" * 32])
    ),
    "etag": st.one_of(
        _from_pool(LIVE.etags), st.sampled_from(["", "0", "-1", "1e9", "9" * 30, "1" * 5000, " 1", "01"])
    ),
    "request_id": st.one_of(st.sampled_from(REQUEST_IDS), st.uuids().map(str)),
    "notation": st.one_of(
        _from_pool(lambda: LIVE.plays), _from_pool(lambda: LIVE.plays), st.sampled_from(NOTATIONS)
    ),
    "position_id": st.sampled_from(POSITION_IDS),
    "xgid": st.sampled_from(XGIDS),
    "page_token": st.one_of(st.sampled_from(FORGED_PAGE_TOKENS), _from_pool(lambda: LIVE.page_tokens)),
    "dice_seed": st.sampled_from(["", "seed", "9" * 5000]),
    "text": st.one_of(
        st.sampled_from(MAT_RECORDS),
        st.sampled_from(MAT_RECORDS).flatmap(
            lambda text: st.integers(0, len(text)).map(lambda cut: text[:cut])
        ),
    ),
}
BYTES = st.one_of(
    st.binary(max_size=300), st.sampled_from(MAT_RECORDS).map(lambda text: text.encode("latin-1", "replace"))
)
# How often a field is left unset, in tenths: rarely the fields that aim a request at a real game.
UNSET_TENTHS = {"name": 1, "seat_token": 1, "rule_set": 2, "variant": 1, "position": 2, "dice": 2}


@st.composite
def _text(draw: st.DrawFn, name: str) -> str:
    # One string in twenty is oversized; of the rest, most are near-valid where the field has such.
    roll = draw(st.integers(0, 19))
    if roll == 0:
        return draw(OVERSIZED)
    near = TEXT_BY_FIELD.get(name)
    if near is None or roll < 6:
        return draw(RANDOM_TEXT)
    return draw(near)


@functools.cache
def _enum(descriptor: FieldDescriptor) -> st.SearchStrategy[int]:
    defined = [value.number for value in descriptor.enum_type.values]
    return st.one_of(
        st.sampled_from(defined),
        st.sampled_from(defined),
        st.sampled_from([-1, max(defined) + 1, 99, 2**31 - 1, -(2**31)]),
    )


@functools.cache
def _number(descriptor: FieldDescriptor) -> st.SearchStrategy[int]:
    kind = descriptor.type
    if kind == FieldDescriptor.TYPE_INT32:
        return st.one_of(
            st.integers(-3, 60), st.sampled_from([-1, -(2**31), 2**31 - 1, 1000, 1001, 5000, 5001, 10**6])
        )
    if kind == FieldDescriptor.TYPE_UINT32:
        return st.one_of(st.integers(0, 70), st.sampled_from([2**32 - 1, 2**31, 1000, 128, 64, 65]))
    if kind == FieldDescriptor.TYPE_UINT64:
        return st.one_of(st.integers(0, 600), st.sampled_from([2**64 - 1, 2**63, 2**32, 10**12]))
    if kind == FieldDescriptor.TYPE_INT64:  # a Duration's or Timestamp's seconds (the clocks)
        return st.one_of(
            st.integers(-5, 120), st.sampled_from([-1, -(2**63), 2**63 - 1, 31 * 24 * 3600, 10**12])
        )
    raise AssertionError(f"no strategy for field type {kind} of {descriptor.full_name}")


@functools.cache
def _scalar(descriptor: FieldDescriptor) -> st.SearchStrategy[Any]:
    if descriptor.type == FieldDescriptor.TYPE_STRING:
        return _text(descriptor.name)
    if descriptor.type == FieldDescriptor.TYPE_BYTES:
        return BYTES
    if descriptor.type == FieldDescriptor.TYPE_BOOL:
        return st.booleans()
    if descriptor.type == FieldDescriptor.TYPE_ENUM:
        return _enum(descriptor)
    return _number(descriptor)


@functools.cache
def _repeated_scalars(descriptor: FieldDescriptor) -> st.SearchStrategy[list[Any]]:
    if descriptor.name == "dice":
        two_dice = st.lists(st.integers(1, 6), min_size=2, max_size=2)
        return st.one_of(
            two_dice, two_dice, two_dice, st.lists(st.sampled_from([0, 1, 6, 7, 2**32 - 1]), max_size=5)
        )
    if descriptor.type in (FieldDescriptor.TYPE_UINT32, FieldDescriptor.TYPE_UINT64):
        return st.one_of(
            st.lists(st.integers(0, 8), max_size=5),
            st.lists(st.integers(0, 6), min_size=24, max_size=24),
            st.lists(st.sampled_from([0, 1, 15, 16, 2**32 - 1]), max_size=30),
            st.integers(1_000, 200_000).map(lambda size: [1] * size),
        )
    return st.lists(_scalar(descriptor), max_size=4)


@functools.cache
def message_of(descriptor: Descriptor, depth: int = 0) -> st.SearchStrategy[Any]:
    """Messages of type ``descriptor``: each field set or not, to a random or a near-valid value.

    Each strategy is made once and drawn from again: hypothesis checks a strategy when it is first
    drawn from, and most of a fuzzed request's cost would be making and checking new ones."""
    return _message(descriptor, depth)


@st.composite
def _message(draw: st.DrawFn, descriptor: Descriptor, depth: int) -> Any:
    message = message_factory.GetMessageClass(descriptor)()
    chosen_oneofs: set[str] = set()
    for field_descriptor in descriptor.fields:
        if draw(st.integers(0, 9)) < UNSET_TENTHS.get(field_descriptor.name, 4):
            continue
        oneof = field_descriptor.containing_oneof
        if oneof is not None and not oneof.name.startswith("_"):  # a synthetic oneof is a proto3 optional
            if oneof.name in chosen_oneofs:
                continue
            chosen_oneofs.add(oneof.name)
        target = (
            getattr(message, field_descriptor.name)
            if field_descriptor.type == FieldDescriptor.TYPE_MESSAGE
            else None
        )
        if field_descriptor.is_repeated and target is not None:
            if depth >= 2:
                continue
            items = [
                draw(message_of(field_descriptor.message_type, depth + 1))
                for _ in range(draw(st.integers(0, 3)))
            ]
            if items and draw(st.integers(0, 19)) == 0:
                # A batch far past any sane count, kept under 8 MB: past the server's 4 MiB
                # message limit, yet cheap for this process to build.
                copies = min(
                    draw(st.sampled_from([300, 1500, 6000])),
                    8_000_000 // max(1, sum(item.ByteSize() for item in items)),
                )
                items = items * max(1, copies)
            for item in items:
                target.add().CopyFrom(item)
        elif field_descriptor.is_repeated:
            getattr(message, field_descriptor.name).extend(draw(_repeated_scalars(field_descriptor)))
        elif target is not None:
            if depth < 3:
                target.CopyFrom(draw(message_of(field_descriptor.message_type, depth + 1)))
        else:
            setattr(message, field_descriptor.name, draw(_scalar(field_descriptor)))
    return message


# Actions at games weigh most: those are where a refused request could change a game.
METHODS: list[MethodDescriptor] = [
    method
    for service in (GAMES_SERVICE, RULES_SERVICE)
    for method in service.methods
    for _ in range(3 if method.name in ACTIONS else 1)
]


@functools.cache
def _request_to(method: MethodDescriptor) -> st.SearchStrategy[tuple[MethodDescriptor, Any]]:
    return message_of(method.input_type).map(lambda message: (method, message))


generic_requests = st.sampled_from(METHODS).flatmap(_request_to)


# What an aimed action is drawn from, each strategy made once (see message_of): the game's own
# etag (None below) and legal plays (an index into them) are read when the action is drawn.
_AIMED_NAME = _from_pool(lambda: LIVE.names)
_AIMED_METHOD = st.sampled_from(sorted(ACTIONS))
_TO_THE_OTHER_SEAT = st.sampled_from([False, False, True])  # the seat waited for, two times in three
_AIMED_ETAG = st.one_of(st.none(), st.just(""), _from_pool(lambda: LIVE.stale_etags), RANDOM_TEXT)
_AIMED_REQUEST_ID = st.one_of(st.sampled_from(REQUEST_IDS), st.uuids().map(str))
_AIMED_PLAY = st.one_of(POOL_INDEX, st.sampled_from(NOTATIONS))


@st.composite
def aimed_actions(draw: st.DrawFn) -> tuple[MethodDescriptor, Any]:
    """An action at a real game, one field or two away from being made: the seat on turn's token
    or the other's, the current etag or a stale one, a legal play or a hostile one, a request_id
    from the shared pool."""
    name = draw(_AIMED_NAME)
    game, seats = LIVE.states[name], LIVE.seats[name]
    method = GAMES_SERVICE.methods_by_name[draw(_AIMED_METHOD)]
    request = message_factory.GetMessageClass(method.input_type)(name=name)
    waited_for = 0 if not game.to_act or game.to_act[0] == games_pb2.SEAT_0 else 1
    request.seat_token = seats[1 - waited_for if draw(_TO_THE_OTHER_SEAT) else waited_for].token
    etag = draw(_AIMED_ETAG)
    request.etag = game.etag if etag is None else etag
    request.request_id = draw(_AIMED_REQUEST_ID)
    if method.name == "PlayMove":
        play = draw(_AIMED_PLAY)
        request.notation = _pick(LIVE.plays_by_game[name], play) if isinstance(play, int) else play
    if method.name == "OfferResignation":
        request.result = draw(_enum(method.input_type.fields_by_name["result"]))
    return method, request


requests = st.one_of(generic_requests, generic_requests, generic_requests, aimed_actions())


@dataclass
class Tally:
    """What the fuzzer sent and what came back."""

    requests: Counter[str] = field(default_factory=Counter)
    answers: Counter[str] = field(default_factory=Counter)
    violations: list[str] = field(default_factory=list)
    kinds: Counter[str] = field(default_factory=Counter)
    refused_actions_checked: int = 0
    actions_accepted: int = 0
    legitimate_actions: int = 0

    def violation(self, kind: str, text: str | Callable[[], str]) -> None:
        self.kinds[kind] += 1
        if self.kinds[kind] <= 3:  # a few examples of each kind are enough to fix it
            self.violations.append(f"{kind}: {text() if callable(text) else text}")


def _describe(method: MethodDescriptor, request: Any) -> str:
    """The request in a line of bounded length, however large it is: long text cut, long runs of
    one character counted, repeated fields shown by their first items and their count."""
    return f"{method.name}({_fields_text(request, 0)})"


def _fields_text(message: Any, depth: int) -> str:
    parts = []
    for descriptor, value in message.ListFields():
        if descriptor.is_repeated:
            shown = [_value_text(descriptor, item, depth) for item in list(value[:2])]
            more = f", ... {len(value)} in all" if len(value) > 2 else ""
            parts.append(f"{descriptor.name}=[{', '.join(shown)}{more}]")
        else:
            parts.append(f"{descriptor.name}={_value_text(descriptor, value, depth)}")
    return " ".join(parts)


def _value_text(descriptor: FieldDescriptor, value: Any, depth: int) -> str:
    if descriptor.type == FieldDescriptor.TYPE_MESSAGE:
        return "{...}" if depth >= 3 else "{" + _fields_text(value, depth + 1) + "}"
    if descriptor.type == FieldDescriptor.TYPE_STRING:
        head = re.sub(r"(.)\1{19,}", lambda run: f"{run.group(1)}x{len(run.group(0))}", value[:200])
        return repr(head) + (f"...({len(value)} chars)" if len(value) > 200 else "")
    return repr(value)


class Fuzzer:
    def __init__(self, address: str) -> None:
        options = [
            ("grpc.max_receive_message_length", 64 * 1024 * 1024),
            ("grpc.max_send_message_length", 64 * 1024 * 1024),
        ]
        self.channel = grpc.insecure_channel(address, options=options)
        self.stubs = {
            GAMES_SERVICE.full_name: games_service_pb2_grpc.GamesServiceStub(self.channel),
            RULES_SERVICE.full_name: rules_service_pb2_grpc.RulesServiceStub(self.channel),
        }
        self.games = self.stubs[GAMES_SERVICE.full_name]
        self.client = TavliClient.connect(address, timeout=RPC_TIMEOUT)
        self.tally = Tally()
        self.rng = random.Random(20)

    def close(self) -> None:
        self.channel.close()
        self.client.close()

    def set_up_games(self) -> None:
        """Real games in every phase the fuzzer should meet, and one finished match."""
        option_sets: list[dict[str, Any]] = [
            {"variant": "backgammon", "cube": True, "beavers": True},
            {"variant": "backgammon", "match_length": 3},
            {"variant": "long-nardi"},
            {"variant": "long-nardi", "match_length": 1},
            {"variant": "backgammon", "verifiable_dice": True},
            {"variant": "backgammon", "auto_play_forced": True},
            {"variant": "backgammon", "match_length": 1},
        ]
        for options in option_sets:
            seats = self.client.create_game(**options)
            LIVE.names.append(seats[0].name)
            LIVE.seats[seats[0].name] = seats
        finished = LIVE.names[-1]
        game = LIVE.seats[finished][0].game()
        for _ in range(5_000):
            if game.phase == games_pb2.PHASE_MATCH_OVER:
                break
            game = random_action(LIVE.seats[finished], game, self.rng)
        for name in LIVE.names[:-1]:
            for _ in range(self.rng.randrange(3, 25)):
                self.advance(name)
        for name in LIVE.names:
            self.refresh(name)
        page = self.games.ListGames(games_pb2.ListGamesRequest(page_size=1), timeout=RPC_TIMEOUT)
        LIVE.page_tokens.append(page.next_page_token)
        events = self.games.ListGameEvents(
            games_pb2.ListGameEventsRequest(name=LIVE.names[0], page_size=2), timeout=RPC_TIMEOUT
        )
        LIVE.page_tokens.append(events.next_page_token)

    def refresh(self, name: str) -> games_pb2.Game:
        game = self.games.GetGame(games_pb2.GetGameRequest(name=name), timeout=RPC_TIMEOUT).game
        earlier = LIVE.states.get(name)
        if earlier is not None and earlier.etag != game.etag:
            LIVE.stale_etags.append(earlier.etag)
            del LIVE.stale_etags[:-20]
        LIVE.states[name] = game
        LIVE.plays_by_game[name] = []
        if game.phase == games_pb2.PHASE_PLAYING:
            seat = LIVE.seats[name][0 if game.turn == games_pb2.SEAT_0 else 1]
            plays = [play.notation for play in seat.legal_actions().plays]
            LIVE.plays_by_game[name] = plays[:8]
            LIVE.plays.extend(plays[:4])
            del LIVE.plays[:-40]
        return game

    def until_playing(self) -> str:
        """A real game (not over) brought to where its seat on turn must play; its name."""
        name = LIVE.names[0]
        for _ in range(200):
            if self.refresh(name).phase == games_pb2.PHASE_PLAYING:
                return name
            self.advance(name)
        raise AssertionError(f"{name} never came to a play")

    def advance(self, name: str) -> None:
        """One legal action at a game, so that the fuzzer meets it in another phase."""
        game = LIVE.states.get(name) or self.refresh(name)
        if game.phase != games_pb2.PHASE_MATCH_OVER:
            random_action(LIVE.seats[name], self.refresh(name), self.rng, resign_rate=0.05)
            self.tally.legitimate_actions += 1
        self.refresh(name)

    def send(self, method: MethodDescriptor, request: Any) -> None:
        self.tally.requests[method.name] += 1
        call = getattr(self.stubs[method.containing_service.full_name], method.name)
        aimed = method.name in ACTIONS and request.name in LIVE.states
        before = LIVE.states.get(request.name) if aimed else None
        started = time.monotonic()
        try:
            if method.server_streaming:
                self._watch(call, iter([request]) if method.client_streaming else request)
            else:
                call(request, timeout=RPC_TIMEOUT)
        except grpc.RpcError as error:
            self._judge_refusal(method, request, error, time.monotonic() - started)
            if before is not None:
                self._check_unchanged(method, request, before)
        else:
            self.tally.answers["OK"] += 1
            if aimed:
                self.tally.actions_accepted += 1
                self.refresh(request.name)

    def _watch(self, call: Any, request: Any) -> None:
        stream = call(request, timeout=WATCH_SECONDS)
        try:
            for number, _ in enumerate(stream):
                if number >= 3:
                    stream.cancel()
                    break
        except grpc.RpcError as error:
            if error.code() not in (grpc.StatusCode.CANCELLED, grpc.StatusCode.DEADLINE_EXCEEDED):
                raise
        finally:
            stream.cancel()

    def _judge_refusal(
        self, method: MethodDescriptor, request: Any, error: grpc.RpcError, seconds: float
    ) -> None:
        refusal = refusal_of(error)
        self.tally.answers[refusal.status.name] += 1
        if refusal.status in SERVER_FAULTS:
            self.tally.violation(
                f"{refusal.status.name} from {method.name}",
                lambda: f"{_describe(method, request)} -> {refusal}",
            )
        elif refusal.status not in CLIENT_CODES:
            self.tally.violation(
                f"{refusal.status.name} from {method.name}",
                lambda: f"{_describe(method, request)} -> {refusal} after {seconds:.1f} s",
            )
        elif refusal.status is not grpc.StatusCode.RESOURCE_EXHAUSTED and (
            refusal.domain != "tavli" or not refusal.message
        ):
            self.tally.violation(
                f"{refusal.status.name} without an ErrorInfo from {method.name}",
                lambda: f"{_describe(method, request)} -> {refusal}",
            )

    def _check_unchanged(self, method: MethodDescriptor, request: Any, before: games_pb2.Game) -> None:
        after = self.games.GetGame(games_pb2.GetGameRequest(name=request.name), timeout=RPC_TIMEOUT).game
        self.tally.refused_actions_checked += 1
        if after != before:
            self.tally.violation(
                f"a refused {method.name} changed its game",
                f"{_describe(method, request)}: event_count {before.event_count} -> {after.event_count}, "
                f"phase {games_pb2.Phase.Name(before.phase)} -> {games_pb2.Phase.Name(after.phase)}",
            )
            LIVE.states[request.name] = after


def hostile_requests(fuzzer: Fuzzer) -> Iterator[tuple[MethodDescriptor, Any]]:
    """The known threats, each sent for certain before the random ones: every hostile
    XGID and play to every rules RPC, every forged page token, every text field of every request
    oversized, every enum field set to a number the API does not define, and the hostile plays
    at a real game waiting for a play, with the right token."""
    rules = {method.name: method for method in RULES_SERVICE.methods}
    games = {method.name: method for method in GAMES_SERVICE.methods}
    for variant in (board_pb2.VARIANT_BACKGAMMON, board_pb2.VARIANT_LONG_NARDI):
        for xgid in XGIDS:
            position = board_pb2.Position(xgid=xgid)
            yield (
                rules["ListLegalPlays"],
                rules_pb2.ListLegalPlaysRequest(variant=variant, position=position, dice=[3, 1]),
            )
            yield (
                rules["ValidatePlay"],
                rules_pb2.ValidatePlayRequest(
                    variant=variant, position=position, dice=[3, 1], notation="24/21"
                ),
            )
            yield (
                rules["ApplyPlay"],
                rules_pb2.ApplyPlayRequest(variant=variant, position=position, dice=[3, 1], notation="24/21"),
            )
            yield rules["ScorePosition"], rules_pb2.ScorePositionRequest(variant=variant, position=position)
            yield (
                rules["ConvertPosition"],
                rules_pb2.ConvertPositionRequest(variant=variant, position=position),
            )
        for notation in NOTATIONS:
            for dice in ([1, 1], [3, 1]):
                position = board_pb2.Position(position_id=START_ID)
                validate = rules_pb2.ValidatePlayRequest(
                    variant=variant, position=position, dice=dice, notation=notation
                )
                yield rules["ValidatePlay"], validate
                yield (
                    rules["ApplyPlay"],
                    rules_pb2.ApplyPlayRequest(
                        variant=variant, position=position, dice=dice, notation=notation
                    ),
                )
                yield (
                    rules["BatchValidatePlays"],
                    rules_pb2.BatchValidatePlaysRequest(requests=[validate, validate]),
                )
    for token in FORGED_PAGE_TOKENS:
        yield games["ListGames"], games_pb2.ListGamesRequest(page_token=token)
        yield games["ListGameEvents"], games_pb2.ListGameEventsRequest(name=LIVE.names[0], page_token=token)
    for service in (GAMES_SERVICE, RULES_SERVICE):
        for method in service.methods:
            message_type = message_factory.GetMessageClass(method.input_type)
            for field_descriptor in method.input_type.fields:
                if field_descriptor.type == FieldDescriptor.TYPE_STRING and not field_descriptor.is_repeated:
                    yield method, message_type(**{field_descriptor.name: "a" * 300_000})
                if field_descriptor.type == FieldDescriptor.TYPE_ENUM and not field_descriptor.is_repeated:
                    yield method, message_type(**{field_descriptor.name: 99})
    name = fuzzer.until_playing()
    game, seats = LIVE.states[name], LIVE.seats[name]
    seat = seats[0 if game.turn == games_pb2.SEAT_0 else 1]
    for notation in NOTATIONS:
        yield (
            games["PlayMove"],
            games_pb2.PlayMoveRequest(name=name, seat_token=seat.token, notation=notation),
        )
        yield (
            games["PlayMove"],
            games_pb2.PlayMoveRequest(name=name, seat_token=seat.token, etag=game.etag, notation=notation),
        )


def test_fuzzed_requests_to_every_rpc_never_fault_the_server_nor_change_a_game(
    tmp_path: Path, figures: Figures
) -> None:
    log = tmp_path / "serve.log"
    served = serve("--db", str(tmp_path / "games.sqlite3"), log=log)
    fuzzer = Fuzzer(served.address)
    examples = explicit = 0
    seconds = 0.0
    serving = None
    try:
        fuzzer.set_up_games()

        @settings(
            max_examples=EXAMPLES,
            derandomize=True,
            database=None,
            deadline=None,
            phases=[Phase.explicit, Phase.generate],  # no shrinking: the report names the request
            suppress_health_check=list(HealthCheck),
        )
        @given(batch=st.lists(requests, min_size=REQUESTS_PER_EXAMPLE[0], max_size=REQUESTS_PER_EXAMPLE[1]))
        def fuzz(batch: list[tuple[MethodDescriptor, Any]]) -> None:
            nonlocal examples
            examples += 1
            for method, request in batch:
                fuzzer.send(method, request)
            if examples % 20 == 0:
                fuzzer.advance(LIVE.names[examples // 20 % (len(LIVE.names) - 1)])

        started = time.monotonic()
        for method, request in hostile_requests(fuzzer):
            fuzzer.send(method, request)
        explicit = sum(fuzzer.tally.requests.values())
        fuzz()
        seconds = time.monotonic() - started
        health = health_pb2_grpc.HealthStub(fuzzer.channel)
        serving = health.Check(health_pb2.HealthCheckRequest(), timeout=RPC_TIMEOUT).status
        for name in LIVE.names:  # every game still reads, and ends where the fuzzer last saw it
            game = fuzzer.games.GetGame(games_pb2.GetGameRequest(name=name), timeout=RPC_TIMEOUT).game
            if game != LIVE.states[name]:
                fuzzer.tally.violation("a game moved without an acknowledged action", name)
    finally:
        fuzzer.close()
        status = stop(served)
    tally = fuzzer.tally
    faults_logged = [
        line
        for line in log_lines(log)
        if line.get("event") == "rpc" and line.get("status") in ("INTERNAL", "UNKNOWN")
    ]
    found = tracebacks(log)
    figures.update(
        requests_tried=sum(tally.requests.values()),
        hostile_requests_named=explicit,
        examples=examples,
        requests_by_method=dict(tally.requests),
        answers=dict(tally.answers),
        refused_actions_checked_unchanged=tally.refused_actions_checked,
        fuzzed_actions_accepted=tally.actions_accepted,
        legitimate_actions=tally.legitimate_actions,
        violations_by_kind=dict(tally.kinds),
        internal_or_unknown_logged=len(faults_logged),
        tracebacks_logged=len(found),
        fuzz_seconds=round(seconds, 1),
    )
    assert not tally.violations, f"{sum(tally.kinds.values())} violations: " + "\n".join(
        tally.violations[:30]
    )
    assert not found, f"{len(found)} tracebacks in the server's log: {found[:5]}"
    assert not faults_logged, f"{len(faults_logged)} RPCs logged INTERNAL or UNKNOWN"
    assert sum(tally.requests.values()) >= LEAST_REQUESTS
    assert set(tally.requests) == {method.name for method in METHODS}, "some RPC was never fuzzed"
    assert serving == health_pb2.HealthCheckResponse.SERVING
    assert status == 0, f"the server exited with {status} on SIGTERM"
    figures.passed()
