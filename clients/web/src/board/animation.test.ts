import { describe, expect, it } from "vitest";
import { afterPlay, planPlay } from "./animation";
import { barSpots, offTray, pointSlot, stackSpots } from "./geometry";
import { playEnds } from "./marks";
import type { BoardState, SideCheckers, Step, Variant } from "./model";

function side(counts: Record<number, number>, bar = 0): SideCheckers {
  const points = Array<number>(24).fill(0);
  let onBoard = bar;
  for (const [point, count] of Object.entries(counts)) {
    points[Number(point) - 1] = count;
    onBoard += count;
  }
  return { points, bar, off: 15 - onBoard };
}

function board(variant: Variant, me: SideCheckers, them: SideCheckers, dice: number[] = []): BoardState {
  return { variant, me, them, dice, diceSide: null, cube: null, pips: { me: 0, them: 0 } };
}

const step = (from: number, to: number, die: number, hit = false): Step => ({ from, to, die, hit });
const start = { 24: 2, 13: 5, 8: 3, 6: 5 };

describe("a play planned step by step", () => {
  it("slides each checker from the top of its point to the next free place, one step after the other", () => {
    const before = board("backgammon", side(start), side(start), [6, 5]);
    const planned = planPlay(before, "me", [step(24, 18, 6), step(18, 13, 5)]);
    expect(planned.map((p) => [p.step.from, p.step.to, p.hit])).toEqual([[24, 18, false], [18, 13, false]]);
    // The first checker leaves the 24 (the second of two there) for the empty 18.
    expect(planned[0].path.from).toEqual(stackSpots(pointSlot(24), 2)[1]);
    expect(planned[0].path.to).toEqual(stackSpots(pointSlot(18), 1)[0]);
    expect(planned[0].lifted.me.points[23]).toBe(1);
    expect(planned[0].lifted.me.points[17]).toBe(0);
    // The second lands on the 13 as its sixth checker (drawn on the fifth place, the stack's limit).
    expect(planned[1].path.to).toEqual(stackSpots(pointSlot(13), 5)[4]);
    expect(planned[1].landed.me.points[12]).toBe(6);
    expect(planned[1].landed.played).toHaveLength(2);
    expect(planned[1].landed.pips.me).toBe(167 - 11);
    expect(planned.every((p) => p.struck === null)).toBe(true);
  });

  it("marks the dice as they are used, the roll staying in view", () => {
    const planned = planPlay(board("backgammon", side(start), side(start)), "me", [step(13, 7, 6), step(13, 8, 5)], [6, 5]);
    expect(planned[0].lifted.played).toEqual([]);
    expect(planned[0].landed.played).toEqual([step(13, 7, 6)]);
    expect(planned[1].landed.dice).toEqual([6, 5]);
    expect(planned[1].landed.diceSide).toBe("me");
  });

  it("sends a lone checker it lands on to the other side's bar, after the mover lands", () => {
    // Their blot on their 5 is my 20: my 24 hits it with a 4.
    const before = board("backgammon", side(start), side({ 5: 1, 13: 6, 8: 3, 6: 5 }));
    const [planned] = planPlay(before, "me", [step(24, 20, 4, true)]);
    expect(planned.hit).toBe(true);
    expect(planned.struck).not.toBeNull();
    expect(planned.struck?.board.them.points[4]).toBe(0);
    expect(planned.struck?.board.them.bar).toBe(0);
    expect(planned.struck?.path.from).toEqual(stackSpots(pointSlot(20), 1)[0]);
    expect(planned.struck?.path.to).toEqual(barSpots("them", 1)[0]);
    expect(planned.landed.them.bar).toBe(1);
    expect(planned.landed.me.points[19]).toBe(1);
  });

  it("notes a hit even when the step does not say so, and none on a point of two", () => {
    const hit = planPlay(board("backgammon", side(start), side({ 5: 1, 13: 6, 8: 3, 6: 5 })), "me", [step(24, 20, 4)]);
    expect(hit[0].hit).toBe(true);
    const made = planPlay(board("backgammon", side(start), side(start)), "me", [step(13, 8, 5)]);
    expect(made[0].hit).toBe(false);
  });

  it("plays the opponent's checkers on their own numbering, drawn on mine, and enters from their bar", () => {
    // They are on the bar; a 3 enters on their 22 (my 3), hitting my blot there.
    const before = board("backgammon", side({ 3: 1, 13: 5, 8: 3, 6: 5, 24: 1 }), side({ 13: 5, 8: 3, 6: 5, 24: 1 }, 1));
    const [entered] = planPlay(before, "them", [step(25, 22, 3)]);
    expect(entered.path.from).toEqual(barSpots("them", 1)[0]);
    expect(entered.path.to).toEqual(stackSpots(pointSlot(3), 1)[0]);
    expect(entered.hit).toBe(true);
    expect(entered.struck?.path.to).toEqual(barSpots("me", 1)[0]);
    expect(entered.landed.them.bar).toBe(0);
    expect(entered.landed.them.points[21]).toBe(1);
    expect(entered.landed.me.points[2]).toBe(0);
    expect(entered.landed.me.bar).toBe(1);
  });

  it("bears off into the mover's tray", () => {
    const before = board("backgammon", side({ 1: 2, 2: 1 }), side(start));
    const planned = planPlay(before, "me", [step(2, 0, 6), step(1, 0, 1)]);
    const tray = offTray("me", "backgammon");
    expect(planned[0].path.to).toEqual({ x: tray.x + tray.width / 2, y: tray.y + tray.height / 2 });
    expect(planned[1].landed.me.off).toBe(14);
    expect(planned[1].landed.me.points.slice(0, 2)).toEqual([1, 0]);
    const theirs = planPlay(board("long-nardi", side(start), side({ 3: 1 })), "them", [step(3, 0, 4)]);
    const theirTray = offTray("them", "long-nardi");
    expect(theirs[0].path.to.x).toBe(theirTray.x + theirTray.width / 2);
    expect(theirs[0].landed.them.off).toBe(15);
  });

  it("never hits in long nardi: a checker passes to a point beside a lone opponent", () => {
    // Long nardi: their 24 (the head) is my 12; my 13 moving 1 lands on my 12's neighbour, not on them.
    const before = board("long-nardi", side({ 24: 14, 13: 1 }), side({ 24: 14, 20: 1 }));
    const planned = planPlay(before, "me", [step(24, 18, 6), step(13, 10, 3)]);
    expect(planned.every((p) => !p.hit && p.struck === null)).toBe(true);
    expect(planned[1].landed.them).toEqual(before.them);
    // Their 20 is drawn on my 8.
    const theirs = planPlay(before, "them", [step(20, 15, 5)]);
    expect(theirs[0].path.from).toEqual(stackSpots(pointSlot(8), 1)[0]);
    expect(theirs[0].path.to).toEqual(stackSpots(pointSlot(3), 1)[0]);
  });

  it("refuses a step from a point the mover has no checker on", () => {
    expect(() => planPlay(board("backgammon", side(start), side(start)), "me", [step(20, 14, 6)])).toThrow(RangeError);
  });

  it("gives the board after the whole play, or the board itself for no play", () => {
    const before = board("backgammon", side(start), side(start));
    expect(afterPlay(before, "them", []).them).toEqual(before.them);
    expect(afterPlay(before, "them", [step(13, 7, 6), step(13, 8, 5)]).them.points.slice(6, 13)).toEqual([1, 4, 0, 0, 0, 0, 3]);
  });
});

describe("the last play's marks", () => {
  it("mark where checkers left from and went to, not the points passed through", () => {
    expect(playEnds({ side: "me", steps: [step(24, 18, 6), step(18, 13, 5)] })).toEqual({ from: [24], to: [13] });
    expect(playEnds({ side: "them", steps: [step(13, 7, 6), step(13, 8, 5)] })).toEqual({ from: [13], to: [7, 8] });
    expect(playEnds({ side: "me", steps: [step(25, 20, 5), step(6, 0, 6)] })).toEqual({ from: [25, 6], to: [20, 0] });
  });
});
