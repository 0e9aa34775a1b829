import type { MockChatRequest, MockReply } from "../../src/testing/index.js";

/** What the tally script saw in one chat request. */
export interface TallyRequest {
  runId: string;
  sessionId: string | undefined;
  /** Tool results after the run's own user message. */
  toolResults: number;
  /** The `user` field of the request body (the worker tags it with its pid). */
  user: string | undefined;
  /** How many messages the request carried. */
  messageCount: number;
}

/** The input of a tally run: the run id (and session) are read back from it by the script. */
export function tallyInput(runId: string, sessionId?: string): string {
  return sessionId === undefined ? `tally run=${runId}` : `tally run=${runId} session=${sessionId}`;
}

const contentText = (content: unknown): string => (typeof content === "string" ? content : "");

/** Parses a chat request of a tally run. */
export function parseTallyRequest(body: MockChatRequest): TallyRequest {
  const messages = body.messages as Array<{ role?: string; content?: unknown }>;
  const lastUser = messages.findLastIndex((message) => message.role === "user");
  const text = contentText(messages[lastUser]?.content);
  return {
    runId: /run=(\S+)/.exec(text)?.[1] ?? "?",
    sessionId: /session=(\S+)/.exec(text)?.[1],
    toolResults: messages.slice(lastUser + 1).filter((message) => message.role === "tool").length,
    user: typeof body.user === "string" ? body.user : undefined,
    messageCount: messages.length,
  };
}

/**
 * The deterministic reply to a tally run's request: by the number of tool results after the run's user message,
 * 0 → call `tally {n: 1}`, 1 → `tally {n: 2}`, 2 or more → the final text `done <run id>`.
 */
export function tallyReply(request: TallyRequest, delayMs: number): MockReply {
  const { runId, toolResults } = request;
  if (toolResults < 2) {
    const n = toolResults + 1;
    return { delayMs, toolCalls: [{ id: `call-${runId}-${n}`, name: "tally", arguments: { n } }] };
  }
  return { delayMs, text: `done ${runId}` };
}
