// The game screen, for a seat ("#/game/NAME/TOKEN") or a watcher ("#/watch/NAME"): the board from
// the player's side, both players, score, cube, pips, clocks, the last play and a status line; a
// seat also gets the controls and the dialogs that answer the other seat. What the page believes
// the game is, what the seat may do and what it sends are game-state.ts's; this screen draws that
// state and forwards the player's input to it.
//
// The events are queued (sync.ts) and shown one at a time (stage.ts): a play moves step by step,
// a finished game's final position stays under its result until the player goes on, and the page
// acts only on the newest state once everything before it is shown. The move list beside the
// board (record-panel.ts) takes the same changes, in the same order, as they are shown; a seat at
// a finished match gets the rematch (rematch.ts).

import { Board } from "../board/board";
import { boardAfter } from "../board/moves";
import type { BoardState, LegalPlay, PlayOnBoard, Step } from "../board/model";
import { Action, Phase, Seat, type Game, type GameEvent } from "../gen/tavli/v1/games_service_pb";
import { getApi } from "./api";
import { expectsAction, isMoneyPlay, mustPass } from "./convert";
import { Dialogs } from "./dialogs";
import { h, setText } from "./dom";
import { loadSpeed, prefersReducedMotion, speedSelect, stepMs } from "./motion";
import { followPreferences } from "./preferences";
import { preferencesMenu } from "./preferences-menu";
import { gameId, type WatchFrom } from "./routes";
import { GameState } from "./game-state";
import { pause } from "./pause";
import { Stage, boardOf, finalBoard } from "./stage";
import { type Change, type Shown } from "./sync";
import {
  eventText,
  gameOverText,
  lastPlayText,
  matchOverText,
  phaseName,
  resignLevels,
  scoreText,
  statusText,
} from "./text";
import type { Screen } from "./screen";
import { TableSounds, playSound } from "./sounds";
import { RecordPanel } from "./record-panel";
import { boardForSeat, checkersKey, recordRules } from "./record";
import { HintPanel } from "./hint-panel";
import { ReviewPanel } from "./review-panel";
import { hintsRuleText } from "./text";
import { PlayerStrips } from "./players";
import { SeatControls } from "./controls";
import { RematchBox } from "./rematch";
import { unavailableScreen } from "./unavailable";

export type GameRoute = { mode: "seat"; name: string; token: string } | { mode: "watch"; name: string; from: WatchFrom };

/** How long a watcher sees a finished game's final position: some steps of the chosen speed, and
 *  never less than a moment to read the result (at speed "off" too) except in a replay. */
const WATCHER_HOLD_STEPS = 6;
const WATCHER_HOLD_LEAST_MS = 1500;

/** `home`: where the way home leads (the lobby, for a game the lobby started). */
export function gameScreen(root: HTMLElement, route: GameRoute, navigate: (hash: string) => void, home = "#/"): Screen {
  const screen = new GameScreen(root, route, navigate, home);
  void screen.start();
  return screen;
}

class GameScreen implements Screen {
  private readonly api = getApi();
  private readonly controller = new AbortController();
  private readonly name: string;
  private readonly watching: boolean;
  private readonly from: WatchFrom;

  /** What the page believes the game is, and what it sends. */
  private readonly state: GameState;
  private speed = loadSpeed(window.localStorage, prefersReducedMotion());
  private stage: Stage | null = null;
  /** Taking and showing queued changes (one loop at a time). */
  private draining = false;
  /** A change is moving on the board: the board is the stage's. */
  private animating = false;
  /** A finished game's final position, shown under its result (until the player goes on; for good once the match is over). */
  private finalPosition: BoardState | null = null;
  /** The player has not gone on from a finished game yet: the next game's changes wait. */
  private holding = false;
  /** Replaying from the start: the events until this many are past ones. */
  private replayUntil = 0n;
  private boardKey = "";
  private replaying = false;
  private matchOverShown = false;
  private clockTimer: number | undefined;
  private readonly keyListener = (event: KeyboardEvent) => this.onKey(event);
  private readonly preferences = preferencesMenu();
  private readonly sounds = new TableSounds();
  private stopFollowingPreferences: () => void = () => {};

