// A rematch at the end of a match, for the seat the page plays. Against the computer it starts at
// once: a new game of the same rules and players, the same bot seated again. At a table for two
// one seat offers (OfferRematch), the other accepts (AcceptRematch), and both pages go to the new
// game, each with its own seat's token: the seat that offered asks for its token with
// AcceptRematch once it sees the acceptance in the finished game.

import "./rematch.css";
import { DiceMode, Seat, type Game } from "../gen/tavli/v1/games_service_pb";
import { newRequestId, refusalText, type Api } from "./api";
import { h, setText } from "./dom";
import { formatRoute } from "./routes";
import { rematchStep, type RematchStep } from "./rematch-step";
import { otherSeat } from "./convert";
import { startComputerGame } from "./computer-game";

export interface RematchOptions {
  api: Api;
  signal: AbortSignal;
  navigate(hash: string): void;
}

export class RematchBox {
  readonly element: HTMLElement;
  private readonly text = h("p", { testid: "rematch-text", class: "rematch-text", "aria-live": "polite" });
  private readonly button = h("button", { type: "button", testid: "rematch-button", class: "primary" }, "Rematch");
  private readonly alert = h("p", { testid: "rematch-refusal", class: "refusal", role: "alert" });
  private game: Game | null = null;
  private mySeat: Seat | null = null;
  private step: RematchStep = { kind: "none" };
  private busy = false;
  private joining = false;

  constructor(
    private readonly name: string,
    private readonly token: string,
    private readonly options: RematchOptions,
  ) {
    this.element = h("section", { testid: "rematch", class: "rematch", "aria-label": "Rematch", hidden: true }, this.text, this.button, this.alert);
    this.button.addEventListener("click", () => void this.act());
  }

  /** A new state of the finished (or unfinished) match, for the seat the page plays. */
  update(game: Game, mySeat: Seat | null, matchOver: boolean): void {
    this.game = game;
    this.mySeat = mySeat;
    this.step = rematchStep(game, mySeat, matchOver);
    this.element.hidden = this.step.kind === "none";
    switch (this.step.kind) {
      case "computer":
        setText(this.text, "Play another match against the computer, same rules.");
        setText(this.button, "Rematch");
        break;
      case "offer":
        setText(this.text, "Offer your opponent another match, same rules.");
        setText(this.button, "Offer a rematch");
        break;
      case "offered":
        setText(this.text, this.step.text);
        break;
      case "accept":
        setText(this.text, this.step.text);
        setText(this.button, "Accept the rematch");
        break;
      case "join":
        setText(this.text, "The rematch is agreed: to the new game…");
        void this.join();
        break;
      default:
        break;
    }
    this.button.hidden = !["computer", "offer", "accept"].includes(this.step.kind);
    this.button.disabled = this.busy;
  }

  private async act(): Promise<void> {
    const game = this.game;
    if (!game || this.busy) {
      return;
    }
    this.busy = true;
    this.button.disabled = true;
    setText(this.alert, "");
    try {
      if (this.step.kind === "computer") {
        await this.againstTheComputer(game, this.step.bot);
      } else if (this.step.kind === "offer") {
        const answer = await this.options.api.games.offerRematch(
          { name: this.name, seatToken: this.token, requestId: newRequestId() },
          { signal: this.options.signal },
        );
        if (answer.game) {
          this.update(answer.game, this.mySeat, true);
        }
      } else if (this.step.kind === "accept") {
        await this.join();
      }
    } catch (error) {
      if (!this.options.signal.aborted) {
        setText(this.alert, refusalText(error));
      }
    } finally {
      this.busy = false;
      this.button.disabled = false;
    }
  }

  /** AcceptRematch: this seat's token in the new game, and off to it. */
  private async join(): Promise<void> {
    if (this.joining) {
      return;
    }
    this.joining = true;
    try {
      const answer = await this.options.api.games.acceptRematch(
        { name: this.name, seatToken: this.token, requestId: newRequestId() },
        { signal: this.options.signal },
      );
      const next = answer.rematch?.name;
      if (next && answer.seatToken) {
        this.options.navigate(formatRoute({ screen: "game", name: next, token: answer.seatToken }));
      }
    } catch (error) {
      this.joining = false;
      if (!this.options.signal.aborted) {
        setText(this.alert, refusalText(error));
      }
    }
  }

  /** A new game of the same rules and players, the same bot seated again at its seat. */
  private async againstTheComputer(game: Game, bot: string): Promise<void> {
    const page = await startComputerGame(
      this.options.api,
      {
        ruleSet: game.ruleSet,
        // A seeded game's seed is its creator's: the rematch rolls the server's own dice.
        diceMode: game.diceMode === DiceMode.SEEDED ? DiceMode.UNSPECIFIED : game.diceMode,
        seat0Player: game.seat0Player ?? {},
        seat1Player: game.seat1Player ?? {},
        computerSeat: otherSeat(this.mySeat ?? Seat.SEAT_0),
        bot,
      },
      this.options.signal,
    );
    this.options.navigate(page);
  }
}
