// The options of a new game as the home screen's forms hold them, kept in localStorage, and the
// RuleSet they make. Every house custom of RULES.md is one option here; what a variant or a mode
// does not have (a cube in long nardi, beavers in a match) is left out of the rule set it makes.

import { create } from "@bufbuild/protobuf";
import { durationFromMs } from "@bufbuild/protobuf/wkt";
import { FevgaPrimes, FevgaQuarterTest, FirstChecker, HomeHitAndRun, Variant } from "../gen/tavli/v1/board_pb";
import {
  Backgammons,
  ClockRulesSchema,
  CubeMode,
  MatchOpenings,
  Opening,
  RuleSetSchema,
  type RuleSet,
} from "../gen/tavli/v1/games_service_pb";

export type VariantName = "backgammon" | "long-nardi" | "plakoto" | "fevga" | "tavli";

/** Each variant a player can choose and the API's name for it (a tavli match is Portes, Plakoto and
 *  Fevga in turn). */
export const VARIANT_ENUMS: Readonly<Record<VariantName, Variant>> = Object.freeze({
  backgammon: Variant.BACKGAMMON,
  "long-nardi": Variant.LONG_NARDI,
  plakoto: Variant.PLAKOTO,
  fevga: Variant.FEVGA,
  tavli: Variant.TAVLI,
});

/** The games a variant's match is made of: a tavli match's three, or the variant itself. */
export function gamesPlayed(variant: VariantName): Variant[] {
  return variant === "tavli" ? [Variant.BACKGAMMON, Variant.PLAKOTO, Variant.FEVGA] : [VARIANT_ENUMS[variant]];
}

function isVariantName(value: unknown): value is VariantName {
  return typeof value === "string" && Object.hasOwn(VARIANT_ENUMS, value);
}
export type OpeningName = "play-opening-dice" | "winner-rolls-again";
export type MatchOpeningsName = "every-game" | "winner-opens" | "alternate";
export type BackgammonsName = "counted" | "as-gammon";
export type HomeHitAndRunName = "allowed" | "forbidden";
export type FirstCheckerName = "past-start" | "into-start-quarter";
export type FevgaPrimesName = "start-quarter-and-unblock" | "no-prime-unless-passed" | "none";
export type FevgaQuarterTestName = "play" | "step";

/** Each Fevga option's values, the rule book's default first, and the API's value for each. */
const FIRST_CHECKERS: Readonly<Record<FirstCheckerName, FirstChecker>> = Object.freeze({
  "past-start": FirstChecker.PAST_START,
  "into-start-quarter": FirstChecker.INTO_START_QUARTER,
});
const FEVGA_PRIMES: Readonly<Record<FevgaPrimesName, FevgaPrimes>> = Object.freeze({
  "start-quarter-and-unblock": FevgaPrimes.START_QUARTER_AND_UNBLOCK,
  "no-prime-unless-passed": FevgaPrimes.NO_PRIME_UNLESS_PASSED,
  none: FevgaPrimes.NONE,
});
const FEVGA_QUARTER_TESTS: Readonly<Record<FevgaQuarterTestName, FevgaQuarterTest>> = Object.freeze({
  play: FevgaQuarterTest.PLAY,
  step: FevgaQuarterTest.STEP,
});

