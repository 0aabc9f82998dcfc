"""The Node.js client (clients/node) plays a game of each variant and a tavli match against the server,
and its bot holds a seat on a PlaySeat stream against a Python bot on the other seat.

It needs Node.js and the client's packages: ``./run test`` installs them (``npm ci`` in
clients/node); by hand, run ``npm ci`` in clients/node first. Every Node process started here has
a timeout, and every wait for a stream a bound, so that a bug makes a test fail rather than hang.
"""

from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import grpc
import pytest

from tavli.clients import bots
from tavli.clients.client import Seat, TavliClient
from tavli.clients.seat_driver import play_seat
from tavli.engine import LONG_NARDI
from tavli.server.app import Running, ServerConfig, create_server
from tavli.v1 import board_pb2, games_service_pb2 as games_pb2, games_service_pb2_grpc

REPO = Path(__file__).resolve().parents[2]
NODE_CLIENT = REPO / "clients" / "node"
SETUP_HINT = "run ./run test (it installs them), or `npm ci` in clients/node"
NODE_TIMEOUT = 120.0  # a Node process started here is killed after this, whatever happens
WAIT = 10.0  # how long either bot waits at most for the other seat


def node_executable() -> str:
    node = shutil.which("node")
    if node is None:
        pytest.fail("Node.js (node) is not on PATH: the Node client's test needs Node.js 20 or later")
    if not (NODE_CLIENT / "node_modules" / "@grpc" / "grpc-js").is_dir():
        pytest.fail(
            f"the Node client's packages are not installed in {NODE_CLIENT / 'node_modules'}: {SETUP_HINT}"
        )
    return node


def node_printed(script: str, *arguments: str) -> list[Any]:
    """What ``script``, run by Node in the Node client's folder with ``arguments``, printed: one
    JSON value a line. The script must exit with status 0."""
    completed = subprocess.run(
        [node_executable(), "-e", script, *arguments],
        cwd=NODE_CLIENT,
        capture_output=True,
        text=True,
        check=False,
        timeout=NODE_TIMEOUT,
    )
    assert completed.returncode == 0, completed.stderr
    return [json.loads(line) for line in completed.stdout.splitlines()]


@pytest.fixture
def server() -> Iterator[Running]:
    running = create_server(ServerConfig(host="127.0.0.1", port=0, db=None, allow_seeded_dice=True))
    try:
        yield running
    finally:
        running.stop(None)


@pytest.mark.slow
def test_node_client_plays_every_variant_and_a_tavli_match_to_the_end(server: Running) -> None:
    node = node_executable()
    address = f"127.0.0.1:{server.port}"
    try:
        completed = subprocess.run(
            [node, "play.js", address, "--seed", "pytest"],
            cwd=NODE_CLIENT,
            capture_output=True,
            text=True,
            check=False,
            timeout=120,
        )
    except subprocess.TimeoutExpired as error:
        pytest.fail(
            f"play.js did not finish in {error.timeout} s; it printed:\n{error.stdout}\n{error.stderr}"
        )
    output = f"stdout:\n{completed.stdout}\nstderr:\n{completed.stderr}"
    assert completed.returncode == 0, output

    # play.js names each game it played; the server must show both over.
    names = re.findall(
        r"^(backgammon|long nardi|plakoto|fevga|tavli) .*?: (games/\S+) won by seat [01]:",
        completed.stdout,
        re.MULTILINE,
    )
    variants = ["backgammon", "long nardi", "plakoto", "fevga", "tavli"]
    assert [variant for variant, _ in names] == variants, output
    with grpc.insecure_channel(address) as channel:
        games = games_service_pb2_grpc.GamesServiceStub(channel)
        backgammon = games.GetGame(games_pb2.GetGameRequest(name=names[0][1]), timeout=10).game
        long_nardi = games.GetGame(games_pb2.GetGameRequest(name=names[1][1]), timeout=10).game

    # The money game: its first game finished, with a winner and at least a point.
    assert len(backgammon.finished_games) == 1, backgammon
    first = backgammon.finished_games[0]
    assert first.winner in (games_pb2.SEAT_0, games_pb2.SEAT_1)
    assert first.points >= 1 and sum(backgammon.score) == first.points

    # The 1-point match: over, won by the winner of its only game.
    assert long_nardi.phase == games_pb2.PHASE_MATCH_OVER, long_nardi
    assert len(long_nardi.finished_games) == 1
    assert long_nardi.winner == long_nardi.finished_games[0].winner != games_pb2.SEAT_UNSPECIFIED
    assert sorted(long_nardi.score) == [0, 1]

    # Plakoto, Fevga and the tavli match: over, their games of the variants the rule set plays.
    rotation = [board_pb2.VARIANT_BACKGAMMON, board_pb2.VARIANT_PLAKOTO, board_pb2.VARIANT_FEVGA]
    with grpc.insecure_channel(address) as channel:
        games = games_service_pb2_grpc.GamesServiceStub(channel)
        plakoto, fevga, tavli = (
            games.GetGame(games_pb2.GetGameRequest(name=name), timeout=10).game for _, name in names[2:]
        )
    for match, length in ((plakoto, 1), (fevga, 1), (tavli, 3)):
        assert match.phase == games_pb2.PHASE_MATCH_OVER and max(match.score) >= length, match
    assert {game.variant for game in plakoto.finished_games} == {board_pb2.VARIANT_PLAKOTO}
    assert {game.variant for game in fevga.finished_games} == {board_pb2.VARIANT_FEVGA}
    assert [game.variant for game in tavli.finished_games] == [
        rotation[(game.game_number - 1) % 3] for game in tavli.finished_games
    ]


