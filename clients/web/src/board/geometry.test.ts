import { describe, expect, it } from "vitest";
import {
  BAR, CHECKER_RADIUS, OFF, STACK_LIMIT, VIEW_HEIGHT, VIEW_WIDTH,
  barRect, barSpots, cubeSpot, diceArea, diePips, myOffTarget, offSlabs, offTray, otherSidePoint,
  layoutTransform, pinnedStackSpots, pointAt, pointSlot, seenSpot, stackLabel, stackSpots, theirPointSlot,
} from "./geometry";

const centre = (r: { x: number; y: number; width: number; height: number }) => ({ x: r.x + r.width / 2, y: r.y + r.height / 2 });
const inside = (r: { x: number; y: number; width: number; height: number }) =>
  r.x >= 0 && r.y >= 0 && r.x + r.width <= VIEW_WIDTH && r.y + r.height <= VIEW_HEIGHT;

describe("my points", () => {
  it("my 1-point is bottom right, my 24 top right, 12 bottom left, 13 top left", () => {
    const xs = Array.from({ length: 24 }, (_, i) => pointSlot(i + 1).x);
    expect(pointSlot(1).top).toBe(false);
    expect(pointSlot(24).top).toBe(true);
    expect(pointSlot(1).x).toBe(Math.max(...xs));
    expect(pointSlot(24).x).toBe(pointSlot(1).x);
    expect(pointSlot(12).x).toBe(Math.min(...xs));
    expect(pointSlot(13).x).toBe(pointSlot(12).x);
    expect(pointSlot(1).y).toBeGreaterThan(pointSlot(24).y);
  });

  it("the bar lies between my 7 and 6 and between 18 and 19", () => {
    const bar = barRect();
    expect(pointSlot(7).x + pointSlot(7).width).toBeLessThanOrEqual(bar.x);
    expect(pointSlot(6).x).toBeGreaterThanOrEqual(bar.x + bar.width);
    expect(pointSlot(18).x).toBe(pointSlot(7).x);
    expect(pointSlot(19).x).toBe(pointSlot(6).x);
  });

  it("every point, the bar and the trays fit in the view box without overlapping", () => {
    const rects = [...Array.from({ length: 24 }, (_, i) => pointSlot(i + 1)), barRect(), offTray("me", "backgammon"), offTray("them", "backgammon")];
    for (const r of rects) expect(inside(r)).toBe(true);
    for (const [i, a] of rects.entries()) {
      for (const b of rects.slice(i + 1)) {
        const apart = a.x + a.width <= b.x || b.x + b.width <= a.x || a.y + a.height <= b.y || b.y + b.height <= a.y;
        expect(apart, `${JSON.stringify(a)} ${JSON.stringify(b)}`).toBe(true);
      }
    }
  });

  it("refuses a point that is not on the board", () => {
    expect(() => pointSlot(0)).toThrow(RangeError);
    expect(() => pointSlot(25)).toThrow(RangeError);
  });
});

describe("the opponent's points", () => {
  it("backgammon mirrors: their p is my 25 - p", () => {
    expect(otherSidePoint("backgammon", 1)).toBe(24);
    expect(otherSidePoint("backgammon", 6)).toBe(19);
    expect(theirPointSlot("backgammon", 24)).toEqual(pointSlot(1));
  });

  it("long nardi goes the same way round: my p is their p + 12 (p <= 12) or p - 12", () => {
    expect(otherSidePoint("long-nardi", 24)).toBe(12); // their head is my 12
    expect(otherSidePoint("long-nardi", 12)).toBe(24); // my head is their 12
    expect(otherSidePoint("long-nardi", 1)).toBe(13);
    expect(otherSidePoint("long-nardi", 13)).toBe(1);
    // their home board (their 1-6) is my 13-18, top left
    for (let p = 1; p <= 6; p++) expect(otherSidePoint("long-nardi", p)).toBe(p + 12);
    expect(theirPointSlot("long-nardi", 24).top).toBe(false);
  });

  it("each mapping is its own inverse", () => {
    for (const variant of ["backgammon", "long-nardi"] as const) {
      for (let p = 1; p <= 24; p++) expect(otherSidePoint(variant, otherSidePoint(variant, p))).toBe(p);
    }
  });

  it("their off tray is beside their home board", () => {
    expect(offTray("them", "backgammon").x).toBe(offTray("me", "backgammon").x); // top right
    expect(offTray("them", "long-nardi").x).toBeLessThan(pointSlot(13).x); // top left
    expect(offTray("them", "long-nardi").y).toBeLessThan(offTray("me", "long-nardi").y);
  });
});

