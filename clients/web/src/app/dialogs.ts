// The game screen's dialogs: a double to answer, my offer to resign, a resignation to answer, the
// end of a game and the end of the match. Each is a <dialog>; only an open one is shown.

import { GameResult } from "../gen/tavli/v1/board_pb";
import { Action, Phase, type Game } from "../gen/tavli/v1/games_service_pb";
import { h, setText } from "./dom";
import { doubleOfferText, resignationOfferText, resultMultiplier, resultWord } from "./text";

export interface DialogHandlers {
  take(): void;
  drop(): void;
  beaver(): void;
  resign(result: GameResult): void;
  accept(): void;
  reject(): void;
  home(): void;
}

function dialog(testid: string, title: string, ...content: HTMLElement[]): { element: HTMLDialogElement; text: HTMLElement } {
  const titleId = `${testid}-title`;
  const text = h("p", { class: "dialog-text", id: `${testid}-text` });
  const element = h(
    "dialog",
    { testid, class: "dialog", "aria-labelledby": titleId, "aria-describedby": text.id },
    h("h2", { id: titleId }, title),
    text,
    ...content,
  );
  return { element, text };
}

function button(testid: string, label: string, onClick: () => void, primary = false): HTMLButtonElement {
  return h("button", { type: "button", testid, class: primary ? "primary" : "", onclick: () => onClick() }, label);
}

export class Dialogs {
  readonly double;
  readonly resignOffer;
  readonly resignAnswer;
  readonly gameOver;
  readonly matchOver;
  readonly beaverButton: HTMLButtonElement;
  private readonly resignButtons: Map<GameResult, HTMLButtonElement>;
  readonly gameOverText: HTMLElement;
  readonly matchOverText: HTMLElement;
  readonly nextGameButton: HTMLButtonElement;

  constructor(handlers: DialogHandlers, resultsOffered: GameResult[]) {
    this.beaverButton = button("beaver-button", "Beaver", () => handlers.beaver());
    this.double = dialog(
      "dialog-double",
      "A double",
      h(
        "div",
        { class: "dialog-actions" },
        button("take-button", "Take", () => handlers.take(), true),
        button("drop-button", "Drop", () => handlers.drop()),
        this.beaverButton,
      ),
    );
    // A double must be answered: Escape does not just put it away.
    this.double.element.addEventListener("cancel", (event) => event.preventDefault());

    this.resignButtons = new Map();
    const resignRow = h("div", { class: "dialog-actions" });
    for (const result of resultsOffered) {
      const label = `Resign ${result === GameResult.SINGLE ? "a single game" : `a ${resultWord(result)}`}`;
      const b = button(`resign-${resultWord(result).replace(" game", "")}`, label, () => {
        this.close(this.resignOffer.element);
        handlers.resign(result);
      });
      this.resignButtons.set(result, b);
      resignRow.append(b);
    }
    resignRow.append(button("resign-cancel", "Cancel", () => this.close(this.resignOffer.element)));
    this.resignOffer = dialog("dialog-resign-offer", "Resign", resignRow);
    setText(
      this.resignOffer.text,
      "What do you offer to lose? Your opponent may accept (the game ends) or reject (play goes on). " +
        "The server caps the offer to what you can still lose.",
    );

    this.resignAnswer = dialog(
      "dialog-resign-answer",
      "An offer to resign",
      h(
        "div",
        { class: "dialog-actions" },
        button("accept-resignation", "Accept", () => handlers.accept(), true),
        button("reject-resignation", "Reject", () => handlers.reject()),
      ),
    );
    this.resignAnswer.element.addEventListener("cancel", (event) => event.preventDefault());

    this.nextGameButton = button("next-game-button", "Next game", () => this.close(this.gameOver.element), true);
    this.gameOver = dialog("dialog-game-over", "Game over", h("div", { class: "dialog-actions" }, this.nextGameButton));
    this.gameOver.text.setAttribute("data-testid", "game-over-text");
    this.gameOverText = this.gameOver.text;

    this.matchOver = dialog(
      "dialog-match-over",
      "Match over",
      h(
        "div",
        { class: "dialog-actions" },
        button("home-button", "Home", () => handlers.home(), true),
        button("match-over-close", "Look at the board", () => this.close(this.matchOver.element)),
      ),
    );
    this.matchOver.text.setAttribute("data-testid", "match-over-text");
    this.matchOverText = this.matchOver.text;
  }

  /** Says on each resignation button what it may cost at the cube's value (the server caps it). */
  setResignPoints(cubeValue: number): void {
    for (const [result, b] of this.resignButtons) {
      const what = result === GameResult.SINGLE ? "a single game" : `a ${resultWord(result)}`;
      const n = resultMultiplier(result) * cubeValue;
      setText(b, `Resign ${what} (${n} point${n === 1 ? "" : "s"})`);
    }
  }

  /**
   * Opens the question a seat is asked in `game` (a double to take, drop or beaver; a resignation
   * to accept or reject) and closes those it is no longer asked, with its own offer to resign
   * once it may not resign; `may` says what the seat may send now.
   */
  ask(game: Game, may: (action: Action) => boolean): void {
    if (game.phase === Phase.DOUBLED && may(Action.TAKE)) {
      setText(this.double.text, doubleOfferText(game));
      this.beaverButton.hidden = !may(Action.BEAVER);
      this.open(this.double.element);
    } else {
      this.close(this.double.element);
    }
    if (game.phase === Phase.RESIGNING && may(Action.ACCEPT)) {
      setText(this.resignAnswer.text, resignationOfferText(game));
      this.open(this.resignAnswer.element);
    } else {
      this.close(this.resignAnswer.element);
    }
    if (!may(Action.RESIGN)) {
      this.close(this.resignOffer.element);
    }
  }

  get elements(): HTMLDialogElement[] {
    return [this.double.element, this.resignOffer.element, this.resignAnswer.element, this.gameOver.element, this.matchOver.element];
  }

  /** Opens a dialog (modal unless `modal` is false); other modal ones close first. */
  open(element: HTMLDialogElement, modal = true): void {
    if (element.open) {
      return;
    }
    for (const other of this.elements) {
      if (other !== element && other.open) {
        other.close();
      }
    }
    if (modal && typeof element.showModal === "function" && element.isConnected) {
      element.showModal();
    } else {
      element.show();
    }
  }

  close(element: HTMLDialogElement): void {
    if (element.open) {
      element.close();
    }
  }

  closeAll(): void {
    for (const element of this.elements) {
      this.close(element);
    }
  }
}
