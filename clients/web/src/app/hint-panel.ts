// The Hint at the table: a button, the look-ahead to ask at, and GNU Backgammon's answer for the
// seat's decision now: the roll's plays ranked (best first, equity and loss), the one chosen drawn
// on the board as arrows and made with one button, or the cube decision before a roll (and the
// answer to a double). Where the table offers no hint the panel says nothing and shows no button;
// what the question is and how its answer reads are hint.ts's.

import type { CubeAction, CubeResponse, RankedPlay } from "../gen/tavli/v1/analysis_service_pb";
import { Action, Phase, type Game, type Seat } from "../gen/tavli/v1/games_service_pb";
import type { Api } from "./api";
import { refusalText } from "./api";
import type { Step } from "../board/model";
import { toStep } from "./convert";
import { h, setText } from "./dom";
import "./analysis.css";
import {
  PLIES,
  cubeActionText,
  cubeDecisionRequest,
  cubeResponseText,
  equityText,
  lossText,
  noHintReason,
  rankedPlaysRequest,
  type Plies,
} from "./hint";

export interface HintPanelOptions {
  api: Api;
  signal: AbortSignal;
  /** Draw a play's steps on the board as arrows (null: none). */
  show(steps: Step[] | null): void;
  /** Make the play written in `notation`. */
  play(notation: string): void;
}

/** What the seat may do in the state shown, as the game screen knows it. */
export interface HintMoment {
  game: Game;
  mySeat: Seat | null;
  may(action: Action): boolean;
}

export class HintPanel {
  readonly element: HTMLElement;
  private readonly button = h("button", { type: "button", testid: "hint-button" }, "Hint");
  private readonly plies = h(
    "select",
    { id: "hint-plies", testid: "hint-plies" },
    ...PLIES.map((n) => h("option", { value: String(n) }, n === 0 ? "0 plies (quickest)" : n === 1 ? "1 ply" : "2 plies (strongest)")),
  );
  private readonly note = h("p", { testid: "hint-note", class: "note", role: "status" });
  private readonly cube = h("p", { testid: "hint-cube", class: "hint-cube" });
  private readonly list = h("ol", { testid: "hint-plays", class: "hint-plays", "aria-label": "The plays of your roll, best first" });
  private readonly playButton = h("button", { type: "button", testid: "hint-play", class: "primary", hidden: true }, "Make this play");
  /** The state the answer shown is for: a new state clears it. */
  private etag = "";
  private plays: RankedPlay[] = [];
  private chosen = 0;
  private asking = false;
  private moment: HintMoment | null = null;

  constructor(private readonly options: HintPanelOptions) {
    this.element = h(
      "section",
      { testid: "hint", class: "hint", "aria-label": "Hint", hidden: true },
      h(
        "div",
        { class: "hint-row" },
        this.button,
        h("label", { for: "hint-plies" }, "Look ahead"),
        this.plies,
      ),
      this.note,
      this.cube,
      this.list,
      this.playButton,
    );
    this.button.addEventListener("click", () => void this.ask());
    this.playButton.addEventListener("click", () => {
      const play = this.plays[this.chosen]?.play;
      if (play) {
        this.options.play(play.notation);
      }
    });
  }

  /** The state shown changed (or what the seat may do in it was read). */
  update(moment: HintMoment): void {
    this.moment = moment;
    const offered = noHintReason(moment.game, moment.mySeat) === null && moment.game.phase !== Phase.MATCH_OVER;
    this.element.hidden = !offered;
    if (moment.game.etag !== this.etag) {
      this.etag = moment.game.etag;
      this.clear();
    }
    this.button.disabled = !offered || this.asking || this.question(moment) === null;
  }

  /** What a hint now would answer: the roll's plays, or the cube; null when the seat has no decision. */
  private question(moment: HintMoment): "plays" | "cube" | null {
    if (moment.may(Action.PLAY) && moment.game.dice.length > 0) return "plays";
    if (moment.may(Action.DOUBLE) || moment.may(Action.TAKE)) return "cube";
    return null;
  }

