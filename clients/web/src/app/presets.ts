// The named tables players know (International, Money, Israeli café, ...): the same data the
// server's engine reads (engine/presets.json, tavli.engine.presets), taken into the page when it
// is built. A preset fills every rule of the settings; settings whose rule set is no preset's are
// "custom".

import { equals } from "@bufbuild/protobuf";
import presetFile from "../../../../engine/presets.json";
import { RuleSetSchema } from "../gen/tavli/v1/games_service_pb";
import { normalizeSettings, toRuleSet, type Settings } from "./settings";

/** The settings a preset decides: every rule but the clock. */
const PRESET_RULES = [
  "variant", "matchLength", "cube", "cubeLimit", "crawford", "jacoby", "beavers", "automaticDoubles", "opening", "matchOpenings",
  "autoPlayForced", "backgammons", "homeHitAndRun", "pinnedBlocksBearOff", "motherException", "motherValue", "firstChecker",
  "fevgaPrimes", "fevgaQuarterTest",
] as const satisfies ReadonlyArray<keyof Settings>;

export type PresetRules = Pick<Settings, (typeof PRESET_RULES)[number]>;

export interface Preset {
  /** Its name in the data, "israeli-cafe". */
  key: string;
  title: string;
  description: string;
  rules: PresetRules;
}

/** The engine's words for an option's value as the page's settings write them: "WINNER_ROLLS_AGAIN" → "winner-rolls-again". */
function pageWord(value: unknown): unknown {
  return typeof value === "string" ? value.toLowerCase().replaceAll("_", "-") : value;
}

/** A preset of the data file (options named as the engine's RuleSet names them) as the page's settings. */
export function presetFromData(entry: { key: string; title: string; description: string; rules: Record<string, unknown> }): Preset {
  const r = entry.rules;
  const settings = normalizeSettings({
    variant: pageWord(r.variant),
    matchLength: r.match_length,
    cube: r.cube,
    cubeLimit: r.cube_limit,
    crawford: r.crawford,
    jacoby: r.jacoby,
    beavers: r.beavers,
    automaticDoubles: r.automatic_doubles,
    opening: pageWord(r.opening),
    matchOpenings: pageWord(r.match_openings),
    autoPlayForced: r.auto_play_forced,
    backgammons: pageWord(r.backgammons),
    homeHitAndRun: pageWord(r.home_hit_and_run),
    pinnedBlocksBearOff: r.pinned_blocks_bear_off,
    motherException: r.mother_exception,
    motherValue: r.mother_value,
    firstChecker: pageWord(r.first_checker),
    fevgaPrimes: pageWord(r.fevga_primes),
    fevgaQuarterTest: pageWord(r.fevga_quarter_test),
  });
  return { key: entry.key, title: entry.title, description: entry.description, rules: presetRules(settings) };
}

/** The rules of `settings` a preset decides. */
function presetRules(settings: Settings): PresetRules {
  return Object.fromEntries(PRESET_RULES.map((key) => [key, settings[key]])) as PresetRules;
}

export const PRESETS: readonly Preset[] = Object.freeze(presetFile.presets.map(presetFromData));

/** The settings with every rule of the preset (the bot, the name and the clock kept). */
export function applyPreset(settings: Settings, preset: Preset): Settings {
  return { ...settings, ...preset.rules };
}

/** The preset whose rule set the settings make, or null when they make another ("custom"). */
export function presetOf(settings: Settings): Preset | null {
  const rules = toRuleSet(settings);
  return PRESETS.find((preset) => equals(RuleSetSchema, toRuleSet(applyPreset(settings, preset)), rules)) ?? null;
}
