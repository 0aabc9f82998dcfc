import { describe, expect, it } from "vitest";
import { durationMs } from "@bufbuild/protobuf/wkt";
import { FevgaPrimes, FevgaQuarterTest, FirstChecker, HomeHitAndRun, Variant } from "../gen/tavli/v1/board_pb";
import { Backgammons, CubeMode, MatchOpenings, Opening } from "../gen/tavli/v1/games_service_pb";
import { DEFAULT_SETTINGS, computerMatchRefusal, loadSettings, normalizeSettings, saveSettings, toRuleSet, type Settings } from "./settings";

function settings(changes: Partial<Settings>): Settings {
  return { ...DEFAULT_SETTINGS, ...changes };
}

class MemoryStorage {
  private items = new Map<string, string>();
  get length() {
    return this.items.size;
  }
  clear() {
    this.items.clear();
  }
  getItem(key: string) {
    return this.items.get(key) ?? null;
  }
  key(i: number) {
    return [...this.items.keys()][i] ?? null;
  }
  removeItem(key: string) {
    this.items.delete(key);
  }
  setItem(key: string, value: string) {
    this.items.set(key, value);
  }
}

describe("the rule set the settings make", () => {
  it("a backgammon match keeps Crawford and leaves the money-play options out", () => {
    const rules = toRuleSet(settings({ matchLength: 7, crawford: false, jacoby: true, beavers: true, automaticDoubles: true }));
    expect(rules.variant).toBe(Variant.BACKGAMMON);
    expect(rules.matchLength).toBe(7);
    expect(rules.cube).toBe(CubeMode.CUBE);
    expect(rules.crawford).toBe(false);
    expect(rules.jacoby).toBe(false);
    expect(rules.beavers).toBe(false);
    expect(rules.automaticDoubles).toBe(false);
    expect(rules.clock).toBeUndefined();
  });

  it("money play takes Jacoby, beavers and automatic doubles, and no Crawford", () => {
    const rules = toRuleSet(settings({ matchLength: 0, jacoby: true, beavers: true, automaticDoubles: true, automaticDoublesLimit: 2, matchOpenings: "winner-opens" }));
    expect(rules.jacoby).toBe(true);
    expect(rules.beavers).toBe(true);
    expect(rules.automaticDoubles).toBe(true);
    expect(rules.automaticDoublesLimit).toBe(2);
    expect(rules.crawford).toBeUndefined();
    expect(rules.matchOpenings).toBe(MatchOpenings.EVERY_GAME);
  });

  it("the cube off takes every cube option with it", () => {
    const rules = toRuleSet(settings({ matchLength: 0, cube: false, cubeLimit: 8, jacoby: true, beavers: true }));
    expect(rules.cube).toBe(CubeMode.NO_CUBE);
    expect(rules.cubeLimit).toBeUndefined();
    expect(rules.jacoby).toBe(false);
    expect(rules.beavers).toBe(false);
  });

  it("a cube limit is sent when one is chosen (0: no limit)", () => {
    expect(toRuleSet(settings({ cubeLimit: 0 })).cubeLimit).toBe(0);
    expect(toRuleSet(settings({ cubeLimit: 16 })).cubeLimit).toBe(16);
    expect(toRuleSet(settings({ cubeLimit: null })).cubeLimit).toBeUndefined();
  });

  it("a 1-point match has no cube, whatever the cube setting", () => {
    expect(toRuleSet(settings({ matchLength: 1, cube: true })).cube).toBe(CubeMode.NO_CUBE);
    expect(toRuleSet(settings({ matchLength: 3, cube: true })).cube).toBe(CubeMode.CUBE);
  });

  it("long nardi has no cube and one opening", () => {
    const rules = toRuleSet(settings({ variant: "long-nardi", matchLength: 0, cube: true, jacoby: true, opening: "play-opening-dice" }));
    expect(rules.variant).toBe(Variant.LONG_NARDI);
    expect(rules.cube).toBe(CubeMode.NO_CUBE);
    expect(rules.jacoby).toBe(false);
    expect(rules.opening).toBe(Opening.WINNER_ROLLS_AGAIN);
  });

  it("openings as chosen", () => {
    expect(toRuleSet(settings({ opening: "winner-rolls-again" })).opening).toBe(Opening.WINNER_ROLLS_AGAIN);
    expect(toRuleSet(settings({ matchLength: 3, matchOpenings: "winner-opens" })).matchOpenings).toBe(MatchOpenings.WINNER_OPENS);
  });

  it("a clock in seconds, the reserve per point only in a match", () => {
    const rules = toRuleSet(settings({ matchLength: 5, clockReserve: 300, clockPerPoint: 60, clockDelay: 8.5, clockMoveLimit: 120 }));
    expect(durationMs(rules.clock!.reserve!)).toBe(300000);
    expect(durationMs(rules.clock!.reservePerPoint!)).toBe(60000);
    expect(durationMs(rules.clock!.delay!)).toBe(8500);
    expect(durationMs(rules.clock!.moveLimit!)).toBe(120000);
    const money = toRuleSet(settings({ matchLength: 0, clockReserve: 60, clockPerPoint: 60 }));
    expect(money.clock!.reservePerPoint).toBeUndefined();
  });

  it("forced plays played by the server when asked", () => {
    expect(toRuleSet(settings({ autoPlayForced: true })).autoPlayForced).toBe(true);
    expect(toRuleSet(settings({ autoPlayForced: false })).autoPlayForced).toBe(false);
  });
});

