// Move input: which checkers may move now and where, the steps made so far this turn, and which
// legal play they make. Pure, no DOM.
//
// The server lists every legal play (each resulting position once, its steps in one playable
// order). The player may play those steps in another order, or move a checker by other
// intermediate points, so a play is recognised by the position it leads to, never by its step
// list. A step is offered now when the checker may physically make it (the landing point is open,
// the bar is entered first, bearing off only with every checker home) AND some legal play's
// position can still be reached from the board after it with the dice left. Everything the
// server's list already decides (maximum use of the roll, the higher die, the nardi head rule and
// six in a row) then follows from the positions without being written again here.

import { BAR, OFF, otherSidePoint } from "./geometry";
import { loneCheckerRule, type BoardState, type LegalPlay, type SideCheckers, type Step } from "./model";
import { isPinned, pinsAfterStep } from "./pins";

export { BAR, OFF };

/** The dice a roll gives to play: a double is four of its number. */
export function diceToPlay(dice: readonly number[]): number[] {
  if (dice.length === 2 && dice[0] === dice[1]) return [dice[0], dice[0], dice[0], dice[0]];
  return [...dice];
}

/** Each die of the roll (four for a double) and whether a step of `steps` has used it. */
export function diceShown(dice: readonly number[], steps: readonly Step[]): { value: number; used: boolean }[] {
  const shown = diceToPlay(dice).map((value) => ({ value, used: false }));
  for (const step of steps) {
    const die = shown.find((d) => !d.used && d.value === step.die);
    if (die) die.used = true;
  }
  return shown;
}

/** The dice still to play after `steps`, in the roll's order. */
export function diceLeft(dice: readonly number[], steps: readonly Step[]): number[] {
  return diceShown(dice, steps).filter((d) => !d.used).map((d) => d.value);
}

/** A side's pip count: each checker's point number, the bar counting 25 (in long nardi the bar
 *  is always empty). */
export function pipCount(side: SideCheckers): number {
  return side.points.reduce((sum, count, i) => sum + count * (i + 1), 0) + side.bar * BAR;
}

/** The step `die` makes for my checker on `from` (1-24, or 25 the bar), if the checker may make
 *  it on this board: I have a checker there and it is not pinned, the bar is emptied first, the
 *  landing point is not held by the opponent (two or more in backgammon and Plakoto, any in long
 *  nardi and Fevga, and in Plakoto a lone checker pinning mine; a lone checker there is hit in
 *  backgammon, pinned in Plakoto), and bearing off waits until all my checkers are home, a higher
 *  die taking only the highest checker. The turn's own rules (maximum use, head rule, six in a
 *  row, the mother, Fevga's first checker and primes) are not checked here: the legal plays carry
 *  them. */
export function stepFor(board: BoardState, from: number, die: number): Step | null {
  const me = board.me;
  if (from === BAR ? me.bar === 0 : me.points[from - 1] === 0) return null;
  if (from !== BAR && (me.bar > 0 || isPinned(me, from))) return null;
  const to = from - die;
  if (to <= 0) {
    if (from === BAR || me.bar > 0) return null;
    const outside = me.points.slice(6).some((count) => count > 0);
    if (outside) return null;
    if (to < 0 && me.points.slice(from, 6).some((count) => count > 0)) return null;
    return { from, to: OFF, die, hit: false };
  }
  const theirs = board.them.points[otherSidePoint(board.variant, to) - 1];
  switch (loneCheckerRule(board.variant)) {
    case "hit":
      return theirs >= 2 ? null : { from, to, die, hit: theirs === 1 };
    case "pin":
      return theirs >= 2 || (theirs === 1 && isPinned(me, to)) ? null : { from, to, die, hit: false };
    case "held":
      return theirs > 0 ? null : { from, to, die, hit: false };
  }
}

/** The board after my step: my checker moves (from the bar, to off); a hit sends the opponent's
 *  blot to their bar, a pin pins it and leaving a pinned checker frees it. The dice are left as
 *  they are. */
