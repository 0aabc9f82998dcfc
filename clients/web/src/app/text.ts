// What the game screen says in words: the status line, the cube, the last play, the end of a
// game or a match. Pure functions of the Game, so that they can be tested without a page.

import { FevgaPrimes, FevgaQuarterTest, FirstChecker, GameResult, Variant } from "../gen/tavli/v1/board_pb";
import {
  Action, Backgammons, EventKind, GameEnd, Phase, Seat, type FinishedGame, type Game, type GameEvent, type RuleSet,
} from "../gen/tavli/v1/games_service_pb";
import { isBot, isMoneyPlay, otherSeat, playerName, scoreOf, usesCube } from "./convert";

/** The Phase enum's name without its prefix ("ROLLING"), as the page's data-phase shows it. */
export function phaseName(phase: Phase): string {
  return Phase[phase] ?? "UNSPECIFIED";
}

export function resultWord(result: GameResult): string {
  switch (result) {
    case GameResult.SINGLE:
      return "single game";
    case GameResult.GAMMON:
      return "gammon";
    case GameResult.BACKGAMMON:
      return "backgammon";
    case GameResult.MARS:
      return "mars";
    case GameResult.MOTHER:
      return "game by the mother";
    case GameResult.DRAW:
      return "draw";
    default:
      return "game";
  }
}

/** What a result is worth before the cube: 1, 2 or 3. */
export function resultMultiplier(result: GameResult): number {
  switch (result) {
    case GameResult.GAMMON:
    case GameResult.MARS:
      return 2;
    case GameResult.BACKGAMMON:
      return 3;
    default:
      return 1;
  }
}

export function endWords(end: GameEnd): string {
  switch (end) {
    case GameEnd.PLAY:
      return "by bearing off the last checker";
    case GameEnd.DROP:
      return "by a dropped double";
    case GameEnd.RESIGNATION:
      return "by resignation";
    case GameEnd.TIME:
      return "on time (the clock ran out)";
    case GameEnd.MOTHER:
      return "by pinning the mother (the last checker on its 24-point)";
    case GameEnd.DRAW:
      return "with both mothers pinned";
    default:
      return "";
  }
}

function points(n: number | bigint): string {
  return `${n} point${n === 1 || n === 1n ? "" : "s"}`;
}

/** "a single game", "a gammon": what is offered, with its article. */
function withArticle(result: GameResult): string {
  return `a ${resultWord(result)}`;
}

/** A roll as players say it, the higher die first: "4-1", "6-6". */
export function diceText(dice: readonly number[]): string {
  return [...dice].sort((a, b) => b - a).join("-");
}

/** The cube in words: "Cube: 2, owned by Anna", "Cube: 1, in the middle", "" without a cube. */
export function cubeText(game: Game, mySeat: Seat | null): string {
  if (!usesCube(game)) {
    return "No cube";
  }
  const value = game.cubeValue || 1;
  if (game.cubeOwner === Seat.SEAT_UNSPECIFIED) {
    return `Cube: ${value}, in the middle${game.crawford ? " (Crawford game: no doubling)" : ""}`;
  }
  const owner = game.cubeOwner === mySeat ? "you" : playerName(game, game.cubeOwner);
  return `Cube: ${value}, owned by ${owner}`;
}

/** The last play: "Anna played 6-4: 24/18 13/9", or "" before any play of this game. */
export function lastPlayText(game: Game, mySeat: Seat | null): string {
  const last = game.lastPlay;
  if (!last || last.seat === Seat.SEAT_UNSPECIFIED) {
    return "";
  }
  const who = last.seat === mySeat ? "You" : playerName(game, last.seat);
  const dice = last.dice.length ? ` ${diceText(last.dice)}` : "";
  const notation = last.notation || "no move (the roll could not be played)";
  return `${who} played${dice}: ${notation}`;
}

/** The score in words, from seat 0's side for a watcher, from mine for a player. */
export function scoreText(game: Game, mySeat: Seat | null): string {
  const me = mySeat ?? Seat.SEAT_0;
  const them = otherSeat(me);
  const mine = scoreOf(game, me);
  const theirs = scoreOf(game, them);
  const left = mySeat === null ? playerName(game, me) : "You";
  const total = isMoneyPlay(game) ? "Total" : "Score";
  return `${total}: ${left} ${mine}, ${playerName(game, them)} ${theirs}`;
}