# The Node client passes RuleSet fields on as the .proto files name them: backgammons too.
CREATE_WITH_BACKGAMMONS = """
const { TavliClient } = require('./tavli');
(async () => {
  const tavli = TavliClient.connect(process.argv[1]);
  const ruleSet = { backgammons: 'BACKGAMMONS_AS_GAMMON' };
  const { game } = await tavli.createGame({ variant: 'backgammon', matchLength: 5, ruleSet });
  console.log(JSON.stringify({ name: game.name, backgammons: game.ruleSet.backgammons }));
  try {
    await tavli.createGame({ variant: 'long-nardi', ruleSet });
  } catch (error) {
    console.log(JSON.stringify({ reason: error.reason, message: error.message }));
  }
  tavli.close();
})();
"""


def test_node_client_creates_a_game_with_backgammons_as_gammon(server: Running) -> None:
    address = f"127.0.0.1:{server.port}"
    created, refused = node_printed(CREATE_WITH_BACKGAMMONS, address)
    assert created["backgammons"] == "BACKGAMMONS_AS_GAMMON"
    with grpc.insecure_channel(address) as channel:
        games = games_service_pb2_grpc.GamesServiceStub(channel)
        stored = games.GetGame(games_pb2.GetGameRequest(name=created["name"]), timeout=10).game
    assert stored.rule_set.backgammons == games_pb2.BACKGAMMONS_AS_GAMMON
    assert refused == {
        "reason": "INVALID_RULE_SET",
        "message": (
            "long nardi has no backgammons to score as gammons: its biggest win, a mars, is worth 2 already"
        ),
    }


# --- the bot on a PlaySeat stream ---------------------------------------------------------------


def start_bot(node: str, address: str, seat: Seat, *options: str) -> subprocess.Popen[str]:
    """``bot.js`` playing ``seat``, its token given in the environment as the bot takes it."""
    return subprocess.Popen(
        [node, "bot.js", address, seat.name, "--seed", "pytest", "--wait", str(WAIT), *options],
        cwd=NODE_CLIENT,
        env={**os.environ, "TAVLI_SEAT_TOKEN": seat.token},
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )


def finished(bot: subprocess.Popen[str]) -> tuple[int, str]:
    """The bot's exit code and what it printed, once it has ended (killed past NODE_TIMEOUT)."""
    try:
        stdout, stderr = bot.communicate(timeout=NODE_TIMEOUT)
    except subprocess.TimeoutExpired:
        bot.kill()
        stdout, stderr = bot.communicate()
        pytest.fail(f"bot.js did not finish in {NODE_TIMEOUT} s; it printed:\n{stdout}\n{stderr}")
    return bot.returncode, f"stdout:\n{stdout}\nstderr:\n{stderr}"