export function applyStep(board: BoardState, step: Step): BoardState {
  const pins = pinsAfterStep(board.variant, board.me, board.them, step);
  const me = { points: [...board.me.points], bar: board.me.bar, off: board.me.off, pinned: pins.mover };
  const them = { points: [...board.them.points], bar: board.them.bar, off: board.them.off, pinned: pins.other };
  if (step.from === BAR) me.bar -= 1;
  else me.points[step.from - 1] -= 1;
  if (step.to === OFF) me.off += 1;
  else {
    me.points[step.to - 1] += 1;
    const theirs = otherSidePoint(board.variant, step.to) - 1;
    if (loneCheckerRule(board.variant) === "hit" && them.points[theirs] === 1) {
      them.points[theirs] = 0;
      them.bar += 1;
    }
  }
  return { ...board, me, them, pips: { me: pipCount(me), them: pipCount(them) } };
}

/** The board after the steps, one by one. */
export function boardAfter(board: BoardState, steps: readonly Step[]): BoardState {
  return steps.reduce(applyStep, board);
}

/** The checkers of both sides as one string: equal for equal positions. */
export function positionKey(board: BoardState): string {
  const side = (s: SideCheckers) => `${s.points.join(",")}|${s.bar}|${s.off}|${(s.pinned ?? []).join(",")}`;
  return `${side(board.me)}/${side(board.them)}`;
}

function without(dice: readonly number[], die: number): number[] {
  const rest = [...dice];
  rest.splice(rest.indexOf(die), 1);
  return rest;
}

function distinct(dice: readonly number[]): number[] {
  return [...new Set(dice)];
}

/** My points (and the bar) a checker could leave, whether or not a step from there is allowed. */
function occupied(board: BoardState): number[] {
  if (board.me.bar > 0) return [BAR];
  const points: number[] = [];
  for (let p = 24; p >= 1; p--) if (board.me.points[p - 1] > 0) points.push(p);
  return points;
}

/** Of two ways one checker can reach the same point, the better: fewer steps, then fewer hits
 *  (a player who means to hit on the way can stop there), then the smaller die first (in bearing
 *  off the bigger die left is at least as useful). */
function betterWay(a: Step[], b: Step[]): boolean {
  if (a.length !== b.length) return a.length < b.length;
  const hits = (steps: Step[]) => steps.filter((s) => s.hit).length;
  if (hits(a) !== hits(b)) return hits(a) < hits(b);
  return a[0].die < b[0].die;
}

/** What a click on a point did. */
export type ClickResult =
  | { kind: "selected"; from: number }
  | { kind: "deselected" }
  | { kind: "moved"; steps: Step[] }
  | { kind: "illegal"; attempted: { from: number; to: number } }
  | { kind: "ignored" };

/** One turn's move input: the board at the start of the turn, the legal plays, the steps made so
 *  far and the selected checker. */
export class MoveInput {
  readonly start: BoardState;
  readonly plays: readonly LegalPlay[];
  /** The point (or 25, the bar) whose checker is selected, or null. */
  selected: number | null = null;
  private steps: Step[] = [];
  private current: BoardState;
  private readonly finals = new Map<string, LegalPlay>();
  private readonly finishable = new Map<string, boolean>();

  constructor(start: BoardState, plays: readonly LegalPlay[]) {
    this.start = start;
    this.plays = plays;
    this.current = start;
    for (const play of plays) {
      const key = positionKey(boardAfter(start, play.steps));
      if (!this.finals.has(key)) this.finals.set(key, play);
    }
  }

  /** The steps made so far this turn (a copy). */
  get partial(): Step[] {
    return [...this.steps];
  }

  /** The board as the steps so far left it. */
  get board(): BoardState {
    return this.current;
  }

  /** The dice still to play. */
  get dice(): number[] {
    return diceLeft(this.start.dice, this.steps);
  }

  /** The legal play the steps so far make whole (the same position), or null. */
  complete(): LegalPlay | null {
    return this.finals.get(positionKey(this.current)) ?? null;
  }

  /** The points (25 the bar) a checker of mine may leave now, highest first. */
  sources(): number[] {
    const dice = this.dice;
    return occupied(this.current).filter((from) =>
      distinct(dice).some((die) => {
        const step = stepFor(this.current, from, die);
        return step !== null && this.canFinish(applyStep(this.current, step), without(dice, die));
      }),
    );
  }

