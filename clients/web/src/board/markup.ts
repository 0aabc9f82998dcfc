// The board as SVG markup, from my side (see geometry.ts): points, checkers, bar and trays, the
// last play's marks, the selection and its targets, the hit targets that take the clicks, the
// dice and the cube. Pure strings: the board component (board.ts) puts them in its SVG.

import {
  BAR, CHECKER_RADIUS, CUBE_SIZE, DIE_SIZE, FRAME, OFF, VIEW_HEIGHT, VIEW_WIDTH,
  barRect, boardHalves, barSpots, cubeSpot, diceArea, diePips, dieSpots, myOffTarget, offSlabs,
  offTray, otherSidePoint, pinnedStackSpots, pipsSpot, pointNumberSpot, pointSlot, stackLabel, stackSpots,
  type PointSlot, type Rect, type Spot,
} from "./geometry";
import { arrowsMarkup, lastPlayMarkup } from "./marks";
import type { BoardState, Side, Step } from "./model";
import { diceShown, type MoveInput } from "./moves";
import { isPinned } from "./pins";

/**
 * The board as SVG markup (inside the view box): `state` as shown, `board` the position with the
 * steps made so far (`partial`) on it, the selection and its targets of the move `input` (null
 * while input is off), and whether the dice and the cube answer a click.
 */
export function boardMarkup(
  state: BoardState,
  board: BoardState,
  partial: Step[],
  input: MoveInput | null,
  clickable: { dice: boolean; cube: boolean },
): string {
  const selected = input?.selected ?? null;
  const sources = new Set(input ? input.sources() : []);
  const targets = selected !== null && input ? input.destinations(selected) : new Map<number, Step[]>();
  const parts: string[] = [frameMarkup(board)];

  for (let p = 1; p <= 24; p++) {
    const mine = board.me.points[p - 1];
    const theirs = board.them.points[otherSidePoint(board.variant, p) - 1];
    parts.push(pointCheckersMarkup(board, p, mine, theirs));
  }
  parts.push(stackMarkup("me", barSpots("me", board.me.bar), board.me.bar));
  parts.push(stackMarkup("them", barSpots("them", board.them.bar), board.them.bar));
  parts.push(trayMarkup(board, "me"), trayMarkup(board, "them"));
  parts.push(lastPlayMarkup(state), arrowsMarkup(state));

  // The marks of the selection and its targets: shapes, not only colours.
  if (selected !== null) parts.push(selectedMark(board, selected));
  for (const to of targets.keys()) parts.push(targetMark(board, to));

  // The hit targets, over everything they cover.
  for (let p = 1; p <= 24; p++) {
    const mine = board.me.points[p - 1];
    const theirs = board.them.points[otherSidePoint(board.variant, p) - 1];
    const what = pointInWords(board, p, mine, theirs);
    parts.push(hitTarget(p, pointSlot(p), `point ${p}, ${what}`, input !== null, sources.has(p), selected === p, targets.has(p)));
  }
  parts.push(hitTarget(BAR, barRect(), `bar, ${board.me.bar} mine, ${board.them.bar} theirs`, input !== null, sources.has(BAR), selected === BAR, false));
  parts.push(hitTarget(OFF, myOffTarget(), `my off tray, ${board.me.off} off`, input !== null, false, false, targets.has(OFF)));

  parts.push(diceMarkup(state, partial, clickable.dice));
  parts.push(lastRollMarkup(state));
  if (state.cube) parts.push(cubeMarkup(state.cube, clickable.cube));
  return parts.join("");
}

/** Text made safe inside markup. */
export function escapeText(text: string): string {
  return text.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;").replace(/"/g, "&quot;");
}

function rect(r: Rect, cls: string, extra = ""): string {
  return `<rect class="${cls}" x="${r.x}" y="${r.y}" width="${r.width}" height="${r.height}"${extra}/>`;
}

