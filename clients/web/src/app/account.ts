// The account the page is signed in as: its API key, kept in the browser's storage so that a
// reload keeps the player signed in. The key travels only in the calls' metadata
// (`authorization: Bearer KEY`, as the Python and Node clients send it), never in an address.

import { safeStorage } from "./settings";

const KEY_ITEM = "tavli.account.key";
const EVENTS_ITEM = "tavli.account.last-event.";

let key: string | null = null;

/** The key of the account signed in, or null. */
export function accountKey(storage: Storage | undefined = safeStorage()): string | null {
  if (key === null) {
    try {
      key = storage?.getItem(KEY_ITEM) ?? null;
    } catch {
      key = null;
    }
  }
  return key || null;
}

/** Signs in with `given` (kept for later visits), or out with null. */
export function keepAccountKey(given: string | null, storage: Storage | undefined = safeStorage()): void {
  key = given ?? "";
  try {
    if (given) {
      storage?.setItem(KEY_ITEM, given);
    } else {
      storage?.removeItem(KEY_ITEM);
    }
  } catch {
    // A full or forbidden storage: signed in for this visit only.
  }
}

/** The last event of `handle`'s the page has read (0: none), so that a reload resumes after it. */
export function lastEventRead(handle: string, storage: Storage | undefined = safeStorage()): bigint {
  try {
    const text = storage?.getItem(EVENTS_ITEM + handle) ?? "";
    return /^\d{1,19}$/.test(text) ? BigInt(text) : 0n;
  } catch {
    return 0n;
  }
}

export function keepLastEventRead(handle: string, eventId: bigint, storage: Storage | undefined = safeStorage()): void {
  try {
    storage?.setItem(EVENTS_ITEM + handle, String(eventId));
  } catch {
    // Not remembered: a reload reads the account's events again (and goes to no old game).
  }
}