def play_against_node_bot(
    server: Running, *options: str, variant: str = "backgammon", match_length: int = 3, **rules: object
) -> tuple[games_pb2.Game, games_pb2.Game, str]:
    """A new seeded game: the Node bot on seat 1 (it throws for who starts), a Python random bot on
    seat 0 over its own stream. Returns the game as the Python seat last saw it, as the server
    stores it, and the bot's output."""
    node = node_executable()
    address = f"127.0.0.1:{server.port}"
    with TavliClient.connect(address, timeout=WAIT) as client:
        seat_0, seat_1 = client.create_game(
            variant=variant, match_length=match_length, dice_seed=f"node-{variant}", **rules
        )
        bot = start_bot(node, address, seat_1, *options)
        try:
            with client.stream_seat(seat_0.name, seat_0.token) as stream:
                seen = play_seat(stream, bots.create("random", seed=3), throws_opening=False, wait=WAIT)
        finally:
            code, output = finished(bot)
        assert code == 0, output
        return seen, client.game(seat_0.name), output


def assert_played_to_the_end(server: Running, seen: games_pb2.Game, stored: games_pb2.Game) -> None:
    """The match is over as both seats saw it, and its log holds every event once, in order."""
    assert stored.phase == games_pb2.PHASE_MATCH_OVER, stored
    assert seen.event_count == stored.event_count
    assert stored.winner == stored.finished_games[-1].winner != games_pb2.SEAT_UNSPECIFIED
    assert max(stored.score) >= stored.rule_set.match_length
    with grpc.insecure_channel(f"127.0.0.1:{server.port}") as channel:
        games = games_service_pb2_grpc.GamesServiceStub(channel)
        request = games_pb2.ListGameEventsRequest(name=stored.name, page_size=5000)
        events = games.ListGameEvents(request, timeout=WAIT).events
    assert [event.sequence for event in events] == list(range(stored.event_count))
    plays = [event for event in events if event.kind == games_pb2.EVENT_KIND_PLAY]
    assert {event.seat for event in plays} == {games_pb2.SEAT_0, games_pb2.SEAT_1}  # both seats played


@pytest.mark.slow
@pytest.mark.parametrize(
    ("variant", "length", "rules"), [("backgammon", 3, {"cube": True}), ("long-nardi", 1, {})]
)
def test_the_node_bot_plays_a_whole_match_over_a_seat_stream(
    server: Running, variant: str, length: int, rules: dict[str, object]
) -> None:
    seen, stored, output = play_against_node_bot(server, variant=variant, match_length=length, **rules)
    assert_played_to_the_end(server, seen, stored)
    assert f"{stored.name} over: game {len(stored.finished_games)} won by seat" in output, output
    assert "played over the stream (joined 1 time)" in output, output


def outcome(game: games_pb2.Game) -> tuple[int, list[int], int, str]:
    return game.event_count, list(game.score), game.winner, game.last_play.notation


@pytest.mark.slow
@pytest.mark.parametrize(
    ("options", "words"),
    [
        # The bot hangs up its stream without a word after 7 actions and joins again on a new one.
        (("--drop-after", "7"), "played over the stream (joined 2 times)"),
        (("--unary", "--seat", "1"), "played over unary calls"),
    ],
    ids=["resumed-stream", "unary"],
)
def test_the_node_bot_plays_the_same_match_resumed_or_over_unary_calls(
    server: Running, options: tuple[str, ...], words: str
) -> None:
    # Seeded dice and seeded bots: how the bot is seated must not lose, repeat or change an event.
    streamed, _, _ = play_against_node_bot(server, variant="long-nardi", match_length=1)
    seen, stored, output = play_against_node_bot(server, *options, variant="long-nardi", match_length=1)
    assert_played_to_the_end(server, seen, stored)
    assert words in output, output
    assert outcome(stored) == outcome(streamed)


def test_a_node_stream_for_a_seat_held_by_another_is_refused_and_the_holder_plays_on(server: Running) -> None:
    node = node_executable()
    address = f"127.0.0.1:{server.port}"
    with TavliClient.connect(address, timeout=WAIT) as client:
        seat_0, _ = client.create_game(dice_seed="node-held")
        with client.stream_seat(seat_0.name, seat_0.token) as holder:
            code, output = finished(start_bot(node, address, seat_0))
            assert code == 1, output
            assert "FAILED_PRECONDITION SEAT_ALREADY_STREAMING" in output, output
            assert seat_0.token not in output  # a seat token is never printed
            rolled = holder.roll()  # the throw for who starts, on the stream that holds the seat
        assert rolled.phase == games_pb2.PHASE_PLAYING


