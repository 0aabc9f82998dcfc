// The board component: an inline SVG drawn from my side (see geometry.ts), the move input of
// moves.ts on top of it, and the board in words for the text alternative.
//
// Input, when show() is given legal plays:
// - click (or Enter / Space on the focused point) a point holding a checker of mine that can move:
//   it is selected (data-selected="true"), the points it can reach get data-target="true"; click
//   one of them to move there (a point reached by several dice with the same checker, 24/13 with
//   6-5, is one click and is recorded as its steps); click the selected point again to deselect;
//   click another checker of mine that can move to select it instead;
// - drag: press on a checker that can move, move, release over a point: the same as clicking the
//   source and then that point (released over the source it stays selected, outside the board it
//   is deselected);
// - onIllegalAttempt(partial, {from, to}): a selected checker sent to a point it cannot reach
//   (to = that point, 0 for my off tray); or, with nothing selected, a click on a checker of mine
//   that has no legal move now: to = max(0, from - d), d the first die still to play (no call
//   when no die is left). A click on the bar while a checker is selected just deselects.
// There is no one-click move: a click always selects first.
//
// The whole SVG is redrawn from a string on every change (a few hundred elements); only the
// checker that follows the pointer during a drag is moved in place.

import "./board.css";
import "./motion.css";
import "./mirror.css";
import {
  BAR, CHECKER_RADIUS, CUBE_SIZE, DIE_SIZE, FRAME, OFF, VIEW_BOX, VIEW_HEIGHT, VIEW_WIDTH,
  barRect, boardHalves, barSpots, cubeSpot, diceArea, diePips, dieSpots, layoutTransform, myOffTarget, offSlabs,
  offTray, otherSidePoint, pipsSpot, pointAt, pointNumberSpot, pointSlot, seenSpot, stackLabel, stackSpots,
  type HomeSide, type Rect, type Spot,
} from "./geometry";
import type { Path } from "./animation";
import { lastPlayMarkup } from "./marks";
import type { BoardState, LegalPlay, Side, SideCheckers, Step } from "./model";
import { MoveInput, diceLeft, diceShown } from "./moves";

export interface BoardCallbacks {
  /** The steps made so far changed; `complete` is the legal play they make whole, or null. */
  onPartialChange(partial: Step[], complete: LegalPlay | null): void;
  /** The player tried to move a checker where no legal play goes: the steps made so far this
   *  turn and the attempted move, in my numbering (from 1-25, to 0-24). The page asks the
   *  server why and shows its reason. */
  onIllegalAttempt(partial: Step[], attempted: { from: number; to: number }): void;
  /** A click on the dice area / on the cube (the page may roll / offer a double). */
  onDiceClick?(): void;
  onCubeClick?(): void;
}

const SVG_NS = "http://www.w3.org/2000/svg";
/** How far (in screen pixels) the pointer must move before a press becomes a drag. */
const DRAG_THRESHOLD = 6;

interface Press {
  pointerId: number;
  from: number;
  clientX: number;
  clientY: number;
  dragging: boolean;
  ghost: SVGGElement | null;
}

export class Board {
  private readonly svg: SVGSVGElement;
  private readonly description: HTMLParagraphElement;
  private readonly callbacks: BoardCallbacks;
  private state: BoardState | null = null;
  private input: MoveInput | null = null;
  private shown = "";
  private homeSide: HomeSide = "right";
  private press: Press | null = null;
  /** Set when a drag ends, so that the click the browser may send after it is not acted on. */
  private suppressClick = false;

  constructor(container: HTMLElement, callbacks: BoardCallbacks) {
    this.callbacks = callbacks;
    const wrapper = document.createElement("div");
    wrapper.className = "tavli-board";
    this.svg = document.createElementNS(SVG_NS, "svg");
    this.svg.setAttribute("viewBox", VIEW_BOX);
    this.svg.setAttribute("width", "100%");
    this.svg.setAttribute("preserveAspectRatio", "xMidYMid meet");
    this.svg.setAttribute("role", "group"); // labelled by the description; its points stay buttons a screen reader can reach
    this.svg.dataset.home = this.homeSide;
    this.description = document.createElement("p");
    this.description.className = "tavli-board-description";
    this.description.dataset.testid = "board-description";
    wrapper.append(this.svg, this.description);
    container.append(wrapper);

    this.svg.addEventListener("click", (event) => this.onClick(event));
    this.svg.addEventListener("keydown", (event) => this.onKeyDown(event));
    this.svg.addEventListener("pointerdown", (event) => this.onPointerDown(event));
    this.svg.addEventListener("pointermove", (event) => this.onPointerMove(event));
    this.svg.addEventListener("pointerup", (event) => this.onPointerUp(event));
    this.svg.addEventListener("pointercancel", () => this.endPress());
  }

