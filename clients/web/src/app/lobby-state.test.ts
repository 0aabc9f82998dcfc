import { create } from "@bufbuild/protobuf";
import { durationFromMs, timestampFromMs } from "@bufbuild/protobuf/wkt";
import { describe, expect, it } from "vitest";
import { Variant } from "../gen/tavli/v1/board_pb";
import { ClockRulesSchema, CubeMode, RuleSetSchema, Seat } from "../gen/tavli/v1/games_service_pb";
import {
  ChallengeSchema,
  ChallengeState,
  DeclineReason,
  GameEndedHow,
  LadderEventSchema,
  LadderGameSchema,
  type Challenge,
  type LadderEvent,
} from "../gen/tavli/v1/ladder_service_pb";
import {
  FRESH_START_MS,
  challengesToMe,
  clockWords,
  emptyLobby,
  myChallenges,
  onlineNoteWords,
  openSeeks,
  ruleSetWords,
  withChallengesListed,
  withEvent,
  withGamesInProgress,
} from "./lobby-state";

const NOW = 1_800_000_000_000;
const MATCH = create(RuleSetSchema, { variant: Variant.BACKGAMMON, matchLength: 5, cube: CubeMode.CUBE });

function challenge(name: string, challenger: string, opponent: string, state = ChallengeState.OPEN): Challenge {
  return create(ChallengeSchema, { name, challenger, opponent, ruleSet: MATCH, rated: true, state });
}

function event(eventId: number, kind: LadderEvent["kind"], atMs = NOW): LadderEvent {
  return create(LadderEventSchema, { eventId: BigInt(eventId), time: timestampFromMs(atMs), kind });
}

const GAME = create(LadderGameSchema, {
  game: "games/g1",
  seat: Seat.SEAT_1,
  seatToken: "T",
  opponent: "bob",
  ruleSet: MATCH,
  rated: true,
});

describe("the lobby's challenges", () => {
  it("sorts what ListChallenges gives into seeks, challenges to me and mine, open ones only", () => {
    const state = withChallengesListed(emptyLobby("ann"), [
      challenge("challenges/seek", "bob", ""),
      challenge("challenges/mine-seek", "ann", ""),
      challenge("challenges/to-me", "bob", "ann"),
      challenge("challenges/mine", "ann", "cyd"),
      challenge("challenges/closed", "bob", "", ChallengeState.CANCELLED),
    ]);
    expect(openSeeks(state).map((c) => c.name)).toEqual(["challenges/seek", "challenges/mine-seek"]);
    expect(challengesToMe(state).map((c) => c.name)).toEqual(["challenges/to-me"]);
    expect(myChallenges(state).map((c) => c.name)).toEqual(["challenges/mine"]);
  });

  it("shows a challenge received at once and takes it away when it is closed", () => {
    const received = withEvent(emptyLobby("ann"), event(1, { case: "challengeReceived", value: challenge("challenges/c", "bob", "ann") }), NOW);
    expect(challengesToMe(received.state).map((c) => c.name)).toEqual(["challenges/c"]);
    expect(received.state.news[0]).toBe("bob challenges you: Backgammon · match to 5 · cube · no clock");
    const closed = withEvent(
      received.state,
      event(2, { case: "challengeClosed", value: challenge("challenges/c", "bob", "ann", ChallengeState.CANCELLED) }),
      NOW,
    );
    expect(challengesToMe(closed.state)).toEqual([]);
    expect(closed.state.news[0]).toBe("bob's challenge was withdrawn");
    expect(closed.state.lastEventId).toBe(2n);
  });

  it("tells the challenger why a challenge was declined, in the list's words", () => {
    const declined = challenge("challenges/c", "ann", "bot1", ChallengeState.DECLINED);
    declined.declineReason = DeclineReason.TOO_FAST;
    const heard = withEvent(emptyLobby("ann"), event(1, { case: "challengeClosed", value: declined }), NOW);
    expect(heard.state.news[0]).toBe("bot1 declined your challenge: The clock is too fast");
  });

  it("hears each event once, whatever a resumed stream sends again", () => {
    const first = withEvent(emptyLobby("ann"), event(1, { case: "challengeReceived", value: challenge("challenges/c", "bob", "ann") }), NOW);
    const again = withEvent(first.state, event(1, { case: "challengeReceived", value: challenge("challenges/c", "bob", "ann") }), NOW);
    expect(again.state).toBe(first.state);
    expect(again.goTo).toBeNull();
  });
});

