// The home screen: play against the computer (the tab it opens on, one Start button in view), open
// a table for two, or watch a game; the board's preferences in the masthead.

import { Variant } from "../gen/tavli/v1/board_pb";

/** A rule set's variant as the list of games names it. */
const VARIANT_TITLES: Partial<Record<Variant, string>> = {
  [Variant.BACKGAMMON]: "Backgammon",
  [Variant.LONG_NARDI]: "Long nardi",
  [Variant.PLAKOTO]: "Plakoto",
  [Variant.FEVGA]: "Fevga",
  [Variant.TAVLI]: "Tavli match",
};
import { Seat, type Game } from "../gen/tavli/v1/games_service_pb";
import { getApi, newRequestId, refusalText } from "./api";
import { playerName } from "./convert";
import { field, h, setText } from "./dom";
import "./home.css";
import { preferencesMenu } from "./preferences-menu";
import { formatRoute, gameId, seatUrl } from "./routes";
import { buildSettingsForm, botLabel } from "./settings-form";
import { loadSettings, saveSettings, toRuleSet, type Settings } from "./settings";
import { buildTabs } from "./tabs";
import { startComputerGame } from "./computer-game";
import { phaseName } from "./text";
import type { Screen } from "./screen";

const GAMES_PAGE = 20;

