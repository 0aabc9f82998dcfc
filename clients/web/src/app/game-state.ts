// What a game screen believes its game is, and what it sends. The game is followed with WatchGame
// (feed.ts, resumed after a dropped stream) into the queue of changes (sync.ts) that the screen
// shows at its own pace; what is shown is what the page believes. For a seat: which seat its token
// holds, what that seat may do in the state shown (ListLegalActions, read once per state and only
// when the game expects the seat to act, never before everything received is shown), the play
// being made on the board step by step, and every action as one unary call carrying the etag of
// the state it was decided on and a fresh request_id (repeated with the same id when its answer
// is lost). Until the stream shows what an action made, nothing more is sent. A refusal is kept in
// the server's words; a stale etag reads the game again.
//
// No DOM: the screen (game.ts) draws this state and forwards the player's input here.

import type { LegalPlay, Step } from "../board/model";
import type { GameResult } from "../gen/tavli/v1/board_pb";
import { Action, EventKind, Phase, Seat, type Game, type GameEvent } from "../gen/tavli/v1/games_service_pb";
import { Code, ConnectError, newRequestId, refusalText, type Api } from "./api";
import { expectsAction, mustPass, toLegalPlays } from "./convert";
import { GameFeed } from "./feed";
import { pause } from "./pause";
import { awaitsRematch, rematchStep } from "./rematch-step";
import { GameSync } from "./sync";

/** How long before an action whose answer was lost is sent again (with the same request_id). */
const RESEND_MS = 500;
/** How long before what the seat may do is read again after a failed read. */
const REREAD_MS = 1000;

/** What every action carries. */
interface Common {
  name: string;
  seatToken: string;
  etag: string;
  requestId: string;
}

/** An answer to the other seat's double or resignation. */
export type Answer = "take" | "drop" | "beaver" | "accept" | "reject";

export interface GameStateListener {
  /** Changes were queued to be shown (take them from `sync`). */
  queued(): void;
  /** The seat the token holds is known. */
  seated(): void;
  /** What the seat may do in the state shown was read. */
  actionsRead(): void;
  /** A call started or ended, the play being made changed, or the refusal did. */
  changed(): void;
  /** The connection in words ("" when it is fine). */
  connection(text: string): void;
  /** The game cannot be shown: no game of that name, or a token that holds no seat of it. */
  unavailable(error: unknown): void;
  /** Whether the page is still showing something (a change moving, a finished game held): nothing may be sent meanwhile. */
  showing(): boolean;
}

export interface GameStateOptions {
  api: Api;
  name: string;
  /** The seat's token; null for a watcher, who sends nothing. */
  seatToken: string | null;
  signal: AbortSignal;
  listener: GameStateListener;
}

/** What the seat may do in one state, as the server listed it. */
interface Legal {
  etag: string;
  actions: Action[];
  plays: LegalPlay[];
}

export class GameState {
  /** The events received and the changes still to show. */
  readonly sync = new GameSync();
  readonly name: string;
  private readonly api: Api;
  private readonly seatToken: string | null;
  private readonly signal: AbortSignal;
  private readonly listener: GameStateListener;
  private readonly feed: GameFeed;
  private seat: Seat | null = null;
  /** The server refused the token: it holds no seat of this game. */
  private badToken = false;
  private legal: Legal | null = null;
  /** The etag whose actions are being read. */
  private reading = "";
  /** The etag of the state my last action was made on: until the stream shows what it made, nothing more is sent. */
  private actedOn = "";
  private calling = false;
  private steps: Step[] = [];
  private whole: LegalPlay | null = null;
  /** The sequence my own play from the board gets: it is on the board already, so not moved again. */
  private ownPlay: bigint | null = null;
  private refusalWords = "";

  constructor(options: GameStateOptions) {
    this.api = options.api;
    this.name = options.name;
    this.seatToken = options.seatToken;
    this.signal = options.signal;
    this.listener = options.listener;
    this.feed = new GameFeed(
      this.api,
      this.name,
      this.sync,
      {
        queued: () => this.listener.queued(),
        connection: (text) => this.listener.connection(text),
        refused: (error) => this.listener.unavailable(error),
        watchesOn: (game) => this.seatToken !== null && awaitsRematch(rematchStep(game, this.seat, true)),
      },
      this.signal,
    );
  }

