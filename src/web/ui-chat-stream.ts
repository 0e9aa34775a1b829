import type { Agent, RunOptions } from "../agent.js";
import { InvalidArgumentError } from "../errors/invalid-argument-error.js";
import type { UIChatRequest } from "./ui-chat-request.js";
import {
  type ToUIMessageStreamOptions,
  toUIMessageStream,
  type UIMessageStreamSource,
} from "./ui-message-stream.js";
import {
  type ToUIMessageStreamResponseOptions,
  uiChunkStreamResponse,
} from "./ui-message-stream-response.js";
import type { UIMessageChunk } from "./ui-message-types.js";

/** Options of {@link streamUIChat}. */
export interface StreamUIChatOptions {
  /** The agent that answers (any typed answer: it is sent as a `data-output` part). */
  agent: Agent;
  /** The request, from {@link readUIChatRequest} or {@link parseUIChatRequest}. */
  chat: UIChatRequest;
  /**
   * The session the chat is stored in (the agent needs a `store`): the server keeps the history, a new
   * message continues it, approval responses resume the paused run in it. Scope it to the user (e.g.
   * `${userId}:${chat.id}`): the chat id comes from the browser. Without a session (and not `durable`), the
   * run continues the history the client sent, and approval responses are refused.
   */
  sessionId?: string;
  /**
   * Make each run durable (the agent needs a `journal`) under the id of the assistant message it writes:
   * the `start` chunk gives the client that id, and approval responses come back naming it (`chat.continues`),
   * so the paused run resumes from its log, in any process. Check that the run belongs to the user.
   */
  durable?: boolean;
  /** Aborts the run (pass the request's `signal`). Cancelling the response aborts it too. */
  signal?: AbortSignal;
  /** More options of each run (tools, budget, trace, ...). */
  runOptions?: Omit<RunOptions, "messages" | "sessionId" | "runId" | "signal">;
  /** How the stream is written (see {@link toUIMessageStream}). */
  stream?: Omit<ToUIMessageStreamOptions, "messageId" | "decidedToolCallIds">;
}

/**
 * Answers a `useChat` request with a run of `agent`, as a UI message stream: a new user message starts a run
 * (`agent.stream`) on the session's history (`sessionId`), else on the history the client sent; approval
 * responses resume the paused run (`agent.resume`: from the session, or from the durable run the message
 * names) with the approved and denied calls, and the stream continues the same assistant message. Throws
 * `InvalidArgumentError` for what the configuration cannot serve (approval responses with neither a session
 * nor `durable`; regenerating an answer, or editing a message, of a chat kept in a session): answer it with 400.
 */
export function streamUIChat(options: StreamUIChatOptions): ReadableStream<UIMessageChunk> {
  const { chat } = options;
  const source = chat.approvals === undefined ? newRun(options) : resumedRun(options, chat.approvals);
  return toUIMessageStream(source.stream, {
    ...options.stream,
    ...(source.messageId !== undefined && { messageId: source.messageId }),
    decidedToolCallIds: [...(chat.approvals?.approve ?? []), ...(chat.approvals?.deny ?? [])],
  });
}

/** {@link streamUIChat} as an SSE `Response` with the protocol's headers (see `toUIMessageStreamResponse`). */
export function createUIChatResponse(
  options: StreamUIChatOptions & Pick<ToUIMessageStreamResponseOptions, "status" | "headers" | "heartbeatMs">,
): Response {
  return uiChunkStreamResponse(streamUIChat(options), options);
}

interface ChatRun {
  stream: UIMessageStreamSource;
  messageId: string | undefined;
}

function newRun(options: StreamUIChatOptions): ChatRun {
  const { agent, chat, sessionId } = options;
  if (chat.input === undefined)
    throw new InvalidArgumentError({ argument: "chat", message: "no user message" });
  if (sessionId !== undefined && (chat.trigger === "regenerate-message" || chat.messageId !== undefined)) {
    throw new InvalidArgumentError({
      argument: chat.trigger === "regenerate-message" ? "chat.trigger" : "chat.messageId",
      message:
        "regenerating an answer or editing a message is not supported for a chat kept in a session (its history has what followed)",
    });
  }
  const runOptions: RunOptions = { ...options.runOptions };
  if (options.signal !== undefined) runOptions.signal = options.signal;
  if (sessionId !== undefined) runOptions.sessionId = sessionId;
  else runOptions.messages = chat.history;
  const messageId = options.durable === true ? `run-${crypto.randomUUID()}` : undefined;
  if (messageId !== undefined) runOptions.runId = messageId;
  return { stream: agent.stream(chat.input, runOptions), messageId };
}

function resumedRun(options: StreamUIChatOptions, approvals: { approve: string[]; deny: string[] }): ChatRun {
  const { agent, chat, sessionId } = options;
  const messageId = chat.continues?.messageId;
  const decisions = { ...approvals, ...(options.signal !== undefined && { signal: options.signal }) };
  if (options.durable === true && messageId !== undefined) {
    return { stream: agent.resumeStream({ runId: messageId }, decisions), messageId };
  }
  if (sessionId !== undefined) {
    return { stream: agent.resumeStream({ sessionId }, decisions), messageId };
  }
  throw new InvalidArgumentError({
    argument: "sessionId",
    message:
      "approval responses need a session (an agent store and sessionId) or durable runs (a journal and durable: true): the history a browser sends cannot say which calls are pending",
  });
}
