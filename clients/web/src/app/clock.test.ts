import { describe, expect, it } from "vitest";
import { create } from "@bufbuild/protobuf";
import { durationFromMs, timestampFromMs } from "@bufbuild/protobuf/wkt";
import { ClocksSchema, Seat } from "../gen/tavli/v1/games_service_pb";
import { clockText, formatMs, readClock } from "./clock";

const T0 = 1_800_000_000_000;

describe("clocks count down between updates", () => {
  const clocks = create(ClocksSchema, {
    remaining: [durationFromMs(300_000), durationFromMs(120_000)],
    running: Seat.SEAT_0,
    turnStartTime: timestampFromMs(T0),
    delayEndTime: timestampFromMs(T0 + 8_000),
    deadline: timestampFromMs(T0 + 308_000),
  });

  it("the running seat's reserve waits for the delay, then runs", () => {
    expect(readClock(clocks, Seat.SEAT_0, T0 + 5_000)).toMatchObject({ reserveMs: 300_000, delayMs: 3_000, running: true });
    expect(readClock(clocks, Seat.SEAT_0, T0 + 18_000)).toMatchObject({ reserveMs: 290_000, delayMs: 0 });
    expect(readClock(clocks, Seat.SEAT_0, T0 + 999_000).reserveMs).toBe(0);
  });

  it("the other seat's clock stands still", () => {
    expect(readClock(clocks, Seat.SEAT_1, T0 + 50_000)).toMatchObject({ reserveMs: 120_000, running: false });
  });

  it("a move limit shows the time to the deadline", () => {
    const limited = create(ClocksSchema, { running: Seat.SEAT_1, deadline: timestampFromMs(T0 + 30_000) });
    const reading = readClock(limited, Seat.SEAT_1, T0 + 10_000);
    expect(reading.reserveMs).toBeNull();
    expect(clockText(reading)).toBe("0:20 (running)");
  });

  it("writes minutes and seconds, rounding up", () => {
    expect(formatMs(0)).toBe("0:00");
    expect(formatMs(59_001)).toBe("1:00");
    expect(formatMs(65_000)).toBe("1:05");
    expect(formatMs(3_723_000)).toBe("1:02:03");
    expect(clockText(readClock(clocks, Seat.SEAT_0, T0 + 1_000))).toBe("5:00 (running, delay 0:07)");
  });
});
