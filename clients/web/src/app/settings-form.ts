// The settings panel of a new game, shared by "play against the computer", "a table for two" and
// the lobby's seeks and challenges: the same fields under the same test ids, those of the table
// prefixed "table-", the lobby's "lobby-". Its basics (the preset, the bot, the name) are in view;
// every rule folds under "Rules", closed at first.

import type { BotInfo } from "../gen/tavli/v1/bots_service_pb";
import { field, h, uid } from "./dom";
import { CUSTOM, buildPresetPicker } from "./preset-picker";
import { PRESETS, applyPreset, presetOf } from "./presets";
import {
  computerMatchRefusal, gamesPlayed, hasStartingQuarterRule, normalizeSettings, variantHasCube, variantHasOpeningChoice,
  variantPlaysFevga, variantPlaysPlakoto, type Settings, type VariantName,
} from "./settings";

export interface SettingsForm {
  /** The preset, the bot (computer form only) and the name, to show first. */
  basics: HTMLElement;
  /** Every rule, in a disclosure "Rules", closed by default. */
  rules: HTMLDetailsElement;
  read(): Settings;
  /** Shows the bots that play the chosen variant, and limits the match length to `longestMatch`
   * points, the longest the server seats a bot at (computer form only; 0: not limited). */
  setBots(bots: BotInfo[], longestMatch: number): void;
  /** Why a game of these settings cannot be started ("" when it can). */
  refusal(): string;
  /** Called whenever a field changes. */
  onChange(listener: () => void): void;
}

interface Field<E extends HTMLElement> {
  input: E;
  row: HTMLElement;
  note: HTMLElement;
}

/** The test ids' prefix of each form of settings. */
export type FormPrefix = "" | "table-" | "lobby-";

