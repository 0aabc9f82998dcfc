// The board in words, for its text alternative: whose checkers stand where, the bar, the trays,
// the dice, the cube and the pips, from my side.

import { otherSidePoint } from "./geometry";
import { VARIANT_TITLES, loneCheckerRule, type BoardState, type SideCheckers } from "./model";

/** "a", "a and b", "a, b and c". */
function inWords(items: string[]): string {
  return items.length <= 1 ? items.join("") : `${items.slice(0, -1).join(", ")} and ${items[items.length - 1]}`;
}

function countsInWords(counts: [number, number][], mine: boolean): string {
  if (counts.length === 0) return "none on the points";
  return counts.map(([point, count], i) => `${count} on ${mine ? "the" : "my"} ${point}${i === 0 ? "-point" : ""}`).join(", ");
}

function sideInWords(side: SideCheckers, pointOf: (p: number) => number, mine: boolean, withBar: boolean): string {
  const counts: [number, number][] = [];
  side.points.forEach((count, i) => count > 0 && counts.push([pointOf(i + 1), count]));
  counts.sort((a, b) => b[0] - a[0]);
  const bar = withBar ? `; ${side.bar === 0 ? "none" : side.bar} on the bar` : "";
  const pins = (side.pinned ?? []).map(pointOf).sort((a, b) => b - a);
  const pinned = pins.length === 0 ? "" : `; pinned on ${mine ? "the" : "my"} ${inWords(pins.map(String))}-point${pins.length > 1 ? "s" : ""}`;
  return `${countsInWords(counts, mine)}${bar}${pinned}; ${side.off === 0 ? "none" : side.off} off`;
}

/** The board in words, for the text alternative: whose checkers where (counts per point from my
 *  side), bar, off, dice, cube and owner, pips. */
export function describeBoard(state: BoardState): string {
  const withBar = loneCheckerRule(state.variant) === "hit";
  const mine = sideInWords(state.me, (p) => p, true, withBar);
  const theirs = sideInWords(state.them, (p) => otherSidePoint(state.variant, p), false, withBar);
  const whose = state.diceSide === "me" ? ", mine" : state.diceSide === "them" ? ", theirs" : "";
  const dice = state.dice.length === 0 ? "No dice to play." : `Dice: ${inWords(state.dice.map(String))}${whose}.`;
  const cube = !state.cube
    ? "No cube."
    : `Cube: ${state.cube.value}, ${state.cube.owner === null ? "in the middle" : state.cube.owner === "me" ? "mine" : "theirs"}.`;
  return [
    `${VARIANT_TITLES[state.variant]}, from my side.`,
    `My checkers: ${mine}.`,
    `Their checkers, by my point numbers: ${theirs}.`,
    dice,
    cube,
    `Pips: mine ${state.pips.me}, theirs ${state.pips.them}.`,
  ].join(" ");
}
