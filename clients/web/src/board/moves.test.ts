import { describe, expect, it } from "vitest";
import type { BoardState, SideCheckers, Step } from "./model";
import { fixtures, type Fixture } from "./moves.fixtures";
import { BAR, MoveInput, OFF, applyStep, diceLeft, diceShown, diceToPlay, pipCount, stepFor } from "./moves";

function side(counts: Record<number, number>): SideCheckers {
  const points = Array<number>(24).fill(0);
  let onBoard = 0;
  for (const [point, count] of Object.entries(counts)) {
    if (Number(point) !== BAR) points[Number(point) - 1] = count;
    onBoard += count;
  }
  return { points, bar: counts[BAR] ?? 0, off: 15 - onBoard };
}

function boardOf(f: Pick<Fixture, "variant" | "me" | "them" | "dice">): BoardState {
  const me = side(f.me);
  const them = side(f.them);
  return {
    variant: f.variant,
    me,
    them,
    dice: f.dice,
    diceSide: "me",
    cube: f.variant === "backgammon" ? { value: 1, owner: null } : null,
    pips: { me: pipCount(me), them: pipCount(them) },
  };
}

function inputFor(f: Fixture): MoveInput {
  return new MoveInput(boardOf(f), f.plays);
}

/** Plays "from/to" moves one by one, failing on the first one not allowed. */
function play(input: MoveInput, ...moves: string[]): void {
  for (const move of moves) {
    const [from, to] = move.split("/").map((p) => (p === "bar" ? BAR : p === "off" ? OFF : Number(p)));
    expect(input.move(from, to), `${move} after ${JSON.stringify(input.partial)}`).not.toBeNull();
  }
}

const targets = (input: MoveInput, from: number) => [...input.destinations(from).keys()].sort((a, b) => b - a);

describe("the dice", () => {
  it("a double is four dice", () => {
    expect(diceToPlay([3, 3])).toEqual([3, 3, 3, 3]);
    expect(diceToPlay([6, 5])).toEqual([6, 5]);
  });

  it("marks each die a step used, once", () => {
    const steps: Step[] = [{ from: 13, to: 10, die: 3, hit: false }, { from: 10, to: 7, die: 3, hit: false }];
    expect(diceShown([3, 3], steps)).toEqual([
      { value: 3, used: true }, { value: 3, used: true }, { value: 3, used: false }, { value: 3, used: false },
    ]);
    expect(diceLeft([6, 5], [{ from: 13, to: 8, die: 5, hit: false }])).toEqual([6]);
  });
});

describe("a step on the board", () => {
  it("moves my checker and sends a hit blot to the opponent's bar (their point 25 - mine)", () => {
    const board = applyStep(boardOf(fixtures.barEntry42), { from: BAR, to: 21, die: 4, hit: false });
    const step = stepFor(board, 6, 2)!;
    expect(step).toEqual({ from: 6, to: 4, die: 2, hit: true });
    const after = applyStep(board, step);
    expect(after.me.points[3]).toBe(1);
    expect(after.me.points[5]).toBe(4);
    expect(after.them.points[20]).toBe(0);
    expect(after.them.bar).toBe(1);
    expect(after.pips.them).toBe(board.pips.them + 4);
    expect(after.pips.me).toBe(board.pips.me - 2);
  });

  it("never lands on a point the opponent holds with two", () => {
    const board = boardOf(fixtures.backgammonStart65);
    expect(stepFor(board, 24, 5)).toBeNull(); // my 19 is their 6
  });

  it("must enter from the bar first", () => {
    const board = boardOf(fixtures.barEntry42);
    expect(stepFor(board, 13, 2)).toBeNull();
    expect(stepFor(board, BAR, 4)).toEqual({ from: BAR, to: 21, die: 4, hit: false });
  });

  it("bears off with a higher die only from the highest point", () => {
    const board = boardOf(fixtures.bearOffFromBelow62);
    expect(stepFor(board, 5, 6)).toEqual({ from: 5, to: OFF, die: 6, hit: false });
    expect(stepFor(board, 3, 6)).toBeNull();
    expect(stepFor(boardOf(fixtures.backgammonStart65), 6, 6)).toBeNull(); // not all home
  });

  it("in long nardi any opposing checker blocks and nothing is hit", () => {
    const board = boardOf(fixtures.nardiMiddle43);
    expect(stepFor(board, 16, 4)).toBeNull(); // my 12 is their head
    expect(stepFor(board, 24, 4)).toEqual({ from: 24, to: 20, die: 4, hit: false });
    expect(board.me.bar).toBe(0);
  });
});