function frameMarkup(board: BoardState): string {
  const parts = [`<rect class="wood" x="0" y="0" width="${VIEW_WIDTH}" height="${VIEW_HEIGHT}"/>`];
  parts.push(rect(FRAME, "frame"), ...boardHalves().map((half) => rect(half, "felt")));
  parts.push(rect(barRect(), "bar"));
  for (let p = 1; p <= 24; p++) {
    const slot = pointSlot(p);
    const base = slot.top ? slot.y : slot.y + slot.height;
    const tip = slot.top ? slot.y + slot.height - 12 : slot.y + 12;
    const cls = p % 2 === 0 ? "point point-dark" : "point point-light";
    parts.push(`<polygon class="${cls}" points="${slot.x + 2},${base} ${slot.x + slot.width - 2},${base} ${slot.x + slot.width / 2},${tip}"/>`);
    const n = pointNumberSpot(p);
    parts.push(`<text class="point-number" x="${n.x}" y="${n.y}">${p}</text>`);
  }
  for (const side of ["me", "them"] as const) {
    const at = pipsSpot(side);
    parts.push(`<text class="pips" data-side="${side}" x="${at.x}" y="${at.y}">pips ${board.pips[side]}</text>`);
  }
  return parts.join("");
}

/** One checker centred at `at`: mine light with a ring, theirs dark and plain. */
export function checkerMarkup(side: Side, at: Spot, label: string | null = null): string {
  const r = CHECKER_RADIUS - 1;
  let markup = `<circle class="checker checker-${side}" cx="${at.x}" cy="${at.y}" r="${r}"/>`;
  if (side === "me") markup += `<circle class="checker-ring" cx="${at.x}" cy="${at.y}" r="${r * 0.7}"/>`;
  if (label) markup += `<text class="checker-count checker-count-${side}" x="${at.x}" y="${at.y + 8}">${label}</text>`;
  return markup;
}

/** The checkers on my point `p`: one side's stack, or a pinned checker at the base with its
 *  pinners' stack on top of it. */
function pointCheckersMarkup(board: BoardState, p: number, mine: number, theirs: number): string {
  const slot = pointSlot(p);
  const pinned = pinnedSide(board, p);
  if (pinned === null) {
    const side: Side = mine > 0 ? "me" : "them";
    const count = mine > 0 ? mine : theirs;
    return count > 0 ? stackMarkup(side, stackSpots(slot, count), count) : "";
  }
  const pinners = pinned === "me" ? theirs : mine;
  return pinnedCheckerMarkup(pinned, slot, pinners) + stackMarkup(pinned === "me" ? "them" : "me", pinnedStackSpots(slot, pinners).pinners, pinners);
}

/** Whose checker is pinned on my point `p`, or null. */
function pinnedSide(board: BoardState, p: number): Side | null {
  if (board.me.points[p - 1] > 0 && isPinned(board.me, p)) return "me";
  const theirs = otherSidePoint(board.variant, p);
  if (board.them.points[theirs - 1] > 0 && isPinned(board.them, theirs)) return "them";
  return null;
}

/** A pinned checker: the checker with a pin drawn through it (a bar across and a dot), not told by
 *  colour alone, and a title naming it. */
function pinnedCheckerMarkup(side: Side, slot: PointSlot, pinners: number): string {
  const at = pinnedStackSpots(slot, pinners).pinned;
  const r = CHECKER_RADIUS - 1;
  const whose = side === "me" ? "my checker" : "their checker";
  return `<g class="pinned" data-pinned-side="${side}"><title>${whose}, pinned</title>${checkerMarkup(side, at)}`
    + `<line class="pin-mark" x1="${at.x - r}" y1="${at.y}" x2="${at.x + r}" y2="${at.y}"/>`
    + `<circle class="pin-mark-head" cx="${at.x}" cy="${at.y}" r="${r * 0.3}"/></g>`;
}

/** What stands on my point `p`, for its label: "2 mine", "1 theirs pinned under 2 mine", "empty". */
function pointInWords(board: BoardState, p: number, mine: number, theirs: number): string {
  const pinned = pinnedSide(board, p);
  if (pinned === "me") return `1 mine pinned under ${theirs} theirs`;
  if (pinned === "them") return `1 theirs pinned under ${mine} mine`;
  return mine > 0 ? `${mine} mine` : theirs > 0 ? `${theirs} theirs` : "empty";
}

