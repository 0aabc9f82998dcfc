// The board component: an inline SVG drawn from my side (its markup from markup.ts, its places
// from geometry.ts), the move input of moves.ts on top of it, and the board in words (words.ts)
// for the text alternative.
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
import { CUBE_SIZE, VIEW_BOX, layoutTransform, pointAt, seenSpot, type HomeSide, type Spot } from "./geometry";
import type { Path } from "./animation";
import type { BoardState, LegalPlay, Side, Step } from "./model";
import { MoveInput, diceLeft } from "./moves";
import { boardMarkup, checkerMarkup, cubeFace, escapeText } from "./markup";
import { describeBoard } from "./words";

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
    const clickable = { dice: this.callbacks.onDiceClick !== undefined, cube: this.callbacks.onCubeClick !== undefined };
    const markup = boardMarkup(state, board, partial, this.input, clickable);
    this.svg.innerHTML = `<title>${escapeText(text)}</title>${layout ? `<g transform="${layout}">${markup}</g>` : markup}`;
    this.description.textContent = text;
    if (focused) this.svg.querySelector<SVGElement>(focused)?.focus({ preventScroll: true }); // it was in view
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
}
