// Where things are drawn on the board, in the SVG's own units (no DOM here).
//
// The picture is always seen from MY side (the seat the page sits at), and my points sit in the
// same places in both games:
//
//     13 14 15 16 17 18 | 19 20 21 22 23 24      top row
//     12 11 10  9  8  7 |  6  5  4  3  2  1      bottom row (my home board bottom right)
//
// Backgammon: the classic layout, the bar in the middle, my off tray at the right beside my home
// board; the opponent's point p is my point 25 - p, so their home board is top right and their
// off tray above mine.
//
// Long nardi: the standard picture has each side's head at its own far right-hand corner and both
// sides moving counter-clockwise (seen from above). My head (my 24) is top right; my checkers run
// right to left along the top, then left to right along the bottom into my home board bottom right
// (my 1-6) - the same places as in backgammon. The opponent's head (their 24, my 12) is bottom
// left, their path runs along the bottom, up and back along the top into their home board top left
// (their 1-6 = my 13-18), so their off tray is at the top left. The middle divider is drawn as in
// backgammon but holds nothing.
//
// That is the board with my home board on the right. Many players learnt on a board with it on the
// left: that board is this one's mirror image (the off trays at the left, the cube at the right),
// drawn through layoutTransform; everything here is in the layout above, and seenSpot takes a spot
// between the two.
//
// Layout (viewBox 0 0 1060 760, landscape, reads at 360 px wide):
//   x: left column 0-110 (pip counts, cube; their off tray in long nardi), frame 110-970,
//      right column 970-1060 (off trays). y: numbers 0-44, top row 54-334, middle band 334-426
//      (dice), bottom row 426-706, numbers 716-760.

import { layoutOf, type Side, type Variant } from "./model";

/** The bar as a step's `from` (and as my bar's hit target). */
export const BAR = 25;
/** Off the board, as a step's `to` (and as my off tray's hit target). */
export const OFF = 0;

export const VIEW_WIDTH = 1060;
export const VIEW_HEIGHT = 760;
export const VIEW_BOX = `0 0 ${VIEW_WIDTH} ${VIEW_HEIGHT}`;

export const POINT_WIDTH = 65;
export const POINT_LENGTH = 280;
export const CHECKER_RADIUS = 27;
/** A stack taller than this is drawn as this many checkers with a count on the last one. */
export const STACK_LIMIT = 5;
export const DIE_SIZE = 56;

export const FRAME = { x: 110, y: 44, width: 860, height: 672 } as const;
const BORDER = 10;
const LEFT_HALF_X = FRAME.x + BORDER; // 120
const BAR_X = LEFT_HALF_X + 6 * POINT_WIDTH; // 510
const BAR_WIDTH = 60;
const RIGHT_HALF_X = BAR_X + BAR_WIDTH; // 570
const TOP_ROW_Y = FRAME.y + BORDER; // 54
const BOTTOM_ROW_Y = FRAME.y + FRAME.height - BORDER - POINT_LENGTH; // 426
const MIDDLE_Y = (TOP_ROW_Y + POINT_LENGTH + BOTTOM_ROW_Y) / 2; // 380
const TRAY_WIDTH = 70;
const RIGHT_TRAY_X = FRAME.x + FRAME.width + 10; // 980
const LEFT_TRAY_X = 20;

export interface Rect {
  x: number;
  y: number;
  width: number;
  height: number;
}

export interface Spot {
  x: number;
  y: number;
}

/** One of my points 1-24 on the board: its column, and which edge its base (and stack) is at. */
export interface PointSlot extends Rect {
  /** Top row: the base is the top edge and checkers stack downwards; bottom row the reverse. */
  top: boolean;
}

/** The opponent's point as mine, or mine as theirs (each mapping is its own inverse): on
 *  backgammon's layout 25 - p; on long nardi's p + 12 for p <= 12, p - 12 for p > 12. */
export function otherSidePoint(variant: Variant, point: number): number {
  if (layoutOf(variant) === "backgammon") return 25 - point;
  return point <= 12 ? point + 12 : point - 12;
}

/** Where my point 1-24 is drawn. */
export function pointSlot(point: number): PointSlot {
  if (!Number.isInteger(point) || point < 1 || point > 24) throw new RangeError(`no point ${point}`);
  const top = point >= 13;
  // Column 0 is the leftmost: 13 on top, 12 below; the bar sits between columns 5 and 6.
  const column = top ? point - 13 : 12 - point;
  const x = column < 6 ? LEFT_HALF_X + column * POINT_WIDTH : RIGHT_HALF_X + (column - 6) * POINT_WIDTH;
  return { x, y: top ? TOP_ROW_Y : BOTTOM_ROW_Y, width: POINT_WIDTH, height: POINT_LENGTH, top };
}