function stackMarkup(side: Side, spots: Spot[], count: number): string {
  const label = stackLabel(count, spots.length);
  return spots.map((spot, i) => checkerMarkup(side, spot, i === spots.length - 1 ? label : null)).join("");
}

function trayMarkup(board: BoardState, side: Side): string {
  const tray = offTray(side, board.variant);
  const count = (side === "me" ? board.me : board.them).off;
  const slabs = offSlabs(tray, side, count).map((s) => rect(s, `off-slab off-slab-${side}`)).join("");
  const y = side === "me" ? tray.y + 26 : tray.y + tray.height - 10;
  return `<g class="tray" data-side="${side}">${rect(tray, "tray-box")}${slabs}<text class="tray-count" x="${tray.x + tray.width / 2}" y="${y}">${count} off</text></g>`;
}

/** Where a checker stands (or would land) on a point, the bar or my off tray. */
function landingSpot(board: BoardState, point: number): Spot {
  if (point === OFF) {
    const tray = offTray("me", board.variant);
    return { x: tray.x + tray.width / 2, y: tray.y + tray.height / 2 };
  }
  if (point === BAR) return barSpots("me", 1)[0];
  const slot = pointSlot(point);
  const count = Math.min(board.me.points[point - 1] + 1, 5);
  return stackSpots(slot, count)[count - 1];
}

/** The selected checker: a thick square frame round its top checker. */
function selectedMark(board: BoardState, point: number): string {
  let spot: Spot;
  if (point === BAR) spot = barSpots("me", Math.min(board.me.bar, 5))[Math.min(board.me.bar, 5) - 1];
  else {
    const count = Math.min(board.me.points[point - 1], 5);
    spot = stackSpots(pointSlot(point), count)[count - 1];
  }
  if (!spot) return "";
  const s = CHECKER_RADIUS + 3;
  return `<rect class="selected-mark" x="${spot.x - s}" y="${spot.y - s}" width="${2 * s}" height="${2 * s}"/>`;
}

/** A point the selected checker can reach: a dashed ring where it would land, and a dot. */
function targetMark(board: BoardState, point: number): string {
  const at = landingSpot(board, point);
  return `<circle class="target-mark" cx="${at.x}" cy="${at.y}" r="${CHECKER_RADIUS - 3}"/><circle class="target-dot" cx="${at.x}" cy="${at.y}" r="6"/>`;
}

function hitTarget(point: number, area: Rect, label: string, inputOn: boolean, movable: boolean, selected: boolean, target: boolean): string {
  const attrs = [
    ` data-point="${point}"`,
    // A button while input is on; otherwise a labelled picture of the point (a label needs a role).
    inputOn ? ` tabindex="0" role="button"` : ` role="img"`,
    ` aria-label="${escapeText(label + (movable ? ", can move" : "") + (target ? ", move here" : ""))}"`,
    movable ? ` data-movable="true"` : "",
    selected ? ` data-selected="true" aria-pressed="true"` : "",
    target ? ` data-target="true"` : "",
  ];
  return rect(area, "hit", attrs.join(""));
}

/** The dice of the side whose turn it is: those to play (the played ones crossed out); before
 *  its roll, its last roll crossed out, or empty places. */
function diceMarkup(state: BoardState, partial: Step[], clickable: boolean): string {
  const side: Side = state.diceSide ?? "me";
  const area = diceArea(side);
  const last = state.dice.length === 0 ? state.rolled?.[side] ?? [] : [];
  const dice = last.length ? diceShown(last, []).map((d) => ({ ...d, used: true })) : diceShown(state.dice, partial);
  const words = dice.length === 0 ? "no dice" : `${last.length ? "last roll" : "dice"} ${dice.map((d) => d.value + (d.used ? " used" : "")).join(", ")}`;
  const attrs = clickable ? ` role="button" tabindex="0"` : ` role="img"`; // a label needs a role
  const parts = [`<g class="dice" data-testid="dice" data-side="${side}" aria-label="${escapeText(words)}"${attrs}>`, rect(area, "dice-area")];
  if (dice.length === 0) {
    for (const at of dieSpots(area, 2)) parts.push(rect({ x: at.x, y: at.y, width: DIE_SIZE, height: DIE_SIZE }, "die-empty"));
  }
  parts.push(diceFaces(area, dice, last.length > 0), "</g>");
  return parts.join("");
}

