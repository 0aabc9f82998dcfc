// How the player likes the board: which side the home board is drawn on, the colours, sounds.
// Kept in localStorage beside the settings of a new game, and followed live by whatever shows the
// board (a change in the menu of one screen redraws it at once).

import type { HomeSide } from "../board/geometry";
import { safeStorage } from "./settings";

export type BoardTheme = "classic" | "high-contrast";

export interface Preferences {
  /** Where my home board is drawn: bottom right (as most sites) or bottom left. */
  homeSide: HomeSide;
  theme: BoardTheme;
  /** A click for each checker moved and each roll; off by default. */
  sounds: boolean;
}

export const DEFAULT_PREFERENCES: Readonly<Preferences> = Object.freeze({ homeSide: "right", theme: "classic", sounds: false });

export const PREFERENCES_KEY = "tavli.preferences";

/** Preferences read back from anything: unknown fields dropped, bad ones defaulted. */
export function normalizePreferences(value: unknown): Preferences {
  const raw = (typeof value === "object" && value !== null ? value : {}) as Record<string, unknown>;
  return {
    homeSide: raw.homeSide === "left" ? "left" : "right",
    theme: raw.theme === "high-contrast" ? "high-contrast" : "classic",
    sounds: raw.sounds === true,
  };
}

export function loadPreferences(storage: Storage | undefined = safeStorage()): Preferences {
  try {
    const text = storage?.getItem(PREFERENCES_KEY);
    return normalizePreferences(text ? JSON.parse(text) : {});
  } catch {
    return normalizePreferences({});
  }
}

export function savePreferences(preferences: Preferences, storage: Storage | undefined = safeStorage()): void {
  try {
    storage?.setItem(PREFERENCES_KEY, JSON.stringify(preferences));
  } catch {
    // A full or forbidden storage: the preferences hold for this visit only.
  }
}

type Listener = (preferences: Preferences) => void;

let current: Preferences | null = null;
const listeners = new Set<Listener>();

/** The page's preferences now. */
export function currentPreferences(): Preferences {
  current ??= loadPreferences();
  return current;
}

/** Change some preferences: remembered, and told to every follower. */
export function changePreferences(changes: Partial<Preferences>): void {
  current = normalizePreferences({ ...currentPreferences(), ...changes });
  savePreferences(current);
  for (const listener of listeners) {
    listener(current);
  }
}

/** Call `listener` with the preferences now and after every change; returns how to stop. */
export function followPreferences(listener: Listener): () => void {
  listeners.add(listener);
  listener(currentPreferences());
  return () => listeners.delete(listener);
}

/** The page's colours follow the theme (the board's styles read this attribute of <html>). */
export function showTheme(preferences: Preferences): void {
  document.documentElement.dataset.boardTheme = preferences.theme;
}
