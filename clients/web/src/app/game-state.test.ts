import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { create, type MessageInitShape } from "@bufbuild/protobuf";
import { GameResult } from "../gen/tavli/v1/board_pb";
import { Action, EventKind, GameEventSchema, Phase, Seat, type Game, type GameEvent } from "../gen/tavli/v1/games_service_pb";
import { Code, ConnectError, type Api } from "./api";
import { backgammonGame } from "./fixtures.test-helpers";
import { GameState, type GameStateListener } from "./game-state";

// A server as the page sees it: each call is recorded, each unary method answers through a
// handler the test sets, and each WatchGame call plays the next stream the test laid out.

type Request = Record<string, unknown>;
type Handler = (request: Request) => unknown;

interface Stream {
  messages: Array<{ event: GameEvent; game: Game }>;
  /** What comes after the messages: the server ends the stream, it stays open, or it fails. */
  then: "end" | "open" | ConnectError;
}

class FakeServer {
  readonly calls: Array<{ method: string; request: Request }> = [];
  readonly handlers: Record<string, Handler> = {};
  readonly streams: Stream[] = [];

  constructor(public game: Game) {
    this.handlers.getGame = () => ({ game: this.game });
  }

  called(method: string): Request[] {
    return this.calls.filter((call) => call.method === method).map((call) => call.request);
  }

  api(): Api {
    const unary = (method: string) => async (request: Request) => {
      this.calls.push({ method, request });
      const handler = this.handlers[method];
      return handler ? handler(request) : {};
    };
    const methods = [
      "getGame",
      "listLegalActions",
      "rollDice",
      "offerDouble",
      "takeDouble",
      "dropDouble",
      "beaverDouble",
      "offerResignation",
      "acceptResignation",
      "rejectResignation",
      "playMove",
    ];
    const games: Record<string, unknown> = Object.fromEntries(methods.map((method) => [method, unary(method)]));
    games.watchGame = (request: Request, options: { signal: AbortSignal }) => {
      this.calls.push({ method: "watchGame", request });
      return this.play(this.streams.shift() ?? { messages: [], then: "open" }, options.signal);
    };
    return { games, rules: { validatePlay: unary("validatePlay") }, bots: {} } as unknown as Api;
  }

  private async *play(stream: Stream, signal: AbortSignal): AsyncGenerator<{ event: GameEvent; game: Game }> {
    for (const message of stream.messages) {
      yield message;
    }
    if (stream.then instanceof ConnectError) {
      throw stream.then;
    }
    if (stream.then === "open") {
      await new Promise<void>((resolve) => signal.addEventListener("abort", () => resolve()));
      throw new ConnectError("the call was cancelled", Code.Canceled);
    }
  }
}

class Listener implements GameStateListener {
  readonly heard: string[] = [];
  readonly lost: unknown[] = [];
  connectionText = "";
  isShowing = false;

  queued(): void {
    this.heard.push("queued");
  }
  seated(): void {
    this.heard.push("seated");
  }
  actionsRead(): void {
    this.heard.push("actionsRead");
  }
  changed(): void {
    this.heard.push("changed");
  }
  connection(text: string): void {
    this.connectionText = text;
  }
  unavailable(error: unknown): void {
    this.lost.push(error);
  }
  showing(): boolean {
    return this.isShowing;
  }
}

function event(sequence: number, init: MessageInitShape<typeof GameEventSchema>): GameEvent {
  return create(GameEventSchema, { ...init, sequence: BigInt(sequence) });
}

/** The game after `eventCount` events, its etag named after them. */
function state(eventCount: number, overrides: Parameters<typeof backgammonGame>[0] = {}): Game {
  return backgammonGame({ eventCount: BigInt(eventCount), etag: `e${eventCount}`, ...overrides });
}

const toRoll = (eventCount: number) => state(eventCount, { phase: Phase.ROLLING, turn: Seat.SEAT_0, toAct: [Seat.SEAT_0] });
const toPlay = (eventCount: number) =>
  state(eventCount, { phase: Phase.PLAYING, turn: Seat.SEAT_0, toAct: [Seat.SEAT_0], dice: [6, 1], positionId: "4HPwATDgc/ABMA" });
