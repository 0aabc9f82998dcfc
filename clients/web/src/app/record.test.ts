import { create, type MessageInitShape } from "@bufbuild/protobuf";
import { describe, expect, it } from "vitest";
import { GameResult, Variant } from "../gen/tavli/v1/board_pb";
import { EventKind, GameEnd, GameEventSchema, Seat, type GameEvent } from "../gen/tavli/v1/games_service_pb";
import { backgammonGame, startPoints } from "./fixtures.test-helpers";
import { boardForSeat, entryText, gameResultText, matchRecord, moveRows, recordRules, startBoard, turnText, type RecordRules } from "./record";

const BACKGAMMON: RecordRules = { variant: "backgammon", usesCube: true, automaticDoubles: 0, cubeLimit: 64 };
const NARDI: RecordRules = { variant: "long-nardi", usesCube: false, automaticDoubles: 0, cubeLimit: 0 };

/** A log as the server writes it: each event numbered in order. */
function log(...events: MessageInitShape<typeof GameEventSchema>[]): GameEvent[] {
  return events.map((event, i) => create(GameEventSchema, { ...event, sequence: BigInt(i) }));
}

const step = (fromPoint: number, toPoint: number, die: number, hit = false) => ({ fromPoint, toPoint, die, hit });
const S0 = Seat.SEAT_0;
const S1 = Seat.SEAT_1;

/** Seat 0's points after changes to the start: {point: count}. */
function pointsWith(changes: Record<number, number>): number[] {
  const points = startPoints();
  for (const [point, count] of Object.entries(changes)) points[Number(point) - 1] = count;
  return points;
}

// A two-game match: game 1 opens with 3-1 (seat 0 plays 8/5 6/5), seat 1 rolls 6-4 and hits
// (24/18 13/9*... in its own numbering 24/14* is not possible; it plays 13/9 24/18), a hit from
// seat 0, a double and a drop; game 2 a throw after a tie, a play and a resignation accepted.
const MATCH = log(
  { kind: EventKind.OPENING_THROW, seat: S0, openingThrows: [{ seat0Die: 3, seat1Die: 1 }] },
  { kind: EventKind.PLAY, seat: S0, notation: "8/5 6/5", steps: [step(8, 5, 3), step(6, 5, 1)] },
  { kind: EventKind.ROLL, seat: S1, dice: [6, 4] },
  // Seat 1's 13/9 lands on seat 0's 12-point (empty); its 24/18 on seat 0's 7-point (empty).
  { kind: EventKind.PLAY, seat: S1, notation: "24/18 13/9", steps: [step(24, 18, 6), step(13, 9, 4)] },
  { kind: EventKind.ROLL, seat: S0, dice: [5, 6] },
  // Seat 0's 13/7* hits seat 1's blot on its 18-point (seat 0's 7-point).
  { kind: EventKind.PLAY, seat: S0, notation: "13/7* 13/8", steps: [step(13, 7, 6, true), step(13, 8, 5)] },
  { kind: EventKind.DOUBLE, seat: S1 },
  { kind: EventKind.DROP, seat: S0 },
  { kind: EventKind.OPENING_THROW, seat: S1, openingThrows: [{ seat0Die: 2, seat1Die: 2 }, { seat0Die: 2, seat1Die: 5 }] },
  { kind: EventKind.PLAY, seat: S1, notation: "13/8 13/11", steps: [step(13, 8, 5), step(13, 11, 2)] },
  { kind: EventKind.RESIGN, seat: S0, resignationResult: GameResult.GAMMON },
  { kind: EventKind.REJECT, seat: S1 },
  { kind: EventKind.ROLL, seat: S0, dice: [1, 1] },
  { kind: EventKind.PLAY, seat: S0, notation: "", steps: [], forced: true },
  { kind: EventKind.RESIGN, seat: S0, resignationResult: GameResult.SINGLE },
  { kind: EventKind.ACCEPT, seat: S1 },
);

