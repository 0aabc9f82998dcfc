import { describe, expect, it } from "vitest";
import { SPEED_KEY, loadSpeed, saveSpeed, stepMs } from "./motion";

function storage(initial: Record<string, string> = {}) {
  const items = new Map(Object.entries(initial));
  return { getItem: (key: string) => items.get(key) ?? null, setItem: (key: string, value: string) => void items.set(key, value), items };
}

describe("the animation speed", () => {
  it("is normal by default, and off for a browser that asks for reduced motion", () => {
    expect(loadSpeed(storage(), false)).toBe("normal");
    expect(loadSpeed(storage(), true)).toBe("off");
    expect(loadSpeed(null, true)).toBe("off");
  });

  it("is remembered, a choice made winning over the browser's preference", () => {
    const saved = storage();
    saveSpeed(saved, "slow");
    expect(saved.items.get(SPEED_KEY)).toBe("slow");
    expect(loadSpeed(saved, true)).toBe("slow");
  });

  it("ignores what it does not know, and storage that refuses", () => {
    expect(loadSpeed(storage({ [SPEED_KEY]: "ludicrous" }), false)).toBe("normal");
    const refusing = { getItem: (): string | null => { throw new Error("denied"); }, setItem: () => { throw new Error("denied"); } };
    expect(loadSpeed(refusing, false)).toBe("normal");
    expect(() => saveSpeed(refusing, "fast")).not.toThrow();
  });

  it("moves nothing when off, and slower the slower it is", () => {
    expect(stepMs("off")).toBe(0);
    expect(stepMs("fast")).toBeLessThan(stepMs("normal"));
    expect(stepMs("normal")).toBeLessThan(stepMs("slow"));
  });
});