const theirTurn = (eventCount: number) => state(eventCount, { phase: Phase.ROLLING, turn: Seat.SEAT_1, toAct: [Seat.SEAT_1] });

const fromEightToTwo = { notation: "8/2 6/5", steps: [{ fromPoint: 8, toPoint: 2, die: 6 }, { fromPoint: 6, toPoint: 5, die: 1 }] };
const step = (from: number, to: number, die: number) => ({ from, to, die, hit: false });

/** Lets every pending call and stream message through. */
declare function setImmediate(callback: () => void): unknown;

function settle(): Promise<void> {
  return new Promise((resolve) => setImmediate(resolve));
}

/** Shows everything queued, as the screen does. */
function showAll(gameState: GameState): void {
  while (gameState.sync.take());
}

interface Table {
  server: FakeServer;
  listener: Listener;
  controller: AbortController;
  gameState: GameState;
}

function table(first: Game, seatToken: string | null = "token-0"): Table {
  const server = new FakeServer(first);
  const listener = new Listener();
  const controller = new AbortController();
  const gameState = new GameState({ api: server.api(), name: first.name, seatToken, signal: controller.signal, listener });
  return { server, listener, controller, gameState };
}

/** Lists what the server allows: by token it names the seat; by seat, `actions` at the game's etag. */
function allow(server: FakeServer, actions: Action[], plays: unknown[] = []): void {
  server.handlers.listLegalActions = (request) =>
    request.seatToken ? { seat: Seat.SEAT_0, etag: server.game.etag } : { seat: request.seat, etag: server.game.etag, actions, plays };
}

/** A seat at `game`, shown, with what it may do read. */
async function seatedAt(game: Game, actions: Action[], plays: unknown[] = []): Promise<Table> {
  const t = table(game);
  allow(t.server, actions, plays);
  expect(await t.gameState.open()).toBe(game);
  t.gameState.sync.jump(game);
  showAll(t.gameState);
  await t.gameState.readActions(game);
  return t;
}

/** The stream shows `game` (after `after`'s event) and the screen shows it. */
function arrive(t: Table, game: Game, kind = EventKind.ROLL): void {
  t.server.game = game;
  t.gameState.sync.receive(event(Number(game.eventCount) - 1, { kind, seat: Seat.SEAT_1 }), game);
  showAll(t.gameState);
}

beforeEach(() => {
  vi.useFakeTimers({ toFake: ["setTimeout", "clearTimeout"] });
});

afterEach(() => {
  vi.useRealTimers();
});