/** A game's name as players say it ("Portes" for a tavli match's backgammon game). */
export function gameTitle(variant: Variant): string {
  switch (variant) {
    case Variant.LONG_NARDI:
      return "Long nardi";
    case Variant.PLAKOTO:
      return "Plakoto";
    case Variant.FEVGA:
      return "Fevga";
    default:
      return "Portes";
  }
}

/**
 * The match and the game it is at; `held`, a finished game whose final position is still shown,
 * is named with its result instead of the game that follows it, until the player goes on. A tavli
 * match names the game of the rotation in play, and the next one while a finished game is held.
 */
export function matchLengthText(game: Game, held: FinishedGame | null = null, mySeat: Seat | null = null): string {
  const length = game.ruleSet?.matchLength ?? 0;
  const tavli = game.ruleSet?.variant === Variant.TAVLI;
  const match = tavli ? `Tavli match to ${points(length)}` : length === 0 ? "Money play" : `Match to ${points(length)}`;
  if (held !== null) {
    const coming = game.gameNumber > held.gameNumber ? game.variant : game.nextVariant;
    const next = tavli && game.phase !== Phase.MATCH_OVER ? `; next: ${gameTitle(coming)}` : "";
    if (held.result === GameResult.DRAW) {
      return `${match}, game ${held.gameNumber} over: a draw, nobody scores${next}`;
    }
    const [winner, verb] = held.winner === mySeat ? ["you", "win"] : [playerName(game, held.winner), "wins"];
    return `${match}, game ${held.gameNumber} over: ${winner} ${verb} ${points(held.points)}${next}`;
  }
  if (!game.gameNumber) {
    return match;
  }
  return tavli ? `${match}, game ${game.gameNumber} of the rotation: ${gameTitle(game.variant)}` : `${match}, game ${game.gameNumber}`;
}

/**
 * The Plakoto and Fevga options of the rule set that depart from the rule book's defaults, in
 * the book's words ("" when it plays them all as written).
 */
export function greekOptionsText(rules: RuleSet | undefined): string {
  if (!rules) {
    return "";
  }
  const options: string[] = [];
  if (rules.pinnedBlocksBearOff === false) {
    options.push("a pinned checker does not stop its side bearing off");
  }
  if (rules.motherException === false) {
    options.push("a pinned mother loses at once");
  }
  if (rules.motherValue === 3) {
    options.push("a mother loss is worth 3 points");
  }
  if (rules.firstChecker === FirstChecker.INTO_START_QUARTER) {
    options.push("the first checker frees the others on reaching the opponent's starting quarter");
  }
  if (rules.fevgaPrimes === FevgaPrimes.NO_PRIME_UNLESS_PASSED) {
    options.push("six points in a row only with an opposing checker ahead of them");
  } else if (rules.fevgaPrimes === FevgaPrimes.NONE) {
    options.push("six points in a row allowed anywhere");
  }
  if (rules.fevgaQuarterTest === FevgaQuarterTest.STEP) {
    options.push("the starting quarter is tested after every step");
  }
  return options.length ? `Rules: ${options.join("; ")}` : "";
}

/**
 * The status line: whose turn it is and what is expected. `mySeat` null: a watcher.
 * `actions` are what ListLegalActions gave me for this state (empty while I wait).
 */