describe("settings remembered", () => {
  it("come back as they were saved", () => {
    const storage = new MemoryStorage() as unknown as Storage;
    const chosen = settings({ variant: "long-nardi", matchLength: 0, name: "Anna", clockReserve: 90 });
    saveSettings("computer", chosen, storage);
    expect(loadSettings("computer", storage)).toEqual(chosen);
    expect(loadSettings("table", storage)).toEqual(DEFAULT_SETTINGS);
  });

  it("survive rubbish in storage", () => {
    const storage = new MemoryStorage() as unknown as Storage;
    storage.setItem("tavli.settings.table", "{not json");
    expect(loadSettings("table", storage)).toEqual(DEFAULT_SETTINGS);
    expect(normalizeSettings({ matchLength: -3, variant: "chess", clockDelay: "x" })).toEqual(DEFAULT_SETTINGS);
  });
});

describe("the longest match the computer plays", () => {
  it("allows every match up to the server's longest, and money play", () => {
    expect(computerMatchRefusal(25, 25)).toBe("");
    expect(computerMatchRefusal(1, 25)).toBe("");
    expect(computerMatchRefusal(0, 25)).toBe("");
  });

  it("refuses a longer match in words that say what to choose", () => {
    expect(computerMatchRefusal(26, 25)).toBe("The computer plays matches of up to 25 points (or money play, 0): choose 25 or fewer.");
    expect(computerMatchRefusal(32767, 7)).toContain("up to 7 points");
  });

  it("leaves the answer to the server when it does not say its longest", () => {
    expect(computerMatchRefusal(99, 0)).toBe("");
  });
});