/** Where the opponent's point (in their numbering) is drawn. */
export function theirPointSlot(variant: Variant, theirPoint: number): PointSlot {
  return pointSlot(otherSidePoint(variant, theirPoint));
}

/** The two halves of the playing area (left, right), each six points wide and both rows high. */
export function boardHalves(): [Rect, Rect] {
  const height = BOTTOM_ROW_Y + POINT_LENGTH - TOP_ROW_Y;
  const width = 6 * POINT_WIDTH;
  return [
    { x: LEFT_HALF_X, y: TOP_ROW_Y, width, height },
    { x: RIGHT_HALF_X, y: TOP_ROW_Y, width, height },
  ];
}

/** The bar: the strip between the two halves, the whole height of the rows. */
export function barRect(): Rect {
  return { x: BAR_X, y: TOP_ROW_Y, width: BAR_WIDTH, height: BOTTOM_ROW_Y + POINT_LENGTH - TOP_ROW_Y };
}

/** A side's off tray: beside its home board (mine bottom right; theirs top right on
 *  backgammon's layout, top left on long nardi's). */
export function offTray(side: Side, variant: Variant): Rect {
  if (side === "me") return { x: RIGHT_TRAY_X, y: BOTTOM_ROW_Y, width: TRAY_WIDTH, height: POINT_LENGTH };
  const x = layoutOf(variant) === "backgammon" ? RIGHT_TRAY_X : LEFT_TRAY_X;
  return { x, y: TOP_ROW_Y, width: TRAY_WIDTH, height: POINT_LENGTH };
}

/** The centres of the checkers drawn on a point, from its base outwards: at most STACK_LIMIT. */
export function stackSpots(slot: PointSlot, count: number): Spot[] {
  const shown = Math.min(count, STACK_LIMIT);
  const x = slot.x + slot.width / 2;
  const spots: Spot[] = [];
  for (let i = 0; i < shown; i++) {
    const offset = CHECKER_RADIUS + i * 2 * CHECKER_RADIUS;
    spots.push({ x, y: slot.top ? slot.y + offset : slot.y + slot.height - offset });
  }
  return spots;
}

/** The centres of the checkers on a point where one checker is pinned under `pinners` opposing
 *  checkers: the pinned one at the base, the pinners' stack on top of it (Plakoto). */
export function pinnedStackSpots(slot: PointSlot, pinners: number): { pinned: Spot; pinners: Spot[] } {
  const [pinned, ...above] = stackSpots(slot, pinners + 1);
  return { pinned, pinners: above };
}

/** The count label a stack of `count` checkers drawn at `shown` spots needs (on its last drawn
 *  checker), or null when every checker shows. */
export function stackLabel(count: number, shown = Math.min(count, STACK_LIMIT)): string | null {
  return shown < count ? String(count) : null;
}

/** The centres of a side's checkers on the bar: from the middle outwards, mine downwards
 *  (towards my side), theirs upwards; at most STACK_LIMIT. */
export function barSpots(side: Side, count: number): Spot[] {
  const bar = barRect();
  const x = bar.x + bar.width / 2;
  const spots: Spot[] = [];
  for (let i = 0; i < Math.min(count, STACK_LIMIT); i++) {
    const offset = 30 + CHECKER_RADIUS + i * 2 * CHECKER_RADIUS;
    spots.push({ x, y: side === "me" ? MIDDLE_Y + offset : MIDDLE_Y - offset });
  }
  return spots;
}

/** The slabs of the checkers borne off into a tray, from the tray's outer end (one per checker). */
export function offSlabs(tray: Rect, side: Side, count: number): Rect[] {
  const slab = 16;
  const slabs: Rect[] = [];
  for (let i = 0; i < Math.min(count, 15); i++) {
    const y = side === "me" ? tray.y + tray.height - 4 - (i + 1) * slab : tray.y + 4 + i * slab;
    slabs.push({ x: tray.x + 6, y: y + 1, width: tray.width - 12, height: slab - 2 });
  }
  return slabs;
}

/** Where a side's dice are drawn: the middle of its right-hand half (mine right, theirs left). */
export function diceArea(side: Side): Rect {
  const halfX = side === "me" ? RIGHT_HALF_X : LEFT_HALF_X;
  const height = DIE_SIZE + 20;
  return { x: halfX, y: MIDDLE_Y - height / 2, width: 6 * POINT_WIDTH, height };
}