  // Elements.
  private readonly rootEl: HTMLElement;
  private readonly boardHost: HTMLElement;
  private board: Board | null = null;
  private readonly players: PlayerStrips;
  private readonly lastPlay = h("p", { testid: "last-play", class: "last-play" });
  private readonly eventNote = h("p", { testid: "last-event", class: "event-message" });
  /** What the last event shown did, in words: beside the board and in the status line. */
  private message = "";
  private readonly record: RecordPanel;
  private readonly review: ReviewPanel;
  /** GNU Backgammon's hint for a seat's decision; none for a watcher. */
  private readonly hint: HintPanel | null;
  /** The hinted play chosen, drawn on the live board as arrows. */
  private hintArrows: PlayOnBoard | null = null;
  /** A position of the review shown on the board (seat 0's side), or null. */
  private reviewed: BoardState | null = null;
  private readonly hintsRule = h("p", { testid: "hints-rule", class: "note" });
  private readonly rematch: RematchBox | null;
  private readonly status = h("p", { testid: "status", class: "status", "aria-live": "polite", role: "status" });
  private readonly refusal = h("div", { testid: "refusal", class: "refusal", role: "alert" });
  private readonly connection = h("p", { testid: "connection", class: "note connection", "aria-live": "polite" });
  private readonly banner = h("p", { testid: "watching-banner", class: "banner" });
  /** A seat's buttons and notation field; none for a watcher. */
  private readonly controls: SeatControls | null;
  private dialogs: Dialogs | null = null;
  private readonly messages = h("div", { class: "messages", testid: "messages" }, this.eventNote, this.refusal);
  private dialogsHost = h("div", { class: "dialogs" });

  constructor(
    private readonly root: HTMLElement,
    route: GameRoute,
    private readonly navigate: (hash: string) => void,
    private readonly home: string,
  ) {
    this.name = route.name;
    this.watching = route.mode === "watch";
    this.from = route.mode === "watch" ? route.from : "now";
    this.players = new PlayerStrips(this.watching);
    this.controls = this.watching
      ? null
      : new SeatControls({
          roll: () => void this.state.roll(),
          double: () => void this.state.double(),
          undo: () => this.undo(),
          play: () => void this.state.play(),
          resign: () => this.openResign(),
          notation: (text) => void this.sendNotation(text),
        });
    this.state = new GameState({
      api: this.api,
      name: this.name,
      seatToken: route.mode === "seat" ? route.token : null,
      signal: this.signal,
      listener: {
        queued: () => void this.drain(),
        seated: () => {
          this.boardKey = "";
          this.render();
        },
        actionsRead: () => this.render(),
        changed: () => this.renderInput(),
        connection: (text) => setText(this.connection, text),
        unavailable: (error) => this.showUnavailable(error),
        showing: () => this.animating || this.holding,
      },
    });
    this.boardHost = h("div", { testid: "board", class: "board-host", role: "region", "aria-label": "Board" });
    this.record = new RecordPanel({
      api: this.api,
      name: this.name,
      signal: this.controller.signal,
      mySeat: () => this.state.mySeat,
      onView: () => this.onRecordView(),
      onHistory: (last) => this.onHistory(last),
    });
    this.review = new ReviewPanel({
      api: this.api,
      name: this.name,
      signal: this.controller.signal,
      record: () => (this.game ? { match: this.record.match, rules: recordRules(this.game) } : null),
      showBoard: (board) => {
        if (board === null && this.reviewed === null) {
          return;
        }
        this.reviewed = board;
        this.boardKey = "";
        this.render();
      },
    });
    this.hint = this.watching
      ? null
      : new HintPanel({
          api: this.api,
          signal: this.controller.signal,
          show: (steps) => {
            if (steps === null && this.hintArrows === null) {
              return;
            }
            this.hintArrows = steps ? { side: "me", steps } : null;
            this.boardKey = "";
            this.render();
          },
          play: (notation) => void this.sendNotation(notation),
        });
    this.rematch = route.mode === "seat" ? new RematchBox(this.name, route.token, { api: this.api, signal: this.controller.signal, navigate }) : null;
    this.rootEl = h("section", {
      testid: "game",
      class: `game ${this.watching ? "watching" : "seat"}`,
      "data-game-name": this.name,
      "data-phase": "UNSPECIFIED",
      "data-my-turn": "false",
      "data-event-count": "0",
      "data-animating": "false",
      "aria-label": "Game",
    });
    this.layout();
    document.title = `tavli: ${this.watching ? "watching " : ""}${gameId(this.name)}`;
  }

