import { InvalidArgumentError } from "../errors/invalid-argument-error.js";
import { SessionBusyError } from "../errors/session-busy-error.js";
import type { SessionStore } from "./session-store.js";
import { withSessionLock } from "./with-session-lock.js";

/** Options of {@link sweepSessions}. */
export interface SweepSessionsOptions {
  store: SessionStore;
  /** Only sessions last updated at least this many ms ago are swept (default: every session). */
  olderThanMs?: number;
  /** Compact the swept sessions (`SessionStore.compact`; default `true` unless `delete` is set). */
  compact?: boolean;
  /** Delete the swept sessions instead of compacting them (default `false`; requires `olderThanMs`). */
  delete?: boolean;
  /** The current time in ms since the epoch (default `Date.now()`), for `olderThanMs`. */
  now?: number;
}

/** What {@link sweepSessions} did. */
export interface SweepSessionsResult {
  /** Sessions compacted by this sweep (records dropped). */
  compacted: number;
  /** Sessions deleted by this sweep. */
  deleted: number;
  /** Selected sessions left alone because a run held their lock (the next sweep gets them). */
  busy: number;
  /** Sessions in the store. */
  sessions: number;
}

/**
 * Retention for a {@link SessionStore}: bounds the growth of every session from `store.list()` last updated
 * at least `olderThanMs` ago (every session without it). By default each is compacted to a snapshot of its
 * history plus its state (`SessionStore.compact`: what `load` returns is unchanged, only the records that led
 * to it are dropped); with `delete: true` (which requires `olderThanMs`: idle sessions) each is deleted
 * instead. Both take the session lock, so a session a run holds is skipped (counted in `busy`), never
 * changed under the run. Sessions are swept one at a time.
 *
 * @example
 * // Nightly: compact every session, delete the ones idle for 30 days.
 * await sweepSessions({ store });
 * await sweepSessions({ store, olderThanMs: 30 * 86_400_000, delete: true });
 */
export async function sweepSessions(options: SweepSessionsOptions): Promise<SweepSessionsResult> {
  const { store, olderThanMs, now = Date.now() } = options;
  const remove = options.delete ?? false;
  const compact = options.compact ?? !remove;
  checkOptions({ ...options, remove, compact });
  const sessions = await store.list();
  const result: SweepSessionsResult = { compacted: 0, deleted: 0, busy: 0, sessions: sessions.length };
  for (const { sessionId, updatedAt } of sessions) {
    if (olderThanMs !== undefined && now - updatedAt < olderThanMs) continue;
    try {
      if (remove) {
        await withSessionLock({ store, sessionId, task: () => store.delete(sessionId) });
        result.deleted++;
      } else if (compact && (await store.compact?.(sessionId)) === true) {
        result.compacted++;
      }
    } catch (error) {
      if (!SessionBusyError.isInstance(error)) throw error;
      result.busy++;
    }
  }
  return result;
}

function checkOptions(options: SweepSessionsOptions & { remove: boolean; compact: boolean }): void {
  const { store, olderThanMs, remove, compact } = options;
  if (typeof store?.list !== "function" || typeof store.lock !== "function") {
    throw new InvalidArgumentError({ argument: "store", message: "expected a SessionStore" });
  }
  if (olderThanMs !== undefined && !(olderThanMs >= 0)) {
    throw new InvalidArgumentError({ argument: "olderThanMs", message: "expected a number >= 0" });
  }
  if (remove && olderThanMs === undefined) {
    throw new InvalidArgumentError({
      argument: "olderThanMs",
      message: "delete: true needs olderThanMs (it would delete every session otherwise)",
    });
  }
  if (remove && options.compact === true) {
    throw new InvalidArgumentError({ argument: "compact", message: "give compact or delete, not both" });
  }
  if (!remove && !compact) {
    throw new InvalidArgumentError({
      argument: "options",
      message: "compact: false without delete: true would sweep nothing",
    });
  }
  if (compact && typeof store.compact !== "function") {
    throw new InvalidArgumentError({ argument: "store", message: "this SessionStore has no compact method" });
  }
}