describe("a match's events become the move list, game by game", () => {
  const record = matchRecord(MATCH, BACKGAMMON);

  it("splits the games where they end and numbers the entries in order", () => {
    expect(record.games.map((g) => g.number)).toEqual([1, 2]);
    expect(record.games[0].entries.map((e) => e.kind)).toEqual(["opening", "turn", "turn", "turn", "double", "drop"]);
    expect(record.games[1].entries.map((e) => e.kind)).toEqual(["opening", "turn", "resign", "reject", "turn", "resign", "accept"]);
    expect(record.entries.map((e) => e.index)).toEqual([...record.entries.keys()]);
    expect(record.entries.map((e) => e.gameNumber)).toEqual([1, 1, 1, 1, 1, 1, 2, 2, 2, 2, 2, 2, 2]);
  });

  it("joins each roll to its play, and the starter's play to the opening throw's dice", () => {
    const [, opening, reply, hit] = record.games[0].entries;
    expect(opening).toMatchObject({ seat: S0, dice: [3, 1], notation: "8/5 6/5", played: true, sequence: 1n });
    expect(reply).toMatchObject({ seat: S1, dice: [6, 4], notation: "24/18 13/9", sequence: 3n });
    expect(hit).toMatchObject({ seat: S0, dice: [5, 6], notation: "13/7* 13/8", sequence: 5n });
    const second = record.games[1].entries[1];
    expect(second).toMatchObject({ seat: S1, dice: [5, 2], notation: "13/8 13/11" });
  });

  it("keeps the board after each entry, from seat 0's side, hits on the bar", () => {
    const [opening, first, reply, hit] = record.games[0].entries;
    expect(opening.board.me.points).toEqual(startPoints());
    expect(opening.board.dice).toEqual([3, 1]);
    expect(opening.board.diceSide).toBe("me");
    expect(first.board.me.points).toEqual(pointsWith({ 8: 2, 6: 4, 5: 2 }));
    expect(first.board.them.points).toEqual(startPoints());
    expect(reply.board.them.points).toEqual(pointsWith({ 24: 1, 18: 1, 13: 4, 9: 1 }));
    expect(reply.board.diceSide).toBe("them");
    expect(hit.board.me.points).toEqual(pointsWith({ 13: 3, 8: 3, 7: 1, 6: 4, 5: 2 }));
    expect(hit.board.them.points).toEqual(pointsWith({ 24: 1, 18: 0, 13: 4, 9: 1 }));
    expect(hit.board.them.bar).toBe(1);
    expect(hit.board.pips).toEqual({ me: 167 - 4 - 11, them: 167 - 10 + 7 });
  });

  it("a roll waiting for its play shows the dice and no play yet", () => {
    const waiting = matchRecord(MATCH.slice(0, 3), BACKGAMMON).entries[2];
    expect(waiting).toMatchObject({ kind: "turn", seat: S1, dice: [6, 4], played: false });
    expect(waiting.board.me.points).toEqual(pointsWith({ 8: 2, 6: 4, 5: 2 }));
    expect(entryText(waiting, (seat) => (seat === S0 ? "Anna" : "Bob"))).toBe("Bob 6-4: …");
  });

  it("starts each game from the start position with the cube in the middle", () => {
    const [opening] = record.games[1].entries;
    expect(opening.board.me.points).toEqual(startPoints());
    expect(opening.board.them.bar).toBe(0);
    expect(opening.board.cube).toEqual({ value: 1, owner: null });
    expect(opening.ties).toBe(1);
    expect(opening.seat).toBe(S1);
  });

  it("a take doubles the cube to the taker, a beaver to four times", () => {
    const cube = log(
      { kind: EventKind.OPENING_THROW, seat: S0, openingThrows: [{ seat0Die: 3, seat1Die: 1 }] },
      { kind: EventKind.PLAY, seat: S0, notation: "8/5 6/5", steps: [step(8, 5, 3), step(6, 5, 1)] },
      { kind: EventKind.DOUBLE, seat: S1 },
      { kind: EventKind.TAKE, seat: S0 },
      { kind: EventKind.ROLL, seat: S1, dice: [2, 1] },
      { kind: EventKind.PLAY, seat: S1, notation: "24/23 13/11", steps: [step(24, 23, 1), step(13, 11, 2)] },
      { kind: EventKind.DOUBLE, seat: S0 },
      { kind: EventKind.BEAVER, seat: S1 },
    );
    const entries = matchRecord(cube, BACKGAMMON).entries;
    expect(entries[3].board.cube).toEqual({ value: 2, owner: "me" });
    expect(entries[5].board.cube).toEqual({ value: 2, owner: "me" });
    expect(entries[6].board.cube).toEqual({ value: 8, owner: "them" });
    const names = (seat: Seat) => (seat === S0 ? "Anna" : "Bob");
    expect(entries.map((e) => entryText(e, names))).toEqual([
      "Throw for who starts: Anna 3, Bob 1; Anna starts",
      "Anna 3-1: 8/5 6/5",
      "Bob doubles to 2",
      "Anna takes (cube at 2)",
      "Bob 2-1: 24/23 13/11",
      "Anna doubles to 4",
      "Bob beavers (cube at 8)",
    ]);
  });

  it("says each entry as players write a match: the higher die first", () => {
    const names = (seat: Seat) => (seat === S0 ? "You" : "Computer");
    expect(record.entries.map((e) => entryText(e, names))).toEqual([
      "Throw for who starts: You 3, Computer 1; you start",
      "You 3-1: 8/5 6/5",
      "Computer 6-4: 24/18 13/9",
      "You 6-5: 13/7* 13/8",
      "Computer doubles to 2",
      "You drop",
      "Throw for who starts: You 2, Computer 5 after 1 tie; Computer starts",
      "Computer 5-2: 13/8 13/11",
      "You offer to resign a gammon",
      "Computer rejects the resignation",
      "You 1-1: no move (forced)",
      "You offer to resign a single game",
      "Computer accepts the resignation",
    ]);
  });

  it("pairs the turns in numbered rows, seat 0's first, other entries on lines of their own", () => {
    const rows = moveRows(record.games[0].entries).map((row) =>
      row.kind === "line" ? row.entry.kind : [row.number, row.seat0 && turnText(row.seat0), row.seat1 && turnText(row.seat1)],
    );
    expect(rows).toEqual(["opening", [1, "3-1: 8/5 6/5", "6-4: 24/18 13/9"], [2, "6-5: 13/7* 13/8", null], "double", "drop"]);
    // Seat 1 starting the game: its turn opens a row with seat 0's cell empty.
    const second = moveRows(record.games[1].entries).map((row) =>
      row.kind === "line" ? row.entry.kind : [row.number, row.seat0 && turnText(row.seat0), row.seat1 && turnText(row.seat1)],
    );
    expect(second).toEqual(["opening", [1, null, "5-2: 13/8 13/11"], "resign", "reject", [2, "1-1: no move (forced)", null], "resign", "accept"]);
  });

  it("closes a finished game with its result", () => {
    const finished = { gameNumber: 1, winner: S1, result: GameResult.SINGLE, points: 1, cubeValue: 1, endedBy: GameEnd.DROP };
    expect(gameResultText(finished as never, (seat) => (seat === S0 ? "You" : "Computer"))).toBe("Computer wins a single game: 1 point");
    expect(gameResultText({ ...finished, winner: S0, points: 2, result: GameResult.GAMMON } as never, () => "You")).toBe("You win a gammon: 2 points");
  });

  it("shows a record's board from the seat the page sits at", () => {
    const hit = record.games[0].entries[3];
    const fromSeat1 = boardForSeat(hit.board, S1);
    expect(fromSeat1.me).toEqual(hit.board.them);
    expect(fromSeat1.them).toEqual(hit.board.me);
    expect(fromSeat1.diceSide).toBe("them");
    expect(boardForSeat(hit.board, S0)).toBe(hit.board);
  });
});