export interface Settings {
  variant: VariantName;
  /** The bot's name (ListBots); "" for the server's default. */
  bot: string;
  /** Points; 0 for money play. */
  matchLength: number;
  name: string;
  cube: boolean;
  /** The cube's highest value; null for the default (64), 0 for no limit. */
  cubeLimit: number | null;
  crawford: boolean;
  jacoby: boolean;
  beavers: boolean;
  automaticDoubles: boolean;
  automaticDoublesLimit: number;
  opening: OpeningName;
  matchOpenings: MatchOpeningsName;
  autoPlayForced: boolean;
  /** How a backgammon scores: as the book says (counted, x3) or as a gammon. */
  backgammons: BackgammonsName;
  /** Whether a checker that hits in its home board may move on (forbidden: Turkish tavla). */
  homeHitAndRun: HomeHitAndRunName;
  /** Plakoto: whether a pinned checker of a side stops its bear-off. */
  pinnedBlocksBearOff: boolean;
  /** Plakoto: whether a pinned mother loses only once the pinner has no checker left on its own 24-point. */
  motherException: boolean;
  /** Plakoto: what a mother loss is worth, 2 or 3 points. */
  motherValue: number;
  /** Fevga: when the first checker frees the others. */
  firstChecker: FirstCheckerName;
  /** Fevga: which six-point primes are forbidden. */
  fevgaPrimes: FevgaPrimesName;
  /** Fevga: whether the starting-quarter rule is tested on the whole play or on every step. */
  fevgaQuarterTest: FevgaQuarterTestName;
  /** Clock times in seconds; null when not set (all null: no clock). */
  clockReserve: number | null;
  clockPerPoint: number | null;
  clockDelay: number | null;
  clockMoveLimit: number | null;
}

export const DEFAULT_SETTINGS: Readonly<Settings> = Object.freeze({
  variant: "backgammon",
  bot: "",
  matchLength: 5,
  name: "",
  cube: true,
  cubeLimit: null,
  crawford: true,
  jacoby: false,
  beavers: false,
  automaticDoubles: false,
  automaticDoublesLimit: 1,
  opening: "play-opening-dice",
  matchOpenings: "every-game",
  autoPlayForced: true,
  backgammons: "counted",
  homeHitAndRun: "allowed",
  pinnedBlocksBearOff: true,
  motherException: true,
  motherValue: 2,
  firstChecker: "past-start",
  fevgaPrimes: "start-quarter-and-unblock",
  fevgaQuarterTest: "play",
  clockReserve: null,
  clockPerPoint: null,
  clockDelay: null,
  clockMoveLimit: null,
});

/** Settings read back from anything (stored JSON of an older page, say): unknown fields dropped, bad ones defaulted. */
export function normalizeSettings(value: unknown): Settings {
  const raw = (typeof value === "object" && value !== null ? value : {}) as Record<string, unknown>;
  const d = DEFAULT_SETTINGS;
  const bool = (key: keyof Settings, fallback: boolean) => (typeof raw[key] === "boolean" ? (raw[key] as boolean) : fallback);
  const whole = (key: keyof Settings, fallback: number, least = 0) => {
    const n = raw[key];
    return typeof n === "number" && Number.isInteger(n) && n >= least ? n : fallback;
  };
  const optional = (key: keyof Settings) => {
    const n = raw[key];
    return typeof n === "number" && Number.isFinite(n) && n >= 0 ? n : null;
  };
  const oneOf = <Name extends string>(key: keyof Settings, values: Readonly<Record<Name, unknown>>, fallback: Name): Name => {
    const value = raw[key];
    return typeof value === "string" && Object.hasOwn(values, value) ? (value as Name) : fallback;
  };
  const variant: VariantName = isVariantName(raw.variant) ? raw.variant : "backgammon";
  return {
    variant,
    bot: typeof raw.bot === "string" ? raw.bot : d.bot,
    matchLength: whole("matchLength", d.matchLength),
    name: typeof raw.name === "string" ? raw.name.slice(0, 64) : d.name,
    cube: bool("cube", d.cube),
    cubeLimit: optional("cubeLimit"),
    crawford: bool("crawford", d.crawford),
    jacoby: bool("jacoby", d.jacoby),
    beavers: bool("beavers", d.beavers),
    automaticDoubles: bool("automaticDoubles", d.automaticDoubles),
    automaticDoublesLimit: whole("automaticDoublesLimit", d.automaticDoublesLimit, 1),
    opening: raw.opening === "winner-rolls-again" ? "winner-rolls-again" : "play-opening-dice",
    matchOpenings: raw.matchOpenings === "winner-opens" || raw.matchOpenings === "alternate" ? raw.matchOpenings : "every-game",
    autoPlayForced: bool("autoPlayForced", d.autoPlayForced),
    backgammons: raw.backgammons === "as-gammon" ? "as-gammon" : "counted",
    homeHitAndRun: raw.homeHitAndRun === "forbidden" ? "forbidden" : "allowed",
    pinnedBlocksBearOff: bool("pinnedBlocksBearOff", d.pinnedBlocksBearOff),
    motherException: bool("motherException", d.motherException),
    motherValue: raw.motherValue === 3 ? 3 : 2,
    firstChecker: oneOf("firstChecker", FIRST_CHECKERS, d.firstChecker),
    fevgaPrimes: oneOf("fevgaPrimes", FEVGA_PRIMES, d.fevgaPrimes),
    fevgaQuarterTest: oneOf("fevgaQuarterTest", FEVGA_QUARTER_TESTS, d.fevgaQuarterTest),
    clockReserve: optional("clockReserve"),
    clockPerPoint: optional("clockPerPoint"),
    clockDelay: optional("clockDelay"),
    clockMoveLimit: optional("clockMoveLimit"),
  };
}

