import { create, type MessageInitShape } from "@bufbuild/protobuf";
import { describe, expect, it } from "vitest";
import { AnalyzeMatchResponseSchema, AnalyzedDecisionSchema, DecisionKind, PlayerStatisticsSchema } from "../gen/tavli/v1/analysis_service_pb";
import { EventKind, GameEventSchema, Seat } from "../gen/tavli/v1/games_service_pb";
import { startPoints } from "./fixtures.test-helpers";
import { matchRecord, type RecordRules } from "./record";
import { STATISTIC_ROWS, boardMessageFor, boardOfDecision, decisionText, emptyReview, errorMark, foldReview, graphPoints } from "./review";

const RULES: RecordRules = { variant: "backgammon", usesCube: true, automaticDoubles: 0, cubeLimit: 64 };
const decision = (fields: MessageInitShape<typeof AnalyzedDecisionSchema>) => create(AnalyzedDecisionSchema, fields);
const message = (item: MessageInitShape<typeof AnalyzeMatchResponseSchema>["item"]) => create(AnalyzeMatchResponseSchema, { item });

describe("the marks of errors", () => {
  it("marks a loss as GNU Backgammon does: ?! from 0.03, ? from 0.06, ?? from 0.12", () => {
    expect(errorMark(0.029)).toBeNull();
    expect(errorMark(0.03)?.mark).toBe("?!");
    expect(errorMark(0.059)?.mark).toBe("?!");
    expect(errorMark(0.06)?.mark).toBe("?");
    expect(errorMark(0.119)?.mark).toBe("?");
    expect(errorMark(0.12)?.mark).toBe("??");
    expect(errorMark(0.9)?.words).toMatch(/blunder/);
  });
});

describe("the review folded from the stream", () => {
  it("keeps the progress, every decision in order and the statistics last", () => {
    let review = emptyReview();
    review = foldReview(review, message({ case: "progress", value: { analyzed: 1, total: 3 } }));
    expect([review.analyzed, review.total]).toEqual([1, 3]);
    review = foldReview(review, message({ case: "decision", value: { game: 1, move: 1, player: "Anna", loss: 0.2 } }));
    review = foldReview(review, message({ case: "decision", value: { game: 1, move: 2, player: "Bob", side: 1 } }));
    expect(review.players).toBeNull();
    review = foldReview(review, message({ case: "statistics", value: { players: [{ name: "Anna", rating: "Beginner" }, { name: "Bob" }] } }));
    expect(review.decisions.map((d) => d.player)).toEqual(["Anna", "Bob"]);
    expect(review.players?.map((p) => p.name)).toEqual(["Anna", "Bob"]);
    expect(review.analyzed).toBe(3);
  });

  it("writes a decision with its roll, its play and its mark", () => {
    const played = decision({ game: 1, move: 3, player: "Anna", kind: DecisionKind.CHEQUER, dice: [6, 4], played: "24/14", best: "24/18 13/9", loss: 0.2 });
    expect(decisionText(played)).toBe("3. Anna: 6-4 24/14 ??");
    const cube = decision({ game: 1, move: 5, player: "Bob", kind: DecisionKind.CUBE, played: "Double", best: "No double", loss: 0.05 });
    expect(decisionText(cube)).toBe("5. Bob: Double ?!");
  });

  it("counts each side's whole error along the graph", () => {
    const points = graphPoints([decision({ loss: 0.1 }), decision({ side: 1, loss: 0.05 }), decision({ loss: 0.02 })]);
    expect(points.map((p) => p.side)).toEqual([0, 1, 0]);
    expect(points[2].total[0]).toBeCloseTo(0.12);
    expect(points[2].total[1]).toBeCloseTo(0.05);
  });

  it("draws each decision's equity from the first player's side, the second's negated", () => {
    const points = graphPoints([decision({ equity: 0.25 }), decision({ side: 1, equity: 0.4 }), decision({ side: 1, equity: -1.5 })]);
    expect(points.map((p) => p.equity)).toEqual([0.25, -0.4, 1.5]);
  });

  it("shows each statistic of a player", () => {
    const values = Object.fromEntries(
      STATISTIC_ROWS.map((row) => [row.key, row.value(create(PlayerStatisticsSchema, { unforcedMoves: 12, pr: 4.26, luckRate: 3.1, rating: "Expert" }))]),
    );
    expect(values).toMatchObject({ unforced_moves: "12", pr: "4.3", luck_rate: "+3.1", rating: "Expert" });
  });
});

describe("the board a decision was made on", () => {
  const step = (fromPoint: number, toPoint: number, die: number) => ({ fromPoint, toPoint, die, hit: false });
  const events = [
    { kind: EventKind.OPENING_THROW, openingThrows: [{ seat0Die: 3, seat1Die: 1 }] },
    { kind: EventKind.PLAY, seat: Seat.SEAT_0, notation: "8/5 6/5", steps: [step(8, 5, 3), step(6, 5, 1)] },
    { kind: EventKind.ROLL, seat: Seat.SEAT_1, dice: [6, 4] },
    { kind: EventKind.PLAY, seat: Seat.SEAT_1, notation: "24/14", steps: [step(24, 18, 6), step(18, 14, 4)] },
  ].map((event, i) => create(GameEventSchema, { ...event, sequence: BigInt(i) }));
  const record = matchRecord(events, RULES);

  it("is the start for the opening play, with its dice", () => {
    const board = boardOfDecision(record, RULES, decision({ game: 1, move: 1, kind: DecisionKind.CHEQUER, dice: [3, 1] }));
    expect(board?.me.points).toEqual(startPoints());
    expect(board?.dice).toEqual([3, 1]);
    expect(board?.diceSide).toBe("me");
  });

  it("is the position after the moves before it, from the mover's side in the API's board", () => {
    const board = boardOfDecision(record, RULES, decision({ game: 1, move: 2, side: 1, kind: DecisionKind.CHEQUER, dice: [6, 4] }));
    expect(board?.diceSide).toBe("them");
    expect(board?.me.points[4]).toBe(2); // seat 0 made its 5-point
    const message = boardMessageFor(board!, "them");
    expect(message.playerPoints).toEqual(startPoints());
    expect(message.opponentPoints[4]).toBe(2);
  });

  it("is none for a game the record does not have", () => {
    expect(boardOfDecision(record, RULES, decision({ game: 2, move: 1 }))).toBeNull();
  });
});
