import { create, type MessageInitShape } from "@bufbuild/protobuf";
import { describe, expect, it } from "vitest";
import { FevgaPrimes, FevgaQuarterTest, FirstChecker, GameResult, Variant } from "../gen/tavli/v1/board_pb";
import { Action, Backgammons, CubeMode, EventKind, GameEnd, GameEventSchema, Phase, RuleSetSchema, Seat } from "../gen/tavli/v1/games_service_pb";
import { backgammonGame } from "./fixtures.test-helpers";
import {
  cubeText,
  diceText,
  doubleOfferText,
  eventText,
  gameOverText,
  greekOptionsText,
  lastPlayText,
  matchLengthText,
  matchOverText,
  phaseName,
  resignLevels,
  resignationOfferText,
  scoreText,
  statusText,
} from "./text";

describe("the status line says whose turn it is and what is expected", () => {
  it("my turn to roll, with the double when it is listed", () => {
    const game = backgammonGame({ phase: Phase.ROLLING, turn: Seat.SEAT_0 });
    expect(statusText(game, Seat.SEAT_0, [Action.ROLL, Action.DOUBLE, Action.RESIGN])).toBe("Your turn: roll or double");
    expect(statusText(game, Seat.SEAT_0, [Action.ROLL])).toBe("Your turn: roll");
  });

  it("my turn to play the dice rolled", () => {
    const game = backgammonGame({ phase: Phase.PLAYING, turn: Seat.SEAT_0, dice: [6, 4] });
    expect(statusText(game, Seat.SEAT_0, [Action.PLAY])).toBe("Your turn: play your 6-4");
  });

  it("a bot thinks, a person is waited for", () => {
    const game = backgammonGame({ phase: Phase.ROLLING, turn: Seat.SEAT_1, toAct: [Seat.SEAT_1] });
    expect(statusText(game, Seat.SEAT_0, [])).toBe("Computer (Heuristic) is thinking (to roll)");
    expect(statusText(game, Seat.SEAT_1, [Action.ROLL])).toBe("Your turn: roll");
    const human = backgammonGame({ phase: Phase.ROLLING, turn: Seat.SEAT_0, seat1Player: { displayName: "Ben" } });
    expect(statusText(human, Seat.SEAT_1, [])).toBe("Waiting for Anna (to roll)");
  });

  it("a double to answer", () => {
    const game = backgammonGame({ phase: Phase.DOUBLED, turn: Seat.SEAT_1, cubeValue: 2, cubeOwner: Seat.SEAT_0 });
    expect(statusText(game, Seat.SEAT_0, [Action.TAKE, Action.DROP])).toBe("Computer (Heuristic) doubles to 4: take or drop");
    expect(doubleOfferText(game)).toContain("the cube goes to 4");
    expect(doubleOfferText(game)).toContain("2 points in the match");
  });

  it("a resignation to answer, with its points", () => {
    const game = backgammonGame({
      phase: Phase.RESIGNING,
      resignation: { seat: Seat.SEAT_1, result: GameResult.GAMMON, points: 4 },
    });
    expect(statusText(game, Seat.SEAT_0, [Action.ACCEPT, Action.REJECT])).toBe(
      "Computer (Heuristic) offers to resign a gammon: you win 4 points if you accept",
    );
    expect(resignationOfferText(game)).toContain("4 points");
  });

  it("a watcher reads names only", () => {
    const game = backgammonGame({ phase: Phase.PLAYING, turn: Seat.SEAT_1, dice: [3, 3] });
    expect(statusText(game, null, [])).toBe("Computer (Heuristic) to play 3-3");
  });
});