  private layout(): void {
    const parts: Array<HTMLElement> = [];
    if (this.watching) {
      setText(this.banner, `Watching ${gameId(this.name)}${this.from === "start" ? ", from the start" : ""}`);
      parts.push(this.banner);
    }
    const desk: Array<HTMLElement> = [this.status];
    if (this.controls) {
      desk.push(this.controls.buttons, this.controls.form);
    }
    if (this.hint) {
      desk.push(this.hint.element);
    }
    desk.push(speedSelect(this.speed, (speed) => (this.speed = speed)), this.lastPlay, this.hintsRule, this.connection);
    if (this.rematch) {
      this.messages.append(this.rematch.element);
    }
    parts.push(
      h(
        "nav",
        { class: "crumbs" },
        h("a", { href: this.home, testid: "way-home" }, this.home === "#/" ? "← Home" : "← Lobby"),
        this.preferences.element,
      ),
      this.players.match,
      h(
        "div",
        { class: "table-area" },
        h("div", { class: "table-column" }, h("div", { class: "table" }, this.players.them, this.boardHost, this.players.me), h("div", { class: "desk" }, ...desk)),
        h("div", { class: "side-column" }, this.messages, this.record.element, this.review.element),
      ),
      this.dialogsHost,
    );
    this.rootEl.replaceChildren(...parts);
    this.root.replaceChildren(h("main", { class: "game-page" }, this.rootEl));
    this.board = new Board(this.boardHost, {
      onPartialChange: (partial, complete) => this.onPartialChange(partial, complete),
      onIllegalAttempt: (partial, attempted) => void this.state.explain(partial, attempted),
      onDiceClick: () => this.onDiceClick(),
      onCubeClick: () => this.onCubeClick(),
    });
    this.stage = new Stage(this.board, this.rootEl, () => this.speed, this.signal);
    const board = this.board;
    this.stopFollowingPreferences = followPreferences((preferences) => board.setHomeSide(preferences.homeSide));
    document.addEventListener("keydown", this.keyListener);
    this.renderControls();
  }

  destroy(): void {
    this.controller.abort();
    document.removeEventListener("keydown", this.keyListener);
    this.stopFollowingPreferences();
    this.preferences.destroy();
    if (this.clockTimer !== undefined) {
      clearInterval(this.clockTimer);
    }
    this.dialogs?.closeAll();
  }

  /** The game as the page shows it now (changes still queued are not in it yet). */
  private get game(): Game | null {
    return this.state.game;
  }

  private get signal(): AbortSignal {
    return this.controller.signal;
  }

  /** The seat the board is drawn from: mine, or seat 0 for a watcher (and until mine is known). */
  private get viewSeat(): Seat {
    return this.state.viewSeat;
  }

  // --- following the game --------------------------------------------------------------------

  async start(): Promise<void> {
    const first = await this.state.open();
    if (first === null) {
      return;
    }
    this.setupDialogs(first);
    const fromStart = this.watching && this.from === "start" && first.eventCount > 0n;
    if (fromStart) {
      this.replaying = true;
      this.replayUntil = first.eventCount;
      setText(this.banner, `Watching ${gameId(this.name)}: replaying from the start`);
    }
    this.clockTimer = window.setInterval(() => this.renderClocks(), 250);
    await this.state.follow(first, { fromStart });
  }

  private endReplay(): void {
    if (this.replaying) {
      this.replaying = false;
      setText(this.banner, `Watching ${gameId(this.name)}${this.from === "start" ? " (replayed from the start, now live)" : ""}`);
      this.render();
    }
  }

