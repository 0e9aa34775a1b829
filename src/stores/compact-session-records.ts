import { foldSessionRecords } from "./fold-session-records.js";
import { SESSION_RECORD_VERSION, type SessionRecord } from "./session-store.js";

/** Options of {@link compactSessionRecords}. */
export interface CompactSessionRecordsOptions {
  sessionId: string;
  /** The session's records in write order (already checked with `parseSessionRecord`). */
  records: readonly SessionRecord[];
}

/** What {@link compactSessionRecords} returns: the records to write instead, and what they replace. */
export interface CompactedSessionRecords {
  /** The fewest records that load to the same `SessionData`: a snapshot and/or a state record. */
  records: SessionRecord[];
  /** The time of the newest record replaced (the compacted records carry it, so `list` stays unchanged). */
  at: number;
  /** The `appendId` of the last message record, if any (stores that check it against retries keep it). */
  lastAppendId: string | undefined;
}

/**
 * Computes the compact form of a session's records: one `snapshot` record of the folded messages (left out
 * when there are none and the state is not empty) and one `state` record when the state is not empty. Both
 * carry the time of the newest record. Returns `undefined` when there are no records or when the compact form
 * would not have fewer records (the session is already compact).
 */
export function compactSessionRecords({
  sessionId,
  records,
}: CompactSessionRecordsOptions): CompactedSessionRecords | undefined {
  const data = foldSessionRecords({ sessionId, records });
  if (data === undefined) return undefined;
  const at = records.reduce((latest, record) => Math.max(latest, record.at), 0);
  const hasState = Object.keys(data.state).length > 0;
  const compacted: SessionRecord[] = [];
  if (data.messages.length > 0 || !hasState) {
    compacted.push({ v: SESSION_RECORD_VERSION, type: "snapshot", at, messages: data.messages });
  }
  if (hasState) compacted.push({ v: SESSION_RECORD_VERSION, type: "state", at, state: data.state });
  if (compacted.length >= records.length) return undefined;
  const lastMessage = records.findLast((record) => record.type !== "state");
  const lastAppendId = lastMessage?.type === "message" ? lastMessage.appendId : undefined;
  return { records: compacted, at, lastAppendId };
}