  /** Draw `state`. `legalPlays` (non-empty) when it is my turn to play: input is on; otherwise
   *  off. Resets the partial play when the state or plays change (the same state and plays again
   *  keep it). Does not call onPartialChange. */
  show(state: BoardState, legalPlays?: LegalPlay[]): void {
    const plays = legalPlays && legalPlays.length > 0 ? legalPlays : null;
    const shown = JSON.stringify([state, plays]);
    if (shown !== this.shown) {
      this.shown = shown;
      this.state = state;
      this.input = plays ? new MoveInput(state, plays) : null;
      this.endPress();
    }
    this.render();
  }

  /** Slide a checker of `side` along `path` over the board drawn now; resolves when it lands
   *  (the caller then draws the board it landed on). */
  async slideChecker(side: Side, path: Path, ms: number): Promise<void> {
    await this.slide(checkerMarkup(side, { x: 0, y: 0 }), "moving-checker", path, 0, ms);
  }

  /** Slide the cube (its top-left corner) along `path`, showing `value`. */
  async slideCube(value: number, path: Path, ms: number): Promise<void> {
    await this.slide(cubeFace(value, { x: 0, y: 0 }), "moving-cube", path, CUBE_SIZE, ms);
  }

  /** Slide `markup`, drawn at the origin and `width` wide, along `path` (in the layout's
   *  coordinates: mirrored here when my home board is on the left, the ghost being outside the
   *  mirrored drawing). */
  private async slide(markup: string, cls: string, path: Path, width: number, ms: number): Promise<void> {
    const ghost = document.createElementNS(SVG_NS, "g");
    ghost.setAttribute("class", cls);
    ghost.innerHTML = markup;
    const at = (spot: { x: number; y: number }) => {
      const seen = this.homeSide === "right" ? spot : { x: seenSpot(spot, this.homeSide).x - width, y: spot.y };
      return `translate(${seen.x}px, ${seen.y}px)`;
    };
    ghost.style.transform = at(path.to);
    this.svg.append(ghost);
    try {
      if (typeof ghost.animate === "function" && ms > 0) {
        const motion = ghost.animate([{ transform: at(path.from) }, { transform: at(path.to) }], { duration: ms, easing: "ease-in-out" });
        await motion.finished.catch(() => undefined);
      }
    } finally {
      ghost.remove();
    }
  }

  /** Draw my home board on the right (the usual layout) or on the left (its mirror image). */
  setHomeSide(home: HomeSide): void {
    if (home === this.homeSide) return;
    this.homeSide = home;
    this.svg.dataset.home = home;
    this.render();
  }

  /** Take back the last step of this turn. */
  undo(): void {
    if (this.input?.undo()) this.partialChanged();
  }

  /** Take back every step of this turn. */
  undoAll(): void {
    if (this.input?.undoAll()) this.partialChanged();
  }

  /** The steps made so far this turn. */
  get partial(): Step[] {
    return this.input?.partial ?? [];
  }

  private partialChanged(): void {
    this.render();
    if (this.input) this.callbacks.onPartialChange(this.input.partial, this.input.complete());
  }

  /** A click (or Enter / Space) on my point 1-24, my bar 25 or my off tray 0. */
  private choose(point: number): void {
    const input = this.input;
    if (!input) return;
    const result = input.click(point);
    if (result.kind === "moved") this.partialChanged();
    else if (result.kind === "illegal") {
      this.render();
      this.callbacks.onIllegalAttempt(input.partial, result.attempted);
    } else if (result.kind !== "ignored") this.render();
  }

  // --- events ---------------------------------------------------------------------------

  private onClick(event: MouseEvent): void {
    if (this.suppressClick) {
      this.suppressClick = false;
      return;
    }
    this.activate(event.target);
  }

  private onKeyDown(event: KeyboardEvent): void {
    if (event.key !== "Enter" && event.key !== " ") return;
    if (!(event.target instanceof Element) || !event.target.closest("[data-point], [data-testid]")) return;
    event.preventDefault();
    this.activate(event.target);
  }

