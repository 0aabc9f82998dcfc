// The move list beside the board: the match game by game (app/record.ts makes the entries from
// the game's events), each entry a button that shows the board after it, read-only, until the
// player goes back to the live game; first/previous/next/last buttons and the arrow keys step
// through the entries, and the match's .mat record can be downloaded. The panel takes each change
// as the game screen shows it, in order; the events a state read whole passes over (those before
// the page came) it reads with ListGameEvents, never beyond the state shown.

import "./record.css";
import { Seat, type FinishedGame, type Game, type GameEvent } from "../gen/tavli/v1/games_service_pb";
import type { Api } from "./api";
import { refusalText } from "./api";
import { playerName } from "./convert";
import { h, keepChildren, setText } from "./dom";
import {
  entryText,
  gameResultText,
  matchRecord,
  moveRows,
  recordRules,
  turnText,
  type MatchRecord,
  type RecordEntry,
  type RecordGame,
} from "./record";
import { gameId } from "./routes";

export interface RecordPanelOptions {
  api: Api;
  name: string;
  signal: AbortSignal;
  /** The seat the page plays (its entries say "You"), null for a watcher. */
  mySeat(): Seat | null;
  /** An entry was chosen (its board is to be shown), or null: back to the live game. */
  onView(entry: RecordEntry | null): void;
  /** The log was read up to `last`, an event that happened before the page saw it. */
  onHistory(last: GameEvent): void;
}

/** The .mat file's name for a game: its id, as the page's address writes it. */
export function matFileName(name: string): string {
  return `tavli-${gameId(name).replace(/[^A-Za-z0-9_-]+/g, "-")}.mat`;
}

export class RecordPanel {
  readonly element: HTMLElement;
  private readonly list = h("div", { testid: "record-list", class: "record-list" });
  private readonly viewingNote = h("p", { testid: "record-viewing", class: "record-viewing", "aria-live": "polite" });
  private readonly liveButton = h("button", { type: "button", testid: "record-live", class: "primary" }, "Back to the game");
  private readonly firstButton = navButton("record-first", "|◀", "First position");
  private readonly previousButton = navButton("record-previous", "◀", "Previous position");
  private readonly nextButton = navButton("record-next", "▶", "Next position");
  private readonly lastButton = navButton("record-last", "▶|", "Last position");
  private readonly downloadButton = h("button", { type: "button", testid: "record-download" }, "Download .mat");
  private readonly downloadNote = h("p", { testid: "record-download-note", class: "note", role: "status" });
  private events: GameEvent[] = [];
  private game: Game | null = null;
  private record: MatchRecord = { games: [], entries: [] };
  private viewing: number | null = null;
  private loading = false;
  /** Each game's part of the list as last drawn, by the game's number, with what it showed: a
   *  change draws again only the games it changed (most often the game in play alone). */
  private readonly drawn = new Map<number, { shows: string; section: HTMLElement }>();
  private readonly noMoves = h("p", { class: "note" }, "No moves yet.");
  private following = false;

  constructor(private readonly options: RecordPanelOptions) {
    const nav = h(
      "div",
      { class: "record-nav", role: "group", "aria-label": "Step through the positions" },
      this.firstButton,
      this.previousButton,
      this.nextButton,
      this.lastButton,
    );
    this.element = h(
      "section",
      { testid: "record", class: "record", "aria-label": "Moves" },
      h("h2", { class: "record-title" }, "Moves"),
      nav,
      this.viewingNote,
      this.liveButton,
      this.list,
      h("div", { class: "record-files" }, this.downloadButton),
      this.downloadNote,
    );
    this.firstButton.addEventListener("click", () => this.view(0));
    this.previousButton.addEventListener("click", () => this.step(-1));
    this.nextButton.addEventListener("click", () => this.step(1));
    this.lastButton.addEventListener("click", () => this.view(this.record.entries.length - 1));
    this.liveButton.addEventListener("click", () => this.view(null));
    this.downloadButton.addEventListener("click", () => void this.download());
    this.render();
  }

  /** The match as the page's record has it so far. */
  get match(): MatchRecord {
    return this.record;
  }

  /** The entry shown on the board, or null while the board shows the live game. */
  get viewed(): RecordEntry | null {
    return this.viewing === null ? null : (this.record.entries[this.viewing] ?? null);
  }

