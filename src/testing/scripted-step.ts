import type { TokenCounter } from "../context/token-counter.js";
import type { UnifiedFinishReason } from "../models/finish-reason.js";
import { createToolCall, type ToolCall } from "../models/message.js";
import type { ModelRequest, ModelResponse } from "../models/model.js";
import type { Usage } from "../models/usage.js";
import { estimateScriptedUsage } from "./scripted-model-usage.js";

/** A tool call a {@link ScriptedStep} answers with. */
export interface ScriptedToolCall {
  /** Call id. Default: `call_<callIndex>_<i>` (deterministic). */
  id?: string;
  /** Tool name (may name a tool that does not exist, to test that path). */
  name: string;
  /**
   * The arguments. A string is used as the raw argument text as is (so tests can send invalid JSON); any
   * other value is `JSON.stringify`-ed. `undefined` means no arguments (`""`).
   */
  arguments: unknown;
}

/** One scripted model answer (or failure) of a {@link ScriptedModel}. */
export interface ScriptedStep {
  /** The answer text. Default "". */
  text?: string;
  /** Tool calls, in order. */
  toolCalls?: ScriptedToolCall[];
  /** A refusal message (streamed as `refusal_delta` parts). */
  refusal?: string;
  /**
   * Token usage. Fields left out are estimated as production measures them, with the token counter the
   * context layer uses for the model id: `inputTokens` the request's estimated size (messages and tool
   * definitions), `outputTokens` the answer's (text, refusal, tool calls); `totalTokens` is their sum unless
   * given.
   */
  usage?: Partial<Usage>;
  /** Default: `"tool_calls"` when there are tool calls, else `"stop"`. */
  finishReason?: UnifiedFinishReason;
  /** Waits this long before answering (or failing); aborted by the call's signal. */
  delayMs?: number;
  /**
   * Fail instead of answering: `generate` rejects with this value. `stream` raises it after
   * `errorAfterParts` parts of the answer built from the other fields (default 0), either by throwing
   * (`errorAs: "throw"`, the default) or as a final `{ type: "error" }` part (`errorAs: "part"`).
   */
  error?: unknown;
  /** With `error`: how many parts `stream` yields before failing (capped at the answer's parts). */
  errorAfterParts?: number;
  /** With `error`: whether `stream` throws the error or yields an `error` part and ends. Default "throw". */
  errorAs?: "throw" | "part";
}

/**
 * The usage steps reported before usage was estimated from the request and the answer.
 *
 * @deprecated No longer applied: a step without `usage` reports estimated usage (see {@link ScriptedStep.usage}).
 * Give `usage: DEFAULT_SCRIPTED_USAGE` to a step to keep the old fixed numbers.
 */
export const DEFAULT_SCRIPTED_USAGE: Readonly<Usage> = Object.freeze({
  inputTokens: 10,
  outputTokens: 5,
  totalTokens: 15,
});

/** Options of {@link buildScriptedResponse}. */
export interface BuildScriptedResponseOptions {
  step: ScriptedStep;
  callIndex: number;
  /** The request answered (its size is the estimated `inputTokens`). */
  request: ModelRequest;
  /** Counts tokens for the usage estimate. */
  counter: TokenCounter;
}

/** Builds the {@link ModelResponse} a step answers with (the `error` field is not looked at here). */
export function buildScriptedResponse({
  step,
  callIndex,
  request,
  counter,
}: BuildScriptedResponseOptions): ModelResponse {
  const toolCalls: ToolCall[] = (step.toolCalls ?? []).map((call, i) =>
    createToolCall({
      id: call.id ?? `call_${callIndex}_${i}`,
      name: call.name,
      rawArguments:
        typeof call.arguments === "string" ? call.arguments : (JSON.stringify(call.arguments) ?? ""),
    }),
  );
  const unified = step.finishReason ?? (toolCalls.length > 0 ? "tool_calls" : "stop");
  const text = step.text ?? "";
  const response: ModelResponse = {
    text,
    toolCalls,
    usage: estimateScriptedUsage({
      counter,
      request,
      reply: { text, refusal: step.refusal, toolCalls },
      given: step.usage,
    }),
    finishReason: { unified, raw: unified },
  };
  if (step.refusal !== undefined && step.refusal !== "") response.refusal = step.refusal;
  return response;
}
