// The game record at the table: a match's events (as ListGameEvents and WatchGame give them)
// turned into the entries of a move list, game by game (the throw for who starts, each turn's
// roll and play, cube actions, resignations, time losses), each with the board after it. A pure
// fold of the log, no DOM: the board after a play is the board before it with the play's steps
// made (board/moves.ts makes them, as it does for the player's own steps).

import { boardAfter } from "../board/moves";
import type { BoardState, Side, Variant } from "../board/model";
import { GameResult, Variant as VariantEnum } from "../gen/tavli/v1/board_pb";
import { EventKind, Seat, type FinishedGame, type Game, type GameEvent } from "../gen/tavli/v1/games_service_pb";
import { CHECKERS, pipCount, toStep, usesCube, variantOf } from "./convert";
import { diceText, resultWord } from "./text";

export type EntryKind =
  | "opening"
  | "turn"
  | "double"
  | "take"
  | "drop"
  | "beaver"
  | "resign"
  | "accept"
  | "reject"
  | "time";

/** One line of the move list. Its board is seen from seat 0 ("me" is seat 0). */
export interface RecordEntry {
  /** The entry's place in MatchRecord.entries (all games, in order). */
  index: number;
  gameNumber: number;
  /** The sequence number of the last event the entry stands for. */
  sequence: bigint;
  kind: EntryKind;
  /** Who acted (for the opening throw: who starts). */
  seat: Seat;
  /** A turn: the dice rolled; the opening throw: seat 0's die, then seat 1's. */
  dice: number[];
  /** A turn: whether its play has been made (a roll waiting for its play has not). */
  played: boolean;
  /** A turn's play in notation ("" when the roll could not be played). */
  notation: string;
  /** A turn played by the server because it was forced. */
  forced: boolean;
  /** The opening throw: how many ties came before it. A resignation: what was offered. */
  ties: number;
  offered: GameResult;
  /** The board after the entry, from seat 0's side. */
  board: BoardState;
}

export interface RecordGame {
  number: number;
  entries: RecordEntry[];
}

export interface MatchRecord {
  games: RecordGame[];
  /** Every entry of every game, in order. */
  entries: RecordEntry[];
}

/** What the fold needs of the rules: the variant, and whether opening ties double the cube. */
export interface RecordRules {
  variant: Variant;
  /** A tavli match's games in turn (game k plays rotation[(k - 1) % 3]); absent: every game is
   *  `variant`. */
  rotation?: Variant[];
  usesCube: boolean;
  /** Automatic doubles on opening ties (0: none), and the cube's highest value (0: none). */
  automaticDoubles: number;
  cubeLimit: number;
}

const START: Record<Variant, Record<number, number>> = {
  backgammon: { 24: 2, 13: 5, 8: 3, 6: 5 },
  "long-nardi": { 24: 15 },
  plakoto: { 24: 15 },
  fevga: { 24: 15 },
};

/** The variant game `number` (from 1) of the match is played in. */
export function variantOfGame(rules: RecordRules, number: number): Variant {
  return rules.rotation ? rules.rotation[(number - 1) % rules.rotation.length] : rules.variant;
}

/** The board at the start of game `number` (from 1), from seat 0's side. */
export function startBoard(rules: RecordRules, number = 1): BoardState {
  const variant = variantOfGame(rules, number);
  const side = () => {
    const points = Array.from({ length: 24 }, (_, i) => START[variant][i + 1] ?? 0);
    return { points, bar: 0, off: 0 };
  };
  const me = side();
  const them = side();
  return {
    variant,
    me,
    them,
    dice: [],
    diceSide: null,
    cube: rules.usesCube ? { value: 1, owner: null } : null,
    pips: { me: pipCount(me), them: pipCount(them) },
  };
}

/** Seat 0 is "me" on a record's board. */
function sideOfSeat(seat: Seat): Side {
  return seat === Seat.SEAT_1 ? "them" : "me";
}

/** The board with the sides swapped, so that `seat` is "me" (and back again). */
function fromSeat(board: BoardState, seat: Seat): BoardState {
  if (seat !== Seat.SEAT_1) {
    return board;
  }
  const flip = (side: Side | null): Side | null => (side === null ? null : side === "me" ? "them" : "me");
  return {
    ...board,
    me: board.them,
    them: board.me,
    diceSide: flip(board.diceSide),
    cube: board.cube ? { ...board.cube, owner: flip(board.cube.owner) } : null,
    pips: { me: board.pips.them, them: board.pips.me },
    arrows: board.arrows ? { ...board.arrows, side: flip(board.arrows.side) ?? "me" } : board.arrows,
  };
}

/** The checkers of a board as one string, "me" then "them", each its 24 points from its own
 *  1-point, its bar and its off ("2,0,…/0/0|…"): the board's data-checkers attribute. */
