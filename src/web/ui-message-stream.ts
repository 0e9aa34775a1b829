import type { AgentEvent, StopReason } from "../loop/agent-event.js";
import type { AgentResult } from "../loop/agent-result.js";
import { describeFailure } from "../util/to-error.js";
import { type UIAgentEvents, UIEventMapper, type UIMapperEnd } from "./ui-event-mapper.js";
import type { UIFinishReason, UIMessageChunk } from "./ui-message-types.js";

/** What a UI message stream reads: an `AgentStream` (`agent.stream(...)`), or any run's events with its result. */
export interface UIMessageStreamSource extends AsyncIterable<AgentEvent> {
  /** The run's result (for the typed answer and the finish reason); optional. */
  readonly result?: Promise<AgentResult>;
  /** Aborts the run at once (`AgentStream.abort`): called when the client goes. */
  abort?(reason?: unknown): void;
}

/** A failure to describe to the client: a run's fatal error, a guardrail's block, or a thrown error. */
export interface UIStreamError {
  /** `"run"`: the run ended with an error; `"guardrail"`: a guardrail blocked it; `"thrown"`: it could not run. */
  kind: "run" | "guardrail" | "thrown";
  /** The error's name (`SessionBusyError`, `GuardrailError`, ...). */
  name: string;
  /** The error's message: may hold details a browser should not see. */
  message: string;
}

/** Options of {@link toUIMessageStream}. */
export interface ToUIMessageStreamOptions {
  /**
   * The id of the assistant message the stream writes (sent in the `start` chunk). Default: none, and the client
   * keeps the id it made. When the stream continues a message (after approvals), give that message's id or none.
   */
  messageId?: string;
  /** Metadata of the message, sent with the `start` chunk and (with the result) the `finish` chunk. */
  messageMetadata?: (
    info: { part: "start" } | { part: "finish"; result: AgentResult | undefined },
  ) => unknown;
  /**
   * Which events also go out as transient `data-agent-event` chunks (`useChat({ onData })`): `"sub-agents"`
   * (default: the events of sub-agents, whose text and tool calls are not the message's), `"all"` (also the
   * run's own: compaction, retries, model calls with usage and cost) or `"none"`. Deltas never do; the
   * messages of errors, retries and fallbacks are left out (only their names).
   */
  agentEvents?: UIAgentEvents;
  /**
   * The error text the client gets (`useChat`'s `error.message`). Default: a generic sentence per kind, since
   * messages may hold internal details (hosts, ids, a provider's answer).
   */
  onError?: (error: UIStreamError) => string;
  /**
   * Tool calls the client decided on (the approval responses a request carried): their outcome is sent even
   * when a sub-agent ran them (the client has a tool part for each). `streamUIChat` sets it.
   */
  decidedToolCallIds?: readonly string[];
}

const DEFAULT_ERROR_TEXT: Record<UIStreamError["kind"], string> = {
  run: "The agent could not finish its answer.",
  guardrail: "The answer was blocked.",
  thrown: "The request could not be run.",
};

/** The protocol's finish reason of a run's stop reason. */
export function uiFinishReason(stopReason: StopReason | undefined): UIFinishReason {
  switch (stopReason) {
    case "completed":
    case "stop_condition":
      return "stop";
    case "max_output_tokens":
      return "length";
    case "awaiting_approval":
      return "tool-calls";
    case "guardrail":
      return "content-filter";
    case "error":
    case undefined:
      return "error";
    case "aborted":
      return "interrupted";
    default:
      return "other"; // max_turns, timeout, token_limit, loop_detected, cost_limit
  }
}

/**
 * The events of a run as a Vercel AI SDK UI message stream (`useChat`, `readUIMessageStream`): a
 * `ReadableStream` of chunk objects, from `start` to `finish`. Each model turn is a step (`start-step`); text,
 * reasoning and tool-call arguments stream as they come; tool results become tool outputs; calls that need
 * approval get a `tool-approval-request` (the run paused: finish reason `tool-calls`); a typed answer is a
 * `data-output` part; a retried stream (`retry` with source "stream") sends `reset-step` so the client drops
 * the void attempt; a failure is an `error` chunk with a safe text (`onError`). Events a durable run replays
 * are skipped (the client has them). Cancelling the stream (the client left) leaves the iteration, which aborts
 * an `AgentStream`'s run. The mapping table is in docs/web.md.
 */
