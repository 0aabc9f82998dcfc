// Waiting without holding the page: a pause that ends at once when the screen is left.

/** Waits `ms` (at once when `signal` is aborted, before or during the wait). */
export function pause(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise<void>((resolve) => {
    if (ms <= 0 || signal.aborted) return resolve();
    const timer = setTimeout(resolve, ms);
    signal.addEventListener("abort", () => {
      clearTimeout(timer);
      resolve();
    });
  });
}
