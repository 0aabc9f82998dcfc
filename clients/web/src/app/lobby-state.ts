// What the lobby believes, from what the server told the signed-in account: the open challenges
// and seeks it may act on, its games in progress, and a few lines of news. Each function takes a
// state and returns the next; the screen (lobby.ts) only draws one, the session (lobby-session.ts)
// only feeds them what the server sends.

import { durationMs, timestampMs } from "@bufbuild/protobuf/wkt";
import { Variant } from "../gen/tavli/v1/board_pb";
import { CubeMode, type ClockRules, type RuleSet } from "../gen/tavli/v1/games_service_pb";
import { formatMs } from "./clock";
import {
  AccountKind,
  ChallengeState,
  DeclineReason,
  GameEndedHow,
  type Challenge,
  type GameEnded,
  type LadderEvent,
  type LadderGame,
} from "../gen/tavli/v1/ladder_service_pb";

/** A game that started this long before the page heard of it is not gone to by itself (a page
 *  reading an account's old events); it stays listed among the games in progress. */
export const FRESH_START_MS = 120_000;

/** The most lines of news kept. */
export const NEWS_KEPT = 8;

export interface LobbyState {
  /** The signed-in account's handle. */
  readonly handle: string;
  /** The last event read: a stream resumes after it. */
  readonly lastEventId: bigint;
  /** The open challenges and seeks, by name, oldest first. */
  readonly challenges: ReadonlyMap<string, Challenge>;
  /** The account's games in progress, by game name. */
  readonly games: ReadonlyMap<string, LadderGame>;
  /** What happened lately, newest first, in a player's words. */
  readonly news: readonly string[];
}

/** What an event asks of the page besides a new state: go to a table, or leave one. */
export interface Heard {
  state: LobbyState;
  /** A game of the account's that has just started: the page goes to its table. */
  goTo: LadderGame | null;
  /** A game of the account's that has ended. */
  ended: GameEnded | null;
}

export function emptyLobby(handle: string, lastEventId = 0n): LobbyState {
  return { handle, lastEventId, challenges: new Map(), games: new Map(), news: [] };
}

/** The state with the games in progress a stream's first message lists (they replace the known). */
export function withGamesInProgress(state: LobbyState, games: readonly LadderGame[]): LobbyState {
  return { ...state, games: new Map(games.map((game) => [game.game, game])) };
}

/** The state with the open challenges ListChallenges gave, in place of those known before. */
export function withChallengesListed(state: LobbyState, listed: readonly Challenge[]): LobbyState {
  const open = listed.filter((challenge) => challenge.state === ChallengeState.OPEN);
  return { ...state, challenges: new Map(open.map((challenge) => [challenge.name, challenge])) };
}

/** The state after one of the account's events, and what the page should do about it. */
export function withEvent(state: LobbyState, event: LadderEvent, nowMs: number): Heard {
  if (event.eventId <= state.lastEventId) {
    return { state, goTo: null, ended: null }; // heard already (a stream resumed)
  }
  let next: LobbyState = { ...state, lastEventId: event.eventId };
  let goTo: LadderGame | null = null;
  let ended: GameEnded | null = null;
  const kind = event.kind;
  switch (kind.case) {
    case "challengeReceived": {
      const challenges = new Map(next.challenges);
      challenges.set(kind.value.name, kind.value);
      next = withNews({ ...next, challenges }, `${kind.value.challenger} challenges you: ${ruleSetWords(kind.value.ruleSet)}`);
      break;
    }
    case "challengeClosed": {
      const challenges = new Map(next.challenges);
      challenges.delete(kind.value.name);
      next = { ...next, challenges };
      const words = closedWords(kind.value, state.handle);
      if (words) {
        next = withNews(next, words);
      }
      break;
    }
    case "gameStarted": {
      const games = new Map(next.games);
      games.set(kind.value.game, kind.value);
      next = withNews({ ...next, games }, `Your game against ${kind.value.opponent} has started`);
      const startedMs = event.time ? timestampMs(event.time) : nowMs;
      goTo = nowMs - startedMs <= FRESH_START_MS ? kind.value : null;
      break;
    }
    case "gameEnded": {
      const games = new Map(next.games);
      const game = games.get(kind.value.game);
      games.delete(kind.value.game);
      next = withNews({ ...next, games }, endedWords(kind.value, state.handle, game?.opponent ?? ""));
      ended = kind.value;
      break;
    }
    case "rematchOffered":
      next = withNews(next, `${kind.value.offeredBy} offers a rematch: take it at the table`);
      break;
    case "notice":
      next = withNews(next, kind.value.message);
      break;
  }
  return { state: next, goTo, ended };
}

/** The open seeks (challenges to anyone), oldest first. */
export function openSeeks(state: LobbyState): Challenge[] {
  return [...state.challenges.values()].filter((challenge) => challenge.opponent === "");
}

/** The challenges made to the signed-in account, oldest first. */
export function challengesToMe(state: LobbyState): Challenge[] {
  return [...state.challenges.values()].filter((challenge) => challenge.opponent === state.handle);
}

/** The signed-in account's own challenges to a named account, oldest first. */
export function myChallenges(state: LobbyState): Challenge[] {
  return [...state.challenges.values()].filter(
    (challenge) => challenge.challenger === state.handle && challenge.opponent !== "",
  );
}

