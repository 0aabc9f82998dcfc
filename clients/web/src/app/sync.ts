// What the page believes the game is, and the changes it still has to show, in order.
//
// The server's WatchGame stream sends each event with the game's state just after it; after a
// stream's first message, that state carries only the finished games its event finished, and the
// page puts back the ones the stream sent before (withFinishedGamesSent). The page
// keeps them as a queue of changes: the screen takes one at a time, shows it (a play moving step
// by step, a game's final position held until the player goes on) and only then takes the next,
// so nothing is skipped and nothing is shown out of order, however fast the events come. A state
// read whole (the first one, or a catch-up after a refusal) is a change too, queued behind the
// events before it.
//
// What is shown is a fold of the changes taken: the game, each seat's last roll (kept in view
// until that seat rolls again) and the last play of the game in play. Pure: no DOM, no calls.

import { EventKind, Seat, type FinishedGame, type Game, type GameEvent } from "../gen/tavli/v1/games_service_pb";
import type { Step } from "../board/model";
import { seatIndex, toStep } from "./convert";

/** One thing that happened, to be shown. */
export interface Change {
  /** The event; null for a state read whole. */
  event: GameEvent | null;
  /** The state before it (null for the first change the page sees). */
  before: Game | null;
  /** The state after it. */
  after: Game;
  /** The game this change ended (a last bear-off, a drop, an accepted resignation, a clock), if it ended one. */
  ended: FinishedGame | null;
}

/** A play of one seat, each step in that seat's numbering. */
export interface SeatPlay {
  seat: Seat;
  steps: Step[];
}

/** What the page shows once it has shown a change. */
export interface Shown {
  game: Game;
  /** Each seat's last roll in the game in play (index 0 for seat 0), [] before its first. */
  rolled: [number[], number[]];
  /** The last play of the game in play. */
  lastPlay: SeatPlay | null;
}

/** The play a change makes (with its seat and steps), if it is one. */
export function playOf(change: Change): SeatPlay | null {
  const event = change.event;
  if (!event || event.kind !== EventKind.PLAY) return null;
  return { seat: event.seat, steps: event.steps.map(toStep) };
}

/** What is shown after `change`, from what was shown before it. */
export function showChange(shown: Shown | null, change: Change): Shown {
  const after = change.after;
  const sameGame = shown !== null && shown.game.gameNumber === after.gameNumber && change.ended === null;
  const rolled: [number[], number[]] = sameGame ? [[...shown.rolled[0]], [...shown.rolled[1]]] : [[], []];
  let lastPlay = sameGame ? shown.lastPlay : null;
  const event = change.event;
  if (event?.kind === EventKind.ROLL) {
    rolled[seatIndex(event.seat)] = [...event.dice];
  } else if (event?.kind === EventKind.OPENING_THROW) {
    const last = event.openingThrows[event.openingThrows.length - 1];
    if (after.dice.length > 0 && after.turn !== Seat.SEAT_UNSPECIFIED) {
      rolled[seatIndex(after.turn)] = [...after.dice];
    } else if (last) {
      rolled[0] = [last.seat0Die];
      rolled[1] = [last.seat1Die];
    }
  } else if (event?.kind === EventKind.PLAY && sameGame) {
    lastPlay = playOf(change);
  } else if (event === null && after.dice.length > 0 && after.turn !== Seat.SEAT_UNSPECIFIED) {
    rolled[seatIndex(after.turn)] = [...after.dice];
  }
  if (lastPlay === null && event === null && after.lastPlay && after.lastPlay.seat !== Seat.SEAT_UNSPECIFIED) {
    // A state read whole names its last play by notation only; its dice are that seat's last roll.
    if (rolled[seatIndex(after.lastPlay.seat)].length === 0) rolled[seatIndex(after.lastPlay.seat)] = [...after.lastPlay.dice];
  }
  return { game: after, rolled, lastPlay };
}

/**
 * `game`, a stream's message, made whole: after a stream's first message a game leaves out the
 * finished games the stream sent already (its omittedFinishedGameCount, the first ones), taken here
 * from `before`, a whole state of the same match no older than the stream's previous message.
 * Changes `game` and returns it.
 */
export function withFinishedGamesSent(game: Game, before: Game | null): Game {
  const omitted = game.omittedFinishedGameCount;
  if (omitted > 0) {
    game.finishedGames = [...(before?.finishedGames.slice(0, omitted) ?? []), ...game.finishedGames];
    game.omittedFinishedGameCount = 0;
  }
  return game;
}

/** One message of the stream: an event and the state after it. */
export interface Message {
  event?: GameEvent;
  game?: Game;
}

/**
 * Where a seat coming to a game in progress starts to see it move: the past events after its own
 * last action (a play the server made for it is not its own) in the game in play; those before
 * are drawn at once. An index into `past` (its length when nothing is left unseen).
 */
export function unseenFrom(past: Message[], seat: Seat | null): number {
  const last = past[past.length - 1]?.game;
  let from = past.length;
  while (from > 0) {
    const { event, game } = past[from - 1];
    const mine = seat !== null && event?.seat === seat && !(event.kind === EventKind.PLAY && event.forced);
    const sameGame = game?.gameNumber === last?.gameNumber && game?.finishedGames.length === last?.finishedGames.length;
    if (mine || !sameGame) break;
    from--;
  }
  return from;
}

/** The game's events in order, and the queue of changes not yet shown. */
export class GameSync {
  private received: Game | null = null;
  private next = 0n;
  private readonly queue: Change[] = [];
  private current: Shown | null = null;

  /** The sequence of the first event not yet received: where a (re)started stream begins. */
  get nextSequence(): bigint {
    return this.next;
  }

  /** The newest state received (shown or not). */
  get latest(): Game | null {
    return this.received;
  }

  /** What the page shows now: the fold of the changes taken. */
  get shown(): Shown | null {
    return this.current;
  }

  /** How many changes wait to be shown. */
  get pending(): number {
    return this.queue.length;
  }

  /** Whether everything received is shown. */
  get settled(): boolean {
    return this.queue.length === 0 && this.current !== null;
  }

  /**
   * Takes one message of the stream, its game made whole from the newest state received. An
   * event already received (a stream restarted a little early, or after a state read whole) is
   * ignored; returns whether a change was queued.
   */
  receive(event: GameEvent | undefined, game: Game | undefined): boolean {
    if (!event || !game || event.sequence < this.next) return false;
    this.enqueue(event, withFinishedGamesSent(game, this.received));
    this.next = event.sequence + 1n;
    return true;
  }

  /** Takes a state read whole; queued only when it is ahead of every event received. */
  jump(game: Game): boolean {
    if (this.received !== null && game.eventCount <= this.received.eventCount) return false;
    this.enqueue(null, game);
    this.next = game.eventCount;
    return true;
  }

  /** The next change to show, folded into what is shown; undefined when none waits. */
  take(): Change | undefined {
    const change = this.queue.shift();
    if (change) this.current = showChange(this.current, change);
    return change;
  }

  private enqueue(event: GameEvent | null, after: Game): void {
    const before = this.received;
    const finished = after.finishedGames.length;
    const ended = before !== null && finished > before.finishedGames.length ? after.finishedGames[finished - 1] : null;
    this.queue.push({ event, before, after, ended });
    this.received = after;
  }
}
