import { describe, expect, it } from "vitest";
import { Phase, Seat } from "../gen/tavli/v1/games_service_pb";
import { backgammonGame } from "./fixtures.test-helpers";
import { awaitsRematch, botOf, rematchStep } from "./rematch-step";

const over = { phase: Phase.MATCH_OVER, winner: Seat.SEAT_0 };
const people = { seat0Player: { displayName: "Anna" }, seat1Player: { displayName: "Bob" } };

describe("what the rematch box offers a seat at the end of the match", () => {
  it("nothing before the match is over, nothing to a watcher", () => {
    expect(rematchStep(backgammonGame(), Seat.SEAT_0, false)).toEqual({ kind: "none" });
    expect(rematchStep(backgammonGame(over), null, true)).toEqual({ kind: "none" });
  });

  it("against the computer: a new game at once, with the same bot", () => {
    const game = backgammonGame(over);
    expect(rematchStep(game, Seat.SEAT_0, true)).toEqual({ kind: "computer", bot: "heuristic" });
    expect(botOf(game, Seat.SEAT_1)).toBe("heuristic");
  });

  it("at a table for two: offer, wait, accept, then both join", () => {
    const none = backgammonGame({ ...over, ...people });
    expect(rematchStep(none, Seat.SEAT_1, true)).toEqual({ kind: "offer" });
    const offered = backgammonGame({ ...over, ...people, rematch: { offeredBy: Seat.SEAT_0 } });
    expect(rematchStep(offered, Seat.SEAT_0, true)).toEqual({ kind: "offered", text: "You offered a rematch: waiting for Bob to accept it." });
    expect(rematchStep(offered, Seat.SEAT_1, true)).toEqual({ kind: "accept", text: "Anna offers a rematch." });
    const agreed = backgammonGame({ ...over, ...people, rematch: { offeredBy: Seat.SEAT_0, game: "games/next" } });
    expect(rematchStep(agreed, Seat.SEAT_0, true)).toEqual({ kind: "join", game: "games/next" });
    expect(rematchStep(agreed, Seat.SEAT_1, true)).toEqual({ kind: "join", game: "games/next" });
  });
});

describe("whether a seat's page watches a finished match for a rematch", () => {
  it("at a table for two, until the page has gone to the agreed rematch", () => {
    for (const rematch of [undefined, { offeredBy: Seat.SEAT_0 }, { offeredBy: Seat.SEAT_1, game: "games/next" }]) {
      const game = backgammonGame({ ...over, ...people, rematch });
      expect(awaitsRematch(rematchStep(game, Seat.SEAT_0, true))).toBe(true);
      expect(awaitsRematch(rematchStep(game, Seat.SEAT_1, true))).toBe(true);
    }
  });

  it("not against the computer (it starts at once), not for a watcher, not before the match is over", () => {
    expect(awaitsRematch(rematchStep(backgammonGame(over), Seat.SEAT_0, true))).toBe(false);
    expect(awaitsRematch(rematchStep(backgammonGame({ ...over, ...people }), null, true))).toBe(false);
    expect(awaitsRematch(rematchStep(backgammonGame(people), Seat.SEAT_0, false))).toBe(false);
  });
});