  private activate(target: EventTarget | null): void {
    if (!(target instanceof Element)) return;
    const point = target.closest("[data-point]");
    if (point) return this.choose(Number(point.getAttribute("data-point")));
    if (target.closest('[data-testid="dice"]')) this.callbacks.onDiceClick?.();
    else if (target.closest('[data-testid="cube"]')) this.callbacks.onCubeClick?.();
  }

  private onPointerDown(event: PointerEvent): void {
    this.suppressClick = false;
    if (!this.input || event.button !== 0 || !(event.target instanceof Element)) return;
    const point = event.target.closest("[data-point]");
    if (!point) return;
    const from = Number(point.getAttribute("data-point"));
    if (!this.input.sources().includes(from)) return;
    this.press = { pointerId: event.pointerId, from, clientX: event.clientX, clientY: event.clientY, dragging: false, ghost: null };
  }

  private onPointerMove(event: PointerEvent): void {
    const press = this.press;
    if (!press || press.pointerId !== event.pointerId || !this.input) return;
    if (!press.dragging) {
      if (Math.hypot(event.clientX - press.clientX, event.clientY - press.clientY) < DRAG_THRESHOLD) return;
      press.dragging = true;
      this.input.selected = press.from;
      this.render();
      try {
        this.svg.setPointerCapture(event.pointerId);
      } catch {
        // The pointer is already gone (or was never a real one): the drag goes on uncaptured.
      }
      press.ghost = document.createElementNS(SVG_NS, "g");
      press.ghost.setAttribute("class", "drag-ghost");
      press.ghost.innerHTML = checkerMarkup("me", { x: 0, y: 0 });
      this.svg.append(press.ghost);
    }
    const spot = this.toBoard(event);
    if (spot && press.ghost) press.ghost.setAttribute("transform", `translate(${spot.x} ${spot.y})`);
  }

  private onPointerUp(event: PointerEvent): void {
    const press = this.press;
    if (!press || press.pointerId !== event.pointerId) return;
    this.endPress();
    if (!press.dragging || !this.input) return;
    this.suppressClick = true;
    const spot = this.toBoard(event);
    const to = spot ? pointAt(seenSpot(spot, this.homeSide)) : null;
    if (to === press.from) return this.render();
    if (to === null) {
      this.input.selected = null;
      return this.render();
    }
    this.input.selected = press.from;
    this.choose(to);
  }

  private endPress(): void {
    this.press?.ghost?.remove();
    this.press = null;
  }

  /** The pointer's place in the SVG's own units. */
  private toBoard(event: PointerEvent): Spot | null {
    const matrix = this.svg.getScreenCTM();
    if (!matrix) return null;
    const spot = new DOMPoint(event.clientX, event.clientY).matrixTransform(matrix.inverse());
    return { x: spot.x, y: spot.y };
  }

  // --- drawing ----------------------------------------------------------------------------

  private render(): void {
    const state = this.state;
    if (!state) return;
    const board = this.input ? this.input.board : state;
    const partial = this.input ? this.input.partial : state.played ?? [];
    const text = describeBoard({ ...board, dice: diceLeft(state.dice, partial) });
    const focused = this.focusedKey();

    this.svg.setAttribute("aria-label", text);
    this.svg.classList.toggle("input-on", this.input !== null);
    const layout = layoutTransform(this.homeSide);
    const markup = this.markup(state, board, partial);
    this.svg.innerHTML = `<title>${escapeText(text)}</title>${layout ? `<g transform="${layout}">${markup}</g>` : markup}`;
    this.description.textContent = text;
    if (focused) this.svg.querySelector<SVGElement>(focused)?.focus();
  }

  /** A selector for the element of the board that has the focus, to give it back after a redraw. */
  private focusedKey(): string | null {
    const active = document.activeElement;
    if (!active || !this.svg.contains(active)) return null;
    const point = active.getAttribute("data-point");
    if (point !== null) return `[data-point="${point}"]`;
    const id = active.getAttribute("data-testid");
    return id ? `[data-testid="${id}"]` : null;
  }