describe("the lobby's games", () => {
  it("goes to the table of a game that has just started, and lists it", () => {
    const heard = withEvent(emptyLobby("ann"), event(1, { case: "gameStarted", value: GAME }), NOW + 1000);
    expect(heard.goTo?.seatToken).toBe("T");
    expect([...heard.state.games.keys()]).toEqual(["games/g1"]);
  });

  it("does not go to an old game read again from the account's events, but lists it", () => {
    const heard = withEvent(emptyLobby("ann"), event(1, { case: "gameStarted", value: GAME }, NOW - FRESH_START_MS - 1), NOW);
    expect(heard.goTo).toBeNull();
    expect(heard.state.games.has("games/g1")).toBe(true);
  });

  it("takes an ended game off the list and says who won and the rating after", () => {
    const playing = withGamesInProgress(emptyLobby("ann"), [GAME]);
    const ended = withEvent(
      playing,
      event(3, { case: "gameEnded", value: { $typeName: "tavli.v1.GameEnded", game: "games/g1", how: GameEndedHow.PLAYED, winner: "ann", rating: 1662.4, deviation: 290.2, rated: true } }),
      NOW,
    );
    expect(ended.ended?.game).toBe("games/g1");
    expect(ended.state.games.size).toBe(0);
    expect(ended.state.news[0]).toBe("You won your game against bob; your rating is now 1662 ± 290");
    const aborted = withEvent(
      playing,
      event(3, { case: "gameEnded", value: { $typeName: "tavli.v1.GameEnded", game: "games/g1", how: GameEndedHow.ABORTED, winner: "", rating: 0, deviation: 0, rated: false } }),
      NOW,
    );
    expect(aborted.state.news[0]).toBe("Your game against bob was aborted before its first roll: nothing is rated");
  });
});

describe("rule sets in a player's words", () => {
  it("names the variant, the length, the cube and the clock", () => {
    expect(ruleSetWords(create(RuleSetSchema, { variant: Variant.LONG_NARDI, matchLength: 0 }))).toBe("Long nardi · money play · no clock");
    const clocked = create(RuleSetSchema, {
      variant: Variant.BACKGAMMON,
      matchLength: 3,
      cube: CubeMode.NO_CUBE,
      clock: create(ClockRulesSchema, { reserve: durationFromMs(120_000), delay: durationFromMs(8000) }),
    });
    expect(ruleSetWords(clocked)).toBe("Backgammon · match to 3 · no cube · 2:00 + 8 s delay");
  });

  it("says every part of a clock", () => {
    const clock = create(ClockRulesSchema, {
      reserve: durationFromMs(3_600_000),
      reservePerPoint: durationFromMs(60_000),
      moveLimit: durationFromMs(30_000),
    });
    expect(clockWords(clock)).toBe("1:00:00 + 1:00 a point + at most 30 s a turn");
    expect(clockWords(undefined)).toBe("no clock");
  });
});

describe("the note under who is online", () => {
  it("says no one else is online when the list holds only the viewer, or no one", () => {
    expect(onlineNoteWords(["ann"], "ann", false)).toMatch(/^No one else is online now/);
    expect(onlineNoteWords([], "ann", false)).toMatch(/^No one else is online now/);
  });

  it("says nothing when someone else is there to play, and that there are more past the page", () => {
    expect(onlineNoteWords(["ann", "bob"], "ann", false)).toBe("");
    expect(onlineNoteWords(["ann"], "ann", true)).toBe("…and more.");
  });
});
