import { describe, expect, it } from "vitest";
import { create, type MessageInitShape } from "@bufbuild/protobuf";
import { EventKind, GameEventSchema, Phase, Seat, type Game, type GameEvent } from "../gen/tavli/v1/games_service_pb";
import { backgammonGame } from "./fixtures.test-helpers";
import { GameSync, playOf, unseenFrom } from "./sync";

function event(sequence: number, init: MessageInitShape<typeof GameEventSchema>): GameEvent {
  return create(GameEventSchema, { ...init, sequence: BigInt(sequence) });
}

function state(eventCount: number, overrides: Parameters<typeof backgammonGame>[0] = {}): Game {
  return backgammonGame({ eventCount: BigInt(eventCount), etag: `e${eventCount}`, ...overrides });
}

const roll = (sequence: number, seat: Seat, dice: number[]) => event(sequence, { kind: EventKind.ROLL, seat, dice });
const play = (sequence: number, seat: Seat, steps: [number, number, number][]) =>
  event(sequence, {
    kind: EventKind.PLAY,
    seat,
    notation: steps.map(([f, t]) => `${f}/${t}`).join(" "),
    steps: steps.map(([fromPoint, toPoint, die]) => ({ fromPoint, toPoint, die })),
  });

describe("the game's events, queued in order", () => {
  it("queues each event with the states before and after it, and shows them one at a time", () => {
    const sync = new GameSync();
    sync.jump(state(3));
    sync.receive(roll(3, Seat.SEAT_1, [6, 2]), state(4, { dice: [6, 2], turn: Seat.SEAT_1, phase: Phase.PLAYING }));
    sync.receive(play(4, Seat.SEAT_1, [[24, 18, 6], [13, 11, 2]]), state(5, { turn: Seat.SEAT_0 }));
    expect(sync.pending).toBe(3);
    expect(sync.shown).toBeNull();
    expect(sync.latest?.eventCount).toBe(5n);
    expect(sync.nextSequence).toBe(5n);

    const first = sync.take();
    expect(first?.event).toBeNull();
    expect(sync.shown?.game.eventCount).toBe(3n);
    expect(sync.settled).toBe(false);

    const second = sync.take();
    expect(second?.event?.kind).toBe(EventKind.ROLL);
    expect(second?.before?.eventCount).toBe(3n);
    expect(sync.shown?.rolled).toEqual([[], [6, 2]]);

    const third = sync.take();
    expect(third?.before?.dice).toEqual([6, 2]);
    expect(third && playOf(third)).toEqual({
      seat: Seat.SEAT_1,
      steps: [{ from: 24, to: 18, die: 6, hit: false }, { from: 13, to: 11, die: 2, hit: false }],
    });
    // The dice stay in view after the play, and the play is the last one.
    expect(sync.shown?.rolled).toEqual([[], [6, 2]]);
    expect(sync.shown?.lastPlay?.seat).toBe(Seat.SEAT_1);
    expect(sync.take()).toBeUndefined();
    expect(sync.settled).toBe(true);
  });

  it("keeps a seat's roll until that seat rolls again", () => {
    const sync = new GameSync();
    sync.jump(state(3));
    sync.receive(roll(3, Seat.SEAT_0, [5, 5]), state(4));
    sync.receive(roll(4, Seat.SEAT_1, [3, 1]), state(5));
    sync.receive(roll(5, Seat.SEAT_0, [2, 1]), state(6));
    while (sync.take());
    expect(sync.shown?.rolled).toEqual([[2, 1], [3, 1]]);
  });

  it("ignores an event received twice (a stream restarted early) and one older than a state read whole", () => {
    const sync = new GameSync();
    sync.jump(state(3));
    expect(sync.receive(roll(2, Seat.SEAT_0, [1, 2]), state(3))).toBe(false);
    expect(sync.receive(roll(3, Seat.SEAT_0, [1, 2]), state(4))).toBe(true);
    expect(sync.receive(roll(3, Seat.SEAT_0, [1, 2]), state(4))).toBe(false);
    expect(sync.jump(state(4))).toBe(false);
    expect(sync.jump(state(9))).toBe(true);
    expect(sync.nextSequence).toBe(9n);
    expect(sync.receive(roll(7, Seat.SEAT_0, [1, 2]), state(8))).toBe(false);
    expect(sync.pending).toBe(3);
  });

  it("names the game a change ended, and starts the next game's dice and last play afresh", () => {
    const sync = new GameSync();
    sync.jump(state(10, { gameNumber: 1 }));
    sync.receive(roll(10, Seat.SEAT_0, [6, 5]), state(11, { gameNumber: 1, dice: [6, 5] }));
    const finished = { gameNumber: 1, winner: Seat.SEAT_0, points: 1, cubeValue: 1 };
    sync.receive(play(11, Seat.SEAT_0, [[6, 0, 6], [5, 0, 5]]), state(12, { gameNumber: 2, finishedGames: [finished], score: [1n, 0n] }));
    sync.take();
    sync.take();
    const end = sync.take();
    expect(end?.ended?.winner).toBe(Seat.SEAT_0);
    expect(end?.before?.gameNumber).toBe(1);
    expect(sync.shown?.rolled).toEqual([[], []]);
    expect(sync.shown?.lastPlay).toBeNull();
  });

  it("puts back the finished games a stream sent before, and names the one a later message adds", () => {
    const sync = new GameSync();
    const won = (gameNumber: number) => ({ gameNumber, winner: Seat.SEAT_1, points: gameNumber, cubeValue: 1 });
    sync.receive(roll(20, Seat.SEAT_0, [6, 5]), state(21, { gameNumber: 3, finishedGames: [won(1), won(2)] }));
    sync.receive(roll(21, Seat.SEAT_1, [4, 1]), state(22, { gameNumber: 3, omittedFinishedGameCount: 2 }));
    const drop = event(22, { kind: EventKind.DROP, seat: Seat.SEAT_0 });
    sync.receive(drop, state(23, { gameNumber: 4, finishedGames: [won(3)], omittedFinishedGameCount: 2 }));
    expect(sync.latest?.finishedGames.map((f) => f.gameNumber)).toEqual([1, 2, 3]);
    expect(sync.latest?.omittedFinishedGameCount).toBe(0);
    expect(sync.take()?.after.finishedGames).toHaveLength(2);
    expect(sync.take()?.after.finishedGames).toHaveLength(2);
    const end = sync.take();
    expect(end?.ended?.gameNumber).toBe(3);
    expect(end?.before?.finishedGames).toHaveLength(2);
    // A stream started again sends a whole state first; its next message leaves out what it sent.
    sync.receive(roll(23, Seat.SEAT_0, [2, 2]), state(24, { gameNumber: 4, finishedGames: [won(1), won(2), won(3)] }));
    sync.receive(roll(24, Seat.SEAT_1, [3, 3]), state(25, { gameNumber: 4, omittedFinishedGameCount: 3 }));
    expect(sync.latest?.finishedGames.map((f) => f.points)).toEqual([1, 2, 3]);
  });

  it("queues a state read whole behind the events before it", () => {
    const sync = new GameSync();
    sync.jump(state(3));
    sync.receive(roll(3, Seat.SEAT_0, [4, 4]), state(4));
    sync.jump(state(7, { lastPlay: { seat: Seat.SEAT_1, dice: [3, 2], notation: "13/10 13/11" } }));
    expect(sync.take()?.after.eventCount).toBe(3n);
    expect(sync.take()?.event?.kind).toBe(EventKind.ROLL);
    const caughtUp = sync.take();
    expect(caughtUp?.event).toBeNull();
    expect(caughtUp?.before?.eventCount).toBe(4n);
    expect(sync.shown?.rolled).toEqual([[4, 4], [3, 2]]);
  });

  it("takes the throw for who starts as both seats' dice, or the starter's roll", () => {
    const sync = new GameSync();
    sync.jump(state(1, { phase: Phase.OPENING, turn: Seat.SEAT_UNSPECIFIED }));
    const opening = event(1, { kind: EventKind.OPENING_THROW, openingThrows: [{ seat0Die: 2, seat1Die: 6 }] });
    sync.receive(opening, state(2, { phase: Phase.ROLLING, turn: Seat.SEAT_1, dice: [] }));
    const again = event(2, { kind: EventKind.OPENING_THROW, openingThrows: [{ seat0Die: 5, seat1Die: 3 }] });
    sync.receive(again, state(3, { phase: Phase.PLAYING, turn: Seat.SEAT_0, dice: [5, 3] }));
    sync.take();
    sync.take();
    expect(sync.shown?.rolled).toEqual([[2], [6]]);
    sync.take();
    expect(sync.shown?.rolled).toEqual([[5, 3], [6]]);
  });
});

