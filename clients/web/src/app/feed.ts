// The game's events from the server into the page's queue (sync.ts): WatchGame followed for as
// long as the screen is shown and resumed where it stopped after a dropped stream; for a seat
// coming to a game in progress, the past events it has not seen; and the state read whole after a
// refusal. The screen is told when something was queued; it shows the queue at its own pace.

import { Phase, type Game, type Seat } from "../gen/tavli/v1/games_service_pb";
import { Code, ConnectError, isCancelled, refusalText, type Api } from "./api";
import { pause } from "./pause";
import { unseenFrom, withFinishedGamesSent, type GameSync, type Message } from "./sync";

export interface FeedListener {
  /** Changes were queued. */
  queued(): void;
  /** The connection's state in words ("" when it is fine). */
  connection(text: string): void;
  /** The server refused to show the game (an unknown name). */
  refused(error: ConnectError): void;
  /** Whether the finished match `game` is still to be watched: something may yet happen in it (a rematch between two people). */
  watchesOn(game: Game): boolean;
}

const FIRST_BACKOFF_MS = 500;
const LAST_BACKOFF_MS = 10000;
/** How often a finished match is watched again while something may yet happen in it. */
const FINISHED_WATCH_MS = 1500;

export class GameFeed {
  constructor(
    private readonly api: Api,
    private readonly name: string,
    private readonly sync: GameSync,
    private readonly listener: FeedListener,
    private readonly signal: AbortSignal,
  ) {}

  /**
   * Follows the game's events from the first not yet received until the match is over (and
   * nothing more is awaited in it) or the screen is left.
   */
  async follow(): Promise<void> {
    let backoff = FIRST_BACKOFF_MS;
    while (!this.signal.aborted) {
      try {
        const stream = this.api.games.watchGame({ name: this.name, fromSequence: this.sync.nextSequence }, { signal: this.signal });
        for await (const message of stream) {
          this.listener.connection("");
          backoff = FIRST_BACKOFF_MS;
          if (this.sync.receive(message.event, message.game)) {
            this.listener.queued();
          }
        }
        // The server ended the stream: over when the match is, else resume. A watch of a
        // finished match ends with its last event; one awaited after it (a rematch offered or
        // accepted) is watched for again from the next.
        const latest = this.sync.latest;
        if (latest?.phase === Phase.MATCH_OVER) {
          if (!this.listener.watchesOn(latest)) {
            return;
          }
          await pause(FINISHED_WATCH_MS, this.signal);
          continue;
        }
      } catch (error) {
        if (this.signal.aborted || isCancelled(error)) {
          return;
        }
        if (error instanceof ConnectError && (error.code === Code.NotFound || error.code === Code.InvalidArgument)) {
          this.listener.refused(error);
          return;
        }
        this.listener.connection(`Connection lost (${refusalText(error)}); reconnecting…`);
      }
      await pause(backoff, this.signal);
      backoff = Math.min(backoff * 2, LAST_BACKOFF_MS);
    }
  }

  /**
   * A seat coming to the game (`first` as read): what happened since its own last action in the
   * game in play (the throw for who starts, the computer's first play, plays made for it) is
   * queued to be shown moving; what came before is drawn at once.
   */
  async catchUp(first: Game, seat: Seat | null): Promise<void> {
    const past = await this.pastEvents(first.eventCount);
    const from = past.length ? unseenFrom(past, seat) : 0;
    if (past.length === 0 || from === past.length) {
      this.sync.jump(first);
    } else {
      const seen = from > 0 ? past[from - 1].game : undefined;
      if (seen) {
        this.sync.jump(seen);
      }
      for (const message of past.slice(from)) {
        this.sync.receive(message.event, message.game);
      }
    }
    this.listener.queued();
  }

  /** The game's first `count` events with their states; none when they cannot be read (the stream then follows from the state read). */
  private async pastEvents(count: bigint): Promise<Message[]> {
    const past: Message[] = [];
    if (count === 0n) {
      return past;
    }
    try {
      const stream = this.api.games.watchGame({ name: this.name, fromSequence: 0n }, { signal: this.signal });
      let before: Game | null = null;
      for await (const message of stream) {
        before = message.game ? withFinishedGamesSent(message.game, before) : before;
        past.push(message);
        if ((message.event?.sequence ?? 0n) + 1n >= count) {
          break;
        }
      }
      return past;
    } catch {
      return [];
    }
  }

  /** Reads the game again (after a refusal): queued behind what is still to show, if it is ahead. */
  async refresh(): Promise<void> {
    try {
      const answer = await this.api.games.getGame({ name: this.name }, { signal: this.signal });
      this.listener.connection("");
      if (answer.game && this.sync.jump(answer.game)) {
        this.listener.queued();
      }
    } catch {
      // The watch loop says so and tries again.
    }
  }
}
