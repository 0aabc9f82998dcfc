import { Code, ConnectError } from "@connectrpc/connect";
import { describe, expect, it } from "vitest";
import { unavailableText } from "./unavailable";

describe("the one message for a game that cannot be shown", () => {
  it("a game that does not exist", () => {
    const error = new ConnectError("game games/abc does not exist", Code.NotFound);
    expect(unavailableText("games/abc", error, true)).toBe('There is no game "abc" on this server. Check the link, or start a new game.');
  });

  it("a link whose token holds no seat", () => {
    const error = new ConnectError("that seat token is not one of this game's", Code.PermissionDenied);
    expect(unavailableText("games/abc", error, true)).toBe(
      `This link holds no seat of game "abc": its seat token is not one of this game's. Ask for the link again, or watch the game.`,
    );
  });

  it("anything else in the server's words", () => {
    const error = new ConnectError("the game store cannot be used now", Code.Unavailable);
    expect(unavailableText("games/abc", error, false)).toBe('Game "abc" cannot be shown: the game store cannot be used now');
  });
});
