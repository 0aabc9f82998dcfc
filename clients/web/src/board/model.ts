// What the board shows and what a player can do on it, in the page's own terms: the seat the page
// sits at is "me" (a watcher sits at seat 0), and each side's checkers are counted on its own
// points, as the API counts them (board.proto: point 1 is the last before bearing off, 24 the
// farthest back; 25 is the bar and 0 off the board in a step).

export type Variant = "backgammon" | "long-nardi" | "plakoto" | "fevga";

/** The game's name, as a player reads it. */
export const VARIANT_TITLES: Record<Variant, string> = {
  backgammon: "Backgammon",
  "long-nardi": "Long nardi",
  plakoto: "Plakoto",
  fevga: "Fevga",
};

/** The board a game is laid out on: backgammon's (the sides move in opposite directions; Plakoto
 *  too) or long nardi's (both move the same way round; Fevga too). */
export type Layout = "backgammon" | "long-nardi";

export function layoutOf(variant: Variant): Layout {
  return variant === "long-nardi" || variant === "fevga" ? "long-nardi" : "backgammon";
}

/** What a checker landing on a lone opposing checker does: hits it to the bar (backgammon), pins
 *  it (Plakoto), or cannot land there at all (long nardi and Fevga, where one checker holds a
 *  point). */
export function loneCheckerRule(variant: Variant): "hit" | "pin" | "held" {
  if (variant === "backgammon") return "hit";
  return variant === "plakoto" ? "pin" : "held";
}

export type Side = "me" | "them";

export interface SideCheckers {
  /** 24 counts: index 0 is the side's own 1-point, index 23 its 24-point. */
  points: number[];
  /** Checkers on the bar (always 0 in long nardi). */
  bar: number;
  /** Checkers borne off. */
  off: number;
  /** Plakoto: the side's points (its own numbering) where its checker is pinned under opposing
   *  checkers; that checker is counted in `points`. None when absent. */
  pinned?: number[];
}

export interface BoardState {
  variant: Variant;
  me: SideCheckers;
  them: SideCheckers;
  /** The dice rolled and not yet played, [] before the roll. */
  dice: number[];
  /** Whose the dice are (null before the opening throw). */
  diceSide: Side | null;
  /** The doubling cube: null when the game has none (long nardi, or the cube switched off). */
  cube: { value: number; owner: Side | null; offered?: boolean } | null;
  pips: { me: number; them: number };
  /** The steps of `dice` already played (their dice are drawn crossed out); none when absent. */
  played?: Step[];
  /** Each side's last roll, kept in view (crossed out) until that side rolls again. */
  rolled?: Partial<Record<Side, number[]>>;
  /** The last play made, marked on the board (where it left from, where it went). */
  lastPlay?: PlayOnBoard | null;
  /** A play drawn as arrows, step by step, without moving a checker: a hint, or a play of the
   *  review beside the one made. None when absent. */
  arrows?: PlayOnBoard | null;
}

/** A play of one side, each step in that side's own numbering. */
export interface PlayOnBoard {
  side: Side;
  steps: Step[];
}

/** One checker moved by one die, in the mover's numbering: from 1-24 or 25 (the bar), to 1-24 or 0 (off). */
export interface Step {
  from: number;
  to: number;
  die: number;
  hit: boolean;
}

/** A legal play as the server lists it: the notation it writes and the steps, in an order that can be played. */
export interface LegalPlay {
  notation: string;
  steps: Step[];
}
