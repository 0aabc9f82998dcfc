// The marks of the last play on the board: a dashed frame round each place a checker left from
// and a solid, thicker frame round each place one went to (the shapes differ, not only the
// colour), for the last play of either side, until the next play. Pure markup strings.

import { BAR, OFF, barRect, offTray, otherSidePoint, pointSlot, type Rect } from "./geometry";
import type { BoardState, PlayOnBoard, Side } from "./model";

/** Where a play's checkers came from and went to, the points passed through left out: 24/18/13 marks 24 and 13. */
export function playEnds(play: PlayOnBoard): { from: number[]; to: number[] } {
  const from = play.steps.map((s) => s.from);
  const to = play.steps.map((s) => s.to);
  const starts = [...from];
  const ends = [...to];
  for (const point of to) {
    const i = starts.indexOf(point);
    if (i >= 0) {
      starts.splice(i, 1);
      ends.splice(ends.indexOf(point), 1);
    }
  }
  return { from: [...new Set(starts)], to: [...new Set(ends)] };
}

/** The area of a side's point (its own numbering), bar half, or off tray. */
function placeRect(board: BoardState, side: Side, point: number): Rect {
  if (point === OFF) return offTray(side, board.variant);
  if (point === BAR) {
    const bar = barRect();
    const half = bar.height / 2;
    return { ...bar, y: side === "me" ? bar.y + half : bar.y, height: half };
  }
  return pointSlot(side === "me" ? point : otherSidePoint(board.variant, point));
}

function frame(r: Rect, cls: string, role: "from" | "to", point: number): string {
  const inset = 3;
  return `<rect class="last-play-mark ${cls}" data-last-play="${role}" data-mark-point="${point}" x="${r.x + inset}" y="${r.y + inset}" width="${r.width - 2 * inset}" height="${r.height - 2 * inset}" rx="6"/>`;
}

export function lastPlayMarkup(board: BoardState): string {
  const play = board.lastPlay;
  if (!play || play.steps.length === 0) return "";
  const { from, to } = playEnds(play);
  const side = play.side;
  return [
    ...from.map((p) => frame(placeRect(board, side, p), `last-from last-${side}`, "from", p)),
    ...to.map((p) => frame(placeRect(board, side, p), `last-to last-${side}`, "to", p)),
  ].join("");
}