export function statusText(game: Game, mySeat: Seat | null, actions: readonly Action[]): string {
  const turnName = (seat: Seat) => playerName(game, seat);
  if (game.phase === Phase.MATCH_OVER) {
    return matchOverText(game, mySeat);
  }
  if (mySeat === null) {
    return watcherStatus(game);
  }
  const opponent = otherSeat(mySeat);
  const waiting = isBot(game, opponent) ? `${turnName(opponent)} is thinking` : `Waiting for ${turnName(opponent)}`;
  const has = (action: Action) => actions.includes(action);
  switch (game.phase) {
    case Phase.OPENING:
      return has(Action.ROLL) || game.toAct.includes(mySeat)
        ? "Throw for who starts: roll"
        : `Waiting for the throw for who starts`;
    case Phase.ROLLING:
      if (game.turn === mySeat) {
        return has(Action.DOUBLE) ? "Your turn: roll or double" : "Your turn: roll";
      }
      return `${waiting} (to roll)`;
    case Phase.PLAYING:
      if (game.turn === mySeat) {
        return `Your turn: play your ${diceText(game.dice)}`;
      }
      return `${waiting} (to play ${diceText(game.dice)})`;
    case Phase.DOUBLED: {
      const value = (game.cubeValue || 1) * 2;
      if (game.turn === mySeat) {
        return `You doubled to ${value}: ${waiting} (to answer)`;
      }
      return `${turnName(game.turn)} doubles to ${value}: take or drop`;
    }
    case Phase.RESIGNING: {
      const r = game.resignation;
      if (!r) {
        return "A resignation is offered";
      }
      if (r.seat === mySeat) {
        return `You offered to resign ${withArticle(r.result)} (${points(r.points)}): ${waiting} (to answer)`;
      }
      return `${turnName(r.seat)} offers to resign ${withArticle(r.result)}: you win ${points(r.points)} if you accept`;
    }
    default:
      return "";
  }
}

function watcherStatus(game: Game): string {
  const name = (seat: Seat) => playerName(game, seat);
  switch (game.phase) {
    case Phase.OPENING:
      return "The throw for who starts is due";
    case Phase.ROLLING:
      return `${name(game.turn)} to roll`;
    case Phase.PLAYING:
      return `${name(game.turn)} to play ${diceText(game.dice)}`;
    case Phase.DOUBLED:
      return `${name(game.turn)} doubles to ${(game.cubeValue || 1) * 2}; ${name(otherSeat(game.turn))} to answer`;
    case Phase.RESIGNING: {
      const r = game.resignation;
      return r
        ? `${name(r.seat)} offers to resign ${withArticle(r.result)} (${points(r.points)}); ${name(otherSeat(r.seat))} to answer`
        : "A resignation is offered";
    }
    default:
      return "";
  }
}

/** The end of one game, in words: who won, what, how many points and how it ended (a drawn
 *  Plakoto game: nobody). */
export function gameOverText(game: Game, finished: FinishedGame, mySeat: Seat | null): string {
  if (finished.result === GameResult.DRAW) {
    return `Game ${finished.gameNumber}: a draw, both mothers pinned: nobody scores.`;
  }
  const winner = finished.winner === mySeat ? "You" : playerName(game, finished.winner);
  const verb = finished.winner === mySeat ? "win" : "wins";
  const how = endWords(finished.endedBy);
  const cube = finished.cubeValue > 1 ? ` (cube at ${finished.cubeValue})` : "";
  return `Game ${finished.gameNumber}: ${winner} ${verb} ${withArticle(finished.result)}${cube}, ${points(finished.points)}, ${how}.`;
}

/** The end of the match: the winner and the final score. */
export function matchOverText(game: Game, mySeat: Seat | null): string {
  const winner = game.winner;
  const s0 = scoreOf(game, Seat.SEAT_0);
  const s1 = scoreOf(game, Seat.SEAT_1);
  const score = `${playerName(game, Seat.SEAT_0)} ${s0}, ${playerName(game, Seat.SEAT_1)} ${s1}`;
  if (winner === Seat.SEAT_UNSPECIFIED) {
    return `The match is over. Final score: ${score}.`;
  }
  const who = winner === mySeat ? "You win" : `${playerName(game, winner)} wins`;
  return `The match is over: ${who} the match. Final score: ${score}.`;
}

/** The resignation levels a game's rules offer, highest last: no backgammon where backgammons
 *  count as gammons (the server would cap such an offer to a gammon anyway). */