describe("backgammon opening 6-5", () => {
  it("offers the checkers that can move and their points, 24/13 in one gesture", () => {
    const input = inputFor(fixtures.backgammonStart65);
    expect(input.sources()).toEqual([24, 13, 8]);
    expect(targets(input, 24)).toEqual([18, 13]);
    expect(targets(input, 6)).toEqual([]);
  });

  it("records 24/13 as its two steps and recognises the play", () => {
    const input = inputFor(fixtures.backgammonStart65);
    play(input, "24/13");
    expect(input.partial).toEqual([
      { from: 24, to: 18, die: 6, hit: false },
      { from: 18, to: 13, die: 5, hit: false },
    ]);
    expect(input.complete()?.notation).toBe("24/13");
    expect(input.dice).toEqual([]);
  });

  it("recognises a play made in another order than the server lists", () => {
    const input = inputFor(fixtures.backgammonStart65);
    play(input, "13/8");
    expect(input.complete()).toBeNull();
    expect(input.dice).toEqual([6]);
    play(input, "24/18");
    expect(input.complete()?.notation).toBe("24/18 13/8");
  });

  it("recognises 13/2 played by the other intermediate point", () => {
    const input = inputFor(fixtures.backgammonStart65);
    play(input, "13/8", "8/2");
    expect(input.complete()?.notation).toBe("13/2");
  });

  it("takes back the last step and every step", () => {
    const input = inputFor(fixtures.backgammonStart65);
    play(input, "24/13");
    expect(input.undo()).toBe(true);
    expect(input.partial).toEqual([{ from: 24, to: 18, die: 6, hit: false }]);
    expect(input.board.me.points[17]).toBe(1);
    expect(input.undoAll()).toBe(true);
    expect(input.partial).toEqual([]);
    expect(input.board).toBe(input.start);
    expect(input.undo()).toBe(false);
  });
});

describe("clicks", () => {
  it("select, deselect, move, and switch to another checker", () => {
    const input = inputFor(fixtures.backgammonStart65);
    expect(input.click(24)).toEqual({ kind: "selected", from: 24 });
    expect(input.click(24)).toEqual({ kind: "deselected" });
    input.click(24);
    expect(input.click(13)).toEqual({ kind: "moved", steps: input.partial });
    expect(input.selected).toBeNull();
    expect(input.complete()?.notation).toBe("24/13");
  });

  it("a selected checker clicked to a point it cannot reach is an illegal attempt", () => {
    const input = inputFor(fixtures.backgammonStart65);
    input.click(24);
    expect(input.click(19)).toEqual({ kind: "illegal", attempted: { from: 24, to: 19 } });
    expect(input.selected).toBe(24);
    expect(input.click(8)).toEqual({ kind: "selected", from: 8 });
  });

  it("a checker with no legal move is an illegal attempt with the first die left", () => {
    const input = inputFor(fixtures.backgammonStart65);
    expect(input.click(6)).toEqual({ kind: "illegal", attempted: { from: 6, to: 0 } });
    expect(input.click(20)).toEqual({ kind: "ignored" }); // nothing of mine there
    const entering = inputFor(fixtures.barEntry42);
    expect(entering.click(13)).toEqual({ kind: "illegal", attempted: { from: 13, to: 9 } });
  });
});

describe("bar entry", () => {
  it("only the bar may move while a checker is on it, then any checker", () => {
    const input = inputFor(fixtures.barEntry42);
    expect(input.sources()).toEqual([BAR]);
    expect(targets(input, BAR)).toEqual([23, 21]);
    play(input, "bar/21");
    expect(input.sources()).toEqual([24, 13, 8, 6]); // not 21: 21/19 lands on their 6-point
    play(input, "6/4");
    expect(input.partial[1].hit).toBe(true);
    expect(input.board.them.bar).toBe(1);
    expect(input.complete()?.notation).toBe("bar/21 6/4*");
  });

  it("a checker may enter and move on in one gesture", () => {
    const input = inputFor(fixtures.barEntry42);
    expect(targets(input, BAR)).toEqual([23, 21]); // 19 (bar/21/19 or bar/23/19) is no legal play
    const twoOnBar = inputFor(fixtures.twoOnBar44);
    expect(targets(twoOnBar, BAR)).toEqual([21]); // the second must enter before the first moves on
  });

  it("enters what it can and loses the rest of the roll", () => {
    const input = inputFor(fixtures.twoOnBar64);
    expect(targets(input, BAR)).toEqual([21]);
    play(input, "bar/21");
    expect(input.complete()?.notation).toBe("bar/21");
    expect(input.sources()).toEqual([]);
    expect(input.dice).toEqual([6]);
  });

  it("a roll with no legal step is complete at once", () => {
    const input = inputFor(fixtures.noPlay);
    expect(input.sources()).toEqual([]);
    expect(input.complete()?.notation).toBe("");
  });
});

