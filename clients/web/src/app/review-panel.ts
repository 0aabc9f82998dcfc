// The post-game review beside the move list: once a game of the match has ended (while the match
// goes on, only at a table that offers hints), AnalyzeMatch of the stored game is asked at the
// look-ahead chosen and its progress shown; then both players' statistics, an equity and error graph over
// the decisions, and every decision with its mark. Choosing a decision shows on the board the
// position it was made on with the play made, or GNU Backgammon's best, drawn as arrows, in turn.
// What the stream holds and how it reads are review.ts's.

import { DecisionKind, type AnalyzedDecision } from "../gen/tavli/v1/analysis_service_pb";
import { Variant } from "../gen/tavli/v1/board_pb";
import { Phase, type Game, type Seat } from "../gen/tavli/v1/games_service_pb";
import type { BoardState, Side } from "../board/model";
import { refusalText, type Api } from "./api";
import { toStep } from "./convert";
import { h, setText } from "./dom";
import "./analysis.css";
import { PLIES, noHintReason, type Plies } from "./hint";
import type { MatchRecord, RecordRules } from "./record";
import {
  ERROR_MARKS,
  STATISTIC_ROWS,
  boardMessageFor,
  boardOfDecision,
  decisionText,
  emptyReview,
  errorMark,
  foldReview,
  graphPoints,
  type GraphPoint,
  type Review,
} from "./review";

export interface ReviewPanelOptions {
  api: Api;
  name: string;
  signal: AbortSignal;
  /** The page's record of the match and the rules it was folded with. */
  record(): { match: MatchRecord; rules: RecordRules } | null;
  /** Show a board (seat 0's side, read-only) on the table, or the live game again for null. */
  showBoard(board: BoardState | null): void;
}

const GRAPH_WIDTH = 320;
const GRAPH_HEIGHT = 140;
/** The loss a bar of full height stands for (EMG); a larger one is drawn at full height. */
const GRAPH_TOP = 0.3;
/** The equity panel above the error bars, and the room for its scale's numbers on the left. */
const EQUITY_HEIGHT = 100;
const EQUITY_GAP = 12;
const SCALE_ROOM = 22;

export class ReviewPanel {
  readonly element: HTMLElement;
  private readonly button = h("button", { type: "button", testid: "review-button", class: "primary" }, "Review the match");
  private readonly plies = h(
    "select",
    { id: "review-plies", testid: "review-plies" },
    ...PLIES.map((n) => h("option", { value: String(n) }, `${n} ${n === 1 ? "ply" : "plies"}`)),
  );
  private readonly progress = h("progress", { testid: "review-progress", id: "review-progress", max: 1, value: 0, hidden: true });
  private readonly progressLabel = h("label", { for: "review-progress", hidden: true }, "");
  private readonly note = h("p", { testid: "review-note", class: "note", role: "status" });
  private readonly stats = h("table", { testid: "review-stats", class: "review-stats", hidden: true });
  private readonly graph = h("div", { testid: "review-graph", class: "review-graph" });
  private readonly list = h("ol", { testid: "review-decisions", class: "review-decisions", "aria-label": "Every decision, with its mark" });
  private readonly detail = h("div", { testid: "review-detail", class: "review-detail", hidden: true });
  private review: Review = emptyReview();
  private running = false;
  private plays: { played: BoardState | null; best: BoardState | null } = { played: null, best: null };
  private game: Game | null = null;

  constructor(private readonly options: ReviewPanelOptions) {
    this.element = h(
      "section",
      { testid: "review", class: "review", "aria-label": "Review", hidden: true },
      h("h2", { class: "record-title" }, "Review by GNU Backgammon"),
      h("div", { class: "hint-row" }, this.button, h("label", { for: "review-plies" }, "Look ahead"), this.plies),
      this.progressLabel,
      this.progress,
      this.note,
      this.stats,
      this.graph,
      this.detail,
      this.list,
      h(
        "p",
        { class: "note" },
        `Marks, GNU Backgammon's: ${ERROR_MARKS.map((level) => `${level.mark} ${level.words}, losing ${level.least.toFixed(2)} or more`).join("; ")}.`,
      ),
    );
    this.button.addEventListener("click", () => void this.run());
  }

