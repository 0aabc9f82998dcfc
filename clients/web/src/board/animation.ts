// A play, step by step, as the board shows it moving: for each step the board with the checker
// lifted, the path it slides along (in the SVG's units), and, for a hit in backgammon, the path
// of the checker it sends to the bar. Pure: the board (board.ts) draws the states and slides a
// checker along each path.
//
// Steps are in the mover's own numbering (1-24, 25 the bar, 0 off), as the API writes them; the
// opponent's points are drawn through otherSidePoint, so the same plan serves both sides and both
// variants (long nardi has no bar and no hitting: a step there never strikes).

import { BAR, OFF, barSpots, offTray, otherSidePoint, pointSlot, stackSpots, type Spot } from "./geometry";
import { loneCheckerRule, type BoardState, type Side, type SideCheckers, type Step } from "./model";
import { pipCount } from "./moves";
import { pinsAfterStep } from "./pins";

/** A checker sliding from one spot to another. */
export interface Path {
  from: Spot;
  to: Spot;
}

/** One step of a play, ready to be shown. */
export interface PlannedStep {
  side: Side;
  step: Step;
  /** Whether it sends a lone checker of the other side to the bar. */
  hit: boolean;
  /** The board while the checker is in the air (it is on neither point). */
  lifted: BoardState;
  /** The mover's checker sliding. */
  path: Path;
  /** With a hit: the board with the mover landed and the struck checker in the air, and its path to the bar. */
  struck: { board: BoardState; path: Path } | null;
  /** The board after the step. */
  landed: BoardState;
}

export function otherSide(side: Side): Side {
  return side === "me" ? "them" : "me";
}

/** Where a side's point (in its own numbering) is drawn, as my point. */
function drawnPoint(board: BoardState, side: Side, point: number): number {
  return side === "me" ? point : otherSidePoint(board.variant, point);
}

/** The spot of the n-th checker (from 1) on a side's point, bar, or off tray. */
function checkerSpot(board: BoardState, side: Side, point: number, n: number): Spot {
  const shown = Math.max(1, Math.min(n, 5));
  if (point === BAR) return barSpots(side, shown)[shown - 1];
  if (point === OFF) {
    const tray = offTray(side, board.variant);
    return { x: tray.x + tray.width / 2, y: tray.y + tray.height / 2 };
  }
  return stackSpots(pointSlot(drawnPoint(board, side, point)), shown)[shown - 1];
}

function withCheckers(board: BoardState, side: Side, checkers: SideCheckers): BoardState {
  const next = { ...board, [side]: checkers };
  return { ...next, pips: { me: pipCount(next.me), them: pipCount(next.them) } };
}

function take(checkers: SideCheckers, point: number): SideCheckers {
  if (point === BAR) return { ...checkers, bar: checkers.bar - 1 };
  const points = [...checkers.points];
  points[point - 1] -= 1;
  return { ...checkers, points };
}

function put(checkers: SideCheckers, point: number): SideCheckers {
  if (point === BAR) return { ...checkers, bar: checkers.bar + 1 };
  if (point === OFF) return { ...checkers, off: checkers.off + 1 };
  const points = [...checkers.points];
  points[point - 1] += 1;
  return { ...checkers, points };
}

function count(checkers: SideCheckers, point: number): number {
  return point === BAR ? checkers.bar : point === OFF ? checkers.off : checkers.points[point - 1];
}

/**
 * The steps of `side`'s play on `board`, in order. `dice` is the roll it plays (drawn with the
 * dice already used crossed out). Throws a RangeError when a step moves a checker that is not
 * there: the page's picture and the server's play disagree, and the caller shows the server's
 * state instead.
 */
export function planPlay(board: BoardState, side: Side, steps: Step[], dice: number[] = board.dice): PlannedStep[] {
  const planned: PlannedStep[] = [];
  let current: BoardState = { ...board, dice: [...dice], diceSide: side, played: [], lastPlay: { side, steps: [] } };
  steps.forEach((step, i) => {
    const mover = current[side];
    if (count(mover, step.from) === 0) {
      throw new RangeError(`no checker of ${side} on ${step.from} to play ${step.from}/${step.to}`);
    }
    const played = steps.slice(0, i + 1);
    const marked = { side, steps: played };
    const from = checkerSpot(current, side, step.from, count(mover, step.from));
    const lifted = withCheckers(current, side, take(mover, step.from));
    const other = otherSide(side);
    const struckAt = step.to === OFF ? 0 : otherSidePoint(current.variant, step.to);
    const lone = step.to !== OFF && count(current[other], struckAt) === 1;
    const hit = lone && loneCheckerRule(current.variant) === "hit";
    const pins = pinsAfterStep(current.variant, mover, current[other], step);
    const pinnedUnder = lone && (pins.other ?? []).includes(struckAt) ? 1 : 0;
    const to = checkerSpot(lifted, side, step.to, hit ? 1 : count(lifted[side], step.to) + 1 + pinnedUnder);
    const placed = withCheckers(lifted, side, { ...put(lifted[side], step.to), pinned: pins.mover });
    const moved = withCheckers(placed, other, { ...placed[other], pinned: pins.other });
    let struck: PlannedStep["struck"] = null;
    let landed = { ...moved, played, lastPlay: marked };
    if (hit) {
      const board = { ...withCheckers(moved, other, take(moved[other], struckAt)), played, lastPlay: marked };
      struck = { board, path: { from: to, to: checkerSpot(board, other, BAR, board[other].bar + 1) } };
      landed = { ...withCheckers(board, other, put(board[other], BAR)), played, lastPlay: marked };
    }
    planned.push({ side, step: { ...step, hit }, hit, lifted, path: { from, to }, struck, landed });
    current = landed;
  });
  return planned;
}

/** The board after the whole play (the board itself when there are no steps). */
export function afterPlay(board: BoardState, side: Side, steps: Step[], dice: number[] = board.dice): BoardState {
  const planned = planPlay(board, side, steps, dice);
  return planned.length ? planned[planned.length - 1].landed : board;
}