describe("stacks", () => {
  it("stack from the point's base inwards, touching and within the point", () => {
    const bottom = stackSpots(pointSlot(6), 3);
    expect(bottom.map((s) => s.y)).toEqual([pointSlot(6).y + 280 - CHECKER_RADIUS, pointSlot(6).y + 280 - 3 * CHECKER_RADIUS, pointSlot(6).y + 280 - 5 * CHECKER_RADIUS]);
    const top = stackSpots(pointSlot(13), 5);
    expect(top[0].y).toBe(pointSlot(13).y + CHECKER_RADIUS);
    expect(top[4].y + CHECKER_RADIUS).toBeLessThanOrEqual(pointSlot(13).y + pointSlot(13).height);
  });

  it("more than five are drawn as five with a count", () => {
    expect(stackSpots(pointSlot(6), 8)).toHaveLength(STACK_LIMIT);
    expect(stackLabel(8)).toBe("8");
    expect(stackLabel(5)).toBeNull();
  });

  it("the bar holds mine below the middle and theirs above", () => {
    const mine = barSpots("me", 2);
    const theirs = barSpots("them", 2);
    expect(mine[0].y).toBeGreaterThan(theirs[0].y);
    expect(mine[1].y).toBeGreaterThan(mine[0].y);
    expect(pointAt(mine[0])).toBe(BAR);
  });

  it("borne-off checkers fill the tray from its outer end, fifteen fit", () => {
    const tray = offTray("me", "backgammon");
    const slabs = offSlabs(tray, "me", 15);
    expect(slabs).toHaveLength(15);
    expect(slabs[0].y).toBeGreaterThan(slabs[1].y);
    for (const s of slabs) expect(s.y >= tray.y && s.y + s.height <= tray.y + tray.height).toBe(true);
  });
});

describe("what is under the pointer", () => {
  it("finds each point, the bar and my off tray, nothing elsewhere", () => {
    for (let p = 1; p <= 24; p++) expect(pointAt(centre(pointSlot(p)))).toBe(p);
    expect(pointAt(centre(barRect()))).toBe(BAR);
    expect(pointAt(centre(offTray("me", "backgammon")))).toBe(OFF);
    expect(pointAt(centre(myOffTarget()))).toBe(OFF);
    expect(pointAt(centre(offTray("them", "backgammon")))).toBeNull();
    expect(pointAt(centre(diceArea("me")))).toBeNull();
    expect(pointAt({ x: 5, y: 5 })).toBeNull();
  });
});

describe("dice and cube", () => {
  it("each face has its number of pips", () => {
    for (let n = 1; n <= 6; n++) expect(diePips(n)).toHaveLength(n);
  });

  it("the dice lie in the roller's right-hand half, off every point", () => {
    expect(diceArea("me").x).toBeGreaterThan(barRect().x);
    expect(diceArea("them").x).toBeLessThan(barRect().x);
    for (const side of ["me", "them"] as const) {
      const area = diceArea(side);
      expect(pointAt({ x: area.x + 1, y: area.y + 1 })).toBeNull();
      expect(pointAt({ x: area.x + area.width - 1, y: area.y + area.height - 1 })).toBeNull();
    }
  });

  it("the cube sits by its owner: mine at the bottom, theirs at the top, centred otherwise", () => {
    expect(cubeSpot("me").y).toBeGreaterThan(cubeSpot(null).y);
    expect(cubeSpot(null).y).toBeGreaterThan(cubeSpot("them").y);
    expect(pointAt(cubeSpot(null))).toBeNull();
  });
});