/** Whether the variant has a doubling cube at all. */
export function variantHasCube(variant: VariantName): boolean {
  return variant === "backgammon";
}

/** Whether the settings make a clock (a reserve, a reserve per point, a move limit or a delay given). */
export function hasClock(s: Settings): boolean {
  return s.clockReserve !== null || s.clockPerPoint !== null || s.clockMoveLimit !== null || s.clockDelay !== null;
}

/** Whether the variant lets the opening roll be played (backgammon and Plakoto); the others have
 *  one opening: the winner of the throw rolls again. */
export function variantHasOpeningChoice(variant: VariantName): boolean {
  return variant === "backgammon" || variant === "plakoto";
}

/** Whether the variant plays Plakoto games (Plakoto itself, or a tavli match), and so has its options. */
export function variantPlaysPlakoto(variant: VariantName): boolean {
  return variant === "plakoto" || variant === "tavli";
}

/** Whether the variant plays Fevga games (Fevga itself, or a tavli match), and so has its options. */
export function variantPlaysFevga(variant: VariantName): boolean {
  return variant === "fevga" || variant === "tavli";
}

/** Whether Fevga's starting-quarter rule is played, so that when it is tested can be chosen. */
export function hasStartingQuarterRule(s: Settings): boolean {
  return s.fevgaPrimes === "start-quarter-and-unblock";
}