  /** The game as shown changed: the review is offered once a game has ended (and the table allows it). */
  update(game: Game, mySeat: Seat | null): void {
    this.game = game;
    const over = game.phase === Phase.MATCH_OVER;
    const evaluated = game.ruleSet?.variant === Variant.BACKGAMMON;
    const offered = evaluated && game.finishedGames.length > 0 && (over || noHintReason(game, mySeat) === null);
    this.element.hidden = !offered;
    this.button.disabled = this.running;
  }

  private async run(): Promise<void> {
    if (this.running || !this.game) return;
    const plies = Number(this.plies.value) as Plies;
    this.running = true;
    this.button.disabled = true;
    this.review = emptyReview();
    this.list.replaceChildren();
    this.graph.replaceChildren();
    this.stats.hidden = true;
    this.closeDetail();
    this.showProgress();
    setText(this.note, `GNU Backgammon is reviewing the match at ${plies} ${plies === 1 ? "ply" : "plies"}…`);
    try {
      const stream = this.options.api.analysis.analyzeMatch({ match: { case: "game", value: this.options.name }, plies }, { signal: this.options.signal });
      for await (const message of stream) {
        this.review = foldReview(this.review, message);
        this.showProgress();
      }
      this.showReview();
      setText(this.note, `Reviewed at ${plies} ${plies === 1 ? "ply" : "plies"}: ${this.review.decisions.length} decisions.`);
    } catch (error) {
      if (!this.options.signal.aborted) {
        setText(this.note, refusalText(error));
      }
    } finally {
      this.running = false;
      this.button.disabled = false;
      setText(this.button, "Review again");
    }
  }

  private showProgress(): void {
    const { analyzed, total } = this.review;
    const running = this.running && this.review.players === null;
    this.progress.hidden = !running;
    this.progressLabel.hidden = !running;
    this.progress.max = Math.max(total, 1);
    this.progress.value = analyzed;
    setText(this.progressLabel, total ? `Analysed ${analyzed} of ${total} decision points` : "Finding the decision points…");
  }

  private showReview(): void {
    const players = this.review.players ?? [];
    this.stats.replaceChildren(
      h("caption", {}, "Both players' statistics, as GNU Backgammon counts them"),
      h("thead", {}, h("tr", {}, h("th", { scope: "col" }, "Statistic"), ...players.map((p) => h("th", { scope: "col" }, p.name)))),
      h(
        "tbody",
        {},
        ...STATISTIC_ROWS.map((row) =>
          h(
            "tr",
            { "data-stat": row.key },
            h("th", { scope: "row" }, row.label),
            ...players.map((p, i) => h("td", { "data-player": String(i) }, row.value(p))),
          ),
        ),
      ),
    );
    this.stats.hidden = players.length === 0;
    this.graph.replaceChildren(this.graphMarkup(players.map((p) => p.name)));
    this.list.replaceChildren(...this.decisionEntries());
  }

