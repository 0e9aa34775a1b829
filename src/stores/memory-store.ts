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

/** One stored record: its JSON text, with the fields the store needs without parsing it. */
interface StoredRecord {
  type: SessionRecord["type"];
  at: number;
  line: string;
}

/** A record as stored: serialised (a value JSON cannot hold fails here, as in a persistent store). */
function storedRecord(record: SessionRecord): StoredRecord {
  return { type: record.type, at: record.at, line: JSON.stringify(record) };
}

/** Options of {@link MemoryStore}. */
export interface MemoryStoreOptions {
  /** How long a session lock lives without renewal (default 60 s; see `SessionStore.lockTtlMs`). */
  lockTtlMs?: number;
}

/**
 * A {@link SessionStore} in process memory: for tests, demos and short-lived processes. Records are kept as the
 * same versioned {@link SessionRecord} list the persistent stores write, as JSON text (serialised on the way
 * in, parsed afresh on the way out), so callers can never change stored data by mutating what they passed or
 * got back, and a value JSON cannot hold fails on write as it would in a persistent store. `replace`
 * drops the superseded records (keeping the last state), so memory stays bounded by the live history. Locks
 * are process-local, expire after their `ttlMs` and are renewable. An append repeating the session's last
 * `appendId` is dropped.
 */
export class MemoryStore implements SessionStore {
  /** How long a session lock lives without renewal (see {@link SessionStore.lockTtlMs}). */
  readonly lockTtlMs: number | undefined;
  private readonly sessions = new Map<string, StoredRecord[]>();
  private readonly locks = new Map<string, { token: string; expiresAt: number }>();
  private readonly lastAppend = new Map<string, string>();

  constructor(options: MemoryStoreOptions = {}) {
    this.lockTtlMs = checkLockTtl(options.lockTtlMs);
  }

  /** Loads a session (parsed afresh: a deep copy), or `undefined` when it does not exist. */
  async load(sessionId: string): Promise<SessionData | undefined> {
    const stored = this.sessions.get(sessionId);
    if (stored === undefined) return undefined;
    return foldSessionRecords({ sessionId, records: this.parse(sessionId, stored) });
  }

  /** Appends `messages` as JSON text (an empty list writes nothing; a repeated `appendId` neither). */
  async append(sessionId: string, messages: readonly Message[], options?: AppendOptions): Promise<void> {
    if (messages.length === 0) return;
    const appendId = options?.appendId;
    if (
      appendId !== undefined &&
      this.sessions.has(sessionId) &&
      this.lastAppend.get(sessionId) === appendId
    ) {
      return;
    }
    const at = Date.now();
    // Serialised before anything changes: a message JSON cannot hold fails the whole append.
    const records = messages.map((message) =>
      storedRecord(
        appendId === undefined
          ? { v: SESSION_RECORD_VERSION, type: "message", at, message }
          : { v: SESSION_RECORD_VERSION, type: "message", at, message, appendId },
      ),
    );
    if (appendId !== undefined) this.lastAppend.set(sessionId, appendId);
    this.records(sessionId).push(...records);
  }

  /** Replaces the history with a snapshot of `messages`, keeping the last state. */
  async replace(sessionId: string, messages: readonly Message[]): Promise<void> {
    const snapshot = storedRecord({
      v: SESSION_RECORD_VERSION,
      type: "snapshot",
      at: Date.now(),
      messages: [...messages],
    });
    const lastState = this.sessions.get(sessionId)?.findLast((record) => record.type === "state");
    this.sessions.set(sessionId, lastState === undefined ? [snapshot] : [lastState, snapshot]);
  }

  /** Replaces the session's state with a copy of `state`. */
  async saveState(sessionId: string, state: { [key: string]: JsonValue }): Promise<void> {
    const record = storedRecord({ v: SESSION_RECORD_VERSION, type: "state", at: Date.now(), state });
    const records = this.records(sessionId).filter((existing) => existing.type !== "state");
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
        const compacted = compactSessionRecords({ sessionId, records: this.parse(sessionId, stored) });
        if (compacted === undefined) return false;
        this.sessions.set(sessionId, compacted.records.map(storedRecord));
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

  private parse(sessionId: string, stored: readonly StoredRecord[]): SessionRecord[] {
    return stored.map(({ line }, index) =>
      parseSessionRecord({ value: JSON.parse(line), sessionId, where: `memory record ${index + 1}` }),
    );
  }

  private records(sessionId: string): StoredRecord[] {
    let records = this.sessions.get(sessionId);
    if (records === undefined) {
      records = [];
      this.sessions.set(sessionId, records);
    }
    return records;
  }
}