describe("coming to a game", () => {
  it("reads the game, then the seat the token holds", async () => {
    const { server, listener, gameState } = table(theirTurn(3));
    allow(server, []);
    const first = await gameState.open();
    expect(first?.etag).toBe("e3");
    expect(server.called("listLegalActions")).toEqual([{ name: first?.name, seatToken: "token-0" }]);
    expect(gameState.mySeat).toBe(Seat.SEAT_0);
    expect(listener.heard).toContain("seated");
  });

  it.each([Code.PermissionDenied, Code.InvalidArgument])("shows nothing for a token that holds no seat (%s)", async (code) => {
    const { server, listener, gameState } = table(theirTurn(3));
    server.handlers.listLegalActions = () => {
      throw new ConnectError("that token holds no seat of this game", code);
    };
    expect(await gameState.open()).toBeNull();
    expect(listener.lost).toHaveLength(1);
    expect(gameState.mySeat).toBeNull();
    // A refused token never acts, whatever the server lists after.
    allow(server, [Action.ROLL]);
    gameState.sync.jump(toRoll(4));
    showAll(gameState);
    await gameState.readActions(gameState.game!);
    expect(gameState.ready).toBe(false);
  });

  it("shows nothing for a game the server does not know", async () => {
    const { server, listener, gameState } = table(theirTurn(3));
    server.handlers.getGame = () => {
      throw new ConnectError("no game games/0123456789abcdef", Code.NotFound);
    };
    expect(await gameState.open()).toBeNull();
    expect(listener.lost).toHaveLength(1);
    expect(server.called("listLegalActions")).toEqual([]);
  });

  it("keeps the game when the seat cannot be read for now, and says why", async () => {
    const { server, listener, gameState } = table(theirTurn(3));
    server.handlers.listLegalActions = () => {
      throw new ConnectError("server busy", Code.Unavailable);
    };
    expect(await gameState.open()).not.toBeNull();
    expect(listener.lost).toEqual([]);
    expect(gameState.refusal).toBe("server busy");
    expect(gameState.mySeat).toBeNull();
    // Once the game is shown, the seat is asked for again.
    allow(server, []);
    gameState.sync.jump(theirTurn(3));
    showAll(gameState);
    await gameState.readActions(gameState.game!);
    expect(gameState.mySeat).toBe(Seat.SEAT_0);
  });

  it("a watcher asks for no seat, reads no actions and sends nothing", async () => {
    const { server, gameState } = table(toRoll(3), null);
    allow(server, [Action.ROLL]);
    const first = await gameState.open();
    expect(first).not.toBeNull();
    gameState.sync.jump(toRoll(3));
    showAll(gameState);
    await gameState.readActions(gameState.game!);
    await gameState.roll();
    await gameState.answer("take");
    expect(server.calls.map((call) => call.method)).toEqual(["getGame"]);
    expect(gameState.viewSeat).toBe(Seat.SEAT_0);
    expect(gameState.actingSeat).toBeNull();
  });

  it("before the throw for who starts, reads what either seat may do while its own is unknown", async () => {
    const opening = state(0, { phase: Phase.OPENING, turn: Seat.SEAT_UNSPECIFIED, toAct: [Seat.SEAT_0, Seat.SEAT_1] });
    const { server, gameState } = table(opening);
    server.handlers.listLegalActions = (request) => (request.seatToken ? { seat: Seat.SEAT_UNSPECIFIED } : { seat: request.seat, etag: "e0", actions: [Action.ROLL], plays: [] });
    await gameState.open();
    gameState.sync.jump(opening);
    showAll(gameState);
    await gameState.readActions(gameState.game!);
    expect(gameState.mySeat).toBeNull();
    expect(server.called("listLegalActions").at(-1)).toEqual({ name: opening.name, seat: Seat.SEAT_0 });
    expect(gameState.may(Action.ROLL)).toBe(true);
  });
});

describe("what the seat may do", () => {
  it("is read once per state, only when the game expects the seat to act", async () => {
    const t = await seatedAt(toRoll(3), [Action.ROLL, Action.DOUBLE]);
    expect(t.server.called("listLegalActions")).toEqual([
      { name: toRoll(3).name, seatToken: "token-0" },
      { name: toRoll(3).name, seat: Seat.SEAT_0 },
    ]);
    expect(t.listener.heard).toContain("actionsRead");
    expect(t.gameState.actions).toEqual([Action.ROLL, Action.DOUBLE]);
    expect(t.gameState.may(Action.DOUBLE)).toBe(true);
    expect(t.gameState.may(Action.RESIGN)).toBe(false);
    await t.gameState.readActions(t.gameState.game!);
    expect(t.server.called("listLegalActions")).toHaveLength(2);

    arrive(t, theirTurn(4));
    await t.gameState.readActions(t.gameState.game!);
    expect(t.server.called("listLegalActions")).toHaveLength(2);
    expect(t.gameState.actions).toEqual([]);
    expect(t.gameState.may(Action.ROLL)).toBe(false);
  });

  it("is nothing until everything received is shown, and nothing while a change is still moving", async () => {
    const t = await seatedAt(toRoll(3), [Action.ROLL]);
    t.server.game = toRoll(4);
    t.gameState.sync.receive(event(3, { kind: EventKind.ROLL, seat: Seat.SEAT_1 }), toRoll(4));
    expect(t.gameState.ready).toBe(false);
    t.gameState.sync.take();
    expect(t.gameState.ready).toBe(false); // the new state's actions are not read yet
    await t.gameState.readActions(t.gameState.game!);
    expect(t.gameState.ready).toBe(true);
    t.listener.isShowing = true;
    expect(t.gameState.ready).toBe(false);
    await t.gameState.roll();
    expect(t.server.called("rollDice")).toEqual([]);
  });

  it("reads the state the server is at when it lists actions for a newer one", async () => {
    const t = table(toRoll(3));
    allow(t.server, [Action.ROLL]);
    await t.gameState.open();
    t.gameState.sync.jump(toRoll(3));
    showAll(t.gameState);
    t.server.game = toRoll(5); // the server moved on
    await t.gameState.readActions(t.gameState.game!);
    expect(t.gameState.ready).toBe(false);
    expect(t.server.called("getGame")).toHaveLength(2);
    expect(t.gameState.sync.pending).toBe(1);
    showAll(t.gameState);
    await t.gameState.readActions(t.gameState.game!);
    expect(t.gameState.may(Action.ROLL)).toBe(true);
  });

  it("says why they cannot be read and reads them again a moment later", async () => {
    const t = table(toRoll(3));
    allow(t.server, [Action.ROLL]);
    await t.gameState.open();
    t.gameState.sync.jump(toRoll(3));
    showAll(t.gameState);
    t.server.handlers.listLegalActions = () => {
      throw new ConnectError("server busy", Code.Unavailable);
    };
    const reading = t.gameState.readActions(t.gameState.game!);
    await settle();
    expect(t.gameState.refusal).toBe("server busy");
    allow(t.server, [Action.ROLL]);
    await vi.advanceTimersByTimeAsync(1000);
    await reading;
    await settle();
    expect(t.gameState.may(Action.ROLL)).toBe(true);
  });
});