  /** The equity and error graph: above, the equity after each decision from the first player's
   *  side as a line with a dot per decision; below, a bar per decision's loss, the first player's
   *  upwards and the second's downwards (the side told by direction, not colour), the marks'
   *  thresholds as dashed lines. */
  private graphMarkup(names: string[]): HTMLElement {
    const points = graphPoints(this.review.decisions);
    const first = names[0] ?? "first player";
    const second = names[1] ?? "second player";
    const width = GRAPH_WIDTH / Math.max(points.length, 1);
    const middle = GRAPH_HEIGHT / 2;
    const scale = (loss: number) => (Math.min(loss, GRAPH_TOP) / GRAPH_TOP) * (middle - 4);
    const bars = points
      .filter((p) => p.loss > 0)
      .map((p) => {
        const height = Math.max(scale(p.loss), 1);
        const y = p.side === 0 ? middle - height : middle;
        const mark = errorMark(p.loss);
        return `<rect class="review-bar review-bar-${p.side}${mark ? " review-bar-error" : ""}" data-index="${p.index}" x="${(p.index * width).toFixed(2)}" y="${y.toFixed(2)}" width="${Math.max(width - 0.5, 0.8).toFixed(2)}" height="${height.toFixed(2)}"/>`;
      });
    const thresholds = ERROR_MARKS.flatMap((level) => [middle - scale(level.least), middle + scale(level.least)]).map(
      (y) => `<line class="review-threshold" x1="0" x2="${GRAPH_WIDTH}" y1="${y.toFixed(2)}" y2="${y.toFixed(2)}"/>`,
    );
    const totals = points.at(-1)?.total ?? [0, 0];
    const words =
      `Equity and error graph over ${points.length} decisions. Above: the equity after each decision, from ${first}'s side. ` +
      `Below: each decision's loss, ${first}'s above the line (whole error ${totals[0].toFixed(3)}), ${second}'s below it (${totals[1].toFixed(3)}).`;
    const figure = h("figure", { class: "review-figure" });
    figure.innerHTML =
      `<svg viewBox="${-SCALE_ROOM} 0 ${GRAPH_WIDTH + SCALE_ROOM} ${EQUITY_HEIGHT + EQUITY_GAP + GRAPH_HEIGHT}" role="img" aria-label="${words.replace(/"/g, "&quot;")}">` +
      equityPanel(points, width) +
      `<g transform="translate(0 ${EQUITY_HEIGHT + EQUITY_GAP})">` +
      `<rect class="review-graph-frame" x="0" y="0" width="${GRAPH_WIDTH}" height="${GRAPH_HEIGHT}"/>` +
      thresholds.join("") +
      `<line class="review-axis" x1="0" x2="${GRAPH_WIDTH}" y1="${middle}" y2="${middle}"/>` +
      bars.join("") +
      `<text class="review-graph-label" x="3" y="10">Errors</text>` +
      `</g></svg>`;
    figure.append(
      h(
        "figcaption",
        { class: "note" },
        `Above: the equity (EMG) after each decision, from ${first}'s side, a dot per decision. ` +
          `Below: each decision's loss in equity, ${first}'s above, ${second}'s below; dashed lines at ${ERROR_MARKS.map((level) => level.least.toFixed(2)).reverse().join(", ")}.`,
      ),
    );
    figure.querySelector("svg")?.addEventListener("click", (event) => {
      const index = (event.target as Element | null)?.getAttribute("data-index");
      if (index !== null && index !== undefined) void this.choose(Number(index));
    });
    return figure;
  }

  private decisionEntries(): HTMLElement[] {
    const entries: HTMLElement[] = [];
    let game = 0;
    this.review.decisions.forEach((decision, index) => {
      if (decision.game !== game) {
        game = decision.game;
        entries.push(h("li", { class: "review-game" }, h("h3", {}, `Game ${game}`)));
      }
      const mark = errorMark(decision.loss);
      const label = `${decisionText(decision)}${mark ? ` (${mark.words}, loses ${decision.loss.toFixed(3)})` : ""}`;
      const button = h(
        "button",
        {
          type: "button",
          class: `review-choice${mark ? " review-error" : ""}`,
          "data-index": String(index),
          "data-mark": mark?.mark ?? "",
          "aria-label": label,
        },
        decisionText(decision),
      );
      button.addEventListener("click", () => void this.choose(index));
      entries.push(h("li", { testid: "review-decision" }, button));
    });
    return entries;
  }

  /** Shows decision `index`: the position it was made on, the play made drawn as arrows. */
  private async choose(index: number): Promise<void> {
    const decision = this.review.decisions[index];
    const found = this.options.record();
    if (!decision || !found) return;
    this.list.querySelectorAll("button.review-choice").forEach((b) => b.setAttribute("aria-current", b.getAttribute("data-index") === String(index) ? "true" : "false"));
    const board = boardOfDecision(found.match, found.rules, decision);
    const side: Side = decision.side === 1 ? "them" : "me";
    this.plays = { played: board, best: board };
    this.showDetail(decision, board !== null);
    if (board && decision.kind === DecisionKind.CHEQUER) {
      try {
        const answer = await this.options.api.rules.listLegalPlays(
          { variant: Variant.BACKGAMMON, position: { form: { case: "board", value: boardMessageFor(board, side) } }, dice: [...decision.dice] },
          { signal: this.options.signal },
        );
        const arrows = (notation: string): BoardState => {
          const play = answer.plays.find((p) => p.notation === notation);
          return { ...board, arrows: play ? { side, steps: play.steps.map(toStep) } : null };
        };
        this.plays = { played: arrows(decision.played), best: arrows(decision.best) };
      } catch (error) {
        setText(this.note, refusalText(error));
      }
    }
    this.showPlay("played");
  }