  private clear(): void {
    this.plays = [];
    this.chosen = 0;
    this.list.replaceChildren();
    setText(this.cube, "");
    setText(this.note, "");
    this.playButton.hidden = true;
    this.options.show(null);
  }

  private async ask(): Promise<void> {
    const moment = this.moment;
    const question = moment ? this.question(moment) : null;
    if (!moment || question === null || this.asking) return;
    const game = moment.game;
    const plies = Number(this.plies.value) as Plies;
    this.clear();
    this.asking = true;
    this.button.disabled = true;
    setText(this.note, `Asking GNU Backgammon (${plies} ${plies === 1 ? "ply" : "plies"})…`);
    try {
      if (question === "plays") {
        const answer = await this.options.api.analysis.listRankedPlays(rankedPlaysRequest(game, plies), { signal: this.options.signal });
        if (game.etag !== this.etag) return;
        this.showPlays(answer.plays, plies);
      } else {
        const answer = await this.options.api.analysis.getCubeDecision(cubeDecisionRequest(game, plies), { signal: this.options.signal });
        if (game.etag !== this.etag) return;
        setText(this.note, `GNU Backgammon's cube decision at ${plies} ${plies === 1 ? "ply" : "plies"}:`);
        this.showCube(moment.may(Action.TAKE), answer);
      }
    } catch (error) {
      if (!this.options.signal.aborted && game.etag === this.etag) {
        setText(this.note, refusalText(error));
      }
    } finally {
      this.asking = false;
      if (this.moment) this.update(this.moment);
    }
  }

  private showPlays(plays: RankedPlay[], plies: Plies): void {
    this.plays = plays;
    setText(this.note, `GNU Backgammon ranks ${plays.length} ${plays.length === 1 ? "play" : "plays"} at ${plies} ${plies === 1 ? "ply" : "plies"}, best first; the one chosen is drawn on the board as numbered arrows.`);
    this.list.replaceChildren(
      ...plays.map((ranked, i) => {
        const notation = ranked.play?.notation || "no play";
        const button = h(
          "button",
          { type: "button", class: "hint-choice", "data-notation": ranked.play?.notation ?? "", "aria-pressed": "false" },
          h("span", { class: "hint-notation" }, notation),
          h("span", { class: "hint-equity" }, `equity ${equityText(ranked.equity)}`),
          h("span", { class: "hint-loss" }, i === 0 || lossText(ranked.loss) === "best" ? "best" : `loss ${lossText(ranked.loss)}`),
        );
        button.addEventListener("click", () => this.choose(i));
        return h("li", { testid: "hint-entry" }, button);
      }),
    );
    this.choose(0);
  }

  private choose(index: number): void {
    this.chosen = index;
    this.list.querySelectorAll("button.hint-choice").forEach((button, i) => button.setAttribute("aria-pressed", i === index ? "true" : "false"));
    const play = this.plays[index]?.play;
    this.playButton.hidden = !play;
    if (play) {
      setText(this.playButton, play.steps.length ? `Make this play: ${play.notation}` : "Make this play: no move");
    }
    this.options.show(play ? play.steps.map(toStep) : null);
  }

  private showCube(
    doubled: boolean,
    answer: { action: CubeAction; response: CubeResponse; noDoubleEquity: number; doubleTakeEquity: number; doublePassEquity: number },
  ): void {
    const equities = `no double ${equityText(answer.noDoubleEquity)}, double/take ${equityText(answer.doubleTakeEquity)}, double/pass ${equityText(answer.doublePassEquity)}`;
    const proper = doubled ? `Your proper answer: ${cubeResponseText(answer.response)}.` : `Proper cube action: ${cubeActionText(answer.action)}.`;
    setText(this.cube, `${proper} Equities of the doubler: ${equities}.`);
  }
}
