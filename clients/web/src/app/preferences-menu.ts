// The board's preferences as a small menu ("Board" in the home page's masthead and above the
// table): the home board's side, the colours, sounds. Every change is kept and shown at once.

import "./preferences.css";
import { h } from "./dom";
import { changePreferences, followPreferences, type Preferences } from "./preferences";

export interface PreferencesMenu {
  element: HTMLDetailsElement;
  destroy(): void;
}

function choice(group: string, value: string, label: string): HTMLLabelElement {
  const input = h("input", { type: "radio", name: group, value, testid: `pref-${group}-${value}` });
  return h("label", { class: "choice" }, input, label);
}

export function preferencesMenu(): PreferencesMenu {
  const sounds = h("input", { type: "checkbox", testid: "pref-sounds" });
  const panel = h(
    "div",
    { class: "preferences-panel" },
    h("fieldset", {}, h("legend", {}, "My home board"), choice("home", "right", "Bottom right"), choice("home", "left", "Bottom left")),
    h("fieldset", {}, h("legend", {}, "Colours"), choice("theme", "classic", "Classic"), choice("theme", "high-contrast", "High contrast")),
    h("label", { class: "choice" }, sounds, "Sounds (a click for moves and dice)"),
  );
  const element = h("details", { class: "preferences", testid: "preferences" }, h("summary", {}, "Board"), panel);

  const radios = (group: string) => panel.querySelectorAll<HTMLInputElement>(`input[name="${group}"]`);
  function show(preferences: Preferences): void {
    for (const radio of radios("home")) radio.checked = radio.value === preferences.homeSide;
    for (const radio of radios("theme")) radio.checked = radio.value === preferences.theme;
    sounds.checked = preferences.sounds;
  }
  panel.addEventListener("change", (event) => {
    const input = event.target;
    if (!(input instanceof HTMLInputElement)) return;
    if (input.name === "home") changePreferences({ homeSide: input.value === "left" ? "left" : "right" });
    else if (input.name === "theme") changePreferences({ theme: input.value === "high-contrast" ? "high-contrast" : "classic" });
    else if (input === sounds) changePreferences({ sounds: sounds.checked });
  });
  element.addEventListener("keydown", (event) => {
    if (event.key === "Escape" && element.open) {
      element.open = false;
      element.querySelector("summary")?.focus();
    }
  });
  // A click anywhere else closes the menu, as a menu does.
  const closeOutside = (event: MouseEvent) => {
    if (element.open && event.target instanceof Node && !element.contains(event.target)) {
      element.open = false;
    }
  };
  document.addEventListener("click", closeOutside);
  const stop = followPreferences(show);
  return {
    element,
    destroy() {
      stop();
      document.removeEventListener("click", closeOutside);
    },
  };
}