export function resignLevels(variant: Variant, backgammons: Backgammons = Backgammons.UNSPECIFIED): GameResult[] {
  if (variant === Variant.LONG_NARDI) {
    return [GameResult.SINGLE, GameResult.MARS];
  }
  if (variant === Variant.PLAKOTO || variant === Variant.FEVGA || variant === Variant.TAVLI) {
    return [GameResult.SINGLE, GameResult.GAMMON]; // the Greek games (a tavli match's Portes too) count no backgammon
  }
  return backgammons === Backgammons.AS_GAMMON
    ? [GameResult.SINGLE, GameResult.GAMMON]
    : [GameResult.SINGLE, GameResult.GAMMON, GameResult.BACKGAMMON];
}

/** The double waiting for my answer, in words. */
export function doubleOfferText(game: Game): string {
  const value = game.cubeValue || 1;
  const money = isMoneyPlay(game);
  const lose = `${points(value)}${money ? "" : " in the match"}`;
  return `${playerName(game, game.turn)} doubles: the cube goes to ${value * 2}. Take to play on at ${value * 2} (you then own the cube), or drop and lose this game now for ${lose}.`;
}

/** A resignation offered to me, in words. */
export function resignationOfferText(game: Game): string {
  const r = game.resignation;
  if (!r) {
    return "";
  }
  return `${playerName(game, r.seat)} offers to resign ${withArticle(r.result)}. If you accept, you win this game and ${points(r.points)}; if you reject, play goes on.`;
}

/** What an event did, in words, as the table says it beside the board: "Computer took the
 *  double." `mySeat` null: a watcher (every seat by its name). */
export function eventText(game: Game, event: GameEvent, mySeat: Seat | null): string {
  const you = (seat: Seat) => seat === mySeat;
  const who = (seat: Seat) => (you(seat) ? "You" : playerName(game, seat));
  switch (event.kind) {
    case EventKind.OPENING_THROW: {
      const last = event.openingThrows[event.openingThrows.length - 1];
      if (!last) {
        return "";
      }
      const tied = event.openingThrows.length - 1;
      const ties = tied > 0 ? ` (after ${tied} tie${tied > 1 ? "s" : ""})` : "";
      const starter = last.seat0Die > last.seat1Die ? Seat.SEAT_0 : Seat.SEAT_1;
      return `Throw for who starts: ${playerName(game, Seat.SEAT_0)} ${last.seat0Die}, ${playerName(game, Seat.SEAT_1)} ${last.seat1Die}${ties}. ${who(starter)} ${you(starter) ? "start" : "starts"}.`;
    }
    case EventKind.ROLL:
      return `${who(event.seat)} rolled ${diceText(event.dice)}.`;
    case EventKind.PLAY:
      return `${who(event.seat)} played ${event.notation || "no move"}${event.forced ? " (forced, played by the server)" : ""}.`;
    case EventKind.DOUBLE:
      return `${who(event.seat)} doubled.`;
    case EventKind.TAKE:
      return `${who(event.seat)} took the double.`;
    case EventKind.DROP:
      return `${who(event.seat)} dropped the double.`;
    case EventKind.BEAVER:
      return `${who(event.seat)} beavered.`;
    case EventKind.RESIGN:
      return `${who(event.seat)} offered to resign ${withArticle(event.resignationResult)}.`;
    case EventKind.ACCEPT:
      return `${who(event.seat)} accepted the resignation.`;
    case EventKind.REJECT:
      return `${who(event.seat)} rejected the resignation.`;
    case EventKind.TIME_RAN_OUT:
      return `${who(event.seat)} ran out of time.`;
    case EventKind.REMATCH_OFFERED:
      return `${who(event.seat)} offered a rematch.`;
    case EventKind.REMATCH_ACCEPTED:
      return `${who(event.seat)} accepted the rematch.`;
    default:
      return "";
  }
}

/** Whether the players of a table for two may ask for hints, as both see it ("" at a table with
 *  the computer, where a player always may, and in a game GNU Backgammon does not evaluate). */
export function hintsRuleText(game: Game): string {
  if (isBot(game, Seat.SEAT_0) || isBot(game, Seat.SEAT_1) || game.variant !== Variant.BACKGAMMON) {
    return "";
  }
  return game.hintsAllowed
    ? "Hints are allowed at this table: either player may ask GNU Backgammon during the match."
    : "Hints are off at this table: it was created without them.";
}