  /** Shows the queued changes one after the other; stops while a finished game waits for the player. */
  private async drain(): Promise<void> {
    if (this.draining) {
      return;
    }
    this.draining = true;
    try {
      while (!this.signal.aborted && !this.holding) {
        const before = this.state.sync.shown;
        const change = this.state.sync.take();
        if (!change) {
          break;
        }
        await this.showChange(change, before);
      }
    } finally {
      this.draining = false;
    }
    const game = this.game;
    if (game && this.state.sync.settled && !this.holding) {
      void this.state.readActions(game);
    }
  }

  private async showChange(change: Change, before: Shown | null): Promise<void> {
    const game = change.after;
    const event = change.event;
    const me = this.state.mySeat;
    if (event) {
      this.message = eventText(game, event, me);
      setText(this.eventNote, this.message);
    }
    this.record.update(game, event ?? undefined);
    if (this.record.viewed && me !== null && expectsAction(game, me)) {
      this.record.view(null); // the game waits for me: back from the record to the live board
      this.reviewed = null;
    }
    // My own play from the board is on it already; while a position of the record is shown,
    // the live game is drawn when the player comes back to it.
    const own = event !== null && this.state.isOwnPlay(event);
    // What the change leads to is written once it has been shown; meanwhile nothing can be done.
    this.animating = true;
    this.rootEl.setAttribute("data-my-turn", "false");
    this.renderControls();
    await this.stage?.show(change, before, this.viewSeat, own || this.record.viewed !== null);
    this.animating = false;
    this.boardKey = "";
    if (this.replaying && game.eventCount >= this.replayUntil) {
      this.endReplay();
    }
    if (change.ended) {
      await this.showGameEnd(change, before);
    }
    this.render();
  }

  /** The finished game's final position under its result: a player goes on with "Next game"; a watcher sees it a moment. */
  private async showGameEnd(change: Change, before: Shown | null): Promise<void> {
    this.finalPosition = finalBoard(change, before, this.viewSeat);
    if (change.after.phase === Phase.MATCH_OVER) {
      return; // the match-over dialog says it; the final position stays
    }
    this.holding = !this.replaying;
    this.render();
    if (this.replaying) {
      await pause(stepMs(this.speed) * WATCHER_HOLD_STEPS, this.signal);
      this.finalPosition = null;
    } else {
      this.showGameOver(change.after);
      if (this.watching) {
        await pause(Math.max(WATCHER_HOLD_LEAST_MS, stepMs(this.speed) * WATCHER_HOLD_STEPS), this.signal);
        this.dialogs?.close(this.dialogs.gameOver.element);
      }
    }
  }

  /** The player went on from a finished game (closed its dialog): the next game is shown. */
  private goOn(): void {
    if (!this.holding && this.finalPosition === null) {
      return;
    }
    this.holding = false;
    if (this.game?.phase !== Phase.MATCH_OVER) {
      this.finalPosition = null;
    }
    this.boardKey = "";
    this.render();
    void this.drain();
  }

  private setupDialogs(game: Game): void {
    if (this.dialogs) {
      return;
    }
    const variant = game.ruleSet?.variant;
    this.dialogs = new Dialogs(
      {
        take: () => void this.state.answer("take"),
        drop: () => void this.state.answer("drop"),
        beaver: () => void this.state.answer("beaver"),
        resign: (result) => void this.state.resign(result),
        accept: () => void this.state.answer("accept"),
        reject: () => void this.state.answer("reject"),
        home: () => this.navigate(this.home),
      },
      resignLevels(variant ?? 1, game.ruleSet?.backgammons),
    );
    this.dialogsHost.replaceChildren(...this.dialogs.elements);
    this.dialogs.gameOver.element.addEventListener("close", () => this.goOn());
  }

  // --- drawing ---------------------------------------------------------------------------------

  /** Whether the player may send `action` now (not while a position of the record is shown). */
  private has(action: Action): boolean {
    return this.state.may(action) && this.record.viewed === null && this.reviewed === null;
  }

