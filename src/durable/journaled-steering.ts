import type { SteeringFeed } from "../loop/policies/steering.js";
import { inboxFeed } from "../loop/policies/steering.js";
import type { SteeringInbox, SteeringMessage } from "../loop/steering-inbox.js";
import type { MessageContent } from "../models/content-part.js";
import { JOURNAL_RECORD_VERSION, type JournalRecord, type UserMessageRecord } from "./journal-record.js";
import type { JournalWriter } from "./journal-writer.js";

/** Options of {@link journaledSteering}. */
export interface JournaledSteeringOptions {
  /** The run's journal records so far (their `user_message` records are added again, at their turns). */
  records: readonly JournalRecord[];
  /** Where the messages taken from the inbox are journaled. */
  writer: JournalWriter;
  /** The attempt's live inbox; undefined when replaying a finished run (or nothing can be sent). */
  inbox: SteeringInbox | undefined;
  /** Whether the run's next model call is answered from the journal: live messages wait until it is not. */
  replaying: () => boolean;
}

const ignore = (): void => undefined;

/**
 * The steering feed of a durable run: the journal's messages first, each before the turn it was added at
 * (so a resumed run rebuilds the same history), then, once the run has caught up with its log, the inbox's
 * messages, each journaled (`user_message` record) before the loop adds it. A journal failure rejects (the
 * run stops, the senders are told the message was not delivered). Undefined when there is nothing to feed.
 */
export function journaledSteering(options: JournaledSteeringOptions): SteeringFeed | undefined {
  const recorded = new Map<number, MessageContent[]>();
  for (const record of options.records) {
    if (record.kind !== "user_message") continue;
    const list = recorded.get(record.turn);
    if (list === undefined) recorded.set(record.turn, [record.content]);
    else list.push(record.content);
  }
  const live = options.inbox === undefined ? undefined : inboxFeed(options.inbox);
  if (recorded.size === 0 && live === undefined) return undefined;
  const { writer, replaying } = options;
  return {
    waiting: (turn) => recorded.has(turn) || (live !== undefined && !replaying() && live.waiting(turn)),
    take: async (turn) => {
      const journaled = recorded.get(turn);
      if (journaled !== undefined) {
        recorded.delete(turn);
        return journaled.map((content) => ({ content, settle: ignore }));
      }
      if (live === undefined || replaying()) return [];
      const taken = (await live.take(turn)) as SteeringMessage[];
      if (taken.length === 0) return taken;
      const at = Date.now();
      const records = taken.map(
        (message): UserMessageRecord => ({
          v: JOURNAL_RECORD_VERSION,
          kind: "user_message",
          turn,
          content: message.content,
          at,
        }),
      );
      try {
        await writer.append(records);
      } catch (error) {
        for (const message of taken) message.settle(false);
        throw error;
      }
      return taken;
    },
    close: () => live?.close(),
  };
}
