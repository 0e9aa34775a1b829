import type { MockReply } from "./mock-reply.js";

/** `usage` in the OpenAI Chat Completions wire format. */
export interface OpenAIWireUsage {
  prompt_tokens: number;
  completion_tokens: number;
  total_tokens: number;
  prompt_tokens_details: { cached_tokens: number };
  completion_tokens_details: { reasoning_tokens: number };
}

/** A {@link MockReply} resolved into everything the wire answer needs (ids, raw arguments, usage). */
export interface MockChatAnswer {
  id: string;
  created: number;
  model: string;
  text: string;
  refusal: string | undefined;
  toolCalls: Array<{ id: string; name: string; arguments: string }>;
  finishReason: string;
  usage: OpenAIWireUsage;
}

/** Resolves a reply: default ids and finish reason, raw argument strings, usage with defaults. */
export function createMockChatAnswer({
  reply,
  model,
  index,
  requestLength,
}: {
  reply: MockReply;
  /** The `model` of the request (echoed, like the real API echoes the resolved model). */
  model: string;
  /** 0-based index of the reply; makes ids unique and deterministic. */
  index: number;
  /** Length of the request body, for the default prompt token count. */
  requestLength: number;
}): MockChatAnswer {
  const toolCalls = (reply.toolCalls ?? []).map((call, i) => ({
    id: call.id ?? `call_mock_${index}_${i}`,
    name: call.name,
    arguments: typeof call.arguments === "string" ? call.arguments : (JSON.stringify(call.arguments) ?? ""),
  }));
  const text = reply.text ?? "";
  const outputLength =
    text.length +
    (reply.refusal?.length ?? 0) +
    toolCalls.reduce((sum, c) => sum + c.name.length + c.arguments.length, 0);
  const inputTokens = reply.usage?.inputTokens ?? Math.ceil(requestLength / 4);
  const outputTokens = reply.usage?.outputTokens ?? Math.max(1, Math.ceil(outputLength / 4));
  return {
    id: `chatcmpl-mock${String(index).padStart(6, "0")}`,
    created: Math.floor(Date.now() / 1000),
    model,
    text,
    refusal: reply.refusal,
    toolCalls,
    finishReason: reply.finishReason ?? (toolCalls.length > 0 ? "tool_calls" : "stop"),
    usage: {
      prompt_tokens: inputTokens,
      completion_tokens: outputTokens,
      total_tokens: reply.usage?.totalTokens ?? inputTokens + outputTokens,
      prompt_tokens_details: { cached_tokens: reply.usage?.cachedInputTokens ?? 0 },
      completion_tokens_details: { reasoning_tokens: reply.usage?.reasoningTokens ?? 0 },
    },
  };
}

/**
 * The non-streaming `chat.completion` body of an answer, shaped like the real API's: `content` is null when
 * the answer has only tool calls or a refusal, `refusal` is null unless refusing, `tool_calls` only when
 * there are calls.
 */
export function buildChatCompletion({ answer }: { answer: MockChatAnswer }): Record<string, unknown> {
  const message: Record<string, unknown> = {
    role: "assistant",
    content:
      answer.text === "" && (answer.toolCalls.length > 0 || answer.refusal !== undefined)
        ? null
        : answer.text,
  };
  if (answer.toolCalls.length > 0) {
    message.tool_calls = answer.toolCalls.map((call) => ({
      id: call.id,
      type: "function",
      function: { name: call.name, arguments: call.arguments },
    }));
  }
  message.refusal = answer.refusal ?? null;
  message.annotations = [];
  return {
    id: answer.id,
    object: "chat.completion",
    created: answer.created,
    model: answer.model,
    choices: [{ index: 0, message, logprobs: null, finish_reason: answer.finishReason }],
    usage: answer.usage,
    service_tier: "default",
    system_fingerprint: "fp_mock",
  };
}

/** The OpenAI error envelope for a status, with a typical message, type and code. */
export function buildErrorEnvelope({ status, message }: { status: number; message?: string }): {
  error: { message: string; type: string; param: string | null; code: string | null };
} {
  const [defaultMessage, type, code] = describeStatus(status);
  return { error: { message: message ?? defaultMessage, type, param: null, code } };
}

function describeStatus(status: number): [message: string, type: string, code: string | null] {
  if (status === 401) return ["Incorrect API key provided.", "invalid_request_error", "invalid_api_key"];
  if (status === 404)
    return [
      "The model does not exist or you do not have access to it.",
      "invalid_request_error",
      "model_not_found",
    ];
  if (status === 429)
    return ["Rate limit reached for requests. Please try again later.", "requests", "rate_limit_exceeded"];
  if (status >= 500) return ["The server had an error while processing your request.", "server_error", null];
  return [`Mock error (status ${status}).`, "invalid_request_error", null];
}