describe("what the table says around the board", () => {
  it("names the phase as data-phase does", () => {
    expect(phaseName(Phase.ROLLING)).toBe("ROLLING");
    expect(phaseName(Phase.MATCH_OVER)).toBe("MATCH_OVER");
  });

  it("says the cube and its owner", () => {
    expect(cubeText(backgammonGame(), Seat.SEAT_0)).toBe("Cube: 1, in the middle");
    expect(cubeText(backgammonGame({ cubeValue: 2, cubeOwner: Seat.SEAT_0 }), Seat.SEAT_0)).toBe("Cube: 2, owned by you");
    expect(cubeText(backgammonGame({ cubeValue: 2, cubeOwner: Seat.SEAT_0 }), null)).toBe("Cube: 2, owned by Anna");
    const nardi = backgammonGame({ ruleSet: { variant: Variant.LONG_NARDI, cube: CubeMode.NO_CUBE } });
    expect(cubeText(nardi, Seat.SEAT_0)).toBe("No cube");
  });

  it("writes the last play with its dice", () => {
    const game = backgammonGame({ lastPlay: { seat: Seat.SEAT_1, dice: [6, 4], notation: "24/18 13/9" } });
    expect(lastPlayText(game, Seat.SEAT_0)).toBe("Computer (Heuristic) played 6-4: 24/18 13/9");
    expect(lastPlayText(backgammonGame(), Seat.SEAT_0)).toBe("");
  });

  it("score and match length, or money play and its total", () => {
    const game = backgammonGame({ score: [3n, 1n] });
    expect(scoreText(game, Seat.SEAT_1)).toBe("Score: You 1, Anna 3");
    expect(matchLengthText(game)).toBe("Match to 5 points, game 1");
    const money = backgammonGame({ ruleSet: { variant: Variant.BACKGAMMON, matchLength: 0 }, score: [12n, 4n], gameNumber: 6 });
    expect(scoreText(money, null)).toBe("Total: Anna 12, Computer (Heuristic) 4");
    expect(matchLengthText(money)).toBe("Money play, game 6");
  });

  it("a name that would turn the score line around is isolated, and the score stays where it is", () => {
    const reversing = backgammonGame({ score: [2n, 1n], seat0Player: { displayName: "\u202Eeve" } });
    expect(scoreText(reversing, Seat.SEAT_1)).toBe("Score: You 1, \u2068\u202Eeve\u2069 2");
    const hebrew = backgammonGame({ score: [2n, 1n], seat0Player: { displayName: "אבי" } });
    expect(scoreText(hebrew, null)).toBe("Score: \u2068אבי\u2069 2, Computer (Heuristic) 1");
    expect(scoreText(backgammonGame({ score: [2n, 1n] }), Seat.SEAT_1)).toBe("Score: You 1, Anna 2");
  });

  it("while a finished game is held, the match line names it and its result, not the next game", () => {
    const game = backgammonGame({ score: [2n, 1n], gameNumber: 3 });
    const won = { gameNumber: 2, winner: Seat.SEAT_0, result: GameResult.GAMMON, points: 2, cubeValue: 1, endedBy: GameEnd.PLAY } as never;
    expect(matchLengthText(game, won, Seat.SEAT_0)).toBe("Match to 5 points, game 2 over: you win 2 points");
    expect(matchLengthText(game, won, Seat.SEAT_1)).toBe("Match to 5 points, game 2 over: Anna wins 2 points");
    expect(matchLengthText(game, null, Seat.SEAT_0)).toBe("Match to 5 points, game 3");
  });

  it("a tavli match names the game of the rotation in play, and the next one between games", () => {
    const rules = { variant: Variant.TAVLI, matchLength: 3, cube: CubeMode.NO_CUBE };
    const second = backgammonGame({ ruleSet: rules, gameNumber: 2, variant: Variant.PLAKOTO, nextVariant: Variant.FEVGA });
    expect(matchLengthText(second)).toBe("Tavli match to 3 points, game 2 of the rotation: Plakoto");
    expect(matchLengthText(backgammonGame({ ruleSet: rules, gameNumber: 1, variant: Variant.BACKGAMMON }))).toBe(
      "Tavli match to 3 points, game 1 of the rotation: Portes",
    );
    const drawn = { gameNumber: 2, winner: Seat.SEAT_UNSPECIFIED, result: GameResult.DRAW, points: 0, endedBy: GameEnd.DRAW } as never;
    const third = backgammonGame({ ruleSet: rules, gameNumber: 3, variant: Variant.FEVGA, nextVariant: Variant.BACKGAMMON });
    expect(matchLengthText(third, drawn, Seat.SEAT_0)).toBe("Tavli match to 3 points, game 2 over: a draw, nobody scores; next: Fevga");
    const mother = { gameNumber: 2, winner: Seat.SEAT_1, result: GameResult.MOTHER, points: 2, endedBy: GameEnd.MOTHER } as never;
    expect(matchLengthText(second, mother, Seat.SEAT_0)).toBe("Tavli match to 3 points, game 2 over: Computer (Heuristic) wins 2 points; next: Fevga");
  });

  it("the end of a Plakoto game by the mother, or drawn", () => {
    const game = backgammonGame({ ruleSet: { variant: Variant.PLAKOTO, matchLength: 3 } });
    const mother = { gameNumber: 1, winner: Seat.SEAT_0, result: GameResult.MOTHER, points: 2, cubeValue: 1, endedBy: GameEnd.MOTHER } as never;
    expect(gameOverText(game, mother, Seat.SEAT_0)).toBe(
      "Game 1: You win a game by the mother, 2 points, by pinning the mother (the last checker on its 24-point).",
    );
    const drawn = { gameNumber: 1, winner: Seat.SEAT_UNSPECIFIED, result: GameResult.DRAW, points: 0, endedBy: GameEnd.DRAW } as never;
    expect(gameOverText(game, drawn, Seat.SEAT_0)).toBe("Game 1: a draw, both mothers pinned: nobody scores.");
    expect(resignLevels(Variant.TAVLI)).toEqual([GameResult.SINGLE, GameResult.GAMMON]);
    expect(resignLevels(Variant.PLAKOTO)).toEqual([GameResult.SINGLE, GameResult.GAMMON]);
  });

  it("the end of a game: winner, result, points, how", () => {
    const game = backgammonGame();
    const text = gameOverText(
      game,
      { gameNumber: 2, winner: Seat.SEAT_0, result: GameResult.GAMMON, points: 4, cubeValue: 2, endedBy: GameEnd.PLAY } as never,
      Seat.SEAT_0,
    );
    expect(text).toBe("Game 2: You win a gammon (cube at 2), 4 points, by bearing off the last checker.");
    const dropped = gameOverText(
      game,
      { gameNumber: 1, winner: Seat.SEAT_1, result: GameResult.SINGLE, points: 1, cubeValue: 1, endedBy: GameEnd.DROP } as never,
      Seat.SEAT_0,
    );
    expect(dropped).toBe("Game 1: Computer (Heuristic) wins a single game, 1 point, by a dropped double.");
  });

  it("the end of the match with the final score", () => {
    const game = backgammonGame({ phase: Phase.MATCH_OVER, winner: Seat.SEAT_1, score: [2n, 5n] });
    expect(matchOverText(game, Seat.SEAT_1)).toBe("The match is over: You win the match. Final score: Anna 2, Computer (Heuristic) 5.");
  });

  it("resigns single, gammon, backgammon; single or mars in long nardi", () => {
    expect(resignLevels(Variant.BACKGAMMON)).toEqual([GameResult.SINGLE, GameResult.GAMMON, GameResult.BACKGAMMON]);
    expect(resignLevels(Variant.LONG_NARDI)).toEqual([GameResult.SINGLE, GameResult.MARS]);
    expect(resignLevels(Variant.BACKGAMMON, Backgammons.AS_GAMMON)).toEqual([GameResult.SINGLE, GameResult.GAMMON]);
    expect(resignLevels(Variant.BACKGAMMON, Backgammons.COUNTED)).toEqual([GameResult.SINGLE, GameResult.GAMMON, GameResult.BACKGAMMON]);
  });
});

