// The post-game review: AnalyzeMatch's stream folded into what the review shows (its progress,
// every decision with its mark, both players' statistics), the marks players know, the graph's
// points, and the board a decision was made on, found in the page's own record of the match. No
// DOM: review-panel.ts draws it.

import type { BoardState, Side } from "../board/model";
import {
  DecisionKind,
  type AnalyzeMatchResponse,
  type AnalyzedDecision,
  type PlayerStatistics,
} from "../gen/tavli/v1/analysis_service_pb";
import type { Board as BoardMessage } from "../gen/tavli/v1/board_pb";
import { startBoard, type MatchRecord, type RecordRules } from "./record";

/** GNU Backgammon's marks of an error and the least loss (EMG) each takes, worst first: its own
 *  defaults for a very bad, a bad and a doubtful decision (its `show analysis`). */
export const ERROR_MARKS = [
  { mark: "??", words: "very bad (a blunder)", least: 0.12 },
  { mark: "?", words: "bad", least: 0.06 },
  { mark: "?!", words: "doubtful", least: 0.03 },
] as const;

export type ErrorMark = (typeof ERROR_MARKS)[number] | null;

/** The mark of a decision that lost `loss` (EMG), or null for one within 0.03 of the best. */
export function errorMark(loss: number): ErrorMark {
  return ERROR_MARKS.find((level) => loss >= level.least) ?? null;
}

/** What the review holds so far. */
export interface Review {
  analyzed: number;
  total: number;
  decisions: AnalyzedDecision[];
  /** Both players' statistics: the stream's last message (null until it comes). */
  players: PlayerStatistics[] | null;
}

export function emptyReview(): Review {
  return { analyzed: 0, total: 0, decisions: [], players: null };
}

/** The review with one more message of the stream. */
export function foldReview(review: Review, message: AnalyzeMatchResponse): Review {
  const item = message.item;
  switch (item.case) {
    case "progress":
      return { ...review, analyzed: item.value.analyzed, total: item.value.total };
    case "decision":
      return { ...review, decisions: [...review.decisions, item.value] };
    case "statistics":
      return { ...review, analyzed: Math.max(review.analyzed, review.total), players: item.value.players };
    default:
      return review;
  }
}

/** A decision in words for the move list: "Game 1, move 3: 6-4 24/14 ??" or a cube action. */
export function decisionText(decision: AnalyzedDecision): string {
  const mark = errorMark(decision.loss)?.mark ?? "";
  const what = decision.kind === DecisionKind.CUBE ? decision.played : `${decision.dice.join("-")} ${decision.played || "no move"}`;
  return `${decision.move}. ${decision.player}: ${what}${mark ? ` ${mark}` : ""}`;
}

/** One row of the statistics: its label, and the number of a player's statistics as shown. */
export interface StatisticRow {
  key: string;
  label: string;
  value(player: PlayerStatistics): string;
}

const rate = (n: number) => n.toFixed(1);

export const STATISTIC_ROWS: StatisticRow[] = [
  { key: "unforced_moves", label: "Unforced moves", value: (p) => String(p.unforcedMoves) },
  { key: "cube_decisions", label: "Cube decisions", value: (p) => String(p.cubeDecisions) },
  { key: "chequer_error_rate", label: "Chequer play error rate (mEMG per unforced move)", value: (p) => rate(p.chequerErrorRate) },
  { key: "cube_error_rate", label: "Cube error rate (mEMG per cube decision)", value: (p) => rate(p.cubeErrorRate) },
  { key: "error_rate", label: "Overall error rate (mEMG per decision)", value: (p) => rate(p.errorRate) },
  { key: "snowie_error_rate", label: "Snowie error rate (mEMG per move)", value: (p) => rate(p.snowieErrorRate) },
  { key: "pr", label: "PR, XG-style (500 × error per decision)", value: (p) => rate(p.pr) },
  { key: "luck_rate", label: "Luck rate (mEMG per move)", value: (p) => (p.luckRate > 0 ? "+" : "") + rate(p.luckRate) },
  { key: "rating", label: "GNU Backgammon's rating", value: (p) => p.rating },
];

/** A decision on the graph, in order: its side (0 or 1), its loss, each side's whole error so far
 *  after it, and the equity after it from the first player's side (the second's negated). */
export interface GraphPoint {
  index: number;
  side: number;
  loss: number;
  total: [number, number];
  equity: number;
}

export function graphPoints(decisions: readonly AnalyzedDecision[]): GraphPoint[] {
  const total: [number, number] = [0, 0];
  return decisions.map((decision, index) => {
    const side = decision.side === 1 ? 1 : 0;
    total[side] += decision.loss;
    const equity = side === 0 ? decision.equity : -decision.equity;
    return { index, side, loss: decision.loss, total: [total[0], total[1]], equity };
  });
}

/** The board a decision was made on, from seat 0's side, found in the page's record of the
 *  match: a roll's, before its play (with its dice); a cube action's, before the turn it comes
 *  before. Null when the record does not have that game or turn. */
export function boardOfDecision(record: MatchRecord, rules: RecordRules, decision: AnalyzedDecision): BoardState | null {
  const game = record.games[decision.game - 1];
  if (!game) return null;
  const turns = game.entries.filter((entry) => entry.kind === "turn");
  const turn = turns[decision.move - 1];
  const mover: Side = decision.side === 1 ? "them" : "me";
  if (!turn) {
    const last = game.entries[game.entries.length - 1];
    return decision.kind === DecisionKind.CUBE && last ? { ...last.board, dice: [], diceSide: null, lastPlay: null } : null;
  }
  const place = game.entries.indexOf(turn);
  const before = place > 0 ? game.entries[place - 1].board : startBoard(rules, game.number);
  const cube = decision.kind === DecisionKind.CUBE;
  return { ...before, dice: cube ? [] : [...turn.dice], diceSide: cube ? null : mover, lastPlay: null, played: [], rolled: {} };
}

/** A record's board (seat 0's side) as the API's Board from `side`'s seat: that side is the player. */
export function boardMessageFor(board: BoardState, side: Side): Pick<BoardMessage, "playerPoints" | "playerBar" | "opponentPoints" | "opponentBar"> {
  const player = side === "me" ? board.me : board.them;
  const opponent = side === "me" ? board.them : board.me;
  return { playerPoints: [...player.points], playerBar: player.bar, opponentPoints: [...opponent.points], opponentBar: opponent.bar };
}
