import type { Message } from "../../models/message.js";
import type { MessageRedactor } from "../../sessions/open-session-run.js";
import type { SessionStore } from "../../stores/session-store.js";

/** Options of {@link saveSessionHistory}. */
export interface SaveSessionHistoryOptions {
  store: SessionStore;
  sessionId: string;
  /** The conversation the run started from (its journaled prior messages, as loaded from the store). */
  prior: readonly Message[];
  /** The run's whole conversation (`summary.messages`). */
  messages: readonly Message[];
  /** The agent's system prompt: the run prepended it unless `prior` starts with a system message. */
  system: string | undefined;
  /** Applied to what is stored (as an `Agent` with a store does). */
  redactor: MessageRedactor | undefined;
}

const same = (a: Message | undefined, b: Message | undefined) => JSON.stringify(a) === JSON.stringify(b);

/** Whether `list` starts with every message of `head`. */
function startsWith(list: readonly Message[], head: readonly Message[]): boolean {
  return head.length <= list.length && head.every((message, index) => same(message, list[index]));
}

/**
 * Saves the run's conversation as the session's history (redacted, without the agent's own system prompt,
 * which is prepended on every run). Idempotent, so a job resumed after it saved does not save twice: when the
 * stored history is the conversation or a prefix of it (the usual case: the history the run started from),
 * only the messages it lacks are appended. When the session moved on since the run started (another writer),
 * the run's new messages are appended after what is there. When the conversation no longer starts with the
 * history the run started from (the run compacted its context), the history is replaced. The caller must
 * own the session.
 */
export async function saveSessionHistory(options: SaveSessionHistoryOptions): Promise<void> {
  const { store, sessionId, prior, messages, system, redactor } = options;
  const redact = (list: readonly Message[]) =>
    redactor === undefined ? [...list] : list.map((message) => redactor.redactMessage(message));
  const prepended = system !== undefined && prior[0]?.role !== "system" && messages[0]?.role === "system";
  const conversation = redact(prepended ? messages.slice(1) : messages);
  const stored = (await store.load(sessionId))?.messages ?? [];
  if (startsWith(conversation, stored)) {
    if (stored.length < conversation.length) await store.append(sessionId, conversation.slice(stored.length));
  } else if (startsWith(conversation, redact(prior))) {
    await store.append(sessionId, conversation.slice(prior.length));
  } else {
    await store.replace(sessionId, conversation);
  }
}
