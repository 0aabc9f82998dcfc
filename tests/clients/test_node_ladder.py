"""The Node client's ladder calls against a server: an account's key on every call, challenges
declined with a reason, cancelled and accepted, the event stream telling of each (and going on
after the last event seen, repeating none), and a forged key refused."""

from __future__ import annotations

import subprocess
from collections.abc import Iterator

import pytest

from tavli.clients.client import TavliClient
from tavli.server.app import Running
from tavli.v1 import games_service_pb2 as games_pb
from tests.clients.test_node_client import NODE_CLIENT, NODE_TIMEOUT, node_executable, node_printed
from tests.ladder_rig import make_account
from tests.server_play import running_server

# Prints one JSON line a step. gammon follows its events from the start; each step waits for the
# events it causes (a challenge received; one declined or cancelled is closed for both accounts),
# so that the events seen are exactly those of the steps.
LADDER_SCRIPT = """
const { TavliClient } = require('./tavli');
const [address, gnuKey, gammonKey] = process.argv.slice(1);
const say = (step, value) => console.log(JSON.stringify({ step, ...value }));
const refusal = async (promise) => {
  try {
    await promise;
    return { refused: false };
  } catch (error) {
    return { refused: true, code: error.codeName, reason: error.reason, message: error.message };
  }
};
(async () => {
  const gnu = TavliClient.connect(address, { apiKey: gnuKey, timeoutMs: 10000 });
  const gammon = TavliClient.connect(address, { apiKey: gammonKey, timeoutMs: 10000 });
  const forged = TavliClient.connect(address, { apiKey: gnuKey.slice(0, -4) + 'AAAA', timeoutMs: 10000 });
  const events = gammon.events();
  const messages = events[Symbol.asyncIterator]();
  const next = async () => (await messages.next()).value;
  const nextEvent = async () => {
    for (;;) {
      const { event } = await next();
      if (event) return event;
    }
  };
  const { gamesInProgress } = await next();
  say('first', { gamesInProgress: gamesInProgress.length, account: (await gammon.account()).handle });

  const declined = await gnu.challenge('gammon', { matchLength: 3 });
  const received = await nextEvent();
  const answer = await gammon.declineChallenge(declined.name, 'too-fast');
  const told = await nextEvent();
  say('declined', { received: received.kind, name: received.challengeReceived.name === declined.name,
    state: answer.state, reason: answer.declineReason, told: told.kind,
    toldReason: told.challengeClosed.declineReason });

  const cancelled = await gnu.challenge('gammon');
  const heard = await nextEvent();
  const withdrawn = await gnu.cancelChallenge(cancelled.name);
  const closed = await nextEvent();
  say('cancelled', { heard: heard.kind, state: withdrawn.state, closed: closed.kind,
    closedState: closed.challengeClosed.state, again: await refusal(gnu.cancelChallenge(cancelled.name)) });

  const accepted = await gnu.challenge('gammon', { variant: 'plakoto' });
  await nextEvent();
  const game = await gammon.acceptChallenge(accepted.name);
  const started = await nextEvent();
  say('accepted', { game: game.game, token: game.seatToken.length > 0,
    started: started.kind, startedGame: started.gameStarted.game, lastId: started.eventId });
  events.close();

  // Followed again after the last event seen: the game in progress is listed, nothing repeated.
  const again = gammon.events({ after: started.eventId })[Symbol.asyncIterator]();
  const first = (await again.next()).value;
  say('resumed', { inProgress: first.gamesInProgress.map((g) => g.game), event: first.event });
  await again.return();

  say('refusals', {
    forged: await refusal(forged.account()),
    unknownReason: await refusal(gammon.declineChallenge(accepted.name, 'because')),
    board: (await gnu.leaderboard('backgammon')).length,
  });
  for (const client of [gnu, gammon, forged]) client.close();
})().catch((error) => {
  console.error(String(error));
  process.exit(1);
});
"""


@pytest.fixture
def ladder() -> Iterator[Running]:
    with running_server() as running:
        yield running


def test_the_node_client_challenges_declines_cancels_accepts_and_hears_each(ladder: Running) -> None:
    address = f"127.0.0.1:{ladder.port}"
    keys = [make_account(ladder, handle) for handle in ("gnu", "gammon")]
    steps = {line["step"]: line for line in node_printed(LADDER_SCRIPT, address, *keys)}
    assert steps["first"] == {"step": "first", "gamesInProgress": 0, "account": "gammon"}
    assert steps["declined"] == {
        "step": "declined",
        "received": "challengeReceived",
        "name": True,
        "state": "CHALLENGE_STATE_DECLINED",
        "reason": "DECLINE_REASON_TOO_FAST",
        "told": "challengeClosed",
        "toldReason": "DECLINE_REASON_TOO_FAST",
    }
    cancelled = steps["cancelled"]
    assert (cancelled["heard"], cancelled["state"]) == ("challengeReceived", "CHALLENGE_STATE_CANCELLED")
    assert (cancelled["closed"], cancelled["closedState"]) == ("challengeClosed", "CHALLENGE_STATE_CANCELLED")
    assert cancelled["again"]["code"] == "FAILED_PRECONDITION"
    assert cancelled["again"]["reason"] == "CHALLENGE_CLOSED"
    accepted = steps["accepted"]
    assert accepted["token"] and accepted["started"] == "gameStarted"
    assert accepted["startedGame"] == accepted["game"]
    assert steps["resumed"] == {"step": "resumed", "inProgress": [accepted["game"]], "event": None}
    refusals = steps["refusals"]
    assert (refusals["forged"]["code"], refusals["forged"]["reason"]) == (
        "UNAUTHENTICATED",
        "UNKNOWN_API_KEY",
    )
    assert refusals["unknownReason"]["refused"] and "too-fast" in refusals["unknownReason"]["message"]
    assert refusals["board"] == 0
    with TavliClient.connect(address) as client:  # the game the Node client accepted, as the server has it
        game = client.game(accepted["game"])
    assert game.phase != games_pb.PHASE_MATCH_OVER
    assert {game.seat0_player.player_id, game.seat1_player.player_id} == {"accounts/gnu", "accounts/gammon"}


def run_ladder_bot(*arguments: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [node_executable(), "bot.js", "--ladder", *arguments],
        cwd=NODE_CLIENT,
        capture_output=True,
        text=True,
        check=False,
        timeout=NODE_TIMEOUT,
    )


def test_the_node_ladder_bot_with_a_forged_key_stops_saying_why(ladder: Running) -> None:
    key = make_account(ladder, "gnu")
    forged = run_ladder_bot("--key", key[:-4] + "AAAA", "--server", f"127.0.0.1:{ladder.port}")
    assert forged.returncode == 1
    assert "UNAUTHENTICATED UNKNOWN_API_KEY" in forged.stderr
    with TavliClient.connect(f"127.0.0.1:{ladder.port}", api_key=key) as client:
        assert not client.account().ladder_member  # the forged key joined nobody to the ladder
    keyless = run_ladder_bot("--server", f"127.0.0.1:{ladder.port}")
    assert keyless.returncode == 2 and "--ladder --key KEY" in keyless.stderr
