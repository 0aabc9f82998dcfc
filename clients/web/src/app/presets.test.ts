import { describe, expect, it } from "vitest";
import { Backgammons, CubeMode, MatchOpenings, Opening } from "../gen/tavli/v1/games_service_pb";
import { HomeHitAndRun, Variant } from "../gen/tavli/v1/board_pb";
import { PRESETS, applyPreset, presetFromData, presetOf } from "./presets";
import { DEFAULT_SETTINGS, toRuleSet, type Settings } from "./settings";

function preset(key: string) {
  const found = PRESETS.find((p) => p.key === key);
  if (!found) throw new Error(`no preset ${key}`);
  return found;
}

function settings(changes: Partial<Settings>): Settings {
  return { ...DEFAULT_SETTINGS, ...changes };
}

describe("the presets, as the engine's data file has them", () => {
  it("are the tables players know, in order", () => {
    expect(PRESETS.map((p) => p.title)).toEqual(["International", "Money", "Israeli café", "Single games", "Portes", "Turkish tavla", "Long nardi", "Plakoto", "Fevga", "Tavli match"]);
  });

  it("Plakoto, Fevga and the tavli match are matches without a cube, the winner opening the next game", () => {
    const made = (key: string) => toRuleSet(applyPreset(DEFAULT_SETTINGS, preset(key)));
    expect([made("plakoto").variant, made("fevga").variant, made("tavli").variant]).toEqual([Variant.PLAKOTO, Variant.FEVGA, Variant.TAVLI]);
    for (const key of ["plakoto", "fevga", "tavli"]) {
      const rules = made(key);
      expect(rules.matchLength).toBe(5);
      expect(rules.cube).toBe(CubeMode.NO_CUBE);
      expect(rules.crawford).toBeUndefined();
      expect(rules.opening).toBe(Opening.WINNER_ROLLS_AGAIN);
      expect(rules.matchOpenings).toBe(MatchOpenings.WINNER_OPENS);
    }
  });

  it("International is a match with the cube and Crawford", () => {
    const rules = toRuleSet(applyPreset(DEFAULT_SETTINGS, preset("international")));
    expect(rules.matchLength).toBeGreaterThan(1);
    expect(rules.cube).toBe(CubeMode.CUBE);
    expect(rules.crawford).toBe(true);
  });

  it("Money is money play with Jacoby and beavers", () => {
    const rules = toRuleSet(applyPreset(DEFAULT_SETTINGS, preset("money")));
    expect([rules.matchLength, rules.cube, rules.jacoby, rules.beavers]).toEqual([0, CubeMode.CUBE, true, true]);
  });

  it("the Israeli café has no cube, the winner of the opening throw rolls again, forced moves play themselves, a backgammon is a gammon", () => {
    const cafe = preset("israeli-cafe");
    expect(cafe.rules.backgammons).toBe("as-gammon");
    const rules = toRuleSet(applyPreset(DEFAULT_SETTINGS, cafe));
    expect([rules.cube, rules.opening, rules.autoPlayForced]).toEqual([CubeMode.NO_CUBE, Opening.WINNER_ROLLS_AGAIN, true]);
  });

  it("Single games are money play with the cube off", () => {
    const rules = toRuleSet(applyPreset(DEFAULT_SETTINGS, preset("single-games")));
    expect([rules.variant, rules.matchLength, rules.cube]).toEqual([Variant.BACKGAMMON, 0, CubeMode.NO_CUBE]);
  });

  it("Portes and Turkish tavla are matches without a cube, the winner opening the next game; in tavla the hitter stays", () => {
    for (const [key, hitAndRun] of [["portes", HomeHitAndRun.UNSPECIFIED], ["tavla", HomeHitAndRun.FORBIDDEN]] as const) {
      const rules = toRuleSet(applyPreset(DEFAULT_SETTINGS, preset(key)));
      expect([rules.variant, rules.matchLength, rules.cube, rules.opening]).toEqual([Variant.BACKGAMMON, 5, CubeMode.NO_CUBE, Opening.WINNER_ROLLS_AGAIN]);
      expect([rules.matchOpenings, rules.backgammons, rules.homeHitAndRun]).toEqual([MatchOpenings.WINNER_OPENS, Backgammons.AS_GAMMON, hitAndRun]);
    }
  });

  it("alternate openings reach the rule set in match play only", () => {
    expect(toRuleSet(settings({ matchLength: 5, matchOpenings: "alternate" })).matchOpenings).toBe(MatchOpenings.ALTERNATE);
    expect(toRuleSet(settings({ matchLength: 0, matchOpenings: "alternate" })).matchOpenings).toBe(MatchOpenings.EVERY_GAME);
  });

  it("Long nardi is long nardi", () => {
    expect(toRuleSet(applyPreset(DEFAULT_SETTINGS, preset("long-nardi"))).variant).toBe(Variant.LONG_NARDI);
  });

  it("the Greek games' options in engine words become the page's", () => {
    const made = presetFromData({
      key: "k",
      title: "T",
      description: "D",
      rules: {
        variant: "tavli", match_length: 3, pinned_blocks_bear_off: false, mother_exception: false, mother_value: 3,
        first_checker: "INTO_START_QUARTER", fevga_primes: "NO_PRIME_UNLESS_PASSED", fevga_quarter_test: "STEP",
      },
    });
    expect(made.rules).toMatchObject({
      variant: "tavli", pinnedBlocksBearOff: false, motherException: false, motherValue: 3,
      firstChecker: "into-start-quarter", fevgaPrimes: "no-prime-unless-passed", fevgaQuarterTest: "step",
    });
  });

  it("engine words become the page's", () => {
    const made = presetFromData({
      key: "k",
      title: "T",
      description: "D",
      rules: { variant: "long-nardi", match_length: 3, cube: false, opening: "WINNER_ROLLS_AGAIN", match_openings: "WINNER_OPENS", backgammons: "AS_GAMMON" },
    });
    expect(made.rules).toMatchObject({ variant: "long-nardi", matchLength: 3, opening: "winner-rolls-again", matchOpenings: "winner-opens", backgammons: "as-gammon" });
  });
});