/** The top-left corners of `count` dice centred in a dice area. */
export function dieSpots(area: Rect, count: number): Spot[] {
  const gap = 14;
  const total = count * DIE_SIZE + Math.max(0, count - 1) * gap;
  const x0 = area.x + (area.width - total) / 2;
  const y = area.y + (area.height - DIE_SIZE) / 2;
  return Array.from({ length: count }, (_, i) => ({ x: x0 + i * (DIE_SIZE + gap), y }));
}

/** The pips of a die face, as fractions (0-1) of the die's side. */
export function diePips(value: number): Spot[] {
  const a = 0.25, b = 0.5, c = 0.75;
  const faces: Record<number, [number, number][]> = {
    1: [[b, b]],
    2: [[a, a], [c, c]],
    3: [[a, a], [b, b], [c, c]],
    4: [[a, a], [c, a], [a, c], [c, c]],
    5: [[a, a], [c, a], [b, b], [a, c], [c, c]],
    6: [[a, a], [c, a], [a, b], [c, b], [a, c], [c, c]],
  };
  return (faces[value] ?? []).map(([x, y]) => ({ x, y }));
}

export const CUBE_SIZE = 60;

/** The cube's top-left corner: in the left column, centred when nobody owns it, at the owner's
 *  side otherwise (mine bottom, theirs top). */
export function cubeSpot(owner: Side | null): Spot {
  const x = (FRAME.x - CUBE_SIZE) / 2;
  if (owner === "me") return { x, y: BOTTOM_ROW_Y + POINT_LENGTH - CUBE_SIZE };
  if (owner === "them") return { x, y: TOP_ROW_Y };
  return { x, y: MIDDLE_Y - CUBE_SIZE / 2 };
}

/** Where a point's number is written: above the top row, below the bottom row. */
export function pointNumberSpot(point: number): Spot {
  const slot = pointSlot(point);
  return { x: slot.x + slot.width / 2, y: slot.top ? FRAME.y - 12 : FRAME.y + FRAME.height + 32 };
}

/** Where a side's pip count is written (the left end of its own edge). */
export function pipsSpot(side: Side): Spot {
  return { x: 8, y: side === "me" ? FRAME.y + FRAME.height + 32 : FRAME.y - 12 };
}

/** The hit target under a spot, in my numbering: 1-24 a point, 25 my bar, 0 my off tray (the
 *  whole right column beside my home board); null elsewhere. */
export function pointAt(spot: Spot): number | null {
  const { x, y } = spot;
  const bar = barRect();
  if (x >= bar.x && x < bar.x + bar.width && y >= bar.y && y < bar.y + bar.height) return BAR;
  if (x >= FRAME.x + FRAME.width && y >= BOTTOM_ROW_Y && y < BOTTOM_ROW_Y + POINT_LENGTH) return OFF;
  const top = y >= TOP_ROW_Y && y < TOP_ROW_Y + POINT_LENGTH;
  const bottom = y >= BOTTOM_ROW_Y && y < BOTTOM_ROW_Y + POINT_LENGTH;
  if (!top && !bottom) return null;
  let column: number;
  if (x >= LEFT_HALF_X && x < BAR_X) column = Math.floor((x - LEFT_HALF_X) / POINT_WIDTH);
  else if (x >= RIGHT_HALF_X && x < RIGHT_HALF_X + 6 * POINT_WIDTH) column = 6 + Math.floor((x - RIGHT_HALF_X) / POINT_WIDTH);
  else return null;
  return top ? 13 + column : 12 - column;
}

/** The hit target of my off tray: the whole right column beside my home board. */
export function myOffTarget(): Rect {
  return { x: FRAME.x + FRAME.width, y: BOTTOM_ROW_Y, width: VIEW_WIDTH - FRAME.x - FRAME.width, height: POINT_LENGTH };
}

/** Which side my home board is drawn on: "right" is the layout above, "left" its mirror image. */
export type HomeSide = "right" | "left";

/** The SVG transform that draws the layout above with my home board on `home`'s side. */
export function layoutTransform(home: HomeSide): string {
  return home === "right" ? "" : `matrix(-1 0 0 1 ${VIEW_WIDTH} 0)`;
}

/** Where a spot of the layout is seen with my home board on `home`'s side; a mirror is its own
 *  inverse, so this also takes a spot seen on the board (a pointer) back to the layout. */
export function seenSpot(spot: Spot, home: HomeSide): Spot {
  return home === "right" ? spot : { x: VIEW_WIDTH - spot.x, y: spot.y };
}