describe("acting", () => {
  it("sends the etag of the state shown, the seat's token and a fresh request id", async () => {
    const t = await seatedAt(toRoll(3), [Action.ROLL, Action.DOUBLE]);
    await t.gameState.roll();
    await t.gameState.double(); // the roll is not shown yet: nothing more is sent on this state
    const [rolled] = t.server.called("rollDice");
    expect(rolled).toMatchObject({ name: toRoll(3).name, seatToken: "token-0", etag: "e3" });
    expect(rolled.requestId).toMatch(/^[0-9a-f-]{36}$/);
    expect(t.server.called("offerDouble")).toEqual([]);
    expect(t.gameState.ready).toBe(false);

    arrive(t, toRoll(5));
    await t.gameState.readActions(t.gameState.game!);
    await t.gameState.roll();
    const second = t.server.called("rollDice")[1];
    expect(second.etag).toBe("e5");
    expect(second.requestId).not.toBe(rolled.requestId);
  });

  it("sends one action at a time", async () => {
    const t = await seatedAt(toRoll(3), [Action.ROLL, Action.DOUBLE]);
    let answer: (value: unknown) => void = () => {};
    t.server.handlers.rollDice = () => new Promise((resolve) => (answer = resolve));
    const rolling = t.gameState.roll();
    expect(t.gameState.busy).toBe(true);
    await t.gameState.double();
    await t.gameState.roll();
    answer({});
    await rolling;
    expect(t.gameState.busy).toBe(false);
    expect(t.server.calls.filter((call) => call.method !== "listLegalActions" && call.method !== "getGame")).toHaveLength(1);
  });

  it.each([Code.Unavailable, Code.Unknown])("sends an action again with the same request id when its answer is lost (%s)", async (code) => {
    const t = await seatedAt(toRoll(3), [Action.ROLL]);
    let lost = false;
    t.server.handlers.rollDice = () => {
      if (!lost) {
        lost = true;
        throw new ConnectError("connection reset", code);
      }
      return {};
    };
    const rolling = t.gameState.roll();
    await settle();
    expect(t.server.called("rollDice")).toHaveLength(1);
    await vi.advanceTimersByTimeAsync(500);
    await rolling;
    const [first, again] = t.server.called("rollDice");
    expect(again.requestId).toBe(first.requestId);
    expect(t.gameState.refusal).toBe("");
    expect(t.gameState.ready).toBe(false); // acted on this state
  });

  it("keeps a refusal in the server's words, and the seat may try again", async () => {
    const t = await seatedAt(toRoll(3), [Action.DOUBLE]);
    t.server.handlers.offerDouble = () => {
      throw new ConnectError("you cannot double in the Crawford game", Code.FailedPrecondition);
    };
    await t.gameState.double();
    expect(t.gameState.refusal).toBe("you cannot double in the Crawford game");
    expect(t.server.called("offerDouble")).toHaveLength(1);
    expect(t.gameState.ready).toBe(true);
    expect(t.gameState.busy).toBe(false);
  });

  it("reads the game again after a stale etag, the newer state queued behind what is shown", async () => {
    const t = await seatedAt(toRoll(3), [Action.ROLL]);
    t.server.game = theirTurn(6);
    t.server.handlers.rollDice = () => {
      throw new ConnectError("the game has moved on: read it again", Code.Aborted);
    };
    await t.gameState.roll();
    await settle();
    expect(t.gameState.refusal).toBe("the game has moved on: read it again");
    expect(t.server.called("getGame")).toHaveLength(2);
    expect(t.gameState.sync.latest?.etag).toBe("e6");
    expect(t.gameState.sync.pending).toBe(1);
    expect(t.listener.heard.at(-1)).toBe("queued");
  });

  it("answers a double or a resignation with the call of that answer", async () => {
    const doubled = state(4, { phase: Phase.DOUBLED, toAct: [Seat.SEAT_0] });
    const t = await seatedAt(doubled, [Action.TAKE, Action.DROP, Action.BEAVER]);
    const calls = { take: "takeDouble", drop: "dropDouble", beaver: "beaverDouble", accept: "acceptResignation", reject: "rejectResignation" } as const;
    for (const [answer, method] of Object.entries(calls)) {
      await t.gameState.answer(answer as keyof typeof calls);
      expect(t.server.called(method)).toEqual([expect.objectContaining({ etag: "e4", seatToken: "token-0" })]);
    }
  });

  it("offers a resignation of the chosen size", async () => {
    const t = await seatedAt(toRoll(3), [Action.RESIGN, Action.ROLL]);
    await t.gameState.resign(GameResult.GAMMON);
    expect(t.server.called("offerResignation")).toEqual([expect.objectContaining({ etag: "e3", result: GameResult.GAMMON })]);
  });

  it("sends nothing before the game is shown", async () => {
    const t = table(toRoll(3));
    allow(t.server, [Action.ROLL]);
    await t.gameState.open();
    await t.gameState.answer("take");
    await t.gameState.resign(GameResult.SINGLE);
    expect(t.server.calls.map((call) => call.method)).toEqual(["getGame", "listLegalActions"]);
  });
});