  private render(): void {
    const game = this.game;
    if (!game) {
      return;
    }
    const view = this.viewSeat;
    const me = this.state.mySeat;
    const el = this.rootEl;
    el.setAttribute("data-game-name", game.name);
    el.setAttribute("data-phase", phaseName(game.phase));
    el.setAttribute("data-my-turn", this.state.ready ? "true" : "false");
    el.setAttribute("data-event-count", String(game.eventCount));
    el.setAttribute("data-replaying", this.replaying ? "true" : "false");
    el.setAttribute("data-seat", me === null ? "" : me === Seat.SEAT_1 ? "SEAT_1" : "SEAT_0");

    // Held under its result, the finished game is the last one (the next cannot end meanwhile).
    const held = this.holding ? (game.finishedGames.at(-1) ?? null) : null;
    this.players.show(game, view, me, held);
    setText(this.lastPlay, held ? gameOverText(game, held, me) : lastPlayText(game, me) || "No play yet in this game.");
    const status = this.replaying ? `Replaying: ${statusText(game, null, [])}` : statusText(game, this.watching ? null : me ?? (game.phase === Phase.OPENING ? view : null), this.state.ready ? this.state.actions : []);
    setText(this.status, this.message ? `${this.message} ${status}` : status);
    if (this.holding) {
      setText(this.status, "Game over: its final position is on the board. The next game is shown when you go on.");
    }
    if (!this.watching && me === null && game.phase !== Phase.OPENING && game.phase !== Phase.MATCH_OVER) {
      setText(this.status, "Finding your seat…");
    }
    this.rematch?.update(game, me, game.phase === Phase.MATCH_OVER);
    setText(this.hintsRule, hintsRuleText(game));
    this.hint?.update({ game, mySeat: me, may: (action) => this.has(action) });
    this.review.update(game, me);
    this.renderClocks();
    this.renderBoard(game);
    this.renderPips();
    this.renderControls();
    this.renderDialogs(game);
  }

  private renderBoard(game: Game): void {
    const shown = this.state.sync.shown;
    if (!this.board || !shown || this.animating) {
      return;
    }
    this.controls?.newTurn(game.etag);
    const viewed = this.record.viewed;
    this.rootEl.setAttribute("data-viewing-record", viewed === null ? "false" : "true");
    const reviewed = viewed === null ? this.reviewed : null;
    const still = viewed !== null ? boardForSeat(viewed.board, this.viewSeat) : reviewed !== null ? boardForSeat(reviewed, this.viewSeat) : this.finalPosition;
    if (still) {
      // A position of the record, or a finished game's final position: read-only.
      this.boardKey = "";
      this.state.clearPlay();
      this.show(still);
      return;
    }
    const playing = this.has(Action.PLAY);
    const plays = this.state.plays;
    const arrows = playing ? this.hintArrows : null;
    const key = `${game.etag}|${this.viewSeat}|${playing ? plays.length : 0}|${this.replaying}|${arrows ? JSON.stringify(arrows.steps) : ""}`;
    if (key === this.boardKey) {
      return;
    }
    this.boardKey = key;
    this.state.clearPlay();
    const board = boardOf(shown, this.viewSeat);
    this.sounds.follow(board);
    this.show(arrows ? { ...board, arrows } : board, playing ? plays : undefined);
  }

  private show(state: BoardState, plays?: LegalPlay[]): void {
    this.boardHost.setAttribute("data-checkers", checkersKey(state));
    this.board?.show(state, plays);
  }

  /** The pips in the name strips: the board's, with the steps made so far this turn. */
  private renderPips(): void {
    const shown = this.state.sync.shown;
    if (!shown) {
      return;
    }
    const viewed = this.record.viewed;
    const reviewed = viewed === null ? this.reviewed : null;
    const board = viewed !== null ? boardForSeat(viewed.board, this.viewSeat) : reviewed !== null ? boardForSeat(reviewed, this.viewSeat) : (this.finalPosition ?? boardAfter(boardOf(shown, this.viewSeat), [...this.state.partial]));
    this.players.showPips(board.pips);
  }

  /** What the last event before the page came did, said as if it had just happened. */
  private onHistory(last: GameEvent): void {
    const game = this.game;
    if (game && !this.message && last.sequence + 1n === game.eventCount) {
      this.message = eventText(game, last, this.state.mySeat);
      setText(this.eventNote, this.message);
      this.render();
    }
  }

  /** The move list chose an entry to show (or the live game again). */
  private onRecordView(): void {
    this.boardKey = "";
    this.render();
  }