export function checkersKey(board: BoardState): string {
  const side = (checkers: BoardState["me"]) => `${checkers.points.join(",")}/${checkers.bar}/${checkers.off}`;
  return `${side(board.me)}|${side(board.them)}`;
}

/** A record's board (seat 0's side) as the page's seat sees it. */
export function boardForSeat(board: BoardState, seat: Seat): BoardState {
  return fromSeat(board, seat);
}

/** The board after `seat` made `steps` (in its own numbering), dice and cube as they were. */
function afterSteps(board: BoardState, seat: Seat, steps: GameEvent["steps"]): BoardState {
  const moved = boardAfter(fromSeat(board, seat), steps.map(toStep));
  return fromSeat({ ...moved, dice: [], diceSide: null }, seat);
}

function withCube(board: BoardState, value: number, owner: Seat | null): BoardState {
  return board.cube ? { ...board, cube: { value, owner: owner === null ? null : sideOfSeat(owner) } } : board;
}

/** The entries of a match's events, in order; events past the log's end may come later. */
export function matchRecord(events: readonly GameEvent[], rules: RecordRules): MatchRecord {
  const games: RecordGame[] = [];
  const entries: RecordEntry[] = [];
  let board = startBoard(rules);
  let game: RecordGame | null = null;
  let gameOver = true;
  let cube = 1;
  let owner: Seat | null = null;
  // The dice the next play plays: a roll's, or the opening throw's when the starter plays them.
  let dice: number[] = [];
  let turn: RecordEntry | null = null;

  const add = (event: GameEvent, kind: EntryKind, fields: Partial<RecordEntry> = {}): RecordEntry => {
    if (game === null || gameOver) {
      game = { number: games.length + 1, entries: [] };
      games.push(game);
      board = startBoard(rules, game.number);
      gameOver = false;
      cube = 1;
      owner = null;
      dice = [];
    }
    const entry: RecordEntry = {
      index: entries.length,
      gameNumber: game.number,
      sequence: event.sequence,
      kind,
      seat: event.seat,
      dice: [],
      played: false,
      notation: "",
      forced: false,
      ties: 0,
      offered: GameResult.UNSPECIFIED,
      board,
      ...fields,
    };
    game.entries.push(entry);
    entries.push(entry);
    return entry;
  };

  for (const event of events) {
    switch (event.kind) {
      case EventKind.OPENING_THROW: {
        const last = event.openingThrows[event.openingThrows.length - 1];
        if (!last) break;
        const starter = last.seat0Die > last.seat1Die ? Seat.SEAT_0 : Seat.SEAT_1;
        const entry = add(event, "opening", {
          seat: starter,
          dice: [last.seat0Die, last.seat1Die],
          ties: event.openingThrows.length - 1,
        });
        for (let tie = 0; tie < entry.ties; tie++) {
          if (rules.automaticDoubles > tie && (rules.cubeLimit === 0 || cube * 2 <= rules.cubeLimit)) cube *= 2;
        }
        dice = starter === Seat.SEAT_0 ? [last.seat0Die, last.seat1Die] : [last.seat1Die, last.seat0Die];
        board = withCube({ ...board, dice: [...dice], diceSide: sideOfSeat(starter) }, cube, owner);
        entry.board = board;
        turn = null;
        break;
      }
      case EventKind.ROLL: {
        dice = [...event.dice];
        board = { ...board, dice: [...dice], diceSide: sideOfSeat(event.seat) };
        turn = add(event, "turn", { dice: [...dice], board });
        break;
      }
      case EventKind.PLAY: {
        if (turn === null || turn.seat !== event.seat || turn.played) {
          // The starter plays the opening throw's dice: its turn has no roll of its own.
          turn = add(event, "turn", { dice: [...dice] });
        }
        const moved = afterSteps(board, event.seat, event.steps);
        board = withCube({ ...moved, dice: turn.dice, diceSide: sideOfSeat(event.seat) }, cube, owner);
        Object.assign(turn, { sequence: event.sequence, played: true, notation: event.notation, forced: event.forced, board });
        const mover = event.seat === Seat.SEAT_1 ? board.them : board.me;
        gameOver = mover.off >= CHECKERS;
        turn = null;
        break;
      }
      case EventKind.DOUBLE:
        board = { ...board, dice: [], diceSide: null };
        add(event, "double", { board });
        break;
      case EventKind.TAKE:
        cube *= 2;
        owner = event.seat;
        board = withCube(board, cube, owner);
        add(event, "take", { board });
        break;
      case EventKind.BEAVER:
        cube *= 4;
        owner = event.seat;
        board = withCube(board, cube, owner);
        add(event, "beaver", { board });
        break;
      case EventKind.DROP:
        add(event, "drop");
        gameOver = true;
        break;
      case EventKind.RESIGN:
        add(event, "resign", { offered: event.resignationResult });
        break;
      case EventKind.ACCEPT:
        add(event, "accept");
        gameOver = true;
        break;
      case EventKind.REJECT:
        add(event, "reject");
        break;
      case EventKind.TIME_RAN_OUT:
        add(event, "time");
        gameOver = true;
        break;
      default:
        break; // the dice's commitments and seeds are not moves
    }
  }
  return { games, entries };
}