describe("my home board on the left", () => {
  const seenCentre = (r: { x: number; y: number; width: number; height: number }) => seenSpot(centre(r), "left");

  it("mirrors the board: my 1-point bottom left, my 24 top left, 12 bottom right, 13 top right", () => {
    const xs = Array.from({ length: 24 }, (_, i) => seenCentre(pointSlot(i + 1)).x);
    expect(seenCentre(pointSlot(1)).x).toBe(Math.min(...xs));
    expect(seenCentre(pointSlot(24)).x).toBe(Math.min(...xs));
    expect(seenCentre(pointSlot(12)).x).toBe(Math.max(...xs));
    expect(seenCentre(pointSlot(13)).x).toBe(Math.max(...xs));
    expect(seenCentre(pointSlot(1)).y).toBe(centre(pointSlot(1)).y);
  });

  it("puts my off tray at the left edge and the cube at the right", () => {
    expect(seenCentre(offTray("me", "backgammon")).x).toBeLessThan(seenCentre(pointSlot(12)).x);
    expect(seenCentre(offTray("me", "backgammon")).x).toBeLessThan(seenCentre(pointSlot(1)).x);
    expect(seenSpot(cubeSpot(null), "left").x).toBeGreaterThan(seenCentre(pointSlot(12)).x);
  });

  it("finds the point under a pointer where it is seen", () => {
    for (let p = 1; p <= 24; p++) {
      expect(pointAt(seenSpot(seenCentre(pointSlot(p)), "left"))).toBe(p);
    }
    expect(pointAt(seenSpot(seenCentre(myOffTarget()), "left"))).toBe(OFF);
    expect(pointAt(seenSpot(seenCentre(barRect()), "left"))).toBe(BAR);
  });

  it("is drawn by the transform that maps the layout as seenSpot does", () => {
    const numbers = layoutTransform("left").match(/-?\d+(\.\d+)?/g)!.map(Number);
    const [a, b, c, d, e, f] = numbers;
    for (const spot of [{ x: 0, y: 0 }, { x: 130, y: 600 }, centre(pointSlot(6))]) {
      expect({ x: a * spot.x + c * spot.y + e, y: b * spot.x + d * spot.y + f }).toEqual(seenSpot(spot, "left"));
    }
  });

  it("leaves the usual board as it is", () => {
    expect(layoutTransform("right")).toBe("");
    expect(seenSpot({ x: 12, y: 34 }, "right")).toEqual({ x: 12, y: 34 });
  });
});

describe("the Greek games' layouts", () => {
  it("lay Plakoto out as backgammon and Fevga as long nardi", () => {
    for (let p = 1; p <= 24; p++) {
      expect(otherSidePoint("plakoto", p)).toBe(otherSidePoint("backgammon", p));
      expect(otherSidePoint("fevga", p)).toBe(otherSidePoint("long-nardi", p));
    }
    expect(offTray("them", "plakoto")).toEqual(offTray("them", "backgammon"));
    expect(offTray("them", "fevga")).toEqual(offTray("them", "long-nardi"));
  });

  it("stack a point's pinners on top of its pinned checker, the whole stack from the base", () => {
    const slot = pointSlot(22);
    const { pinned, pinners } = pinnedStackSpots(slot, 3);
    expect([pinned, ...pinners]).toEqual(stackSpots(slot, 4));
    expect(pinnedStackSpots(pointSlot(3), 1).pinned.y).toBeGreaterThan(pinnedStackSpots(pointSlot(3), 1).pinners[0].y); // bottom row: upwards
  });
});