  // --- what the page believes -------------------------------------------------------------------

  /** The game as the page shows it now (changes still queued are not in it yet). */
  get game(): Game | null {
    return this.sync.shown?.game ?? null;
  }

  get watching(): boolean {
    return this.seatToken === null;
  }

  /** The seat this page plays; null while unknown, and always for a watcher. */
  get mySeat(): Seat | null {
    return this.seat;
  }

  /** The seat the board is drawn from: mine, or seat 0 for a watcher (and until mine is known). */
  get viewSeat(): Seat {
    return this.seat ?? Seat.SEAT_0;
  }

  /** The seat whose actions the page reads: mine; before the throw for who starts, either seat's do. */
  get actingSeat(): Seat | null {
    if (this.watching) {
      return null;
    }
    if (this.seat !== null) {
      return this.seat;
    }
    return this.game?.phase === Phase.OPENING ? Seat.SEAT_0 : null;
  }

  /** What the seat may do in the state shown ([] until read, or when it may do nothing). */
  get actions(): Action[] {
    return this.legal !== null && this.legal.etag === this.game?.etag ? this.legal.actions : [];
  }

  /** The legal plays in the state shown ([] unless the seat is to play and they were read). */
  get plays(): LegalPlay[] {
    return this.legal !== null && this.legal.etag === this.game?.etag ? this.legal.plays : [];
  }

  /**
   * Whether the page may act now: everything received is shown, the game expects my seat to act,
   * what it may do in this state is read, and no action of mine on this state is still to show.
   */
  get ready(): boolean {
    const game = this.game;
    const seat = this.actingSeat;
    if (this.badToken || game === null || seat === null || !this.sync.settled || this.listener.showing()) {
      return false;
    }
    return game.etag !== this.actedOn && this.actions.length > 0 && expectsAction(game, seat);
  }

  /** Whether the page may send `action` now. */
  may(action: Action): boolean {
    return this.ready && this.actions.includes(action);
  }

  /** A call is under way: nothing else is sent until it is answered. */
  get busy(): boolean {
    return this.calling;
  }

  /** The server's words for the last refusal ("" when none stands). */
  get refusal(): string {
    return this.refusalWords;
  }

  /** Whether `event` is my own play from the board (drawn there already: not to be moved again). */
  isOwnPlay(event: GameEvent): boolean {
    return event.sequence === this.ownPlay && event.kind === EventKind.PLAY && !event.forced;
  }

  // --- following the game ----------------------------------------------------------------------

  /**
   * Reads the game and, for a seat, the seat its token holds. Null when it cannot be shown (the
   * listener was told why) or the screen was left.
   */
  async open(): Promise<Game | null> {
    let first: Game;
    try {
      const answer = await this.api.games.getGame({ name: this.name }, { signal: this.signal });
      if (!answer.game) {
        throw new Error("the server sent no game");
      }
      first = answer.game;
    } catch (error) {
      if (!this.signal.aborted) {
        this.listener.unavailable(error);
      }
      return null;
    }
    if (!this.watching) {
      await this.findSeat();
      if (this.badToken || this.signal.aborted) {
        return null;
      }
    }
    return first;
  }

  /**
   * Follows the game from `first` (as `open` read it) until the match is over or the screen is
   * left. A seat first sees what happened since its own last action moving (feed.ts); a watcher sees
   * the game from `first`, or every event from the start when it asked for a replay.
   */
  async follow(first: Game, { fromStart = false } = {}): Promise<void> {
    if (this.watching && !fromStart) {
      this.sync.jump(first);
      this.listener.queued();
    } else if (!this.watching) {
      await this.feed.catchUp(first, this.seat);
    }
    await this.feed.follow();
  }

