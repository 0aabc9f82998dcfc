// What the page shows in place of a game it cannot show: one plain message (no game of that
// name, or a link whose seat token holds no seat of it) and the way home.

import { Code, ConnectError, refusalText } from "./api";
import { h } from "./dom";
import { formatRoute, gameId } from "./routes";

/** The message in words for a game that cannot be shown, from the server's refusal. */
export function unavailableText(name: string, error: unknown, seatLink: boolean): string {
  const id = gameId(name);
  if (error instanceof ConnectError) {
    if (error.code === Code.NotFound) {
      return `There is no game "${id}" on this server. Check the link, or start a new game.`;
    }
    if (seatLink && (error.code === Code.PermissionDenied || error.code === Code.InvalidArgument)) {
      return `This link holds no seat of game "${id}": its seat token is not one of this game's. Ask for the link again, or watch the game.`;
    }
  }
  return `Game "${id}" cannot be shown: ${refusalText(error)}`;
}

export function unavailableScreen(root: HTMLElement, name: string, error: unknown, options: { seatLink: boolean }): void {
  const missing = error instanceof ConnectError && error.code === Code.NotFound;
  const ways = [h("a", { href: "#/", class: "button primary", testid: "unavailable-home" }, "Go to the home page")];
  if (!missing) {
    ways.push(h("a", { href: formatRoute({ screen: "watch", name, from: "start" }), class: "button", testid: "unavailable-watch" }, "Watch this game"));
  }
  document.title = "tavli: game not available";
  root.replaceChildren(
    h(
      "main",
      { class: "game-page" },
      h(
        "section",
        { class: "card unavailable", testid: "unavailable", role: "alert", "aria-labelledby": "unavailable-title" },
        h("h1", { id: "unavailable-title" }, missing ? "Game not found" : "This game cannot be shown"),
        h("p", { testid: "unavailable-text" }, unavailableText(name, error, options.seatLink)),
        h("div", { class: "actions" }, ...ways),
      ),
    ),
  );
}
