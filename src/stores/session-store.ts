import type { Message } from "../models/message.js";

/** The schema version of persisted session records. Bump it when the record shape changes. */
export const SESSION_RECORD_VERSION = 1;

/** A JSON value. */
export type JsonValue = string | number | boolean | null | JsonValue[] | { [key: string]: JsonValue };

/** One persisted record of a session (versioned; stores keep them in order). */
export type SessionRecord =
  /** A message appended to the history. */
  | {
      v: 1;
      type: "message";
      at: number;
      message: Message;
      /**
       * The id of the `append` call that wrote the record (every record of one call shares it). A repeated
       * call with the same id is dropped by the store, and by `load` as a last line of defence.
       */
      appendId?: string;
    }
  /** The whole history replaced (after compaction): later loads start from here. */
  | { v: 1; type: "snapshot"; at: number; messages: Message[] }
  /** The session's key-value state replaced (working memory, paused runs). */
  | { v: 1; type: "state"; at: number; state: { [key: string]: JsonValue } };

/** What `load` returns. */
export interface SessionData {
  sessionId: string;
  /** The history: the last snapshot plus every message appended after it. */
  messages: Message[];
  /** The last saved state ({} when none). */
  state: { [key: string]: JsonValue };
  /** Number of records read (for diagnostics). */
  records: number;
}

/** A held session lock; `release` is idempotent. */
export interface SessionLock {
  release(): Promise<void>;
  /**
   * Extends the lock by its `ttlMs` from now. Resolves `true` while this holder still has the lock, `false`
   * when it was lost (it expired and another holder took it, or it was removed); rejects when the backend
   * cannot be reached. The session layer calls it every `ttlMs / 3` while the run lives. Optional for custom
   * stores (their locks are then not renewed), implemented by every built-in store.
   */
  renew?(): Promise<boolean>;
}

/** Options of {@link SessionStore.append}. */
export interface AppendOptions {
  /**
   * Makes the append idempotent: a store that already applied an append with this id (the reply was lost,
   * the caller retried) applies nothing. The session layer gives every append a fresh id and reuses it only
   * to retry that same append. Every built-in store honours it; a custom store may ignore it.
   */
  appendId?: string;
}

/** Summary of a stored session, from `list`. */
export interface SessionInfo {
  sessionId: string;
  /** Time of the last record (ms since epoch). */
  updatedAt: number;
}

/**
 * Where conversations persist. Implementations: `MemoryStore`, `FileStore` (the embedded default),
 * `RedisStore` (`agentloop/redis`), `PostgresStore` (`agentloop/postgres`). All pass one contract test suite.
 *
 * Contract: appends are atomic per call (all of `messages` or none); `load` of an unknown session resolves
 * `undefined`; a store that cannot be reached rejects with `StoreError` and writes nothing partial; records
 * from a newer schema version are rejected with a clear `StoreError`, never misread.
 */
export interface SessionStore {
  /** Loads a session, or `undefined` when it does not exist. */
  load(sessionId: string): Promise<SessionData | undefined>;
  /** Appends messages to a session's history (creating the session); see {@link AppendOptions}. */
  append(sessionId: string, messages: readonly Message[], options?: AppendOptions): Promise<void>;
  /** Replaces the whole history (after compaction). */
  replace(sessionId: string, messages: readonly Message[]): Promise<void>;
  /** Replaces the session's key-value state. */
  saveState(sessionId: string, state: { [key: string]: JsonValue }): Promise<void>;
  /** Lists stored sessions. */
  list(): Promise<SessionInfo[]>;
  /** Deletes a session (no error when it does not exist). */
  delete(sessionId: string): Promise<void>;
  /**
   * Retention: rewrites the session, atomically, as the fewest records that load to the same
   * {@link SessionData} (one `snapshot` record of the history, one `state` record when the state is not
   * empty; both keep the time of the newest record, so `list` reports the same `updatedAt`). Resolves `true`
   * when records were dropped, `false` when the session is unknown or already compact. It takes the session
   * lock for the time of the rewrite and rejects with `SessionBusyError` when a run holds it, so a run's
   * appends are never lost. An append retrying the session's last `appendId` is still dropped afterwards;
   * duplicates of older appends are no longer recognised by `load` (their records are gone). Optional for
   * custom stores; every built-in store implements it. See `sweepSessions`.
   */
  compact?(sessionId: string): Promise<boolean>;
  /**
   * Takes the session's exclusive lock for a run, across processes where the backend allows. Resolves
   * `undefined` at once when another holder has it (the caller reports `SessionBusyError`). The lock expires
   * after `ttlMs` unless renewed (see {@link SessionLock.renew}), so a holder that dies frees it.
   */
  lock(sessionId: string, options: { ttlMs: number }): Promise<SessionLock | undefined>;
  /** Releases connections / handles. */
  close?(): Promise<void>;
  /**
   * How long (ms) a session lock of this store lives without renewal; the session layer renews it every
   * third of that while the run lives. Optional; default {@link DEFAULT_SESSION_LOCK_TTL_MS}. Short values
   * free the lock of a crashed process sooner.
   */
  readonly lockTtlMs?: number | undefined;
}

/** The default session lock lifetime without renewal: 60 s (renewed every 20 s while a run lives). */
export const DEFAULT_SESSION_LOCK_TTL_MS = 60_000;

/** A key-value store for tools and apps, on the same backends as {@link SessionStore}. */
export interface StateStore {
  save(key: string, value: JsonValue): Promise<void>;
  load(key: string): Promise<JsonValue | undefined>;
  /** Removes `key` (no error when absent); with no key, removes every value of the store. */
  clear(key?: string): Promise<void>;
  close?(): Promise<void>;
}