/** The reasons a challenge may be declined for, in a player's words, as the list offers them. */
export const DECLINE_REASONS: ReadonlyArray<readonly [DeclineReason, string]> = [
  [DeclineReason.GENERIC, "No, thank you"],
  [DeclineReason.LATER, "Not now: later"],
  [DeclineReason.TOO_FAST, "The clock is too fast"],
  [DeclineReason.TOO_SLOW, "The clock is too slow"],
  [DeclineReason.VARIANT, "Not this variant"],
  [DeclineReason.MATCH_LENGTH, "Not this match length"],
  [DeclineReason.RATED, "Only rated matches"],
  [DeclineReason.CASUAL, "Only unrated matches"],
  [DeclineReason.NO_BOT, "Not against bots"],
  [DeclineReason.ONLY_BOT, "Only against bots"],
];

/** A decline reason in a player's words. */
export function declineWords(reason: DeclineReason): string {
  return DECLINE_REASONS.find(([value]) => value === reason)?.[1] ?? "No, thank you";
}

const VARIANT_WORDS: Partial<Record<Variant, string>> = {
  [Variant.BACKGAMMON]: "Backgammon",
  [Variant.LONG_NARDI]: "Long nardi",
  [Variant.PLAKOTO]: "Plakoto",
  [Variant.FEVGA]: "Fevga",
  [Variant.TAVLI]: "Tavli match",
};

/** A variant as players name it. */
export function variantWords(variant: Variant): string {
  return VARIANT_WORDS[variant] ?? "Backgammon";
}

/** A rule set in a player's words: "Backgammon · match to 5 · cube · 2:00 + 8 s delay". */
export function ruleSetWords(rules: RuleSet | undefined): string {
  const variant = rules?.variant ?? Variant.BACKGAMMON;
  const length = rules?.matchLength ?? 0;
  const parts = [variantWords(variant), length === 0 ? "money play" : `match to ${length}`];
  if (variant === Variant.BACKGAMMON) {
    parts.push(rules?.cube === CubeMode.NO_CUBE ? "no cube" : "cube"); // (unset: the server's default, the cube)
  }
  parts.push(clockWords(rules?.clock));
  return parts.join(" · ");
}

/** A clock's rules in a player's words: "no clock", "5:00 + 8 s delay", "1:00 a point". */
export function clockWords(clock: ClockRules | undefined): string {
  if (!clock) {
    return "no clock";
  }
  const parts: string[] = [];
  const reserve = clock.reserve ? durationMs(clock.reserve) : 0;
  const perPoint = clock.reservePerPoint ? durationMs(clock.reservePerPoint) : 0;
  if (reserve || perPoint) {
    const words = [reserve ? formatMs(reserve) : "", perPoint ? `${formatMs(perPoint)} a point` : ""];
    parts.push(words.filter(Boolean).join(" + "));
  }
  if (clock.delay && durationMs(clock.delay)) {
    parts.push(`${seconds(durationMs(clock.delay))} delay`);
  }
  if (clock.moveLimit && durationMs(clock.moveLimit)) {
    parts.push(`at most ${seconds(durationMs(clock.moveLimit))} a turn`);
  }
  return parts.length ? parts.join(" + ") : "no clock";
}

/** An account's kind in a player's words. */
export function kindWords(kind: AccountKind): string {
  return kind === AccountKind.BOT ? "bot" : "person";
}

/** A rating as a board shows it: "1532 ± 87". */
export function ratingWords(rating: number, deviation: number): string {
  return `${Math.round(rating)} ± ${Math.round(deviation)}`;
}

function seconds(ms: number): string {
  return `${Math.round(ms / 1000)} s`;
}

function withNews(state: LobbyState, line: string): LobbyState {
  return { ...state, news: [line, ...state.news].slice(0, NEWS_KEPT) };
}

function closedWords(challenge: Challenge, me: string): string {
  const mine = challenge.challenger === me;
  const what = challenge.opponent === "" ? "Your seek" : mine ? `Your challenge to ${challenge.opponent}` : `${challenge.challenger}'s challenge`;
  switch (challenge.state) {
    case ChallengeState.DECLINED:
      return mine ? `${challenge.opponent} declined your challenge: ${declineWords(challenge.declineReason)}` : "";
    case ChallengeState.EXPIRED:
      return `${what} expired: nobody answered it`;
    case ChallengeState.CANCELLED:
      return mine ? "" : `${what} was withdrawn`;
    default:
      return ""; // accepted: its game's start is the news
  }
}

function endedWords(ended: GameEnded, me: string, opponent: string): string {
  const against = opponent ? ` against ${opponent}` : "";
  if (ended.how === GameEndedHow.ABORTED) {
    return `Your game${against} was aborted before its first roll: nothing is rated`;
  }
  const result = ended.winner === me ? "You won" : "You lost";
  const claimed = ended.how === GameEndedHow.CLAIMED ? " (claimed: a player was gone)" : "";
  const rating = ended.rated ? `; your rating is now ${ratingWords(ended.rating, ended.deviation)}` : "";
  return `${result} your game${against}${claimed}${rating}`;
}

/** The note under who is online: words where the list shows no one to play, or more than it shows. */
export function onlineNoteWords(handles: readonly string[], myHandle: string, more: boolean): string {
  if (more) {
    return "…and more.";
  }
  return handles.some((handle) => handle !== myHandle)
    ? ""
    : "No one else is online now. Post a seek: it waits here for whoever comes.";
}
