import type { Message } from "../models/message.js";
import type { JsonValue, SessionData, SessionRecord } from "./session-store.js";

/** Options of {@link foldSessionRecords}. */
export interface FoldSessionRecordsOptions {
  sessionId: string;
  /** The session's records in write order (already checked with `parseSessionRecord`). */
  records: readonly SessionRecord[];
}

/**
 * Replays a session's records into {@link SessionData}: a snapshot resets the history, a message record
 * appends to it, the last state record wins. Returns `undefined` when there are no records (the session does
 * not exist). The messages and state are the records' own objects, not copies.
 *
 * Message records repeating an earlier `append` call (the same `appendId` after another call's records: a
 * retried append a store applied twice) are skipped, so a duplicate can never reach the model.
 */
export function foldSessionRecords({
  sessionId,
  records,
}: FoldSessionRecordsOptions): SessionData | undefined {
  if (records.length === 0) return undefined;
  let messages: Message[] = [];
  let state: { [key: string]: JsonValue } = {};
  // Append ids of finished calls (allocated at the first id seen), and the id of the call being read.
  let finished: Set<string> | undefined;
  let current: string | undefined;
  for (const record of records) {
    switch (record.type) {
      case "message": {
        const id = record.appendId;
        if (id !== current) {
          if (current !== undefined) {
            finished ??= new Set();
            finished.add(current);
          }
          current = id;
        }
        if (id !== undefined && finished?.has(id) === true) break;
        messages.push(record.message);
        break;
      }
      case "snapshot":
        messages = [...record.messages];
        break;
      case "state":
        state = record.state;
        break;
    }
  }
  return { sessionId, messages, state, records: records.length };
}
