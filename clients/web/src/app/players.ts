// The strips around the board: each player's name, whether that seat is to act (or won the
// match), pips and clock, beside the board; the score, the match length, the cube and the rule
// set's options above it.
// They draw the game as the screen shows it, from the side of the seat the board is drawn for.

import { Phase, type FinishedGame, type Game, type Seat } from "../gen/tavli/v1/games_service_pb";
import { clockText, readClock } from "./clock";
import { otherSeat, playerName, seatIndex } from "./convert";
import { h, setText } from "./dom";
import { cubeText, greekOptionsText, matchLengthText, scoreText } from "./text";

export class PlayerStrips {
  private readonly nameMe = h("span", { testid: "player-me", class: "name" });
  private readonly nameThem = h("span", { testid: "player-them", class: "name" });
  private readonly roleMe = h("span", { class: "role" });
  private readonly roleThem = h("span", { class: "role" });
  private readonly pipsMe = h("span", { testid: "pips-me", class: "pips" });
  private readonly pipsThem = h("span", { testid: "pips-them", class: "pips" });
  private readonly clockMe = h("span", { testid: "clock-me", class: "clock", hidden: true });
  private readonly clockThem = h("span", { testid: "clock-them", class: "clock", hidden: true });
  private readonly score = h("span", { testid: "score" });
  private readonly matchLength = h("span", { testid: "match-length" });
  private readonly cube = h("span", { testid: "cube-text" });
  private readonly options = h("span", { testid: "rule-options", class: "rule-options", hidden: true });
  /** The strip of the seat the board is drawn for (below it), and the other's (above it). */
  readonly me = h("div", { class: "player me" }, this.nameMe, this.roleMe, this.pipsMe, this.clockMe);
  readonly them = h("div", { class: "player them" }, this.nameThem, this.roleThem, this.pipsThem, this.clockThem);
  /** The match: score, length, cube, and the Greek games' options where they are not the book's defaults. */
  readonly match = h("div", { class: "info" }, this.score, this.matchLength, this.cube, this.options);

  /** `watching`: the page watches the game (no seat of its own is named "you"). */
  constructor(private readonly watching: boolean) {}

  /**
   * Names, turns, score, match length and cube, from `view`'s side; `mySeat` the page's own seat
   * (null while unknown, and for a watcher); `held` the finished game whose final position is shown.
   */
  show(game: Game, view: Seat, mySeat: Seat | null, held: FinishedGame | null): void {
    const other = otherSeat(view);
    setText(this.nameMe, this.watching ? playerName(game, view) : `${playerName(game, view)}${mySeat !== null ? " (you)" : ""}`);
    setText(this.nameThem, playerName(game, other));
    setText(this.roleMe, turnMark(game, view));
    setText(this.roleThem, turnMark(game, other));
    setText(this.score, scoreText(game, mySeat ?? (this.watching ? null : view)));
    this.score.setAttribute("data-me", String(game.score[seatIndex(view)] ?? 0n));
    this.score.setAttribute("data-them", String(game.score[seatIndex(other)] ?? 0n));
    setText(this.matchLength, matchLengthText(game, held, mySeat));
    setText(this.cube, cubeText(game, mySeat));
    const options = greekOptionsText(game.ruleSet);
    setText(this.options, options);
    this.options.hidden = options === "";
  }

  /** The pips of the board as drawn (with the steps made so far this turn). */
  showPips(pips: { me: number; them: number }): void {
    setText(this.pipsMe, `Pips: ${pips.me}`);
    setText(this.pipsThem, `Pips: ${pips.them}`);
  }

  /** Both clocks at `now` (hidden in a game without one). */
  showClocks(game: Game | null, view: Seat, now: number): void {
    const clocks = game?.ruleSet?.clock ? game.clocks : undefined;
    this.clockMe.hidden = !clocks;
    this.clockThem.hidden = !clocks;
    if (clocks) {
      setText(this.clockMe, `Clock: ${clockText(readClock(clocks, view, now))}`);
      setText(this.clockThem, `Clock: ${clockText(readClock(clocks, otherSeat(view), now))}`);
    }
  }
}

/** "winner" for the winner of a finished match, "to act" for a seat the game waits on (not before the throw for who starts). */
function turnMark(game: Game, seat: Seat): string {
  if (game.phase === Phase.MATCH_OVER) {
    return game.winner === seat ? "winner" : "";
  }
  return game.toAct.includes(seat) && game.phase !== Phase.OPENING ? "to act" : "";
}