  /** A new state of the game as the page shows it, with the event that made it when there is one. */
  update(game: Game, event?: GameEvent): void {
    this.game = game;
    const known = this.events.length;
    if (event && event.sequence === BigInt(known)) {
      this.events.push(event);
    }
    if (BigInt(this.events.length) < game.eventCount) {
      void this.catchUp();
    }
    if (this.events.length === known) {
      this.render();
    } else {
      this.rebuild();
    }
  }

  /** The arrow keys step, Home and End go to the first and last entry, Escape back to the game;
   *  true when the key was the panel's. */
  onKey(event: KeyboardEvent): boolean {
    const count = this.record.entries.length;
    if (count === 0) {
      return false;
    }
    switch (event.key) {
      case "ArrowLeft":
        this.step(-1);
        return true;
      case "ArrowRight":
        this.step(1);
        return true;
      case "Home":
        this.view(0);
        return true;
      case "End":
        this.view(count - 1);
        return true;
      case "Escape":
        if (this.viewing === null) {
          return false;
        }
        this.view(null);
        return true;
      default:
        return false;
    }
  }

  /** Shows entry `index` (clamped to the list), or the live game for null. */
  view(index: number | null): void {
    const count = this.record.entries.length;
    const next = index === null || count === 0 ? null : Math.max(0, Math.min(count - 1, index));
    this.viewing = next;
    this.render();
    this.options.onView(this.viewed);
    if (next !== null) {
      this.list.querySelector(`[data-index="${next}"]`)?.scrollIntoView({ block: "nearest" });
    }
  }

  private step(delta: number): void {
    const count = this.record.entries.length;
    if (count === 0) {
      return;
    }
    // From the live game, a step back shows the entry before the last (the last is the board now).
    const from = this.viewing ?? count - 1;
    this.view(from + delta);
  }

  /** Reads the events the panel has not seen, a page at a time. */
  private async catchUp(): Promise<void> {
    if (this.loading) {
      return;
    }
    this.loading = true;
    try {
      while (this.game && BigInt(this.events.length) < this.game.eventCount && !this.options.signal.aborted) {
        const read: GameEvent[] = [];
        let pageToken = "";
        do {
          const answer = await this.options.api.games.listGameEvents(
            { name: this.options.name, pageSize: 1000, pageToken },
            { signal: this.options.signal },
          );
          read.push(...answer.events);
          pageToken = answer.nextPageToken;
        } while (pageToken);
        // What the board has not shown yet is not in the list yet: it comes with its change.
        const shown = read.slice(0, Number(this.game?.eventCount ?? 0n));
        if (shown.length <= this.events.length) {
          break;
        }
        this.events = shown;
        this.rebuild();
        this.options.onHistory(shown[shown.length - 1]);
      }
    } catch {
      // The live events still come; the list is read again with the next one.
    } finally {
      this.loading = false;
    }
  }

  private rebuild(): void {
    const game = this.game;
    if (!game) {
      return;
    }
    this.record = matchRecord(this.events, recordRules(game));
    this.render();
  }

  private name(seat: Seat): string {
    const game = this.game;
    if (!game) {
      return "";
    }
    return seat === this.options.mySeat() ? "You" : playerName(game, seat);
  }

  private render(): void {
    const name = (seat: Seat) => this.name(seat);
    const games = this.record.games;
    const sections = games.map((recorded) => this.section(recorded, name));
    for (const number of this.drawn.keys()) {
      if (number > games.length) {
        this.drawn.delete(number);
      }
    }
    if (keepChildren(this.list, sections.length ? sections : [this.noMoves])) {
      this.followLatest();
    }
    const entries = this.record.entries;
    const viewed = this.viewed;
    const last = entries.length - 1;
    this.firstButton.disabled = entries.length === 0 || this.viewing === 0;
    this.previousButton.disabled = entries.length === 0 || this.viewing === 0;
    this.nextButton.disabled = this.viewing === null || this.viewing >= last;
    this.lastButton.disabled = this.viewing === null || this.viewing >= last;
    this.liveButton.hidden = viewed === null;
    this.element.setAttribute("data-viewing", viewed === null ? "" : String(viewed.sequence));
    setText(
      this.viewingNote,
      viewed === null ? "" : `Showing game ${viewed.gameNumber}, after: ${entryText(viewed, name)}. The board is read-only.`,
    );
  }