describe("doubles", () => {
  it("give four steps, one checker up to four dice in one gesture", () => {
    const input = inputFor(fixtures.backgammonStart33);
    expect(input.dice).toEqual([3, 3, 3, 3]);
    expect(targets(input, 13)).toEqual([10, 7, 4]); // not 1: their 24-point, held
    play(input, "13/4");
    expect(input.partial.map((s) => s.die)).toEqual([3, 3, 3]);
    expect(input.dice).toEqual([3]);
    play(input, "24/21");
    expect(input.complete()?.notation).toBe("24/21 13/4");
  });

  it("recognise the same checkers moved in any order", () => {
    const input = inputFor(fixtures.backgammonStart33);
    play(input, "6/3", "8/5", "8/5", "6/3");
    expect(input.complete()?.notation).toBe("8/5(2) 6/3(2)");
  });
});

describe("bearing off", () => {
  it("with a higher die", () => {
    const input = inputFor(fixtures.bearOffHigher65);
    expect(targets(input, 3)).toEqual([OFF]);
    expect(targets(input, 2)).toEqual([]); // the 3s go first
    play(input, "3/off");
    expect(input.partial).toEqual([{ from: 3, to: OFF, die: 5, hit: false }]); // the smaller die that does it
    play(input, "3/off");
    expect(input.complete()?.notation).toBe("3/off(2)");
  });

  it("the last checker off with one die is the play the server writes with two", () => {
    const input = inputFor(fixtures.lastChecker61);
    expect(targets(input, 2)).toEqual([1, OFF]);
    play(input, "2/off");
    expect(input.partial).toEqual([{ from: 2, to: OFF, die: 6, hit: false }]);
    expect(input.complete()?.notation).toBe("2/off");
  });

  it("a position is the play whatever dice reached it", () => {
    const input = inputFor(fixtures.bearOffFromBelow62);
    play(input, "5/off");
    // 5/off with the 6 leaves 3 and 1, the position of "5/off" (5/3/off); 3/1 may still follow.
    expect(input.complete()?.notation).toBe("5/off");
    play(input, "3/1");
    expect(input.complete()?.notation).toBe("5/off 3/1");
  });
});

describe("a hit on the way", () => {
  it("24/13 goes by 18 and hits there when that is the only way", () => {
    const input = inputFor(fixtures.hitOnTheWay65);
    play(input, "24/13");
    expect(input.partial.map((s) => s.hit)).toEqual([true, false]);
    expect(input.board.them.bar).toBe(1);
    expect(input.complete()?.notation).toBe("24/18*/13");
  });
});

describe("long nardi", () => {
  it("lets one checker leave the head", () => {
    const input = inputFor(fixtures.nardiStart65);
    expect(input.sources()).toEqual([24]);
    expect(targets(input, 24)).toEqual([19, 18, 13]);
    play(input, "24/18");
    expect(input.sources()).toEqual([18]);
    expect(input.click(24)).toEqual({ kind: "illegal", attempted: { from: 24, to: 19 } });
    play(input, "18/13");
    expect(input.complete()?.notation).toBe("24/13");
  });

  it("lets two leave the head on a first 6-6 and never lands on the opponent's head", () => {
    const input = inputFor(fixtures.nardiStart66);
    expect(targets(input, 24)).toEqual([18]); // 18/12 is their head
    play(input, "24/18", "24/18");
    expect(input.complete()?.notation).toBe("24/18(2)");
    expect(input.sources()).toEqual([]);
  });

  it("goes round a blocked point by the other die", () => {
    const input = inputFor(fixtures.nardiMiddle43);
    expect(targets(input, 16)).toEqual([13, 9]);
    play(input, "16/9");
    expect(input.partial.map((s) => s.to)).toEqual([13, 9]);
    expect(input.complete()?.notation).toBe("16/9");
  });

  it("recognises a head checker moved in the other order", () => {
    const input = inputFor(fixtures.nardiMiddle43);
    play(input, "24/21", "21/17");
    expect(input.complete()?.notation).toBe("24/17");
    expect(input.board.pips.me).toBe(input.start.pips.me - 7);
  });
});