  /** Once everything received is shown: find out my seat if need be, and read what I may do when I am to act. */
  async readActions(game: Game): Promise<void> {
    if (this.watching) {
      return;
    }
    if (this.seat === null && !this.badToken) {
      await this.findSeat();
    }
    const seat = this.actingSeat;
    if (seat === null || this.game !== game || !expectsAction(game, seat)) {
      return;
    }
    await this.readLegalActions(game, seat);
  }

  private async readLegalActions(game: Game, seat: Seat): Promise<void> {
    if (this.reading === game.etag || this.legal?.etag === game.etag) {
      return;
    }
    this.reading = game.etag;
    try {
      const answer = await this.api.games.listLegalActions({ name: this.name, seat }, { signal: this.signal });
      if (this.game?.etag === answer.etag) {
        this.legal = { etag: answer.etag, actions: answer.actions, plays: toLegalPlays(answer.plays) };
        this.listener.actionsRead();
      } else if (this.game === game) {
        // The server is ahead of the page: read the state it is at.
        this.reading = "";
        await this.feed.refresh();
      }
    } catch (error) {
      this.reading = "";
      if (!this.signal.aborted) {
        this.refuse(refusalText(error));
        await pause(REREAD_MS, this.signal);
        if (this.game === game) {
          void this.readLegalActions(game, seat);
        }
      }
    } finally {
      if (this.reading === game.etag) {
        this.reading = "";
      }
    }
  }

  /**
   * Which seat my token holds: ListLegalActions by token names it. A token that holds no seat is
   * refused (PERMISSION_DENIED, or INVALID_ARGUMENT for one that is malformed): the game is then
   * unavailable to this page.
   */
  private async findSeat(): Promise<void> {
    try {
      const answer = await this.api.games.listLegalActions({ name: this.name, seatToken: this.seatToken ?? "" }, { signal: this.signal });
      if (answer.seat !== Seat.SEAT_UNSPECIFIED) {
        this.seat = answer.seat;
        this.listener.seated();
      }
    } catch (error) {
      if (this.signal.aborted) {
        return;
      }
      if (error instanceof ConnectError && (error.code === Code.PermissionDenied || error.code === Code.InvalidArgument)) {
        this.badToken = true;
        this.listener.unavailable(error);
      } else {
        this.refuse(refusalText(error));
      }
    }
  }

  // --- the play being made ---------------------------------------------------------------------

  /** The steps made on the board so far this turn. */
  get partial(): readonly Step[] {
    return this.steps;
  }

  /** The legal play the steps make whole (for a roll that cannot be played, the empty play); null while none. */
  get complete(): LegalPlay | null {
    return this.whole;
  }

  /** The board is drawn afresh: no step is made on it yet. */
  clearPlay(): void {
    this.steps = [];
    this.whole = this.may(Action.PLAY) ? this.passOrNothing() : null;
  }

  /** The player made or took back steps on the board: `complete` is the legal play they make whole, or null. */
  setPartial(partial: readonly Step[], complete: LegalPlay | null): void {
    this.steps = [...partial];
    this.whole = complete ?? (partial.length === 0 ? this.passOrNothing() : null);
    if (partial.length > 0) {
      this.refusalWords = "";
    }
    this.listener.changed();
  }

  /** The board took back a step: `partial` is what is left (fewer steps than a whole play make no play). */
  undo(partial: readonly Step[]): void {
    this.refusalWords = "";
    if (partial.length !== this.steps.length) {
      this.setPartial(partial, null);
    } else {
      this.listener.changed();
    }
  }

  private passOrNothing(): LegalPlay | null {
    return mustPass(this.plays) ? this.plays[0] : null;
  }

  // --- acting ----------------------------------------------------------------------------------

  async roll(): Promise<void> {
    if (this.may(Action.ROLL)) {
      await this.act((common) => this.api.games.rollDice(common, { signal: this.signal }));
    }
  }

  async double(): Promise<void> {
    if (this.may(Action.DOUBLE)) {
      await this.act((common) => this.api.games.offerDouble(common, { signal: this.signal }));
    }
  }

