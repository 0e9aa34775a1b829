import type { Message } from "../models/message.js";

/** The schema version of persisted session records. Bump it when the record shape changes. */
export const SESSION_RECORD_VERSION = 1;

/** A JSON value. */
export type JsonValue = string | number | boolean | null | JsonValue[] | { [key: string]: JsonValue };

/** One persisted record of a session (versioned; stores keep them in order). */
export type SessionRecord =
  /** A message appended to the history. */
  | { v: 1; type: "message"; at: number; message: Message }
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
  /** Appends messages to a session's history (creating the session). */
  append(sessionId: string, messages: readonly Message[]): Promise<void>;
  /** Replaces the whole history (after compaction). */
  replace(sessionId: string, messages: readonly Message[]): Promise<void>;
  /** Replaces the session's key-value state. */
  saveState(sessionId: string, state: { [key: string]: JsonValue }): Promise<void>;
  /** Lists stored sessions. */
  list(): Promise<SessionInfo[]>;
  /** Deletes a session (no error when it does not exist). */
  delete(sessionId: string): Promise<void>;
  /**
   * Takes the session's exclusive lock for a run, across processes where the backend allows. Resolves
   * `undefined` at once when another holder has it (the caller reports `SessionBusyError`). The lock expires
   * after `ttlMs` if its holder dies.
   */
  lock(sessionId: string, options: { ttlMs: number }): Promise<SessionLock | undefined>;
  /** Releases connections / handles. */
  close?(): Promise<void>;
}

/** A key-value store for tools and apps, on the same backends as {@link SessionStore}. */
export interface StateStore {
  save(key: string, value: JsonValue): Promise<void>;
  load(key: string): Promise<JsonValue | undefined>;
  clear(key: string): Promise<void>;
  close?(): Promise<void>;
}
