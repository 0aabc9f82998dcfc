import { describe, expect, it } from "vitest";
import { DEFAULT_PREFERENCES, PREFERENCES_KEY, loadPreferences, normalizePreferences, savePreferences } from "./preferences";

class MemoryStorage {
  readonly items = new Map<string, string>();
  getItem(key: string) {
    return this.items.get(key) ?? null;
  }
  setItem(key: string, value: string) {
    this.items.set(key, value);
  }
}

describe("board preferences", () => {
  it("start as most sites draw the board: home bottom right, classic colours, no sound", () => {
    expect(DEFAULT_PREFERENCES).toEqual({ homeSide: "right", theme: "classic", sounds: false });
    expect(loadPreferences(new MemoryStorage() as unknown as Storage)).toEqual(DEFAULT_PREFERENCES);
  });

  it("come back as they were kept", () => {
    const storage = new MemoryStorage() as unknown as Storage;
    savePreferences({ homeSide: "left", theme: "high-contrast", sounds: true }, storage);
    expect(loadPreferences(storage)).toEqual({ homeSide: "left", theme: "high-contrast", sounds: true });
  });

  it("survive rubbish in storage", () => {
    const storage = new MemoryStorage();
    storage.setItem(PREFERENCES_KEY, "{not json");
    expect(loadPreferences(storage as unknown as Storage)).toEqual(DEFAULT_PREFERENCES);
    expect(normalizePreferences({ homeSide: "top", theme: "neon", sounds: "yes", volume: 11 })).toEqual(DEFAULT_PREFERENCES);
  });
});