  /** Answers the other seat's double or resignation (the server refuses one that is no longer asked). */
  async answer(answer: Answer): Promise<void> {
    const games = this.api.games;
    const options = { signal: this.signal };
    const calls: Record<Answer, (common: Common) => Promise<unknown>> = {
      take: (common) => games.takeDouble(common, options),
      drop: (common) => games.dropDouble(common, options),
      beaver: (common) => games.beaverDouble(common, options),
      accept: (common) => games.acceptResignation(common, options),
      reject: (common) => games.rejectResignation(common, options),
    };
    await this.act(calls[answer]);
  }

  async resign(result: GameResult): Promise<void> {
    await this.act((common) => this.api.games.offerResignation({ ...common, result }, { signal: this.signal }));
  }

  /** Sends the play made on the board: its steps, or "pass" for a roll that cannot be played. */
  async play(): Promise<void> {
    const complete = this.whole;
    if (complete === null || !this.may(Action.PLAY)) {
      return;
    }
    const steps = (this.steps.length ? this.steps : complete.steps).map((s) => ({ fromPoint: s.from, toPoint: s.to }));
    if (steps.length === 0) {
      await this.playNotation("pass");
      return;
    }
    this.ownPlay = this.game?.eventCount ?? null;
    await this.act((common) => this.api.games.playMove({ ...common, play: { case: "steps", value: { steps } } }, { signal: this.signal }));
  }

  /** Sends a play typed in notation; whether the server took it. */
  async playNotation(text: string): Promise<boolean> {
    if (!this.may(Action.PLAY)) {
      return false;
    }
    const notation = text.trim();
    return this.act((common) => this.api.games.playMove({ ...common, play: { case: "notation", value: notation } }, { signal: this.signal }));
  }

  /** The board refused a step after `partial`: ask the server why, and keep its words as the refusal. */
  async explain(partial: readonly Step[], attempted: { from: number; to: number }): Promise<void> {
    const game = this.game;
    if (!game || !this.may(Action.PLAY)) {
      return;
    }
    const steps = [...partial.map((s) => ({ fromPoint: s.from, toPoint: s.to })), { fromPoint: attempted.from, toPoint: attempted.to }];
    try {
      const answer = await this.api.rules.validatePlay(
        {
          variant: game.ruleSet?.variant,
          position: { form: { case: "positionId", value: game.positionId } },
          dice: [...game.dice],
          play: { case: "steps", value: { steps } },
        },
        { signal: this.signal },
      );
      if (this.game === game && !answer.legal) {
        this.refuse(answer.reason || answer.error || "that move is not legal");
      }
    } catch (error) {
      if (!this.signal.aborted) {
        this.refuse(refusalText(error));
      }
    }
  }

  /**
   * Makes one action on the state shown; whether the server took it. The state it makes comes on
   * the stream, in order, behind whatever is still to show.
   */
  private async act(call: (common: Common) => Promise<unknown>): Promise<boolean> {
    const game = this.game;
    if (!game || this.calling || this.seatToken === null) {
      return false;
    }
    this.calling = true;
    this.refuse("");
    const common: Common = { name: this.name, seatToken: this.seatToken, etag: game.etag, requestId: newRequestId() };
    try {
      try {
        await call(common);
      } catch (error) {
        if (!isLostAnswer(error) || this.signal.aborted) {
          throw error;
        }
        // The same request_id makes sending it again safe: the server does it at most once.
        await pause(RESEND_MS, this.signal);
        await call(common);
      }
      this.refusalWords = "";
      this.actedOn = common.etag;
      return true;
    } catch (error) {
      if (!this.signal.aborted) {
        this.refusalWords = refusalText(error);
        if (error instanceof ConnectError && error.code === Code.Aborted) {
          void this.feed.refresh(); // a stale etag: the page is behind, read where the game is
        }
      }
      return false;
    } finally {
      this.calling = false;
      this.listener.changed();
    }
  }

  private refuse(words: string): void {
    this.refusalWords = words;
    this.listener.changed();
  }
}

/** Whether a call failed with no answer known (the connection lost on the way): it may have been done. */
function isLostAnswer(error: unknown): boolean {
  return error instanceof ConnectError && (error.code === Code.Unavailable || error.code === Code.Unknown);
}
