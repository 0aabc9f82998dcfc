// The signed-in account's session: its event stream, followed for as long as the player is signed
// in (in the lobby and at a table alike, so that the server knows the player is there), resumed
// after the last event read whenever it drops; and the open challenges, read again while the
// lobby is on show (an open seek is nobody's event: it is listed, not told).

import type { Account, LadderGame, GameEnded } from "../gen/tavli/v1/ladder_service_pb";
import { Code, ConnectError, isCancelled, refusalText, type Api } from "./api";
import { keepAccountKey, keepLastEventRead, lastEventRead } from "./account";
import {
  emptyLobby,
  withChallengesListed,
  withEvent,
  withGamesInProgress,
  type LobbyState,
} from "./lobby-state";

/** How soon a dropped stream is opened again: at first, and at most (doubling in between). */
const RETRY_FIRST_MS = 500;
const RETRY_MOST_MS = 8000;

export interface SessionHooks {
  /** A game of the account's has just started: go to its table. */
  gameStarted(game: LadderGame): void;
  /** A game of the account's has ended. */
  gameEnded(ended: GameEnded): void;
  /** The key stopped working (revoked): the player is signed out, with why. */
  signedOut(why: string): void;
}

export class LobbySession {
  state: LobbyState;
  /** Whether the event stream is open now, and if not, why. */
  connection = "Connecting…";
  private readonly listeners = new Set<() => void>();
  private readonly controller = new AbortController();

  constructor(
    private readonly api: Api,
    readonly account: Account,
    private readonly hooks: SessionHooks,
  ) {
    this.state = emptyLobby(account.handle, lastEventRead(account.handle));
  }

  /** The account whose key `key` is, after the server says so; the key is kept for later visits.
   *  :throws: the server's refusal (an unknown or revoked key). */
  static async signIn(api: Api, key: string, hooks: SessionHooks): Promise<LobbySession> {
    const answer = await api.ladder.getAccount({}, { headers: { authorization: `Bearer ${key}` } });
    if (!answer.account) {
      throw new Error("the server did not say whose key this is");
    }
    keepAccountKey(key);
    const session = new LobbySession(api, answer.account, hooks);
    void session.follow();
    return session;
  }

  /** Calls `listener` after every change; returns how to stop. */
  subscribe(listener: () => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  /** Reads the open challenges and seeks again. */
  async listChallenges(signal: AbortSignal): Promise<void> {
    const answer = await this.api.ladder.listChallenges({}, { signal });
    this.change(withChallengesListed(this.state, answer.challenges));
  }

  /** Whether `game` is one of the account's games in progress. */
  plays(game: string): boolean {
    return this.state.games.has(game);
  }

  /** Stops following (signing out, or the page going away). */
  stop(): void {
    this.controller.abort();
    this.listeners.clear();
  }

  /** Signs out: the key is forgotten by this browser (it stays in force on the server). */
  signOut(): void {
    this.stop();
    keepAccountKey(null);
  }

  private async follow(): Promise<void> {
    const signal = this.controller.signal;
    let wait = RETRY_FIRST_MS;
    while (!signal.aborted) {
      try {
        const stream = this.api.ladder.streamEvents({ afterEventId: this.state.lastEventId }, { signal });
        let first = true;
        for await (const message of stream) {
          if (first) {
            first = false;
            wait = RETRY_FIRST_MS;
            this.connection = "";
            this.change(withGamesInProgress(this.state, message.gamesInProgress));
          } else if (message.event) {
            this.hear(message.event);
          }
        }
        this.connection = "The server ended the stream: connecting again…";
      } catch (error) {
        if (signal.aborted || isCancelled(error)) {
          return;
        }
        if (error instanceof ConnectError && error.code === Code.Unauthenticated) {
          this.signOut();
          this.hooks.signedOut(`Signed out: ${refusalText(error)}`);
          return;
        }
        this.connection = `Connection lost (${refusalText(error)}): connecting again…`;
      }
      this.notify();
      await new Promise((resolve) => setTimeout(resolve, wait));
      wait = Math.min(wait * 2, RETRY_MOST_MS);
    }
  }

  private hear(event: Parameters<typeof withEvent>[1]): void {
    const heard = withEvent(this.state, event, Date.now());
    this.change(heard.state);
    keepLastEventRead(this.account.handle, heard.state.lastEventId);
    if (heard.goTo) {
      this.hooks.gameStarted(heard.goTo);
    }
    if (heard.ended) {
      this.hooks.gameEnded(heard.ended);
    }
  }

  private change(state: LobbyState): void {
    this.state = state;
    this.notify();
  }

  private notify(): void {
    for (const listener of this.listeners) {
      listener();
    }
  }
}
