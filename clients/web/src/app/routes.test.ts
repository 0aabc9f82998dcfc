import { describe, expect, it } from "vitest";
import { formatRoute, gameId, gameName, parseRoute, seatUrl } from "./routes";

describe("routes live in the fragment", () => {
  it("reads home from an empty or bare fragment", () => {
    expect(parseRoute("")).toEqual({ screen: "home" });
    expect(parseRoute("#/")).toEqual({ screen: "home" });
    expect(parseRoute("#/nowhere/at/all/x")).toEqual({ screen: "home" });
  });

  it("reads a seat of a game, by id or by whole name", () => {
    expect(parseRoute("#/game/abc123/TOKEN-_x")).toEqual({ screen: "game", name: "games/abc123", token: "TOKEN-_x" });
    expect(parseRoute("#/game/games/abc123/TOKEN")).toEqual({ screen: "game", name: "games/abc123", token: "TOKEN" });
    expect(parseRoute("#/game/games%2Fabc123/TOKEN")).toEqual({ screen: "game", name: "games/abc123", token: "TOKEN" });
  });

  it("reads a watch, from now unless the fragment asks for the start", () => {
    expect(parseRoute("#/watch/abc")).toEqual({ screen: "watch", name: "games/abc", from: "now" });
    expect(parseRoute("#/watch/abc?from=start")).toEqual({ screen: "watch", name: "games/abc", from: "start" });
    expect(parseRoute("#/watch/games/abc?from=now")).toEqual({ screen: "watch", name: "games/abc", from: "now" });
  });

  it("writes what it reads", () => {
    const routes = [
      { screen: "home" as const },
      { screen: "lobby" as const },
      { screen: "game" as const, name: "games/f00d", token: "abc_-DEF" },
      { screen: "watch" as const, name: "games/f00d", from: "start" as const },
      { screen: "watch" as const, name: "games/f00d", from: "now" as const },
    ];
    for (const route of routes) {
      expect(parseRoute(formatRoute(route))).toEqual(route);
    }
  });

  it("keeps the token out of the query: a seat's address has it after '#'", () => {
    const url = seatUrl("http://127.0.0.1:8999", "games/f00d", "SECRET");
    expect(url).toBe("http://127.0.0.1:8999/#/game/f00d/SECRET");
    expect(new URL(url).search).toBe("");
    expect(new URL(url).hash).toContain("SECRET");
  });

  it("names games both ways", () => {
    expect(gameId("games/x1")).toBe("x1");
    expect(gameId("x1")).toBe("x1");
    expect(gameName("x1")).toBe("games/x1");
    expect(gameName("games/x1")).toBe("games/x1");
  });
});