export function buildSettingsForm(prefix: FormPrefix, initial: Settings, withBot: boolean, withName = true): SettingsForm {
  const listeners: Array<() => void> = [];
  const testid = (name: string) => `${prefix}setting-${name}`;

  function row<E extends HTMLElement>(label: string, name: string, input: E, help = ""): Field<E> {
    const id = uid(`${prefix}setting-${name}`);
    input.id = id;
    input.setAttribute("data-testid", testid(name));
    const note = h("span", { class: "note" }, help);
    return { input, row: field(label, input, note), note };
  }

  function select(options: Array<[string, string]>, value: string): HTMLSelectElement {
    const element = h("select");
    for (const [v, text] of options) {
      element.append(h("option", { value: v }, text));
    }
    element.value = value;
    return element;
  }

  function number(value: number | null, min: number, max?: number, placeholder = ""): HTMLInputElement {
    const element = h("input", { type: "number", min, max, step: 1, inputmode: "numeric", placeholder });
    element.value = value === null ? "" : String(value);
    return element;
  }

  function checkbox(checked: boolean): HTMLInputElement {
    const element = h("input", { type: "checkbox" });
    element.checked = checked;
    return element;
  }

  const preset = buildPresetPicker(prefix);
  const variant = row(
    "Variant",
    "variant",
    select([["backgammon", "Backgammon"], ["long-nardi", "Long nardi"], ["plakoto", "Plakoto"], ["fevga", "Fevga"], ["tavli", "Tavli match (Portes, Plakoto, Fevga in turn)"]], initial.variant),
  );
  const bot = row("Computer opponent", "bot", select([], ""), "");
  const matchLength = row("Match length (points; 0 = money play)", "match-length", number(initial.matchLength, 0, 32767));
  const name = row("Your name", "name", h("input", { type: "text", maxlength: 64, autocomplete: "nickname" }));
  name.input.value = initial.name;

  const cube = row("Doubling cube", "cube", checkbox(initial.cube), "");
  const cubeLimit = row(
    "Cube limit",
    "cube-limit",
    select(
      [["", "64 (standard)"], ...[2, 4, 8, 16, 32, 128, 256, 512, 1024].map((n): [string, string] => [String(n), String(n)]), ["0", "No limit"]],
      initial.cubeLimit === null ? "" : String(initial.cubeLimit),
    ),
    "nobody may double past it",
  );
  const crawford = row("Crawford rule (no doubling in the game after a side reaches match point)", "crawford", checkbox(initial.crawford));
  const jacoby = row("Jacoby rule (gammons count single until the cube is turned)", "jacoby", checkbox(initial.jacoby));
  const beavers = row("Beavers (a doubled side may redouble at once, keeping the cube)", "beavers", checkbox(initial.beavers));
  const automaticDoubles = row("Automatic doubles (a tied opening throw doubles the cube)", "automatic-doubles", checkbox(initial.automaticDoubles));
  const automaticDoublesLimit = row("Automatic doubles per game, at most", "automatic-doubles-limit", number(initial.automaticDoublesLimit, 1, 64));
  const opening = row(
    "Opening",
    "opening",
    select([["play-opening-dice", "Play the opening dice"], ["winner-rolls-again", "The winner rolls again"]], initial.opening),
  );
  const matchOpenings = row(
    "Later games of a match",
    "match-openings",
    select([["every-game", "Every game starts with the throw for who starts"], ["winner-opens", "The previous game's winner opens"], ["alternate", "The sides take turns to open"]], initial.matchOpenings),
  );
  const autoPlayForced = row("Play forced moves automatically", "auto-play-forced", checkbox(initial.autoPlayForced));
  const backgammonsAsGammons = row("A backgammon counts as a gammon", "backgammons-as-gammons", checkbox(initial.backgammons === "as-gammon"));
  const hitterStays = row("A checker that hits in its home board stays there", "home-hit-and-run-forbidden", checkbox(initial.homeHitAndRun === "forbidden"));
  const pinnedBlocksBearOff = row(
    "A pinned checker stops its side bearing off",
    "pinned-blocks-bear-off",
    checkbox(initial.pinnedBlocksBearOff),
    "no checker is borne off while one of the side's is pinned",
  );
  const motherException = row(
    "The mother exception",
    "mother-exception",
    checkbox(initial.motherException),
    "a pinned mother loses only once the pinner has no checker left on its own 24-point",
  );
  const motherValue = row(
    "A mother loss is worth",
    "mother-value",
    select([["2", "2 points"], ["3", "3 points"]], String(initial.motherValue)),
  );
  const firstChecker = row(
    "The first checker frees the others",
    "first-checker",
    select(
      [["past-start", "once it has passed the opponent's starting point (its points 1-11)"], ["into-start-quarter", "once it has reached the opponent's starting quarter (its points 1-12)"]],
      initial.firstChecker,
    ),
    "until then a side moves only its first checker",
  );
  const fevgaPrimes = row(
    "Six points in a row",
    "fevga-primes",
    select(
      [
        ["start-quarter-and-unblock", "allowed, but never the whole starting quarter, and opened for an opponent shut in behind them"],
        ["no-prime-unless-passed", "only with an opposing checker ahead of them (long nardi's rule)"],
        ["none", "allowed anywhere"],
      ],
      initial.fevgaPrimes,
    ),
  );
  const fevgaQuarterTest = row(
    "The starting quarter is tested",
    "fevga-quarter-test",
    select([["play", "after the whole play"], ["step", "after every step"]], initial.fevgaQuarterTest),
  );
  const clockReserve = row("Reserve (seconds)", "clock-reserve", number(initial.clockReserve, 0, 2592000, "none"), "each side's time for the match (for each game in money play)");
  const clockPerPoint = row("Reserve per point (seconds)", "clock-per-point", number(initial.clockPerPoint, 0, 2592000, "none"), "added for each point of the match");
  const clockDelay = row("Delay per turn (seconds)", "clock-delay", number(initial.clockDelay, 0, 2592000, "none"), "time within it is not taken from the reserve");
  const clockMoveLimit = row("Move limit (seconds)", "clock-move-limit", number(initial.clockMoveLimit, 0, 2592000, "none"), "the most one turn may take");

  const cubeGroup = h(
    "fieldset",
    { class: "group" },
    h("legend", {}, "Cube"),
    cube.row,
    cubeLimit.row,
    jacoby.row,
    beavers.row,
    automaticDoubles.row,
    automaticDoublesLimit.row,
  );
  const plakotoGroup = h("fieldset", { class: "group" }, h("legend", {}, "Plakoto"), pinnedBlocksBearOff.row, motherException.row, motherValue.row);
  const fevgaGroup = h("fieldset", { class: "group" }, h("legend", {}, "Fevga"), firstChecker.row, fevgaPrimes.row, fevgaQuarterTest.row);
  const basics = h("div", { class: "basics" }, preset.element, withBot ? bot.row : null, withName ? name.row : null);
  const rules = h(
    "details",
    { class: "rules", testid: `${prefix}rules` },
    h("summary", {}, "Rules"),
    h(
      "div",
      { class: "rules-body" },
      variant.row,
      matchLength.row,
      cubeGroup,
      h("fieldset", { class: "group" }, h("legend", {}, "Starting and scoring"), opening.row, matchOpenings.row, crawford.row, autoPlayForced.row, backgammonsAsGammons.row, hitterStays.row),
      plakotoGroup,
      fevgaGroup,
      h(
        "fieldset",
        { class: "group" },
        h("legend", {}, "Clock (leave empty for no clock)"),
        clockReserve.row,
        clockPerPoint.row,
        clockDelay.row,
        clockMoveLimit.row,
      ),
    ),
  );

  let bots: BotInfo[] = [];
  let longestMatch = 0;
  let wantedBot = initial.bot;
  let chosenOpening: string = initial.opening;

  function optionalNumber(input: HTMLInputElement): number | null {
    const text = input.value.trim();
    if (text === "") {
      return null;
    }
    const n = Number(text);
    return Number.isFinite(n) && n >= 0 ? n : null;
  }

  function read(): Settings {
    const length = Number(matchLength.input.value);
    return normalizeSettings({
      variant: variant.input.value,
      bot: bot.input.value,
      matchLength: Number.isInteger(length) && length >= 0 ? length : 0,
      name: name.input.value.trim(),
      cube: cube.input.checked,
      cubeLimit: cubeLimit.input.value === "" ? null : Number(cubeLimit.input.value),
      crawford: crawford.input.checked,
      jacoby: jacoby.input.checked,
      beavers: beavers.input.checked,
      automaticDoubles: automaticDoubles.input.checked,
      automaticDoublesLimit: Number(automaticDoublesLimit.input.value) || 1,
      opening: chosenOpening,
      matchOpenings: matchOpenings.input.value,
      autoPlayForced: autoPlayForced.input.checked,
      backgammons: backgammonsAsGammons.input.checked ? "as-gammon" : "counted",
      homeHitAndRun: hitterStays.input.checked ? "forbidden" : "allowed",
      pinnedBlocksBearOff: pinnedBlocksBearOff.input.checked,
      motherException: motherException.input.checked,
      motherValue: Number(motherValue.input.value),
      firstChecker: firstChecker.input.value,
      fevgaPrimes: fevgaPrimes.input.value,
      fevgaQuarterTest: fevgaQuarterTest.input.value,
      clockReserve: optionalNumber(clockReserve.input),
      clockPerPoint: optionalNumber(clockPerPoint.input),
      clockDelay: optionalNumber(clockDelay.input),
      clockMoveLimit: optionalNumber(clockMoveLimit.input),
    });
  }

  /** Puts the rules of `s` into the fields (a preset chosen). */
  function fillRules(s: Settings): void {
    variant.input.value = s.variant;
    matchLength.input.value = String(s.matchLength);
    cube.input.checked = s.cube;
    cubeLimit.input.value = s.cubeLimit === null ? "" : String(s.cubeLimit);
    crawford.input.checked = s.crawford;
    jacoby.input.checked = s.jacoby;
    beavers.input.checked = s.beavers;
    automaticDoubles.input.checked = s.automaticDoubles;
    chosenOpening = s.opening;
    opening.input.value = s.opening;
    matchOpenings.input.value = s.matchOpenings;
    autoPlayForced.input.checked = s.autoPlayForced;
    backgammonsAsGammons.input.checked = s.backgammons === "as-gammon";
    hitterStays.input.checked = s.homeHitAndRun === "forbidden";
    pinnedBlocksBearOff.input.checked = s.pinnedBlocksBearOff;
    motherException.input.checked = s.motherException;
    motherValue.input.value = String(s.motherValue);
    firstChecker.input.value = s.firstChecker;
    fevgaPrimes.input.value = s.fevgaPrimes;
    fevgaQuarterTest.input.value = s.fevgaQuarterTest;
  }

  function choosePreset(key: string): void {
    const chosen = PRESETS.find((p) => p.key === key);
    if (chosen) {
      fillRules(applyPreset(read(), chosen));
    } else {
      rules.open = true;
    }
  }

  function enable(field: Field<HTMLInputElement | HTMLSelectElement>, on: boolean, why: string, help = ""): void {
    field.input.disabled = !on;
    field.note.textContent = on ? help : why;
  }

  /** Shows only the options the variant has, and says why an option does not apply now. */
  function refresh(): void {
    const s = read();
    const chosenPreset = presetOf(s);
    preset.show(chosenPreset?.key ?? CUSTOM, chosenPreset ? chosenPreset.description : "Your own rules: see Rules below.");
    const hasCube = variantHasCube(s.variant);
    const money = s.matchLength === 0;
    cubeGroup.hidden = !hasCube;
    const tooLong = computerMatchRefusal(s.matchLength, longestMatch);
    matchLength.note.textContent = tooLong || (money ? "money play: games scored one after another" : `a match to ${s.matchLength}`);
    matchLength.note.classList.toggle("refused", tooLong !== "");
    matchLength.input.setAttribute("aria-invalid", String(tooLong !== ""));
    const cubeOn = hasCube && s.cube;
    enable(cube, s.matchLength !== 1, "a 1-point match has no cube");
    enable(cubeLimit, cubeOn, "needs the cube", "nobody may double past it");
    enable(jacoby, cubeOn && money, money ? "needs the cube" : "money play only");
    enable(beavers, cubeOn && money, money ? "needs the cube" : "money play only");
    enable(automaticDoubles, cubeOn && money, money ? "needs the cube" : "money play only");
    enable(automaticDoublesLimit, cubeOn && money && s.automaticDoubles, "with automatic doubles only");
    crawford.row.hidden = !hasCube;
    backgammonsAsGammons.row.hidden = !hasCube && s.variant !== "tavli";
    hitterStays.row.hidden = !hasCube;
    enable(crawford, !money, "match play only");
    plakotoGroup.hidden = !variantPlaysPlakoto(s.variant);
    fevgaGroup.hidden = !variantPlaysFevga(s.variant);
    enable(fevgaQuarterTest, hasStartingQuarterRule(s), "with the starting-quarter rule only");
    const openingChoice = variantHasOpeningChoice(s.variant);
    opening.input.disabled = !openingChoice;
    enable(matchOpenings, !money, "match play only");
    enable(clockPerPoint, !money, "match play only", "added for each point of the match");
    // Long nardi, Fevga and the tavli match have one opening: the winner of the throw rolls again.
    const playDice = opening.input.querySelector<HTMLOptionElement>('option[value="play-opening-dice"]');
    if (playDice) {
      playDice.disabled = !openingChoice;
    }
    opening.input.value = openingChoice ? chosenOpening : "winner-rolls-again";
    opening.note.textContent = openingChoice ? "" : "this game has one opening: the winner of the throw rolls again";
    if (withBot) {
      fillBots(s.variant);
    }
  }

  function fillBots(variantName: VariantName): void {
    const wanted = gamesPlayed(variantName);
    const playing = bots.filter((b) => wanted.every((v) => b.variants.includes(v)));
    const current = bot.input.value || wantedBot;
    const names = playing.map((b) => b.name);
    const shown = Array.from(bot.input.options).map((o) => o.value);
    if (shown.join("\n") !== names.join("\n")) {
      bot.input.replaceChildren(...playing.map((b) => h("option", { value: b.name }, botLabel(b.name))));
    }
    if (names.includes(current)) {
      bot.input.value = current;
    } else if (names.length) {
      bot.input.value = names[0];
    }
    const chosen = playing.find((b) => b.name === bot.input.value);
    bot.note.textContent = bots.length === 0 ? "loading the bots…" : chosen ? chosen.description : "no bot of this server plays this variant";
    bot.input.disabled = playing.length === 0;
  }

  const fields = [variant, bot, matchLength, name, cube, cubeLimit, crawford, jacoby, beavers, automaticDoubles, automaticDoublesLimit, opening, matchOpenings, autoPlayForced, backgammonsAsGammons, hitterStays, pinnedBlocksBearOff, motherException, motherValue, firstChecker, fevgaPrimes, fevgaQuarterTest, clockReserve, clockPerPoint, clockDelay, clockMoveLimit];
  for (const field of fields) {
    const fire = () => {
      if (field === bot) {
        wantedBot = bot.input.value;
      }
      if (field === opening && !opening.input.disabled) {
        chosenOpening = opening.input.value;
      }
      refresh();
      for (const listener of listeners) {
        listener();
      }
    };
    field.input.addEventListener("input", fire);
    field.input.addEventListener("change", fire);
  }
  preset.onChoose((key) => {
    choosePreset(key);
    refresh();
    for (const listener of listeners) {
      listener();
    }
  });
  refresh();

  return {
    basics,
    rules,
    read,
    setBots(list: BotInfo[], longest: number) {
      bots = list;
      longestMatch = longest;
      if (longest > 0) {
        matchLength.input.max = String(longest);
      }
      refresh();
    },
    refusal() {
      return computerMatchRefusal(read().matchLength, longestMatch);
    },
    onChange(listener) {
      listeners.push(listener);
    },
  };
}

/** A bot's name as a player reads it: "heuristic" → "Heuristic". */
export function botLabel(name: string): string {
  return name ? name.charAt(0).toUpperCase() + name.slice(1) : "Computer";
}