describe("which preset the settings are", () => {
  it("each preset chosen is itself, whatever the settings were", () => {
    const before = settings({ variant: "long-nardi", matchLength: 0, jacoby: true, name: "Anna", clockReserve: 60 });
    for (const p of PRESETS) {
      const chosen = applyPreset(before, p);
      expect(presetOf(chosen)?.key).toBe(p.key);
      expect([chosen.name, chosen.clockReserve]).toEqual(["Anna", 60]);
    }
  });

  it("a rule changed after makes them custom", () => {
    const money = applyPreset(DEFAULT_SETTINGS, preset("money"));
    expect(presetOf({ ...money, beavers: false })).toBeNull();
    expect(presetOf({ ...applyPreset(DEFAULT_SETTINGS, preset("international")), matchLength: 7 })).toBeNull();
  });

  it("a Greek game's option changed after makes its preset custom; another game's option keeps it", () => {
    const plakoto = applyPreset(DEFAULT_SETTINGS, preset("plakoto"));
    expect(presetOf({ ...plakoto, motherValue: 3 })).toBeNull();
    expect(presetOf({ ...plakoto, fevgaPrimes: "none" })?.key).toBe("plakoto");
    const tavli = applyPreset(DEFAULT_SETTINGS, preset("tavli"));
    expect(presetOf({ ...tavli, firstChecker: "into-start-quarter" })).toBeNull();
    expect(presetOf(applyPreset({ ...plakoto, motherValue: 3 }, preset("plakoto")))?.key).toBe("plakoto");
  });

  it("a change to an option the rule set leaves out keeps the preset", () => {
    // With the cube off, Jacoby cannot apply: single games stay single games.
    const single = applyPreset(DEFAULT_SETTINGS, preset("single-games"));
    expect(presetOf({ ...single, jacoby: true })?.key).toBe("single-games");
  });
});
