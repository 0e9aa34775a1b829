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
  /** The run's second call goes to `tally_gated`, which needs approval. */
  gated: boolean;
}

/** The input of a tally run: the run id (and session, and whether it is gated) are read back by the script. */
export function tallyInput(runId: string, sessionId?: string, gated = false): string {
  const base = sessionId === undefined ? `tally run=${runId}` : `tally run=${runId} session=${sessionId}`;
  return gated ? `${base} gated` : base;
}

/** The id of a tally run's n-th call (what an approval names). */
export const tallyCallId = (runId: string, n: number): string => `call-${runId}-${n}`;

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
    gated: / gated$/.test(text),
  };
}

/**
 * The deterministic reply to a tally run's request: by the number of tool results after the run's user message,
 * 0 → call `tally {n: 1}`, 1 → `tally {n: 2}` (`tally_gated`, which needs approval, for a gated run), 2 or more →
 * the final text `done <run id>`.
 */
export function tallyReply(request: TallyRequest, delayMs: number): MockReply {
  const { runId, toolResults } = request;
  if (toolResults < 2) {
    const n = toolResults + 1;
    const name = request.gated && n === 2 ? "tally_gated" : "tally";
    return { delayMs, toolCalls: [{ id: tallyCallId(runId, n), name, arguments: { n } }] };
  }
  return { delayMs, text: `done ${runId}` };
}