export function homeScreen(root: HTMLElement, navigate: (hash: string) => void): Screen {
  const api = getApi();
  const controller = new AbortController();
  document.title = "tavli: backgammon, long nardi and the Greek games";

  // --- play against the computer ---
  const computer = buildSettingsForm("", loadSettings("computer"), true);
  const computerAlert = h("p", { class: "alert", role: "alert", testid: "computer-error" });
  const startButton = h("button", { type: "submit", testid: "start-computer-game", class: "primary start" }, "Start the game");
  const computerForm = h(
    "form",
    { testid: "computer-form", class: "card", "aria-label": "Play against the computer" },
    computer.basics,
    h("div", { class: "actions" }, startButton),
    computerAlert,
    computer.rules,
  );
  computer.onChange(() => saveSettings("computer", computer.read()));

  // The page's own words, where the field's limit stops the form before it is sent.
  computerForm.addEventListener("invalid", () => setText(computerAlert, computer.refusal()), true);
  computerForm.addEventListener("submit", (event) => {
    event.preventDefault();
    void startAgainstTheComputer();
  });

  async function startAgainstTheComputer(): Promise<void> {
    const settings = computer.read();
    saveSettings("computer", settings);
    setText(computerAlert, computer.refusal());
    if (computer.refusal()) {
      return;
    }
    startButton.disabled = true;
    setText(startButton, "Starting…");
    try {
      const page = await startComputerGame(
        api,
        {
          ruleSet: toRuleSet(settings),
          seat0Player: { displayName: settings.name || "Guest" },
          seat1Player: { displayName: `Computer (${botLabel(settings.bot)})`, playerId: `bot:${settings.bot}` },
          computerSeat: Seat.SEAT_1,
          bot: settings.bot,
        },
        controller.signal,
      );
      navigate(page);
    } catch (error) {
      if (!controller.signal.aborted) {
        setText(computerAlert, refusalText(error));
      }
    } finally {
      startButton.disabled = false;
      setText(startButton, "Start the game");
    }
  }

  api.bots
    .listBots({}, { signal: controller.signal })
    .then((answer) => computer.setBots(answer.bots, answer.maxMatchLength))
    .catch((error) => {
      if (!controller.signal.aborted) {
        setText(computerAlert, `The computer opponents could not be listed: ${refusalText(error)}`);
      }
    });

  // --- a table for two ---
  const table = buildSettingsForm("table-", loadSettings("table"), false);
  const opponentName = h("input", { type: "text", id: "table-opponent-name", maxlength: 64, testid: "table-setting-opponent-name" });
  const allowHints = h("input", { type: "checkbox", id: "table-hints", testid: "table-setting-hints" });
  const tableAlert = h("p", { class: "alert", role: "alert", testid: "table-error" });
  const createButton = h("button", { type: "submit", testid: "create-table", class: "primary" }, "Create the table");
  const shareLink = h("input", { type: "text", readonly: true, id: "share-link", testid: "share-link", class: "share" });
  const copyButton = h("button", { type: "button", testid: "copy-link" }, "Copy");
  const copyNote = h("span", { class: "note", "aria-live": "polite" });
  const openMySeat = h("a", { testid: "open-my-seat", class: "button primary", href: "#/" }, "Take my seat");
  const shareBox = h(
    "div",
    { class: "share-box", hidden: true },
    h("label", { for: "share-link" }, "Send this link to the other player (it lets them play the other seat):"),
    h("div", { class: "share-row" }, shareLink, copyButton),
    copyNote,
    h("p", {}, openMySeat),
  );
  const tableForm = h(
    "form",
    { testid: "table-form", class: "card", "aria-label": "A table for two" },
    table.basics,
    field("The other player's name (optional)", opponentName),
    h(
      "div",
      { class: "field check" },
      allowHints,
      h("label", { for: "table-hints" }, "Allow hints: either player may ask GNU Backgammon for the best plays (both see this)"),
    ),
    h("div", { class: "actions" }, createButton),
    tableAlert,
    shareBox,
    table.rules,
  );
  table.onChange(() => saveSettings("table", table.read()));
  tableForm.addEventListener("submit", (event) => {
    event.preventDefault();
    void createTable(table.read());
  });
  copyButton.addEventListener("click", async () => {
    shareLink.select();
    try {
      await navigator.clipboard.writeText(shareLink.value);
      setText(copyNote, "Copied.");
    } catch {
      const copied = document.execCommand?.("copy");
      setText(copyNote, copied ? "Copied." : "Select the link and copy it.");
    }
  });

  async function createTable(settings: Settings): Promise<void> {
    saveSettings("table", settings);
    setText(tableAlert, "");
    createButton.disabled = true;
    try {
      const created = await api.games.createGame(
        {
          ruleSet: toRuleSet(settings),
          requestId: newRequestId(),
          seat0Player: { displayName: settings.name || "Seat 0" },
          seat1Player: { displayName: opponentName.value.trim() || "Seat 1" },
          hintsAllowed: allowHints.checked,
        },
        { signal: controller.signal },
      );
      const name = created.game?.name ?? "";
      shareLink.value = seatUrl(location.origin, name, created.seat1Token);
      openMySeat.href = formatRoute({ screen: "game", name, token: created.seat0Token });
      shareBox.hidden = false;
      setText(copyNote, "");
    } catch (error) {
      if (!controller.signal.aborted) {
        setText(tableAlert, refusalText(error));
      }
    } finally {
      createButton.disabled = false;
    }
  }

  // --- watch ---
  const watchName = h("input", { type: "text", id: "watch-name", testid: "watch-name", placeholder: "games/…", autocomplete: "off" });
  const watchFrom = h(
    "select",
    { id: "watch-from", testid: "watch-from" },
    h("option", { value: "now" }, "From now"),
    h("option", { value: "start" }, "From the start (replay)"),
  );
  const watchButton = h("button", { type: "submit", testid: "watch-button", class: "primary" }, "Watch");
  const gamesList = h("ul", { testid: "games-list", class: "games-list", "aria-label": "Games on this server, newest first" });
  const gamesNote = h("p", { class: "note", "aria-live": "polite" });
  const moreButton = h("button", { type: "button", testid: "games-more", hidden: true }, "More games");
  const refreshButton = h("button", { type: "button", testid: "games-refresh" }, "Refresh");
  const watchForm = h(
    "form",
    { testid: "watch-form", class: "card", "aria-label": "Watch a game" },
    h(
      "div",
      { class: "watch-row" },
      field("Game name", watchName),
      field("Show", watchFrom),
      h("div", { class: "actions" }, watchButton),
    ),
    h("h2", {}, "Games"),
    gamesList,
    gamesNote,
    h("div", { class: "actions" }, moreButton, refreshButton),
  );
  watchForm.addEventListener("submit", (event) => {
    event.preventDefault();
    const name = watchName.value.trim();
    if (!name) {
      watchName.focus();
      return;
    }
    navigate(formatRoute({ screen: "watch", name, from: watchFrom.value === "start" ? "start" : "now" }));
  });

  let nextPage = "";
  async function listGames(reset: boolean): Promise<void> {
    if (reset) {
      nextPage = "";
    }
    setText(gamesNote, "Loading the games…");
    try {
      const answer = await api.games.listGames({ pageSize: GAMES_PAGE, pageToken: nextPage }, { signal: controller.signal });
      const entries = answer.games.map((game) => h("li", {}, gameEntry(game, watchFrom.value === "start")));
      if (reset) {
        gamesList.replaceChildren(...entries);
      } else {
        gamesList.append(...entries);
      }
      nextPage = answer.nextPageToken;
      moreButton.hidden = nextPage === "";
      setText(gamesNote, gamesList.children.length === 0 ? "No games yet." : "");
    } catch (error) {
      if (!controller.signal.aborted) {
        setText(gamesNote, `The games could not be listed: ${refusalText(error)}`);
      }
    }
  }
  moreButton.addEventListener("click", () => void listGames(false));
  refreshButton.addEventListener("click", () => void listGames(true));
  watchFrom.addEventListener("change", () => {
    for (const link of gamesList.querySelectorAll<HTMLAnchorElement>("a[data-game-name]")) {
      link.href = formatRoute({ screen: "watch", name: link.dataset.gameName ?? "", from: watchFrom.value === "start" ? "start" : "now" });
    }
  });
  void listGames(true);

  const tabs = buildTabs("What to do", [
    { name: "computer", label: "Play the computer", panel: h("div", {}, computerForm) },
    { name: "table", label: "A table for two", panel: h("div", {}, tableForm) },
    { name: "watch", label: "Watch", panel: h("div", {}, watchForm) },
  ]);
  const preferences = preferencesMenu();
  root.replaceChildren(
    h(
      "main",
      { class: "home" },
      h(
        "header",
        { class: "masthead" },
        h(
          "div",
          {},
          h("h1", {}, "tavli"),
          h("p", {}, "Backgammon, long nardi, Plakoto, Fevga and the tavli match: play the computer, a friend, or watch."),
          h("p", {}, h("a", { href: formatRoute({ screen: "lobby" }), testid: "lobby-link", class: "button" }, "The lobby: play people and bots, rated")),
        ),
        preferences.element,
      ),
      tabs.element,
    ),
  );

  return {
    destroy() {
      controller.abort();
      preferences.destroy();
    },
  };
}

/** One game of the list, a link to watch it. */
function gameEntry(game: Game, fromStart: boolean): HTMLAnchorElement {
  const variant = VARIANT_TITLES[game.ruleSet?.variant ?? Variant.BACKGAMMON] ?? "Backgammon";
  const length = game.ruleSet?.matchLength ?? 0;
  const mode = length === 0 ? "money play" : `match to ${length}`;
  const players = `${playerName(game, Seat.SEAT_0)} – ${playerName(game, Seat.SEAT_1)}`;
  const score = `${game.score[0] ?? 0n}–${game.score[1] ?? 0n}`;
  const phase = phaseName(game.phase).toLowerCase().replace("_", " ");
  return h(
    "a",
    {
      testid: "game-entry",
      class: "game-entry",
      "data-game-name": game.name,
      href: formatRoute({ screen: "watch", name: game.name, from: fromStart ? "start" : "now" }),
    },
    h("span", { class: "entry-players" }, players),
    h("span", { class: "entry-meta" }, `${variant}, ${mode} · score ${score} · ${phase}`),
    h("span", { class: "entry-name" }, gameId(game.name)),
  );
}