describe("long nardi's record", () => {
  it("starts from the heads and never hits", () => {
    const events = log(
      { kind: EventKind.OPENING_THROW, seat: S0, openingThrows: [{ seat0Die: 6, seat1Die: 2 }] },
      { kind: EventKind.ROLL, seat: S0, dice: [6, 2] },
      { kind: EventKind.PLAY, seat: S0, notation: "24/16", steps: [step(24, 18, 6), step(18, 16, 2)] },
      { kind: EventKind.ROLL, seat: S1, dice: [3, 3] },
      { kind: EventKind.PLAY, seat: S1, notation: "24/21 24/18", steps: [step(24, 21, 3), step(24, 21, 3), step(21, 18, 3), step(21, 18, 3)] },
    );
    const record = matchRecord(events, NARDI);
    expect(startBoard(NARDI).me.points[23]).toBe(15);
    const [, first, second] = record.entries;
    expect(first.board.me.points[23]).toBe(14);
    expect(first.board.me.points[15]).toBe(1);
    expect(second.board.them.points[23]).toBe(13);
    expect(second.board.them.points[17]).toBe(2);
    expect(second.board.them.bar + second.board.me.bar).toBe(0);
    expect(second.board.cube).toBeNull();
  });
});

describe("the rules of the fold come from the game", () => {
  it("reads the variant, the cube and automatic doubles", () => {
    const game = backgammonGame({
      ruleSet: { variant: Variant.BACKGAMMON, matchLength: 5, automaticDoubles: true, automaticDoublesLimit: 2, cubeLimit: 64 },
    });
    expect(recordRules(game)).toEqual({ variant: "backgammon", usesCube: true, automaticDoubles: 2, cubeLimit: 64 });
    const nardi = backgammonGame({ ruleSet: { variant: Variant.LONG_NARDI, matchLength: 1 } });
    expect(recordRules(nardi)).toMatchObject({ variant: "long-nardi", usesCube: false });
  });

  it("opening ties double the cube when the rules say so", () => {
    const events = log({ kind: EventKind.OPENING_THROW, seat: S0, openingThrows: [{ seat0Die: 4, seat1Die: 4 }, { seat0Die: 1, seat1Die: 1 }, { seat0Die: 5, seat1Die: 2 }] });
    expect(matchRecord(events, { ...BACKGAMMON, automaticDoubles: 1 }).entries[0].board.cube).toEqual({ value: 2, owner: null });
    expect(matchRecord(events, { ...BACKGAMMON, automaticDoubles: 3 }).entries[0].board.cube).toEqual({ value: 4, owner: null });
  });
});