  private markup(state: BoardState, board: BoardState, partial: Step[]): string {
    const input = this.input;
    const selected = input?.selected ?? null;
    const sources = new Set(input ? input.sources() : []);
    const targets = selected !== null && input ? input.destinations(selected) : new Map<number, Step[]>();
    const parts: string[] = [frameMarkup(board)];

    for (let p = 1; p <= 24; p++) {
      const mine = board.me.points[p - 1];
      const theirs = board.them.points[otherSidePoint(board.variant, p) - 1];
      const slot = pointSlot(p);
      if (mine > 0) parts.push(stackMarkup("me", stackSpots(slot, mine), mine));
      if (theirs > 0) parts.push(stackMarkup("them", stackSpots(slot, theirs), theirs));
    }
    parts.push(stackMarkup("me", barSpots("me", board.me.bar), board.me.bar));
    parts.push(stackMarkup("them", barSpots("them", board.them.bar), board.them.bar));
    parts.push(trayMarkup(board, "me"), trayMarkup(board, "them"));
    parts.push(lastPlayMarkup(state));

    // The marks of the selection and its targets: shapes, not only colours.
    if (selected !== null) parts.push(selectedMark(board, selected));
    for (const to of targets.keys()) parts.push(targetMark(board, to));

    // The hit targets, over everything they cover.
    for (let p = 1; p <= 24; p++) {
      const mine = board.me.points[p - 1];
      const theirs = board.them.points[otherSidePoint(board.variant, p) - 1];
      const what = mine > 0 ? `${mine} mine` : theirs > 0 ? `${theirs} theirs` : "empty";
      parts.push(hitTarget(p, pointSlot(p), `point ${p}, ${what}`, input !== null, sources.has(p), selected === p, targets.has(p)));
    }
    parts.push(hitTarget(BAR, barRect(), `bar, ${board.me.bar} mine, ${board.them.bar} theirs`, input !== null, sources.has(BAR), selected === BAR, false));
    parts.push(hitTarget(OFF, myOffTarget(), `my off tray, ${board.me.off} off`, input !== null, false, false, targets.has(OFF)));

    parts.push(diceMarkup(state, partial, this.callbacks.onDiceClick !== undefined));
    parts.push(lastRollMarkup(state));
    if (state.cube) parts.push(cubeMarkup(state.cube, this.callbacks.onCubeClick !== undefined));
    return parts.join("");
  }
}

// --- markup pieces (pure strings) ---------------------------------------------------------

function escapeText(text: string): string {
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
function checkerMarkup(side: Side, at: Spot, label: string | null = null): string {
  const r = CHECKER_RADIUS - 1;
  let markup = `<circle class="checker checker-${side}" cx="${at.x}" cy="${at.y}" r="${r}"/>`;
  if (side === "me") markup += `<circle class="checker-ring" cx="${at.x}" cy="${at.y}" r="${r * 0.7}"/>`;
  if (label) markup += `<text class="checker-count checker-count-${side}" x="${at.x}" y="${at.y + 8}">${label}</text>`;
  return markup;
}

function stackMarkup(side: Side, spots: Spot[], count: number): string {
  const label = stackLabel(count);
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

function cubeFace(value: number, at: Spot): string {
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

// --- the board in words -------------------------------------------------------------------

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
  return `${countsInWords(counts, mine)}${bar}; ${side.off === 0 ? "none" : side.off} off`;
}

/** The board in words, for the text alternative: whose checkers where (counts per point from my
 *  side), bar, off, dice, cube and owner, pips. */
export function describeBoard(state: BoardState): string {
  const backgammon = state.variant === "backgammon";
  const mine = sideInWords(state.me, (p) => p, true, backgammon);
  const theirs = sideInWords(state.them, (p) => otherSidePoint(state.variant, p), false, backgammon);
  const whose = state.diceSide === "me" ? ", mine" : state.diceSide === "them" ? ", theirs" : "";
  const dice = state.dice.length === 0 ? "No dice to play." : `Dice: ${inWords(state.dice.map(String))}${whose}.`;
  const cube = !state.cube
    ? "No cube."
    : `Cube: ${state.cube.value}, ${state.cube.owner === null ? "in the middle" : state.cube.owner === "me" ? "mine" : "theirs"}.`;
  return [
    `${backgammon ? "Backgammon" : "Long nardi"}, from my side.`,
    `My checkers: ${mine}.`,
    `Their checkers, by my point numbers: ${theirs}.`,
    dice,
    cube,
    `Pips: mine ${state.pips.me}, theirs ${state.pips.them}.`,
  ].join(" ");
}
