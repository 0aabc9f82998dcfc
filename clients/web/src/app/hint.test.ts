import { describe, expect, it } from "vitest";
import { CubeAction, CubeOwner, CubeResponse } from "../gen/tavli/v1/analysis_service_pb";
import { HomeHitAndRun, Start, Variant } from "../gen/tavli/v1/board_pb";
import { CubeMode, Seat } from "../gen/tavli/v1/games_service_pb";
import type { MessageInitShape } from "@bufbuild/protobuf";
import type { GameSchema } from "../gen/tavli/v1/games_service_pb";
import { backgammonGame as fixture } from "./fixtures.test-helpers";
import { cubeActionText, cubeDecisionRequest, cubeResponseText, equityText, gameContext, lossText, noHintReason, rankedPlaysRequest } from "./hint";

/** A backgammon game as the server sends it: the variant in play named. */
const backgammonGame = (fields: MessageInitShape<typeof GameSchema> = {}) => fixture({ variant: Variant.BACKGAMMON, ...fields });

const TWO_PEOPLE = { seat1Player: { displayName: "Bob" } };

describe("which tables offer hints", () => {
  it("offers them against the computer always", () => {
    expect(noHintReason(backgammonGame(), Seat.SEAT_0)).toBeNull();
  });

  it("offers them between two people only where the table was created with them", () => {
    expect(noHintReason(backgammonGame(TWO_PEOPLE), Seat.SEAT_0)).toBe("This table was created without hints.");
    expect(noHintReason(backgammonGame({ ...TWO_PEOPLE, hintsAllowed: true }), Seat.SEAT_1)).toBeNull();
  });

  it("offers none to a watcher", () => {
    expect(noHintReason(backgammonGame(), null)).not.toBeNull();
  });

  it("offers none in the games GNU Backgammon does not evaluate", () => {
    const nardi = backgammonGame({ variant: Variant.LONG_NARDI, ruleSet: { variant: Variant.LONG_NARDI, matchLength: 5 } });
    const hyper = backgammonGame({ variant: Variant.BACKGAMMON, ruleSet: { variant: Variant.BACKGAMMON, start: Start.HYPERGAMMON_3 } });
    const plakoto = backgammonGame({ variant: Variant.PLAKOTO, ruleSet: { variant: Variant.TAVLI, matchLength: 3 } });
    const tavla = backgammonGame({ variant: Variant.BACKGAMMON, ruleSet: { variant: Variant.BACKGAMMON, homeHitAndRun: HomeHitAndRun.FORBIDDEN } });
    for (const game of [nardi, hyper, plakoto, tavla]) {
      expect(noHintReason(game, Seat.SEAT_0)).toMatch(/GNU Backgammon/);
    }
    const nack = backgammonGame({ variant: Variant.BACKGAMMON, ruleSet: { variant: Variant.BACKGAMMON, start: Start.NACKGAMMON } });
    expect(noHintReason(nack, Seat.SEAT_0)).toBeNull();
  });
});

describe("the question asked", () => {
  it("gives the score and the cube from the side on roll", () => {
    const game = backgammonGame({ turn: Seat.SEAT_1, score: [3n, 1n], cubeValue: 2, cubeOwner: Seat.SEAT_0, crawford: false });
    expect(gameContext(game, 2)).toEqual({
      matchLength: 5,
      playerScore: 1,
      opponentScore: 3,
      crawford: false,
      cubeValue: 2,
      cubeOwner: CubeOwner.OPPONENT,
      jacoby: false,
      beavers: false,
      plies: 2,
    });
    expect(gameContext(backgammonGame({ cubeValue: 4, cubeOwner: Seat.SEAT_0 }), 0).cubeOwner).toBe(CubeOwner.PLAYER);
    expect(gameContext(backgammonGame(), 0).cubeOwner).toBe(CubeOwner.UNSPECIFIED);
  });

  it("asks money play's questions with the game's Jacoby rule and beavers, a match's without", () => {
    const rules = { variant: Variant.BACKGAMMON, cube: CubeMode.CUBE, jacoby: true, beavers: true };
    const money = backgammonGame({ ruleSet: { ...rules, matchLength: 0 } });
    expect(gameContext(money, 0)).toMatchObject({ jacoby: true, beavers: true });
    const plain = backgammonGame({ ruleSet: { variant: Variant.BACKGAMMON, matchLength: 0, cube: CubeMode.CUBE } });
    expect(gameContext(plain, 0)).toMatchObject({ jacoby: false, beavers: false });
    const match = backgammonGame({ ruleSet: { ...rules, matchLength: 5 } });
    expect(gameContext(match, 0)).toMatchObject({ jacoby: false, beavers: false });
  });

  it("keeps money play's scores out of the context", () => {
    const money = backgammonGame({ ruleSet: { variant: Variant.BACKGAMMON, matchLength: 0, cube: CubeMode.CUBE }, score: [7n, 2n] });
    expect(gameContext(money, 1)).toMatchObject({ matchLength: 0, playerScore: 0, opponentScore: 0, plies: 1 });
  });

  it("asks for the roll's plays of the position on roll, and the cube before a roll", () => {
    const game = backgammonGame({ positionId: "4HPwATDgc/ABMA", dice: [3, 1] });
    expect(rankedPlaysRequest(game, 0)).toMatchObject({ variant: Variant.BACKGAMMON, dice: [3, 1], position: { form: { case: "positionId", value: "4HPwATDgc/ABMA" } } });
    expect(cubeDecisionRequest(game, 2)).toMatchObject({ position: { form: { case: "positionId", value: "4HPwATDgc/ABMA" } }, context: { plies: 2 } });
  });
});

describe("the answers in words", () => {
  it("writes equities signed to three decimals, and the best play's loss as best", () => {
    expect(equityText(0.1234)).toBe("+0.123");
    expect(equityText(-0.0456)).toBe("\u22120.046");
    expect(equityText(0.0002)).toBe("0.000");
    expect(lossText(0)).toBe("best");
    expect(lossText(0.0004)).toBe("best");
    expect(lossText(0.045)).toBe("\u22120.045");
  });

  it("names the cube's actions and answers as players say them", () => {
    expect(cubeActionText(CubeAction.NO_DOUBLE)).toBe("No double");
    expect(cubeActionText(CubeAction.TOO_GOOD)).toBe("Too good to double");
    expect(cubeResponseText(CubeResponse.PASS)).toBe("Pass");
  });
});