# What a refused action on a Node stream gives: a TavliError with the refusal's code and reason,
# and the stream goes on with the view of the game now.
REFUSAL_SCRIPT = r"""
const { TavliClient, TavliError } = require('./tavli');
(async () => {
  const tavli = TavliClient.connect(process.argv[1]);
  const { game, seats: [seat0] } = await tavli.createGame({ variant: 'backgammon', matchLength: 1 });
  const stream = await tavli.streamSeat(game.name, seat0.token);
  const views = stream.views({ timeoutMs: 10000 });
  const joined = (await views.next()).value;
  const report = { seat: joined.seat, phase: joined.game.phase, actions: joined.legalActions.actions };
  try {
    await stream.double();
  } catch (error) {
    const { codeName: code, reason, domain, message } = error;
    report.refusal = { isTavliError: error instanceof TavliError, code, reason, domain, message };
  }
  report.afterRefusal = (await views.next()).value.answer;
  report.rolled = (await stream.roll()).phase;
  report.second = await tavli.streamSeat(game.name, seat0.token).catch((error) => error.reason);
  stream.close();
  tavli.close();
  console.log(JSON.stringify(report));
})().catch((error) => { console.error(String(error)); process.exitCode = 1; });
"""


def test_a_refused_action_on_a_node_stream_carries_its_reason_and_the_stream_goes_on(server: Running) -> None:
    (report,) = node_printed(REFUSAL_SCRIPT, f"127.0.0.1:{server.port}")
    assert report["seat"] == "SEAT_0" and report["phase"] == "PHASE_OPENING"
    assert report["actions"] == ["ACTION_ROLL"]
    assert report["refusal"] == {
        "isTavliError": True,
        "code": "FAILED_PRECONDITION",
        "reason": "WRONG_PHASE",
        "domain": "tavli",
        "message": report["refusal"]["message"],
    }
    assert report["refusal"]["message"]  # in a player's words
    assert report["afterRefusal"]["refusal"]["code"] == 9  # the refusal's view is the next one
    assert report["rolled"] == "PHASE_PLAYING"
    assert report["second"] == "SEAT_ALREADY_STREAMING"


# --- analysis -----------------------------------------------------------------------------------

ANALYZE = """
const fs = require('node:fs');
const { TavliClient } = require('./tavli');
const tavli = TavliClient.connect(process.argv[1]);
const progress = [];
tavli.analyzeMatch({ record: fs.readFileSync(process.argv[2]), onProgress: (step) => progress.push(step) })
  .then(async ({ decisions, players }) => {
    console.log(JSON.stringify({ steps: progress.length, decisions: decisions.length, players }));
    const refused = await tavli.analyzeMatch({ record: 'no match here' }).catch((error) => error);
    console.log(JSON.stringify(refused.reason));
    tavli.close();
  });
"""


def test_node_client_analyses_a_match(server: Running) -> None:
    record = REPO / "tests" / "data" / "mat" / "noisy_gnubg_3_point.mat"
    analysed, refused = node_printed(ANALYZE, f"127.0.0.1:{server.port}", str(record))
    assert analysed["steps"] > 0 and analysed["decisions"] > 100
    assert [player["name"] for player in analysed["players"]] == ["Left", "Right"]
    assert all(player["unforcedMoves"] > 0 and player["rating"] for player in analysed["players"])
    assert refused == "UNREADABLE_MATCH_RECORD"


RANKED = """
const { TavliClient } = require('./tavli');
const tavli = TavliClient.connect(process.argv[1]);
(async () => {
  const plays = await tavli.rankedPlays('backgammon', process.argv[2], [3, 1], { plies: 0 });
  const cube = await tavli.cubeDecision('backgammon', process.argv[2], { matchLength: 5, plies: 0 });
  const refused = await tavli.rankedPlays('long-nardi', process.argv[3], [3, 1]).catch((error) => error);
  console.log(JSON.stringify({ plays, cube, refused: refused.reason }));
  tavli.close();
})();
"""