describe("the Greek games' options the table names", () => {
  it("says nothing of rules played as the book writes them", () => {
    expect(greekOptionsText(undefined)).toBe("");
    expect(greekOptionsText(create(RuleSetSchema, { variant: Variant.TAVLI, matchLength: 5 }))).toBe("");
    expect(greekOptionsText(create(RuleSetSchema, { variant: Variant.PLAKOTO, pinnedBlocksBearOff: true, motherException: true, motherValue: 2 }))).toBe("");
  });

  it("names each option that departs from the book, in its words", () => {
    const plakoto = create(RuleSetSchema, { variant: Variant.PLAKOTO, pinnedBlocksBearOff: false, motherException: false, motherValue: 3 });
    expect(greekOptionsText(plakoto)).toBe(
      "Rules: a pinned checker does not stop its side bearing off; a pinned mother loses at once; a mother loss is worth 3 points",
    );
    const fevga = create(RuleSetSchema, { variant: Variant.FEVGA, firstChecker: FirstChecker.INTO_START_QUARTER, fevgaQuarterTest: FevgaQuarterTest.STEP });
    expect(greekOptionsText(fevga)).toBe(
      "Rules: the first checker frees the others on reaching the opponent's starting quarter; the starting quarter is tested after every step",
    );
    expect(greekOptionsText(create(RuleSetSchema, { fevgaPrimes: FevgaPrimes.NO_PRIME_UNLESS_PASSED }))).toBe(
      "Rules: six points in a row only with an opposing checker ahead of them",
    );
    expect(greekOptionsText(create(RuleSetSchema, { fevgaPrimes: FevgaPrimes.NONE }))).toBe("Rules: six points in a row allowed anywhere");
  });
});