  /** While the live game is shown, its latest moves are kept in view: scrolled to when the page is
   *  next drawn, once it is laid out anyway (its height read now would lay the page out twice). */
  private followLatest(): void {
    if (this.following) {
      return;
    }
    this.following = true;
    requestAnimationFrame(() => {
      this.following = false;
      if (this.viewing === null) {
        this.list.scrollTop = this.list.scrollHeight;
      }
    });
  }

  /** Game `recorded`'s part of the list: the one drawn last, unless what it shows has changed. */
  private section(recorded: RecordGame, name: (seat: Seat) => string): HTMLElement {
    const finished = this.game?.finishedGames.find((f) => f.gameNumber === recorded.number);
    const entries = recorded.entries;
    const first = entries[0]?.index ?? 0;
    const viewing = this.viewing !== null && this.viewing >= first && this.viewing < first + entries.length ? this.viewing : -1;
    // A change to an entry comes with an event, and the entry then stands for it: the latest
    // event of the game's entries and their count say whether any entry changed.
    const latest = entries.reduce((most, entry) => (entry.sequence > most ? entry.sequence : most), -1n);
    const result = finished ? gameResultText(finished, name) : "";
    const shows = [entries.length, latest, viewing, result, name(Seat.SEAT_0), name(Seat.SEAT_1)].join("|");
    const drawn = this.drawn.get(recorded.number);
    if (drawn?.shows === shows) {
      return drawn.section;
    }
    const section = this.drawSection(recorded, finished, name);
    this.drawn.set(recorded.number, { shows, section });
    return section;
  }

  private drawSection(recorded: RecordGame, finished: FinishedGame | undefined, name: (seat: Seat) => string): HTMLElement {
    const button = (entry: RecordEntry, text: string) =>
      h(
        "button",
        {
          type: "button",
          class: "record-entry",
          testid: "record-entry",
          "data-index": entry.index,
          "data-sequence": String(entry.sequence),
          "data-game": entry.gameNumber,
          "data-kind": entry.kind,
          "aria-label": entryText(entry, name),
          "aria-current": entry.index === this.viewing ? "true" : undefined,
          onclick: () => this.view(entry.index),
        },
        text,
      );
    const cell = (entry: RecordEntry | null) => h("td", {}, entry ? button(entry, turnText(entry)) : "");
    const rows = moveRows(recorded.entries).map((row) =>
      row.kind === "turns"
        ? h("tr", {}, h("th", { scope: "row", class: "record-number" }, `${row.number}.`), cell(row.seat0), cell(row.seat1))
        : h("tr", {}, h("td", { colspan: 3 }, button(row.entry, entryText(row.entry, name)))),
    );
    if (finished) {
      rows.push(h("tr", {}, h("td", { colspan: 3, class: "record-result", testid: "record-result", "data-game": recorded.number }, gameResultText(finished, name))));
    }
    return h(
      "section",
      { class: "record-game", testid: "record-game", "data-game": recorded.number, "aria-label": `Game ${recorded.number}` },
      h(
        "table",
        {},
        h("caption", {}, `Game ${recorded.number}`),
        h("thead", {}, h("tr", {}, h("th", { scope: "col" }, h("span", { class: "visually-hidden" }, "Move")), h("th", { scope: "col" }, name(Seat.SEAT_0)), h("th", { scope: "col" }, name(Seat.SEAT_1)))),
        h("tbody", {}, ...rows),
      ),
    );
  }

  /** Saves the match's .mat record (ExportMatch) as a file named after the game. */
  private async download(): Promise<void> {
    setText(this.downloadNote, "");
    try {
      const answer = await this.options.api.games.exportMatch({ name: this.options.name }, { signal: this.options.signal });
      const url = URL.createObjectURL(new Blob([answer.mat], { type: "text/plain;charset=utf-8" }));
      const link = h("a", { href: url, download: matFileName(this.options.name), hidden: true });
      document.body.append(link);
      link.click();
      link.remove();
      setTimeout(() => URL.revokeObjectURL(url), 10_000);
    } catch (error) {
      if (!this.options.signal.aborted) {
        setText(this.downloadNote, `The record cannot be downloaded: ${refusalText(error)}`);
      }
    }
  }
}

function navButton(testid: string, symbol: string, label: string): HTMLButtonElement {
  return h("button", { type: "button", testid, class: "record-step", "aria-label": label, title: label }, symbol);
}
