// Shows one change of the game on the board at the chosen speed: a play checker by checker
// (entering from the bar, a hit sent to the bar, bearing off), the cube moving when it is offered,
// taken or beavered, and a roll held in view a moment before its play. Every checker or cube
// moved is recorded, for those who check the page: the game element carries
// data-animating="true" while a change is shown, each move is appended to window.tavliAnimations
// and announced with a "tavli-animation" event on the game element.

import { afterPlay, planPlay, type Path, type PlannedStep } from "../board/animation";
import type { Board } from "../board/board";
import { BAR, cubeSpot, otherSidePoint } from "../board/geometry";
import type { BoardState, Side } from "../board/model";
import { EventKind, Phase, Seat, type Game } from "../gen/tavli/v1/games_service_pb";
import { otherSeat, seatIndex, sideOf, toBoardState, usesCube } from "./convert";
import { stepMs, type Speed } from "./motion";
import { pause } from "./pause";
import { playOf, type Change, type Shown } from "./sync";

/** One move shown: a checker's step, a checker hit to the bar, or the cube. */
export interface AnimatedMove {
  kind: "step" | "hit" | "cube";
  /** The event's sequence. */
  sequence: number;
  /** Whose checker (or who moved the cube), as the page sees it and as a seat. */
  side: Side;
  seat: "SEAT_0" | "SEAT_1";
  /** In that seat's numbering (the bar 25, off 0); for the cube, its value before and after. */
  from: number;
  to: number;
}

declare global {
  interface Window {
    tavliAnimations?: AnimatedMove[];
  }
}

/** The board as `shown`, from `view`'s side: the game, each side's last roll and the last play marked. */
export function boardOf(shown: Shown, view: Seat): BoardState {
  const game = shown.game;
  const board = toBoardState(game, view);
  const me = seatIndex(view);
  const play = shown.lastPlay;
  if (board.cube && game.phase === Phase.DOUBLED) {
    // A double waiting for its answer: the cube at twice its value, before the side that answers.
    board.cube = { value: board.cube.value * 2, owner: sideOf(offeredTo(game), view), offered: true };
  }
  return {
    ...board,
    rolled: { me: shown.rolled[me], them: shown.rolled[1 - me] },
    lastPlay: play ? { side: sideOf(play.seat, view) ?? "me", steps: play.steps } : null,
  };
}

/** The board just before `change`: the state before it, as it was shown. */
export function boardBefore(change: Change, shownBefore: Shown | null, view: Seat): BoardState | null {
  if (!change.before) return null;
  const shown = shownBefore ?? { game: change.before, rolled: [[], []], lastPlay: null };
  return boardOf({ ...shown, game: change.before }, view);
}

/**
 * The board at the end of the game `change` ended: its last play made on the position before it
 * (the state after it may already be the next game's start), or that position as it was.
 */
export function finalBoard(change: Change, shownBefore: Shown | null, view: Seat): BoardState | null {
  const board = boardBefore(change, shownBefore, view);
  const play = playOf(change);
  if (!board || !play || !change.before) return board;
  const side = sideOf(play.seat, view) ?? "me";
  try {
    return { ...afterPlay(board, side, play.steps, [...change.before.dice]), lastPlay: { side, steps: play.steps } };
  } catch {
    return board;
  }
}

export class Stage {
  constructor(
    private readonly board: Board,
    private readonly gameElement: HTMLElement,
    private readonly speed: () => Speed,
    private readonly signal: AbortSignal,
  ) {}

  /** A hidden page (another tab) moves nothing: its changes are drawn at once. */
  private get ms(): number {
    return this.signal.aborted || document.hidden ? 0 : stepMs(this.speed());
  }

  /** Shows `change` moving on the board (nothing at speed "off", or for `skip`, a play already on the board). */
  async show(change: Change, shownBefore: Shown | null, view: Seat, skip = false): Promise<void> {
    const event = change.event;
    if (!event || skip || this.ms === 0) return;
    this.gameElement.setAttribute("data-animating", "true");
    try {
      if (event.kind === EventKind.PLAY) await this.play(change, shownBefore, view);
      else if (event.kind === EventKind.ROLL || event.kind === EventKind.OPENING_THROW) await this.hold(shownBefore);
      else if (event.kind === EventKind.DOUBLE || event.kind === EventKind.TAKE || event.kind === EventKind.BEAVER) await this.cube(change, view);
    } finally {
      this.gameElement.setAttribute("data-animating", "false");
    }
  }

  /** A roll (or the throw for who starts) stays a moment on the board before what follows it. */
  private async hold(shownBefore: Shown | null): Promise<void> {
    if (!shownBefore) return;
    await pause(this.ms, this.signal);
  }

  private async play(change: Change, shownBefore: Shown | null, view: Seat): Promise<void> {
    const play = playOf(change);
    const board = boardBefore(change, shownBefore, view);
    if (!play || !board || !change.before || play.steps.length === 0) return;
    const side = sideOf(play.seat, view) ?? "me";
    let planned: PlannedStep[];
    try {
      planned = planPlay({ ...board, lastPlay: null }, side, play.steps, [...change.before.dice]);
    } catch {
      return; // the page's picture and the play disagree: the state after it is drawn as it is
    }
    const sequence = Number(change.event?.sequence ?? 0n);
    for (const step of planned) {
      this.board.show(step.lifted);
      this.record({ kind: "step", sequence, side, seat: seatName(play.seat), from: step.step.from, to: step.step.to });
      await this.board.slideChecker(side, step.path, this.ms);
      if (step.struck) {
        this.board.show(step.struck.board);
        const struck = otherSeat(play.seat);
        const struckSide = sideOf(struck, view) ?? "them";
        const from = otherSidePoint(board.variant, step.step.to);
        this.record({ kind: "hit", sequence, side: struckSide, seat: seatName(struck), from, to: BAR });
        await this.board.slideChecker(struckSide, step.struck.path, this.ms * 0.7);
      }
      this.board.show(step.landed);
    }
  }

  private async cube(change: Change, view: Seat): Promise<void> {
    const before = change.before;
    const after = change.after;
    const event = change.event;
    if (!before || !event || !usesCube(after)) return;
    const from = cubeSpot(sideOf(before.cubeOwner, view));
    let path: Path;
    let value: number;
    if (event.kind === EventKind.DOUBLE) {
      // Offered: the cube goes to the other side at twice its value, for it to answer.
      value = Math.max(1, before.cubeValue) * 2;
      path = { from, to: cubeSpot(sideOf(otherSeat(event.seat), view)) };
    } else {
      value = Math.max(1, after.cubeValue);
      path = { from: cubeSpot(sideOf(offeredTo(before), view)), to: cubeSpot(sideOf(after.cubeOwner, view)) };
    }
    this.record({ kind: "cube", sequence: Number(event.sequence), side: sideOf(event.seat, view) ?? "me", seat: seatName(event.seat), from: Math.max(1, before.cubeValue), to: value });
    await this.board.slideCube(value, path, this.ms * 1.5);
  }

  private record(move: AnimatedMove): void {
    (window.tavliAnimations ??= []).push(move);
    this.gameElement.dispatchEvent(new CustomEvent("tavli-animation", { detail: move }));
  }
}

/** The seat a double waits on: the other seat than the one that offered (the cube's owner-to-be). */
function offeredTo(game: Game): Seat {
  return game.toAct[0] ?? Seat.SEAT_UNSPECIFIED;
}

function seatName(seat: Seat): "SEAT_0" | "SEAT_1" {
  return seat === Seat.SEAT_1 ? "SEAT_1" : "SEAT_0";
}