describe("the table's messages", () => {
  const event = (init: MessageInitShape<typeof GameEventSchema>) => create(GameEventSchema, init);

  it("writes a roll the higher die first, as players say it", () => {
    expect(diceText([1, 4])).toBe("4-1");
    expect(diceText([6, 6])).toBe("6-6");
    const game = backgammonGame({ phase: Phase.PLAYING, turn: Seat.SEAT_0, dice: [2, 5] });
    expect(statusText(game, Seat.SEAT_0, [Action.PLAY])).toBe("Your turn: play your 5-2");
  });

  it("says what each event did, the other seat by its name and mine as you", () => {
    const game = backgammonGame();
    const say = (init: MessageInitShape<typeof GameEventSchema>, me: Seat | null = Seat.SEAT_0) => eventText(game, event(init), me);
    expect(say({ kind: EventKind.TAKE, seat: Seat.SEAT_1 })).toBe("Computer (Heuristic) took the double.");
    expect(say({ kind: EventKind.REJECT, seat: Seat.SEAT_1 })).toBe("Computer (Heuristic) rejected the resignation.");
    expect(say({ kind: EventKind.ROLL, seat: Seat.SEAT_0, dice: [1, 4] })).toBe("You rolled 4-1.");
    expect(say({ kind: EventKind.PLAY, seat: Seat.SEAT_1, notation: "" , forced: true })).toBe("Computer (Heuristic) played no move (forced, played by the server).");
    expect(say({ kind: EventKind.RESIGN, seat: Seat.SEAT_0, resignationResult: GameResult.GAMMON }, null)).toBe("Anna offered to resign a gammon.");
    expect(say({ kind: EventKind.OPENING_THROW, openingThrows: [{ seat0Die: 3, seat1Die: 3 }, { seat0Die: 2, seat1Die: 6 }] })).toBe(
      "Throw for who starts: Anna 2, Computer (Heuristic) 6 (after 1 tie). Computer (Heuristic) starts.",
    );
    expect(say({ kind: EventKind.TIME_RAN_OUT, seat: Seat.SEAT_0 })).toBe("You ran out of time.");
    expect(say({ kind: EventKind.DICE_COMMITTED })).toBe("");
  });
});