export function toUIMessageStream(
  stream: UIMessageStreamSource,
  options: ToUIMessageStreamOptions = {},
): ReadableStream<UIMessageChunk> {
  const mapper = new UIEventMapper({
    agentEvents: options.agentEvents ?? "sub-agents",
    decidedToolCallIds: new Set(options.decidedToolCallIds ?? []),
  });
  const errorText = (error: UIStreamError): string => {
    if (options.onError === undefined) return DEFAULT_ERROR_TEXT[error.kind];
    try {
      return options.onError(error);
    } catch {
      return DEFAULT_ERROR_TEXT[error.kind];
    }
  };
  let iterator: AsyncIterator<AgentEvent> | undefined;
  let done = false;
  let cancelled = false;
  return new ReadableStream<UIMessageChunk>({
    start(controller) {
      const start: UIMessageChunk = { type: "start" };
      if (options.messageId !== undefined) start.messageId = options.messageId;
      const metadata = options.messageMetadata?.({ part: "start" });
      if (metadata !== undefined) start.messageMetadata = metadata;
      controller.enqueue(start);
    },
    async pull(controller) {
      if (done) return;
      iterator ??= stream[Symbol.asyncIterator]();
      let thrown: unknown;
      try {
        // Read until an event gives chunks (or the run ends): one `pull` enqueues at least one chunk.
        while (true) {
          const next = await iterator.next();
          if (cancelled) return;
          if (next.done === true) break;
          const chunks = mapper.map(next.value);
          for (const chunk of chunks) controller.enqueue(chunk);
          if (chunks.length > 0) return;
        }
      } catch (error) {
        if (cancelled) return;
        thrown = error;
      }
      done = true;
      const chunks = await endChunks({ mapper, stream, thrown, options, errorText });
      if (cancelled) return;
      for (const chunk of chunks) controller.enqueue(chunk);
      controller.close();
    },
    async cancel(reason) {
      cancelled = true;
      done = true;
      // The client went: abort the run now (a tool or model call in progress is cancelled), then leave the
      // iteration (an AgentStream aborts its run there too, and drains the rest quietly).
      stream.abort?.(reason ?? new Error("the client closed the UI message stream"));
      await iterator?.return?.();
    },
  });
}

/** The last chunks: open parts closed, the final text when it did not stream, the typed answer, `finish`. */
async function endChunks(args: {
  mapper: UIEventMapper;
  stream: UIMessageStreamSource;
  thrown: unknown;
  options: ToUIMessageStreamOptions;
  errorText: (error: UIStreamError) => string;
}): Promise<UIMessageChunk[]> {
  const { mapper, stream, thrown, options, errorText } = args;
  // Always read the result (a rejected one is then handled), but wait for it only when the run ended.
  const pending = settled(stream.result);
  const result = thrown === undefined ? await pending : undefined;
  const stopReason = thrown === undefined ? (result?.stopReason ?? mapper.stopReason) : "error";
  const end = mapper.finish(stopReason);
  const chunks = end.chunks;
  const text = finalTextOf(end, result, stopReason);
  chunks.push(...mapper.finalText(text));
  if (result?.output !== undefined) {
    chunks.push({ type: "data-output", id: "output", data: { state: "done", value: result.output } });
  }
  const error = errorOf(end, thrown, stopReason);
  if (error !== undefined) chunks.push({ type: "error", errorText: errorText(error) });
  const finish: UIMessageChunk = { type: "finish", finishReason: uiFinishReason(stopReason) };
  const metadata = options.messageMetadata?.({ part: "finish", result });
  if (metadata !== undefined) finish.messageMetadata = metadata;
  chunks.push(finish);
  return chunks;
}

/** The run's final text, to send when it did not stream (a resumed run); "" when there is none to send. */
function finalTextOf(
  end: UIMapperEnd,
  result: AgentResult | undefined,
  stopReason: StopReason | undefined,
): string {
  const unanswered: Array<StopReason | undefined> = [undefined, "awaiting_approval", "error", "aborted"];
  if (unanswered.includes(stopReason)) return "";
  if (stopReason === "guardrail" || end.outputSent || result?.output !== undefined) return "";
  return end.loopEnd?.data.text ?? result?.text ?? "";
}

function errorOf(
  end: UIMapperEnd,
  thrown: unknown,
  stopReason: StopReason | undefined,
): UIStreamError | undefined {
  if (thrown !== undefined) return { kind: "thrown", ...describeFailure(thrown) };
  if (end.guardrail !== undefined) {
    const { name, reason } = end.guardrail;
    return {
      kind: "guardrail",
      name: "GuardrailError",
      message: `guardrail ${JSON.stringify(name)}: ${reason}`,
    };
  }
  if (end.fatal !== undefined) return { kind: "run", ...end.fatal };
  if (stopReason === "error") return { kind: "run", name: "Error", message: "the run ended with an error" };
  return undefined;
}

/** The run's result, or undefined when there is none or it failed (the iteration reported the failure). */
async function settled(result: Promise<AgentResult> | undefined): Promise<AgentResult | undefined> {
  if (result === undefined) return undefined;
  try {
    return await result;
  } catch {
    return undefined;
  }
}