describe("the play made on the board", () => {
  it("is sent as its steps, and that play is known as mine when the stream shows it", async () => {
    const t = await seatedAt(toPlay(4), [Action.PLAY], [fromEightToTwo]);
    t.gameState.clearPlay();
    expect(t.gameState.complete).toBeNull();
    await t.gameState.play();
    expect(t.server.called("playMove")).toEqual([]); // nothing whole yet

    const whole = { notation: "8/2 6/5", steps: [step(8, 2, 6), step(6, 5, 1)] };
    t.gameState.setPartial([step(8, 2, 6)], null);
    t.gameState.setPartial(whole.steps, whole);
    await t.gameState.play();
    const [sent] = t.server.called("playMove");
    expect(sent).toMatchObject({ etag: "e4", play: { case: "steps", value: { steps: [{ fromPoint: 8, toPoint: 2 }, { fromPoint: 6, toPoint: 5 }] } } });
    expect(t.gameState.isOwnPlay(event(4, { kind: EventKind.PLAY, seat: Seat.SEAT_0 }))).toBe(true);
    expect(t.gameState.isOwnPlay(event(4, { kind: EventKind.PLAY, seat: Seat.SEAT_0, forced: true }))).toBe(false);
    expect(t.gameState.isOwnPlay(event(5, { kind: EventKind.PLAY, seat: Seat.SEAT_1 }))).toBe(false);
  });

  it("takes back steps: fewer than a whole play make no play, and a refusal goes", async () => {
    const t = await seatedAt(toPlay(4), [Action.PLAY], [fromEightToTwo]);
    const whole = { notation: "8/2 6/5", steps: [step(8, 2, 6), step(6, 5, 1)] };
    t.gameState.setPartial(whole.steps, whole);
    t.server.handlers.playMove = () => {
      throw new ConnectError("not your turn", Code.FailedPrecondition);
    };
    await t.gameState.play();
    expect(t.gameState.refusal).toBe("not your turn");
    t.gameState.undo([step(8, 2, 6)]);
    expect(t.gameState.partial).toEqual([step(8, 2, 6)]);
    expect(t.gameState.complete).toBeNull();
    expect(t.gameState.refusal).toBe("");
    t.gameState.undo([]);
    expect(t.gameState.partial).toEqual([]);
  });

  it("a step clears a refusal; a board with no step keeps it", async () => {
    const t = await seatedAt(toPlay(4), [Action.PLAY], [fromEightToTwo]);
    t.server.handlers.validatePlay = () => ({ legal: false, reason: "no checker on the 3-point" });
    await t.gameState.explain([], { from: 3, to: 0 });
    t.gameState.setPartial([], null);
    expect(t.gameState.refusal).toBe("no checker on the 3-point");
    t.gameState.setPartial([step(8, 2, 6)], null);
    expect(t.gameState.refusal).toBe("");
  });

  it("a roll that cannot be played is a whole play already, sent as a pass", async () => {
    const t = await seatedAt(toPlay(4), [Action.PLAY], [{ notation: "", steps: [] }]);
    t.gameState.clearPlay();
    expect(t.gameState.complete?.steps).toEqual([]);
    await t.gameState.play();
    expect(t.server.called("playMove")).toEqual([expect.objectContaining({ play: { case: "notation", value: "pass" } })]);
  });

  it("a play typed in notation is sent trimmed; whether the server took it is told", async () => {
    const t = await seatedAt(toPlay(4), [Action.PLAY], [fromEightToTwo]);
    t.server.handlers.playMove = () => {
      throw new ConnectError("8/1 is not a legal play of 6-1", Code.FailedPrecondition);
    };
    expect(await t.gameState.playNotation("  8/1 ")).toBe(false);
    expect(t.gameState.refusal).toBe("8/1 is not a legal play of 6-1");
    t.server.handlers.playMove = () => ({});
    expect(await t.gameState.playNotation("8/2 6/5")).toBe(true);
    expect(t.server.called("playMove").map((request) => request.play)).toEqual([
      { case: "notation", value: "8/1" },
      { case: "notation", value: "8/2 6/5" },
    ]);
    expect(await t.gameState.playNotation("8/2 6/5")).toBe(false); // once per state
  });

  it("asks the server why a step is not legal, in the position and dice shown", async () => {
    const t = await seatedAt(toPlay(4), [Action.PLAY], [fromEightToTwo]);
    t.server.handlers.validatePlay = () => ({ legal: false, reason: "the 6 must be played first" });
    await t.gameState.explain([step(8, 2, 6)], { from: 2, to: 1 });
    expect(t.server.called("validatePlay")).toEqual([
      expect.objectContaining({
        position: { form: { case: "positionId", value: "4HPwATDgc/ABMA" } },
        dice: [6, 1],
        play: { case: "steps", value: { steps: [{ fromPoint: 8, toPoint: 2 }, { fromPoint: 2, toPoint: 1 }] } },
      }),
    ]);
    expect(t.gameState.refusal).toBe("the 6 must be played first");
  });

  it("drops the server's reason when the game moved on while it was asked", async () => {
    const t = await seatedAt(toPlay(4), [Action.PLAY], [fromEightToTwo]);
    t.server.handlers.validatePlay = () => {
      arrive(t, theirTurn(5), EventKind.PLAY);
      return { legal: false, reason: "stale" };
    };
    await t.gameState.explain([], { from: 8, to: 1 });
    expect(t.gameState.refusal).toBe("");
  });
});

