// The choice of a table: one radio card per preset (the engine's presets.json), and "Custom" for
// rules of one's own. The chosen card has a thick frame and its radio dot, not only a colour.

import { h } from "./dom";
import { PRESETS } from "./presets";
import type { FormPrefix } from "./settings-form";

/** The picker's value for settings that are no preset's. */
export const CUSTOM = "custom";

export interface PresetPicker {
  element: HTMLFieldSetElement;
  /** Show `key` as chosen (a preset's key or CUSTOM) with its words below. */
  show(key: string, words: string): void;
  /** Called with the key the player chooses. */
  onChoose(listener: (key: string) => void): void;
}

export function buildPresetPicker(prefix: FormPrefix): PresetPicker {
  const listeners: Array<(key: string) => void> = [];
  const note = h("p", { class: "note preset-note", id: `${prefix}preset-note`, "aria-live": "polite" });
  const choices = [...PRESETS.map((p) => [p.key, p.title]), [CUSTOM, "Custom"]].map(([key, title]) => {
    const input = h("input", { type: "radio", name: `${prefix}preset`, value: key, testid: `${prefix}setting-preset-${key}` });
    input.addEventListener("change", () => {
      if (input.checked) {
        for (const listener of listeners) listener(key);
      }
    });
    return { input, label: h("label", { class: "preset-choice" }, input, h("span", {}, title)) };
  });
  const element = h(
    "fieldset",
    { class: "presets", testid: `${prefix}setting-preset`, "aria-describedby": note.id },
    h("legend", {}, "Table"),
    h("div", { class: "preset-choices" }, ...choices.map((c) => c.label)),
    note,
  );
  return {
    element,
    show(key, words) {
      for (const { input } of choices) input.checked = input.value === key;
      element.dataset.value = key;
      note.textContent = words;
    },
    onChoose(listener) {
      listeners.push(listener);
    },
  };
}
