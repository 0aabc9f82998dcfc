// The clocks as a table shows them: each seat's reserve, the running one counted down locally
// between the server's updates (the server's Clocks are "as of the last stored action").

import { durationMs, timestampMs } from "@bufbuild/protobuf/wkt";
import { Seat, type Clocks } from "../gen/tavli/v1/games_service_pb";
import { seatIndex } from "./convert";

export interface ClockReading {
  /** Milliseconds of reserve left, or null for a clock with no reserve (only a move limit). */
  reserveMs: number | null;
  /** Milliseconds of the turn's delay still to run before the reserve does (0 when none). */
  delayMs: number;
  /** Milliseconds until the seat loses on time (running seat only), or null. */
  deadlineMs: number | null;
  running: boolean;
}

/** One seat's clock at `nowMs`. */
export function readClock(clocks: Clocks, seat: Seat, nowMs: number): ClockReading {
  const running = clocks.running !== Seat.SEAT_UNSPECIFIED && clocks.running === seat;
  const stored = clocks.remaining[seatIndex(seat)];
  let reserveMs = stored ? durationMs(stored) : null;
  let delayMs = 0;
  let deadlineMs: number | null = null;
  if (running) {
    const delayEnd = clocks.delayEndTime ? timestampMs(clocks.delayEndTime) : null;
    if (delayEnd !== null) {
      delayMs = Math.max(0, delayEnd - nowMs);
      if (reserveMs !== null) {
        reserveMs = reserveMs - Math.max(0, nowMs - delayEnd);
      }
    }
    if (clocks.deadline) {
      deadlineMs = Math.max(0, timestampMs(clocks.deadline) - nowMs);
    }
  }
  if (reserveMs !== null) {
    reserveMs = Math.max(0, reserveMs);
    if (deadlineMs !== null) {
      // A move limit may come before the reserve is spent.
      reserveMs = Math.min(reserveMs, deadlineMs + delayMs);
    }
  }
  return { reserveMs, delayMs, deadlineMs, running };
}

/** "1:05", "12:00", "1:02:03" (rounded up: a clock showing 0:00 has run out). */
export function formatMs(ms: number): string {
  const total = Math.max(0, Math.ceil(ms / 1000));
  const h = Math.floor(total / 3600);
  const m = Math.floor((total % 3600) / 60);
  const s = total % 60;
  const ss = String(s).padStart(2, "0");
  return h > 0 ? `${h}:${String(m).padStart(2, "0")}:${ss}` : `${m}:${ss}`;
}

/** A clock in words: "4:59 (running, delay 0:08)". */
export function clockText(reading: ClockReading): string {
  const parts: string[] = [];
  if (reading.reserveMs !== null) {
    parts.push(formatMs(reading.reserveMs));
  } else if (reading.deadlineMs !== null) {
    parts.push(formatMs(reading.deadlineMs));
  } else {
    parts.push("no limit");
  }
  if (reading.running) {
    const extra = reading.delayMs > 0 ? `, delay ${formatMs(reading.delayMs)}` : "";
    parts.push(`(running${extra})`);
  }
  return parts.join(" ");
}