def test_node_client_asks_for_ranked_plays_and_a_cube_decision(server: Running) -> None:
    opening = "4HPwATDgc/ABMA"
    with TavliClient.connect(f"127.0.0.1:{server.port}") as client:
        expected = client.ranked_plays("backgammon", opening, (3, 1))
    nardi = LONG_NARDI.start_position().position_id()
    (answer,) = node_printed(RANKED, f"127.0.0.1:{server.port}", opening, nardi)
    assert [(play["play"]["notation"], round(play["equity"], 6)) for play in answer["plays"]] == [
        (play.play.notation, round(play.equity, 6)) for play in expected
    ]
    assert answer["plays"][0]["play"]["notation"] == "8/5 6/5"  # the books' opening 3-1
    assert answer["cube"]["action"] == "CUBE_ACTION_NO_DOUBLE"  # the opening position: no double
    assert answer["refused"] == "NO_EVALUATOR"


SENT_AGAIN = r"""
const grpc = require('@grpc/grpc-js');
const { TavliClient, TavliError, connectionLost } = require('./tavli.js');

// The games stub's method fails with each of `failures` in turn, as grpc-js would, then is itself.
function failing(tavli, method, failures) {
  const real = tavli.games[method].bind(tavli.games);
  const counted = { calls: 0 };
  tavli.games[method] = (request, options, callback) => {
    counted.calls += 1;
    const failure = failures.shift();
    if (failure === undefined) return real(request, options, callback);
    const [code, details] = failure;
    const error = Object.assign(new Error(details), { code, details, metadata: new grpc.Metadata() });
    setImmediate(() => callback(error));
  };
  return counted;
}

(async () => {
  const tavli = TavliClient.connect(process.argv[1]);
  const reset = [grpc.status.INTERNAL, 'Received RST_STREAM with code 2 (Internal server error)'];
  const cases = {
    rst_stream: [reset, reset],
    stream_removed: [[grpc.status.INTERNAL, 'Stream removed']],
    unavailable: [[grpc.status.UNAVAILABLE, 'No connection established']],
    server_failed: [[grpc.status.INTERNAL, 'the server failed']],
  };
  let name = '';
  for (const [label, failures] of Object.entries(cases)) {
    const counted = failing(tavli, 'createGame', failures);
    try {
      const { game } = await tavli.createGame({ matchLength: 1 });
      name = game.name;
      console.log(JSON.stringify({ label, calls: counted.calls, created: game.name }));
    } catch (error) {
      console.log(JSON.stringify({ label, calls: counted.calls, refused: error.message }));
    }
  }
  const counted = failing(tavli, 'getGame', [reset]);  // a read carries no requestId
  try {
    await tavli.call('games', 'getGame', { name });
    console.log(JSON.stringify({ label: 'no_request_id', calls: counted.calls }));
  } catch (error) {
    console.log(JSON.stringify({ label: 'no_request_id', calls: counted.calls, refused: error.message }));
  }
  // What a seat stream or the event stream makes of its end: joined or followed again after a reset.
  const lost = (code, message, reason = '') => connectionLost(new TavliError(code, reason, message));
  console.log(JSON.stringify({
    label: 'connection_lost',
    reset: lost(grpc.status.INTERNAL, 'Received RST_STREAM with code 2 triggered by internal client error'),
    unavailable: lost(grpc.status.UNAVAILABLE, 'No connection established'),
    server_failed: lost(grpc.status.INTERNAL, 'the server failed'),
    answered: lost(grpc.status.INTERNAL, 'Stream removed', 'STORE_FAILED'),
  }));
  tavli.close();
})();
"""


def test_node_client_sends_a_request_with_a_request_id_again_after_a_proxy_reset_its_stream(
    server: Running,
) -> None:
    said = {line["label"]: line for line in node_printed(SENT_AGAIN, f"127.0.0.1:{server.port}")}
    with grpc.insecure_channel(f"127.0.0.1:{server.port}") as channel:
        games = games_service_pb2_grpc.GamesServiceStub(channel)
        for label, calls in (("rst_stream", 3), ("stream_removed", 2), ("unavailable", 2)):
            assert said[label]["calls"] == calls, said[label]
            stored = games.GetGame(games_pb2.GetGameRequest(name=said[label]["created"]), timeout=10).game
            assert stored.rule_set.match_length == 1
    # The server's own INTERNAL is its answer, and a call without a request_id is not safe to repeat.
    assert said["server_failed"] == {"label": "server_failed", "calls": 1, "refused": "the server failed"}
    assert said["no_request_id"]["calls"] == 1 and "RST_STREAM" in said["no_request_id"]["refused"]
    lost = {"reset": True, "unavailable": True, "server_failed": False, "answered": False}
    assert said["connection_lost"] == {"label": "connection_lost", **lost}
