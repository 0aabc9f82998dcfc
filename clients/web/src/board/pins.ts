// Plakoto's pins as a step changes them: a checker landing on a lone opposing checker pins it, and
// a pinned checker is free again once the last checker over it has left. Each side's pins are its
// own points (its own numbering), as the board message gives them.

import { OFF, otherSidePoint } from "./geometry";
import { loneCheckerRule, type SideCheckers, type Step, type Variant } from "./model";

/** Whether the side's checker on `point` (its numbering) is pinned. */
export function isPinned(side: SideCheckers, point: number): boolean {
  return (side.pinned ?? []).includes(point);
}

/** Each side's pins after the mover's `step` (in the mover's numbering) on the board before it
 *  (as they were in a game without pins). */
export function pinsAfterStep(
  variant: Variant,
  mover: SideCheckers,
  other: SideCheckers,
  step: Step,
): { mover: number[] | undefined; other: number[] | undefined } {
  if (loneCheckerRule(variant) !== "pin") return { mover: mover.pinned, other: other.pinned };
  const moverPins = [...(mover.pinned ?? [])];
  let otherPins = [...(other.pinned ?? [])];
  if (step.from >= 1 && step.from <= 24 && mover.points[step.from - 1] === 1) {
    const freed = otherSidePoint(variant, step.from);
    otherPins = otherPins.filter((p) => p !== freed);
  }
  if (step.to !== OFF) {
    const under = otherSidePoint(variant, step.to);
    if (other.points[under - 1] === 1 && !otherPins.includes(under)) otherPins.push(under);
  }
  return { mover: moverPins, other: otherPins.sort((a, b) => a - b) };
}