/** The rule set the settings make, with only the options the variant and the mode have. */
export function toRuleSet(s: Settings): RuleSet {
  const money = s.matchLength === 0;
  const backgammon = s.variant === "backgammon";
  const cube = backgammon && s.cube && s.matchLength !== 1; // a 1-point match has no use for a cube
  const rules = create(RuleSetSchema, {
    variant: VARIANT_ENUMS[s.variant],
    matchLength: s.matchLength,
    cube: cube ? CubeMode.CUBE : CubeMode.NO_CUBE,
    opening: variantHasOpeningChoice(s.variant) && s.opening === "play-opening-dice"
      ? Opening.PLAY_OPENING_DICE
      : Opening.WINNER_ROLLS_AGAIN,
    matchOpenings: money
      ? MatchOpenings.EVERY_GAME
      : s.matchOpenings === "winner-opens"
        ? MatchOpenings.WINNER_OPENS
        : s.matchOpenings === "alternate"
          ? MatchOpenings.ALTERNATE
          : MatchOpenings.EVERY_GAME,
    autoPlayForced: s.autoPlayForced,
  });
  if (cube && s.cubeLimit !== null) {
    rules.cubeLimit = s.cubeLimit;
  }
  if (!money && backgammon) {
    rules.crawford = s.crawford;
  }
  if (money && cube) {
    rules.jacoby = s.jacoby;
    rules.beavers = s.beavers;
    rules.automaticDoubles = s.automaticDoubles;
    if (s.automaticDoubles) {
      rules.automaticDoublesLimit = s.automaticDoublesLimit;
    }
  }
  if ((backgammon || s.variant === "tavli") && s.backgammons === "as-gammon") {
    rules.backgammons = Backgammons.AS_GAMMON;
  }
  if (backgammon && s.homeHitAndRun === "forbidden") {
    rules.homeHitAndRun = HomeHitAndRun.FORBIDDEN;
  }
  // The Greek games' options are sent only where they depart from the rule book's defaults.
  if (variantPlaysPlakoto(s.variant)) {
    if (!s.pinnedBlocksBearOff) {
      rules.pinnedBlocksBearOff = false;
    }
    if (!s.motherException) {
      rules.motherException = false;
    }
    if (s.motherValue !== DEFAULT_SETTINGS.motherValue) {
      rules.motherValue = s.motherValue;
    }
  }
  if (variantPlaysFevga(s.variant)) {
    if (s.firstChecker !== DEFAULT_SETTINGS.firstChecker) {
      rules.firstChecker = FIRST_CHECKERS[s.firstChecker];
    }
    if (s.fevgaPrimes !== DEFAULT_SETTINGS.fevgaPrimes) {
      rules.fevgaPrimes = FEVGA_PRIMES[s.fevgaPrimes];
    }
    if (hasStartingQuarterRule(s) && s.fevgaQuarterTest !== DEFAULT_SETTINGS.fevgaQuarterTest) {
      rules.fevgaQuarterTest = FEVGA_QUARTER_TESTS[s.fevgaQuarterTest];
    }
  }
  if (hasClock(s)) {
    const seconds = (n: number) => durationFromMs(Math.round(n * 1000));
    rules.clock = create(ClockRulesSchema, {
      reserve: s.clockReserve !== null ? seconds(s.clockReserve) : undefined,
      reservePerPoint: !money && s.clockPerPoint !== null ? seconds(s.clockPerPoint) : undefined,
      delay: s.clockDelay !== null ? seconds(s.clockDelay) : undefined,
      moveLimit: s.clockMoveLimit !== null ? seconds(s.clockMoveLimit) : undefined,
    });
  }
  return rules;
}

/** The forms whose settings are kept: the home screen's two, and the lobby's seeks and challenges. */
export type SettingsFormName = "computer" | "table" | "lobby";

/** Where a form's settings are kept between visits. */
export function storageKey(form: SettingsFormName): string {
  return `tavli.settings.${form}`;
}

export function loadSettings(form: SettingsFormName, storage: Storage | undefined = safeStorage()): Settings {
  try {
    const text = storage?.getItem(storageKey(form));
    return normalizeSettings(text ? JSON.parse(text) : {});
  } catch {
    return normalizeSettings({});
  }
}

export function saveSettings(form: SettingsFormName, settings: Settings, storage: Storage | undefined = safeStorage()): void {
  try {
    storage?.setItem(storageKey(form), JSON.stringify(settings));
  } catch {
    // A full or forbidden storage: the settings are simply not remembered.
  }
}

export function safeStorage(): Storage | undefined {
  try {
    return globalThis.localStorage;
  } catch {
    return undefined;
  }
}

/**
 * Why the computer cannot play a match of `matchLength` points on a server that seats its bots at
 * matches of at most `longest` points ("" when it can; a `longest` of 0 is a server that does not
 * say, and SeatBot answers for it). Money play (0) is always allowed.
 */
export function computerMatchRefusal(matchLength: number, longest: number): string {
  if (longest <= 0 || matchLength <= longest) {
    return "";
  }
  return `The computer plays matches of up to ${longest} points (or money play, 0): choose ${longest} or fewer.`;
}