describe("where a seat coming to a game in progress starts to see it move", () => {
  const message = (e: GameEvent, g: Game) => ({ event: e, game: g });

  it("after its own last action, a play the server made for it still shown", () => {
    const forced = play(5, Seat.SEAT_0, [[24, 18, 6]]);
    forced.forced = true;
    const past = [
      message(roll(3, Seat.SEAT_0, [6, 1]), state(4)),
      message(play(4, Seat.SEAT_0, [[8, 2, 6], [6, 5, 1]]), state(5)),
      message(roll(5, Seat.SEAT_1, [3, 2]), state(6)),
      message(forced, state(7)),
    ];
    expect(unseenFrom(past, Seat.SEAT_0)).toBe(2);
    expect(unseenFrom(past, Seat.SEAT_1)).toBe(3);
  });

  it("never before the game in play, and from the start of a fresh game", () => {
    const finished = { gameNumber: 1, winner: Seat.SEAT_1, points: 1, cubeValue: 1 };
    const past = [
      message(roll(0, Seat.SEAT_1, [6, 1]), state(1, { gameNumber: 1 })),
      message(event(1, { kind: EventKind.DROP, seat: Seat.SEAT_1 }), state(2, { gameNumber: 2, finishedGames: [finished] })),
      message(event(2, { kind: EventKind.OPENING_THROW, openingThrows: [{ seat0Die: 1, seat1Die: 4 }] }), state(3, { gameNumber: 2, finishedGames: [finished] })),
    ];
    expect(unseenFrom(past, Seat.SEAT_0)).toBe(1);
    expect(unseenFrom(past.slice(2), Seat.SEAT_0)).toBe(0);
    expect(unseenFrom([], Seat.SEAT_0)).toBe(0);
  });
});
