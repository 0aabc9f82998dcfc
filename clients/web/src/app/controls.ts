// A seat's controls below the board: Roll, Double, Undo, Play and Resign, and the field to type a
// play in notation. They show what the seat may do now and pass on what the player asks for; the
// game's state (game-state.ts) decides what is sent.

import { Action } from "../gen/tavli/v1/games_service_pb";
import { h, setText } from "./dom";

export interface ControlHandlers {
  roll(): void;
  double(): void;
  undo(): void;
  play(): void;
  resign(): void;
  /** A play typed in notation, sent with the form. */
  notation(text: string): void;
}

/** What the controls show. */
export interface ControlsShown {
  /** No call is under way. */
  idle: boolean;
  /** Whether the seat may send `action` in the state shown. */
  may(action: Action): boolean;
  /** How many steps are made on the board so far this turn. */
  steps: number;
  /** The steps make a whole legal play (or the roll cannot be played at all). */
  whole: boolean;
  /** The roll cannot be played: Play sends a pass. */
  pass: boolean;
}

export class SeatControls {
  private readonly rollButton = h("button", { type: "button", testid: "roll-button", class: "primary" }, "Roll");
  private readonly doubleButton = h("button", { type: "button", testid: "double-button" }, "Double");
  private readonly resignButton = h("button", { type: "button", testid: "resign-button" }, "Resign…");
  private readonly undoButton = h("button", { type: "button", testid: "undo-button" }, "Undo");
  private readonly playButton = h("button", { type: "button", testid: "submit-play", class: "primary" }, "Play");
  private readonly notationInput = h("input", {
    type: "text",
    id: "notation-input",
    testid: "notation-input",
    autocomplete: "off",
    autocapitalize: "off",
    spellcheck: "false",
    placeholder: "e.g. 24/18 13/11",
  });
  private readonly notationSubmit = h("button", { type: "submit", testid: "notation-submit" }, "Send");
  readonly buttons = h(
    "div",
    { class: "controls", role: "group", "aria-label": "Your actions" },
    this.rollButton,
    this.doubleButton,
    this.undoButton,
    this.playButton,
    this.resignButton,
  );
  readonly form = h(
    "form",
    { class: "notation", testid: "notation-form" },
    h("label", { for: "notation-input" }, "Type your play"),
    h("div", { class: "notation-row" }, this.notationInput, this.notationSubmit),
  );
  /** The state whose turn the typed play belongs to: a new one clears the field. */
  private notationEtag = "";

  constructor(handlers: ControlHandlers) {
    this.rollButton.addEventListener("click", () => handlers.roll());
    this.doubleButton.addEventListener("click", () => handlers.double());
    this.resignButton.addEventListener("click", () => handlers.resign());
    this.undoButton.addEventListener("click", () => handlers.undo());
    this.playButton.addEventListener("click", () => handlers.play());
    this.form.addEventListener("submit", (event) => {
      event.preventDefault();
      handlers.notation(this.notationInput.value);
    });
  }

  show(shown: ControlsShown): void {
    const { idle, may } = shown;
    this.rollButton.disabled = !(idle && may(Action.ROLL));
    this.doubleButton.disabled = !(idle && may(Action.DOUBLE));
    this.doubleButton.hidden = !may(Action.DOUBLE);
    this.resignButton.disabled = !(idle && may(Action.RESIGN));
    const playing = idle && may(Action.PLAY);
    this.undoButton.disabled = !(playing && shown.steps > 0);
    this.playButton.disabled = !(playing && shown.whole);
    setText(this.playButton, playing && shown.pass ? "Play (no move possible)" : "Play");
    this.notationInput.disabled = !playing;
    this.notationSubmit.disabled = !playing;
  }

  /** Whether Play may be pressed now (Enter presses it). */
  get canPlay(): boolean {
    return !this.playButton.disabled;
  }

  /** A new state is shown: what was typed for the last one goes. */
  newTurn(etag: string): void {
    if (etag !== this.notationEtag) {
      this.notationEtag = etag;
      this.notationInput.value = "";
    }
  }

  /** The typed play was taken. */
  clearNotation(): void {
    this.notationInput.value = "";
  }
}