  /** Where the checker on `from` may go now, each destination with the steps that take it there:
   *  one die, or several dice moving the same checker on (24/18/13 with 6-5). */
  destinations(from: number): Map<number, Step[]> {
    const found = new Map<number, Step[]>();
    const walk = (board: BoardState, at: number, dice: number[], way: Step[]) => {
      for (const die of distinct(dice)) {
        const step = stepFor(board, at, die);
        if (!step) continue;
        const next = applyStep(board, step);
        const rest = without(dice, die);
        // A way that cannot end in a legal play cannot be continued into one either.
        if (!this.canFinish(next, rest)) continue;
        const longer = [...way, step];
        const known = found.get(step.to);
        if (!known || betterWay(longer, known)) found.set(step.to, longer);
        if (step.to !== OFF) walk(next, step.to, rest, longer);
      }
    };
    walk(this.current, from, this.dice, []);
    return found;
  }

  /** Moves the checker on `from` to `to` if it may go there now; the steps it took, or null. */
  move(from: number, to: number): Step[] | null {
    const way = this.destinations(from).get(to);
    if (!way) return null;
    this.steps.push(...way);
    this.current = boardAfter(this.current, way);
    this.selected = null;
    return way;
  }

  /** Takes back the last step; false when there was none. */
  undo(): boolean {
    if (this.steps.length === 0) return false;
    this.steps.pop();
    this.current = boardAfter(this.start, this.steps);
    this.selected = null;
    return true;
  }

  /** Takes back every step of the turn; false when there was none. */
  undoAll(): boolean {
    if (this.steps.length === 0) return false;
    this.steps = [];
    this.current = this.start;
    this.selected = null;
    return true;
  }

  /** What a click on `point` (my numbering: 1-24, 25 my bar, 0 my off tray) does:
   *  - a selected checker: the same point again deselects it; a point it can reach moves it
   *    there; another checker of mine that can move is selected instead; any other point 0-24 is
   *    an illegal attempt {from: selected, to: point}; the bar deselects;
   *  - nothing selected: a checker of mine that can move is selected; a checker of mine that
   *    cannot is an illegal attempt {from: point, to: max(0, point - first die left)} (nothing
   *    when no die is left); any other point is ignored. */
  click(point: number): ClickResult {
    if (this.selected !== null) {
      const from = this.selected;
      if (point === from) {
        this.selected = null;
        return { kind: "deselected" };
      }
      const steps = this.move(from, point);
      if (steps) return { kind: "moved", steps };
      if (point !== OFF && this.sources().includes(point)) {
        this.selected = point;
        return { kind: "selected", from: point };
      }
      if (point === BAR) {
        this.selected = null;
        return { kind: "deselected" };
      }
      return { kind: "illegal", attempted: { from, to: point } };
    }
    if (point === OFF) return { kind: "ignored" };
    if (this.sources().includes(point)) {
      this.selected = point;
      return { kind: "selected", from: point };
    }
    const mine = point === BAR ? this.current.me.bar : this.current.me.points[point - 1];
    const die = this.dice[0];
    if (mine > 0 && die !== undefined) return { kind: "illegal", attempted: { from: point, to: Math.max(OFF, point - die) } };
    return { kind: "ignored" };
  }

  /** Whether some legal play's position can be reached from `board` with `dice`. */
  private canFinish(board: BoardState, dice: number[]): boolean {
    const position = positionKey(board);
    if (this.finals.has(position)) return true;
    if (dice.length === 0) return false;
    const key = `${position}:${[...dice].sort().join("")}`;
    const known = this.finishable.get(key);
    if (known !== undefined) return known;
    let can = false;
    search: for (const die of distinct(dice)) {
      for (const from of occupied(board)) {
        const step = stepFor(board, from, die);
        if (step && this.canFinish(applyStep(board, step), without(dice, die))) {
          can = true;
          break search;
        }
      }
    }
    this.finishable.set(key, can);
    return can;
  }
}