describe("the Greek games' settings", () => {
  it("make Plakoto, Fevga and tavli match rule sets with only the options each has", () => {
    const chosen = { matchLength: 3, cube: true, crawford: true, backgammons: "as-gammon", homeHitAndRun: "forbidden", opening: "play-opening-dice" } as const;
    const plakoto = toRuleSet(settings({ ...chosen, variant: "plakoto" }));
    expect([plakoto.variant, plakoto.cube, plakoto.opening]).toEqual([Variant.PLAKOTO, CubeMode.NO_CUBE, Opening.PLAY_OPENING_DICE]);
    expect([plakoto.crawford, plakoto.backgammons, plakoto.homeHitAndRun]).toEqual([undefined, Backgammons.UNSPECIFIED, HomeHitAndRun.UNSPECIFIED]);
    const fevga = toRuleSet(settings({ ...chosen, variant: "fevga" }));
    expect([fevga.variant, fevga.cube, fevga.opening, fevga.backgammons]).toEqual([Variant.FEVGA, CubeMode.NO_CUBE, Opening.WINNER_ROLLS_AGAIN, Backgammons.UNSPECIFIED]);
    const tavli = toRuleSet(settings({ ...chosen, variant: "tavli" }));
    expect([tavli.variant, tavli.matchLength, tavli.cube, tavli.opening, tavli.crawford]).toEqual([Variant.TAVLI, 3, CubeMode.NO_CUBE, Opening.WINNER_ROLLS_AGAIN, undefined]);
    expect([tavli.backgammons, tavli.homeHitAndRun]).toEqual([Backgammons.AS_GAMMON, HomeHitAndRun.UNSPECIFIED]); // Portes's option only
  });

  it("send Plakoto's options to Plakoto and the tavli match only, and only where they depart from the book", () => {
    const asWritten = toRuleSet(settings({ variant: "plakoto", matchLength: 3 }));
    expect([asWritten.pinnedBlocksBearOff, asWritten.motherException, asWritten.motherValue]).toEqual([undefined, undefined, 0]);
    const house = { pinnedBlocksBearOff: false, motherException: false, motherValue: 3 } as const;
    for (const variant of ["plakoto", "tavli"] as const) {
      const rules = toRuleSet(settings({ ...house, variant, matchLength: 3 }));
      expect([rules.pinnedBlocksBearOff, rules.motherException, rules.motherValue]).toEqual([false, false, 3]);
    }
    for (const variant of ["backgammon", "long-nardi", "fevga"] as const) {
      const rules = toRuleSet(settings({ ...house, variant, matchLength: 3 }));
      expect([rules.pinnedBlocksBearOff, rules.motherException, rules.motherValue]).toEqual([undefined, undefined, 0]);
    }
  });

  it("send Fevga's options to Fevga and the tavli match only, the quarter test with the starting-quarter rule only", () => {
    const asWritten = toRuleSet(settings({ variant: "fevga", matchLength: 3 }));
    expect([asWritten.firstChecker, asWritten.fevgaPrimes, asWritten.fevgaQuarterTest]).toEqual([FirstChecker.UNSPECIFIED, FevgaPrimes.UNSPECIFIED, FevgaQuarterTest.UNSPECIFIED]);
    for (const variant of ["fevga", "tavli"] as const) {
      const stepped = toRuleSet(settings({ variant, matchLength: 3, firstChecker: "into-start-quarter", fevgaQuarterTest: "step" }));
      expect([stepped.firstChecker, stepped.fevgaPrimes, stepped.fevgaQuarterTest]).toEqual([FirstChecker.INTO_START_QUARTER, FevgaPrimes.UNSPECIFIED, FevgaQuarterTest.STEP]);
      const nardi = toRuleSet(settings({ variant, matchLength: 3, fevgaPrimes: "no-prime-unless-passed", fevgaQuarterTest: "step" }));
      expect([nardi.fevgaPrimes, nardi.fevgaQuarterTest]).toEqual([FevgaPrimes.NO_PRIME_UNLESS_PASSED, FevgaQuarterTest.UNSPECIFIED]);
      expect(toRuleSet(settings({ variant, matchLength: 3, fevgaPrimes: "none" })).fevgaPrimes).toBe(FevgaPrimes.NONE);
    }
    const plakoto = toRuleSet(settings({ variant: "plakoto", matchLength: 3, firstChecker: "into-start-quarter", fevgaPrimes: "none", fevgaQuarterTest: "step" }));
    expect([plakoto.firstChecker, plakoto.fevgaPrimes, plakoto.fevgaQuarterTest]).toEqual([FirstChecker.UNSPECIFIED, FevgaPrimes.UNSPECIFIED, FevgaQuarterTest.UNSPECIFIED]);
  });

  it("read the Greek games' options back, a stored value no option has defaulted", () => {
    const chosen = { pinnedBlocksBearOff: false, motherException: false, motherValue: 3, firstChecker: "into-start-quarter", fevgaPrimes: "none", fevgaQuarterTest: "step" };
    expect(normalizeSettings(JSON.parse(JSON.stringify(chosen)))).toMatchObject(chosen);
    const made = normalizeSettings({ pinnedBlocksBearOff: "no", motherValue: 4, firstChecker: "toString", fevgaPrimes: "NONE", fevgaQuarterTest: 2 });
    expect([made.pinnedBlocksBearOff, made.motherValue, made.firstChecker, made.fevgaPrimes, made.fevgaQuarterTest]).toEqual([true, 2, "past-start", "start-quarter-and-unblock", "play"]);
  });

  it("keep a stored Greek variant and refuse a made-up one", () => {
    for (const variant of ["plakoto", "fevga", "tavli"]) {
      expect(normalizeSettings({ variant }).variant).toBe(variant);
    }
    expect(normalizeSettings({ variant: "toString" }).variant).toBe("backgammon");
  });
});
