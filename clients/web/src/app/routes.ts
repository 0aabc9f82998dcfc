// The page's routes, kept in the URL fragment: nothing after "#" is sent to the server, so a seat's
// token in "#/game/NAME/TOKEN" never reaches the page's server (nor its logs, nor a Referer).

export type WatchFrom = "start" | "now";

export type Route =
  | { screen: "home" }
  | { screen: "lobby" }
  | { screen: "game"; name: string; token: string }
  | { screen: "watch"; name: string; from: WatchFrom };

const PREFIX = "games/";

/** The game's id as a route writes it: its resource name without "games/". */
export function gameId(name: string): string {
  return name.startsWith(PREFIX) ? name.slice(PREFIX.length) : name;
}

/** The game's resource name, "games/{game}", from an id or a name. */
export function gameName(idOrName: string): string {
  return idOrName.startsWith(PREFIX) ? idOrName : PREFIX + idOrName;
}

/** Reads a fragment ("#/game/abc/TOKEN", "#/watch/abc?from=start", "#/" or ""). */
export function parseRoute(hash: string): Route {
  let text = hash.startsWith("#") ? hash.slice(1) : hash;
  let query = "";
  const q = text.indexOf("?");
  if (q >= 0) {
    query = text.slice(q + 1);
    text = text.slice(0, q);
  }
  const parts = text.split("/").filter((part) => part !== "").map(safeDecode);
  // A name written whole ("games/abc") is taken as well as the bare id.
  if (parts.length >= 3 && parts[1] === "games") {
    parts.splice(1, 2, PREFIX + parts[2]);
  }
  if (parts[0] === "game" && parts.length === 3 && parts[1] && parts[2]) {
    return { screen: "game", name: gameName(parts[1]), token: parts[2] };
  }
  if (parts[0] === "lobby" && parts.length === 1) {
    return { screen: "lobby" };
  }
  if (parts[0] === "watch" && parts.length === 2 && parts[1]) {
    const from = new URLSearchParams(query).get("from") === "start" ? "start" : "now";
    return { screen: "watch", name: gameName(parts[1]), from };
  }
  return { screen: "home" };
}

/** The fragment of a route, "#/..." */
export function formatRoute(route: Route): string {
  switch (route.screen) {
    case "home":
      return "#/";
    case "lobby":
      return "#/lobby";
    case "game":
      return `#/game/${encodeURIComponent(gameId(route.name))}/${encodeURIComponent(route.token)}`;
    case "watch":
      return `#/watch/${encodeURIComponent(gameId(route.name))}${route.from === "start" ? "?from=start" : ""}`;
  }
}

/** The whole address of a seat of a game, for the player of that seat. */
export function seatUrl(origin: string, name: string, token: string): string {
  return `${origin}/${formatRoute({ screen: "game", name, token })}`;
}

function safeDecode(part: string): string {
  try {
    return decodeURIComponent(part);
  } catch {
    return part;
  }
}
