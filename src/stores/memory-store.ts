import type { Message } from "../models/message.js";
import { randomUUID } from "../util/random-uuid.js";
import { checkLockTtl } from "./check-lock-ttl.js";
import { compactSessionRecords } from "./compact-session-records.js";
import { foldSessionRecords } from "./fold-session-records.js";
import { parseSessionRecord } from "./parse-session-record.js";
import {
  type AppendOptions,
  type JsonValue,
  SESSION_RECORD_VERSION,
  type SessionData,
  type SessionInfo,
  type SessionLock,
  type SessionRecord,
  type SessionStore,
} from "./session-store.js";
import { withSessionLock } from "./with-session-lock.js";

/** Options of {@link MemoryStore}. */
export interface MemoryStoreOptions {
  /** How long a session lock lives without renewal (default 60 s; see `SessionStore.lockTtlMs`). */
  lockTtlMs?: number;
}

/**
 * A {@link SessionStore} in process memory: for tests, demos and short-lived processes. Records are kept as the
 * same versioned {@link SessionRecord} list the persistent stores write, and copied (`structuredClone`) on the
 * way in and out, so callers can never change stored data by mutating what they passed or got back. `replace`
 * drops the superseded records (keeping the last state), so memory stays bounded by the live history. Locks
 * are process-local, expire after their `ttlMs` and are renewable. An append repeating the session's last
 * `appendId` is dropped.
 */
export class MemoryStore implements SessionStore {
  /** How long a session lock lives without renewal (see {@link SessionStore.lockTtlMs}). */
  readonly lockTtlMs: number | undefined;
  private readonly sessions = new Map<string, SessionRecord[]>();
  private readonly locks = new Map<string, { token: string; expiresAt: number }>();
  private readonly lastAppend = new Map<string, string>();

  constructor(options: MemoryStoreOptions = {}) {
    this.lockTtlMs = checkLockTtl(options.lockTtlMs);
  }

  /** Loads a session (a deep copy), or `undefined` when it does not exist. */
  async load(sessionId: string): Promise<SessionData | undefined> {
    const stored = this.sessions.get(sessionId);
    if (stored === undefined) return undefined;
    const records = structuredClone(stored).map((value, index) =>
      parseSessionRecord({ value, sessionId, where: `memory record ${index + 1}` }),
    );
    return foldSessionRecords({ sessionId, records });
  }

  /** Appends copies of `messages` (an empty list writes nothing; a repeated `appendId` neither). */
  async append(sessionId: string, messages: readonly Message[], options?: AppendOptions): Promise<void> {
    if (messages.length === 0) return;
    const appendId = options?.appendId;
    if (appendId !== undefined) {
      if (this.sessions.has(sessionId) && this.lastAppend.get(sessionId) === appendId) return;
      this.lastAppend.set(sessionId, appendId);
    }
    const at = Date.now();
    const copies = structuredClone(messages) as Message[];
    const records = copies.map(
      (message): SessionRecord =>
        appendId === undefined
          ? { v: SESSION_RECORD_VERSION, type: "message", at, message }
          : { v: SESSION_RECORD_VERSION, type: "message", at, message, appendId },
    );
    this.records(sessionId).push(...records);
  }

  /** Replaces the history with a snapshot of `messages`, keeping the last state. */
  async replace(sessionId: string, messages: readonly Message[]): Promise<void> {
    const snapshot: SessionRecord = {
      v: SESSION_RECORD_VERSION,
      type: "snapshot",
      at: Date.now(),
      messages: structuredClone(messages) as Message[],
    };
    const lastState = this.sessions.get(sessionId)?.findLast((record) => record.type === "state");
    this.sessions.set(sessionId, lastState === undefined ? [snapshot] : [lastState, snapshot]);
  }

  /** Replaces the session's state with a copy of `state`. */
  async saveState(sessionId: string, state: { [key: string]: JsonValue }): Promise<void> {
    const record: SessionRecord = {
      v: SESSION_RECORD_VERSION,
      type: "state",
      at: Date.now(),
      state: structuredClone(state),
    };
    const records: SessionRecord[] = this.records(sessionId).filter((existing) => existing.type !== "state");
    records.push(record);
    this.sessions.set(sessionId, records);
  }

  /**
   * Replaces the session's records with their compact form (see `SessionStore.compact`), under the session
   * lock (`SessionBusyError` while a run holds it). The last `appendId` is kept apart from the records, so a
   * retry of the last append is still dropped.
   */
  async compact(sessionId: string): Promise<boolean> {
    return withSessionLock({
      store: this,
      sessionId,
      task: async () => {
        const stored = this.sessions.get(sessionId);
        if (stored === undefined) return false;
        const compacted = compactSessionRecords({ sessionId, records: stored });
        if (compacted === undefined) return false;
        this.sessions.set(sessionId, structuredClone(compacted.records));
        return true;
      },
    });
  }

  /** Lists the sessions, most recently updated first. */
  async list(): Promise<SessionInfo[]> {
    const infos: SessionInfo[] = [];
    for (const [sessionId, records] of this.sessions) {
      const updatedAt = records.reduce((latest, record) => Math.max(latest, record.at), 0);
      infos.push({ sessionId, updatedAt });
    }
    return infos.sort((a, b) => b.updatedAt - a.updatedAt);
  }

  /** Deletes a session (its lock, if held, stays held). */
  async delete(sessionId: string): Promise<void> {
    this.sessions.delete(sessionId);
    this.lastAppend.delete(sessionId);
  }

  /** Takes the session's in-process lock, or resolves `undefined` while another unexpired holder has it. */
  async lock(sessionId: string, options: { ttlMs: number }): Promise<SessionLock | undefined> {
    const now = Date.now();
    const held = this.locks.get(sessionId);
    if (held !== undefined && held.expiresAt > now) return undefined;
    const token = randomUUID();
    this.locks.set(sessionId, { token, expiresAt: now + options.ttlMs });
    return {
      release: async () => {
        if (this.locks.get(sessionId)?.token === token) this.locks.delete(sessionId);
      },
      renew: async () => {
        const current = this.locks.get(sessionId);
        if (current?.token !== token || current.expiresAt <= Date.now()) return false;
        current.expiresAt = Date.now() + options.ttlMs;
        return true;
      },
    };
  }

  /** Nothing to release; present for symmetry with the other stores. */
  async close(): Promise<void> {}

  private records(sessionId: string): SessionRecord[] {
    let records = this.sessions.get(sessionId);
    if (records === undefined) {
      records = [];
      this.sessions.set(sessionId, records);
    }
    return records;
  }
}
