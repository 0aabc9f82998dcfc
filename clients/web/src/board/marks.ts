// The marks of the last play on the board: a dashed frame round each place a checker left from
// and a solid, thicker frame round each place one went to (the shapes differ, not only the
// colour), for the last play of either side, until the next play. Pure markup strings.

import { BAR, OFF, barRect, barSpots, offTray, otherSidePoint, pointSlot, stackSpots, type Rect, type Spot } from "./geometry";
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

/** Where an arrow of a step starts or ends: the base checker's spot of a point, the side's half
 *  of the bar, or the middle of its off tray. */
function arrowEnd(board: BoardState, side: Side, point: number): Spot {
  if (point === OFF) {
    const tray = offTray(side, board.variant);
    return { x: tray.x + tray.width / 2, y: tray.y + tray.height / 2 };
  }
  if (point === BAR) return barSpots(side, 1)[0];
  return stackSpots(pointSlot(side === "me" ? point : otherSidePoint(board.variant, point)), 1)[0];
}

const ARROW_HEAD = 18;

/** One step as an arrow: a thick line with a triangular head and the step's number in a ring at
 *  its start, so that the order reads without colour. */
function arrow(from: Spot, to: Spot, number: number): string {
  const dx = to.x - from.x;
  const dy = to.y - from.y;
  const length = Math.hypot(dx, dy) || 1;
  const ux = dx / length;
  const uy = dy / length;
  const baseX = to.x - ux * ARROW_HEAD;
  const baseY = to.y - uy * ARROW_HEAD;
  const wing = ARROW_HEAD / 2;
  const head = `${to.x},${to.y} ${baseX - uy * wing},${baseY + ux * wing} ${baseX + uy * wing},${baseY - ux * wing}`;
  return (
    `<g class="arrow" data-arrow="${number}">` +
    `<line class="arrow-line" x1="${from.x}" y1="${from.y}" x2="${baseX}" y2="${baseY}"/>` +
    `<polygon class="arrow-head" points="${head}"/>` +
    `<circle class="arrow-number-ring" cx="${from.x}" cy="${from.y}" r="12"/>` +
    `<text class="arrow-number" x="${from.x}" y="${from.y + 5}">${number}</text></g>`
  );
}

/** The board's arrows (a hinted or reviewed play), one per step, in the order they are played. */
export function arrowsMarkup(board: BoardState): string {
  const play = board.arrows;
  if (!play || play.steps.length === 0) return "";
  const arrows = play.steps.map((step, i) =>
    arrow(arrowEnd(board, play.side, step.from), arrowEnd(board, play.side, step.to), i + 1),
  );
  return `<g class="arrows arrows-${play.side}" data-testid="board-arrows" data-steps="${play.steps.map((s) => `${s.from}/${s.to}`).join(" ")}">${arrows.join("")}</g>`;
}