  private showDetail(decision: AnalyzedDecision, onBoard: boolean): void {
    const mark = errorMark(decision.loss);
    const what = decision.kind === DecisionKind.CUBE ? "Cube action" : `Rolled ${decision.dice.join("-")}`;
    const judged = mark ? ` ${mark.mark} ${mark.words}, losing ${decision.loss.toFixed(3)}.` : decision.loss > 0 ? ` Loses ${decision.loss.toFixed(3)}.` : " The best.";
    const playedButton = h("button", { type: "button", testid: "review-show-played", "aria-pressed": "true" }, "The play made");
    const bestButton = h("button", { type: "button", testid: "review-show-best", "aria-pressed": "false" }, "The best play");
    const back = h("button", { type: "button", testid: "review-back" }, "Back to the game");
    playedButton.addEventListener("click", () => this.showPlay("played"));
    bestButton.addEventListener("click", () => this.showPlay("best"));
    back.addEventListener("click", () => this.closeDetail());
    this.detail.replaceChildren(
      h("p", { testid: "review-detail-text" }, `Game ${decision.game}, move ${decision.move}, ${decision.player}. ${what}: played ${decision.played || "no move"}; best ${decision.best || "no move"}.${judged}`),
      onBoard ? h("div", { class: "hint-row", role: "group", "aria-label": "Show on the board" }, playedButton, bestButton, back) : h("div", {}, back),
    );
    this.detail.hidden = false;
  }

  private showPlay(which: "played" | "best"): void {
    const board = this.plays[which];
    this.detail.querySelector('[data-testid="review-show-played"]')?.setAttribute("aria-pressed", which === "played" ? "true" : "false");
    this.detail.querySelector('[data-testid="review-show-best"]')?.setAttribute("aria-pressed", which === "best" ? "true" : "false");
    if (board) this.options.showBoard(board);
  }

  private closeDetail(): void {
    this.detail.hidden = true;
    this.detail.replaceChildren();
    this.options.showBoard(null);
  }
}

/** The equity panel: a line through a dot per decision, its scale the whole equities (at least
 *  1 each way, so a larger one is never cut off), marked on the left. */
function equityPanel(points: GraphPoint[], width: number): string {
  const top = Math.max(1, Math.ceil(Math.max(0, ...points.map((p) => Math.abs(p.equity)))));
  const middle = EQUITY_HEIGHT / 2;
  const y = (equity: number) => (middle - (equity / top) * (middle - 4)).toFixed(2);
  const x = (index: number) => ((index + 0.5) * width).toFixed(2);
  const dots = points.map((p) => `<circle class="review-equity-point" data-index="${p.index}" cx="${x(p.index)}" cy="${y(p.equity)}" r="2"/>`);
  const line = points.map((p) => `${x(p.index)},${y(p.equity)}`).join(" ");
  const scale = [top, 0, -top].map(
    (equity) => `<text class="review-graph-scale" x="-3" y="${y(equity)}">${equity > 0 ? "+" : equity < 0 ? "−" : ""}${Math.abs(equity)}</text>`,
  );
  return (
    `<rect class="review-graph-frame" x="0" y="0" width="${GRAPH_WIDTH}" height="${EQUITY_HEIGHT}"/>` +
    `<line class="review-axis" x1="0" x2="${GRAPH_WIDTH}" y1="${middle}" y2="${middle}"/>` +
    scale.join("") +
    (points.length ? `<polyline class="review-equity-line" points="${line}"/>` : "") +
    dots.join("") +
    `<text class="review-graph-label" x="3" y="10">Equity</text>`
  );
}