/** The fold's rules from a Game's rule set (defaults filled in by the server). */
export function recordRules(game: Game): RecordRules {
  const rules = game.ruleSet;
  return {
    variant: variantOf(rules?.variant ?? VariantEnum.BACKGAMMON),
    rotation: rules?.variant === VariantEnum.TAVLI ? ["backgammon", "plakoto", "fevga"] : undefined,
    usesCube: usesCube(game),
    automaticDoubles: rules?.automaticDoubles ? (rules.automaticDoublesLimit ?? 1) : 0,
    cubeLimit: rules?.cubeLimit ?? 0,
  };
}

/** An entry in words, for the move list: who is given by `name` (a player's name, or "You"). */
export function entryText(entry: RecordEntry, name: (seat: Seat) => string): string {
  const who = name(entry.seat);
  // "You take", "Anna takes".
  const does = (verb: string, third = `${verb}s`) => `${who} ${who === "You" ? verb : third}`;
  const cube = entry.board.cube?.value ?? 1;
  switch (entry.kind) {
    case "opening": {
      const ties = entry.ties === 0 ? "" : ` after ${entry.ties} tie${entry.ties === 1 ? "" : "s"}`;
      const starts = who === "You" ? "you start" : `${who} starts`;
      return `Throw for who starts: ${name(Seat.SEAT_0)} ${entry.dice[0]}, ${name(Seat.SEAT_1)} ${entry.dice[1]}${ties}; ${starts}`;
    }
    case "turn": {
      const play = !entry.played ? "…" : entry.notation || "no move";
      return `${who} ${diceText(entry.dice)}: ${play}${entry.forced ? " (forced)" : ""}`;
    }
    case "double":
      return `${does("double")} to ${cube * 2}`;
    case "take":
      return `${does("take")} (cube at ${cube})`;
    case "beaver":
      return `${does("beaver")} (cube at ${cube})`;
    case "drop":
      return does("drop");
    case "resign":
      return `${does("offer")} to resign a ${resultWord(entry.offered)}`;
    case "accept":
      return `${does("accept")} the resignation`;
    case "reject":
      return `${does("reject")} the resignation`;
    case "time":
      return `${does("run")} out of time`;
  }
}

/** A turn as a move list's column writes it, under its player's name: "6-3: 8/2 3/off". */
export function turnText(entry: RecordEntry): string {
  const play = !entry.played ? "…" : entry.notation || "no move";
  return `${diceText(entry.dice)}: ${play}${entry.forced ? " (forced)" : ""}`;
}

/** A row of the move list: a numbered pair of turns (seat 0's, then seat 1's; either may be
 *  missing), or a line of its own for anything else (the throw for who starts, cube actions,
 *  resignations, a loss on time). */
export type MoveRow =
  | { kind: "turns"; number: number; seat0: RecordEntry | null; seat1: RecordEntry | null }
  | { kind: "line"; entry: RecordEntry };

/** A game's entries as the rows of a two-column move list, numbered as players number moves. */
export function moveRows(entries: readonly RecordEntry[]): MoveRow[] {
  const rows: MoveRow[] = [];
  let open: Extract<MoveRow, { kind: "turns" }> | null = null;
  let number = 0;
  for (const entry of entries) {
    if (entry.kind !== "turn") {
      rows.push({ kind: "line", entry });
      open = null;
      continue;
    }
    if (entry.seat === Seat.SEAT_1 && open !== null && open.seat1 === null) {
      open.seat1 = entry;
      open = null;
      continue;
    }
    number += 1;
    const row: Extract<MoveRow, { kind: "turns" }> = { kind: "turns", number, seat0: null, seat1: null };
    if (entry.seat === Seat.SEAT_1) {
      row.seat1 = entry;
      open = null;
    } else {
      row.seat0 = entry;
      open = row;
    }
    rows.push(row);
  }
  return rows;
}

/** How a finished game ended, as the move list closes it: "Anna wins a gammon: 2 points". */
export function gameResultText(finished: FinishedGame, name: (seat: Seat) => string): string {
  const points = `${finished.points} point${finished.points === 1 ? "" : "s"}`;
  return `${name(finished.winner)} ${name(finished.winner) === "You" ? "win" : "wins"} a ${resultWord(finished.result)}: ${points}`;
}