  /** A game that cannot be shown (none of that name, or a link whose token holds no seat of it):
   *  one message and the way home, in place of the table. */
  private showUnavailable(error: unknown): void {
    this.destroy();
    unavailableScreen(this.root, this.name, error, { seatLink: !this.watching });
  }

  private renderClocks(): void {
    this.players.showClocks(this.game, this.viewSeat, Date.now());
  }

  private renderControls(): void {
    this.controls?.show({
      idle: !this.state.busy,
      may: (action) => this.has(action),
      steps: this.state.partial.length,
      whole: this.state.complete !== null,
      pass: mustPass(this.state.plays),
    });
  }

  private renderDialogs(game: Game): void {
    const dialogs = this.dialogs;
    if (!dialogs) {
      return;
    }
    if (game.phase === Phase.MATCH_OVER) {
      if (!this.matchOverShown && !this.replaying) {
        this.matchOverShown = true;
        const last = game.finishedGames[game.finishedGames.length - 1];
        const lastText = last ? `${gameOverText(game, last, this.state.mySeat)} ` : "";
        setText(dialogs.matchOverText, `${lastText}${matchOverText(game, this.state.mySeat)}`);
        if (this.rematch) {
          // The rematch is offered in the dialog while it is open, beside the board after.
          const rematch = this.rematch.element;
          dialogs.matchOverText.after(rematch);
          dialogs.matchOver.element.addEventListener("close", () => this.messages.append(rematch), { once: true });
        }
        dialogs.open(dialogs.matchOver.element, !this.watching);
      }
      dialogs.close(dialogs.double.element);
      dialogs.close(dialogs.resignAnswer.element);
      return;
    }
    if (this.watching) {
      return;
    }
    dialogs.ask(game, (action) => this.has(action));
  }

  private showGameOver(game: Game): void {
    const dialogs = this.dialogs;
    const finished = game.finishedGames[game.finishedGames.length - 1];
    if (!dialogs || !finished || game.phase === Phase.MATCH_OVER) {
      return;
    }
    const me = this.state.mySeat;
    const goesOn = isMoneyPlay(game) ? ` ${scoreText(game, me)}. The next game starts now.` : ` ${scoreText(game, me)}.`;
    setText(dialogs.gameOverText, `${gameOverText(game, finished, me)}${goesOn}`);
    dialogs.open(dialogs.gameOver.element, !this.watching);
  }

  // --- input ---------------------------------------------------------------------------------

  /** The refusal, the pips and the controls: what a call, a step on the board or a refusal changes. */
  private renderInput(): void {
    setText(this.refusal, this.state.refusal);
    this.renderPips();
    this.renderControls();
  }

  private openResign(): void {
    if (this.dialogs && this.game && this.has(Action.RESIGN)) {
      this.dialogs.setResignPoints(this.game.cubeValue || 1);
      this.dialogs.open(this.dialogs.resignOffer.element);
    }
  }

  private undo(): void {
    this.board?.undo();
    this.state.undo(this.board?.partial ?? []);
  }

  private async sendNotation(text: string): Promise<void> {
    if (await this.state.playNotation(text)) {
      this.controls?.clearNotation();
    }
  }

  private onPartialChange(partial: Step[], complete: LegalPlay | null): void {
    if (partial.length > this.state.partial.length) {
      playSound("checker");
    }
    this.state.setPartial(partial, complete);
  }

  private onDiceClick(): void {
    if (this.has(Action.ROLL)) {
      void this.state.roll();
    } else if (this.state.complete && this.has(Action.PLAY)) {
      void this.state.play();
    }
  }

  private onCubeClick(): void {
    if (this.has(Action.DOUBLE)) {
      void this.state.double();
    }
  }

  private onKey(event: KeyboardEvent): void {
    if (event.defaultPrevented || event.isComposing) {
      return;
    }
    const target = event.target as HTMLElement | null;
    if (event.key !== "Enter") {
      if (!(target && target.closest("input, textarea, select, dialog")) && this.record.onKey(event)) {
        event.preventDefault();
      }
      return;
    }
    if (target && target.closest("input, textarea, select, button, a, dialog")) {
      return;
    }
    if (this.controls?.canPlay) {
      event.preventDefault();
      void this.state.play();
    }
  }
}