describe("following the game", () => {
  it("a watcher sees the state read, then each event in order; repeated ones are dropped", async () => {
    const t = table(toRoll(3), null);
    const roll = event(3, { kind: EventKind.ROLL, seat: Seat.SEAT_0, dice: [6, 1] });
    t.server.streams.push({
      messages: [
        { event: roll, game: toPlay(4) },
        { event: roll, game: toPlay(4) },
        { event: event(2, { kind: EventKind.ROLL, seat: Seat.SEAT_1 }), game: toRoll(3) },
        { event: event(4, { kind: EventKind.PLAY, seat: Seat.SEAT_0 }), game: theirTurn(5) },
      ],
      then: "open",
    });
    const first = await t.gameState.open();
    const following = t.gameState.follow(first!);
    await settle();
    expect(t.server.called("watchGame")).toEqual([{ name: first?.name, fromSequence: 3n }]);
    const shown: bigint[] = [];
    for (let change = t.gameState.sync.take(); change; change = t.gameState.sync.take()) shown.push(change.after.eventCount);
    expect(shown).toEqual([3n, 4n, 5n]);
    t.controller.abort();
    await following;
  });

  it("a watcher replaying from the start is sent every event from the first", async () => {
    const t = table(toRoll(3), null);
    const first = await t.gameState.open();
    const following = t.gameState.follow(first!, { fromStart: true });
    await settle();
    expect(t.server.called("watchGame")).toEqual([{ name: first?.name, fromSequence: 0n }]);
    expect(t.gameState.sync.pending).toBe(0);
    t.controller.abort();
    await following;
  });

  it("resumes a dropped stream from the first event not received, and says it is reconnecting meanwhile", async () => {
    const t = table(toRoll(3), null);
    t.server.streams.push(
      { messages: [{ event: event(3, { kind: EventKind.ROLL, seat: Seat.SEAT_0 }), game: toPlay(4) }], then: new ConnectError("network down", Code.Unavailable) },
      { messages: [{ event: event(4, { kind: EventKind.PLAY, seat: Seat.SEAT_0 }), game: theirTurn(5) }], then: "open" },
    );
    const first = await t.gameState.open();
    const following = t.gameState.follow(first!);
    await settle();
    expect(t.listener.connectionText).toMatch(/^Connection lost \(network down\); reconnecting/);
    await vi.advanceTimersByTimeAsync(500);
    await settle();
    expect(t.server.called("watchGame").map((request) => request.fromSequence)).toEqual([3n, 4n]);
    expect(t.listener.connectionText).toBe("");
    expect(t.gameState.sync.latest?.eventCount).toBe(5n);
    t.controller.abort();
    await following;
  });

  it("stops at the end of a finished match nothing more is awaited in", async () => {
    const over = state(9, { phase: Phase.MATCH_OVER, toAct: [], winner: Seat.SEAT_0 });
    const t = table(theirTurn(8), null);
    t.server.streams.push({ messages: [{ event: event(8, { kind: EventKind.DROP, seat: Seat.SEAT_1 }), game: over }], then: "end" });
    const first = await t.gameState.open();
    await t.gameState.follow(first!);
    expect(t.server.called("watchGame")).toHaveLength(1);
    expect(t.gameState.sync.latest?.phase).toBe(Phase.MATCH_OVER);
  });

  it("tells the screen when the server does not know the game it follows", async () => {
    const t = table(toRoll(3), null);
    t.server.streams.push({ messages: [], then: new ConnectError("no such game", Code.NotFound) });
    const first = await t.gameState.open();
    await t.gameState.follow(first!);
    expect(t.listener.lost).toHaveLength(1);
  });

  it("a seat coming back sees what happened since its own last action moving, the rest drawn at once", async () => {
    const now = theirTurn(6);
    const t = table(now);
    allow(t.server, []);
    t.server.streams.push(
      {
        messages: [
          { event: event(3, { kind: EventKind.ROLL, seat: Seat.SEAT_0 }), game: toPlay(4) },
          { event: event(4, { kind: EventKind.PLAY, seat: Seat.SEAT_0 }), game: theirTurn(5) },
          { event: event(5, { kind: EventKind.ROLL, seat: Seat.SEAT_1 }), game: now },
        ],
        then: "open",
      },
      { messages: [], then: "open" },
    );
    const first = await t.gameState.open();
    const following = t.gameState.follow(first!);
    await settle();
    expect(t.server.called("watchGame").map((request) => request.fromSequence)).toEqual([0n, 6n]);
    expect(t.gameState.sync.pending).toBe(2);
    const seen = t.gameState.sync.take();
    expect(seen?.event).toBeNull();
    expect(seen?.after.eventCount).toBe(5n);
    const unseen = t.gameState.sync.take();
    expect(unseen?.event?.kind).toBe(EventKind.ROLL);
    expect(unseen?.event?.seat).toBe(Seat.SEAT_1);
    t.controller.abort();
    await following;
  });
});
