// How fast the board shows each change: slow, normal, fast, or off (every change drawn at once).
// The choice is remembered in the browser; with none made, a browser that asks for reduced
// motion gets "off", any other "normal".

import { h } from "./dom";

export const SPEEDS = ["slow", "normal", "fast", "off"] as const;
export type Speed = (typeof SPEEDS)[number];

export const SPEED_KEY = "tavli.animation-speed";

/** How long one checker takes to slide from point to point, in milliseconds (0: not animated). */
const STEP_MS: Record<Speed, number> = { slow: 750, normal: 400, fast: 180, off: 0 };

export function stepMs(speed: Speed): number {
  return STEP_MS[speed];
}

export function isSpeed(value: unknown): value is Speed {
  return typeof value === "string" && (SPEEDS as readonly string[]).includes(value);
}

/** The speed remembered in `storage`, else the default for the browser's motion preference. */
export function loadSpeed(storage: Pick<Storage, "getItem"> | null, reducedMotion: boolean): Speed {
  let saved: string | null = null;
  try {
    saved = storage?.getItem(SPEED_KEY) ?? null;
  } catch {
    // Storage refused (private mode, a sandbox): the default.
  }
  if (isSpeed(saved)) return saved;
  return reducedMotion ? "off" : "normal";
}

export function saveSpeed(storage: Pick<Storage, "setItem"> | null, speed: Speed): void {
  try {
    storage?.setItem(SPEED_KEY, speed);
  } catch {
    // Not remembered; the choice still holds for this page.
  }
}

/** The browser's own: whether it asks for reduced motion. */
export function prefersReducedMotion(): boolean {
  return typeof window.matchMedia === "function" && window.matchMedia("(prefers-reduced-motion: reduce)").matches;
}

export const SPEED_LABELS: Record<Speed, string> = { slow: "Slow", normal: "Normal", fast: "Fast", off: "Off" };

/** The labelled choice of speed, as the game screen shows it; `onChange` gets each new choice (already remembered). */
export function speedSelect(initial: Speed, onChange: (speed: Speed) => void): HTMLElement {
  const select = h("select", { id: "animation-speed", testid: "animation-speed" });
  for (const speed of SPEEDS) {
    const option = h("option", { value: speed }, SPEED_LABELS[speed]);
    option.selected = speed === initial;
    select.append(option);
  }
  select.addEventListener("change", () => {
    if (isSpeed(select.value)) {
      saveSpeed(window.localStorage, select.value);
      onChange(select.value);
    }
  });
  return h("div", { class: "animation-speed" }, h("label", { for: "animation-speed" }, "Animation speed"), select);
}