/** The other side's last roll, crossed out, in its own dice area until it rolls again. */
function lastRollMarkup(state: BoardState): string {
  const side: Side = state.diceSide === "me" ? "them" : "me";
  const last = state.rolled?.[side] ?? [];
  if (state.diceSide === null || last.length === 0) return "";
  const dice = diceShown(last, []).map((d) => ({ ...d, used: true }));
  const words = `last roll ${dice.map((d) => d.value).join(", ")}`;
  return `<g class="dice dice-last" data-testid="dice-last" data-side="${side}" role="img" aria-label="${escapeText(words)}">${diceFaces(diceArea(side), dice, true)}</g>`;
}

function diceFaces(area: Rect, dice: { value: number; used: boolean }[], lastRoll: boolean): string {
  const parts: string[] = [];
  dieSpots(area, dice.length).forEach((at, i) => {
    const die = dice[i];
    const used = die.used ? ` data-used="true"` : "";
    parts.push(`<g class="die${die.used ? " die-used" : ""}${lastRoll ? " die-last" : ""}" data-value="${die.value}"${used}>`);
    parts.push(`<rect class="die-face" x="${at.x}" y="${at.y}" width="${DIE_SIZE}" height="${DIE_SIZE}" rx="8"/>`);
    for (const pip of diePips(die.value)) {
      parts.push(`<circle class="die-pip" cx="${at.x + pip.x * DIE_SIZE}" cy="${at.y + pip.y * DIE_SIZE}" r="5"/>`);
    }
    if (die.used && !lastRoll) {
      const a = at.x + 6, b = at.x + DIE_SIZE - 6, c = at.y + 6, d = at.y + DIE_SIZE - 6;
      parts.push(`<path class="die-cross" d="M${a} ${c}L${b} ${d}M${b} ${c}L${a} ${d}"/>`);
    }
    parts.push("</g>");
  });
  return parts.join("");
}

export function cubeFace(value: number, at: Spot): string {
  return (
    `<rect class="cube-face" x="${at.x}" y="${at.y}" width="${CUBE_SIZE}" height="${CUBE_SIZE}" rx="8"/>` +
    `<text class="cube-value" x="${at.x + CUBE_SIZE / 2}" y="${at.y + CUBE_SIZE / 2 + 10}">${value}</text>`
  );
}

function cubePlace(cube: NonNullable<BoardState["cube"]>): string {
  if (cube.offered) return `offered to ${cube.owner === "me" ? "me" : "them"}`;
  return cube.owner === null ? "in the middle" : cube.owner === "me" ? "mine" : "theirs";
}

/** The number on the cube's face: its value, but 64 while it is centred at 1, as a real cube
 *  shows it (it has no 1). */
export function cubeNumber(cube: NonNullable<BoardState["cube"]>): number {
  return cube.value === 1 && cube.owner === null ? 64 : cube.value;
}

function cubeMarkup(cube: NonNullable<BoardState["cube"]>, clickable: boolean): string {
  const at = cubeSpot(cube.owner);
  const owner = cube.owner ?? "centre";
  const face = cubeNumber(cube);
  const attrs = clickable ? ` role="button" tabindex="0"` : ` role="img"`; // a label needs a role
  return (
    `<g class="cube${cube.offered ? " cube-offered" : ""}" data-testid="cube" data-owner="${owner}"${cube.offered ? ` data-offered="true"` : ""} aria-label="cube ${cube.value}${face === cube.value ? "" : `, its face ${face}`}, ${cubePlace(cube)}"${attrs}>` +
    `${cubeFace(face, at)}</g>`
  );
}
