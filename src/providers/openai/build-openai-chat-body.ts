import { InvalidArgumentError } from "../../errors/invalid-argument-error.js";
import type { ModelRequest } from "../../models/model.js";
import { openAIMessagesJson } from "./convert-to-openai-messages.js";
import { convertToOpenAIResponseFormat } from "./convert-to-openai-response-format.js";
import { convertToOpenAIToolChoice, openAIToolsJson } from "./convert-to-openai-tools.js";

/** Options of {@link buildOpenAIChatBody}. */
export interface BuildOpenAIChatBodyOptions {
  modelId: string;
  request: ModelRequest;
  /** Provider-level extra fields (`createOpenAI({ extraBody })`), merged before `request.providerOptions`. */
  extraBody?: Record<string, unknown> | undefined;
  /** Adds `stream: true` and `stream_options.include_usage: true`. */
  stream: boolean;
  /**
   * Edits the body (every field but `messages` and `tools`) last, after `providerOptions` and the stream
   * fields: an OpenAI-compatible preset removes or renames the fields its server rejects.
   */
  editBody?: ((body: Record<string, unknown>, stream: boolean) => void) | undefined;
}

/**
 * Builds the Chat Completions request body and serialises it (once per call; retries resend the string).
 *
 * Field order of precedence: the converted request, then `extraBody`, then `request.providerOptions` (the
 * last wins). `request.output` is sent as `response_format` (`convertToOpenAIResponseFormat`; a
 * `response_format` in the options replaces it). `maxOutputTokens` is sent as `max_tokens`, which every
 * OpenAI-compatible server understands; newer OpenAI models (o-series, gpt-5) want `max_completion_tokens`
 * instead — pass that in `providerOptions`/`extraBody` and `max_tokens` is then left out. `tools` is sent
 * only when non-empty, and `tool_choice`/`parallel_tool_calls` only together with tools (the API rejects
 * them without tools). For streaming, `stream` and `stream_options.include_usage` are forced on (other
 * `stream_options` given in the options, such as `include_obfuscation`, are kept); for non-streaming calls a
 * `stream` option is removed.
 */
export function buildOpenAIChatBody({
  modelId,
  request,
  extraBody,
  stream,
  editBody,
}: BuildOpenAIChatBodyOptions): string {
  // Everything but `messages` and `tools` goes through one small JSON.stringify; those two are spliced in
  // from per-message and per-tools-array caches (see openAIMessageJson), so a turn serialises only what is new.
  const body: Record<string, unknown> = { model: modelId };
  const tools = request.tools;
  const withTools = tools !== undefined && tools.length > 0;
  if (withTools) {
    if (request.toolChoice !== undefined) body.tool_choice = convertToOpenAIToolChoice(request.toolChoice);
    if (request.parallelToolCalls !== undefined) body.parallel_tool_calls = request.parallelToolCalls;
  }
  if (request.temperature !== undefined) body.temperature = request.temperature;
  if (request.output !== undefined) body.response_format = convertToOpenAIResponseFormat(request.output);
  const options = request.providerOptions;
  if (
    request.maxOutputTokens !== undefined &&
    !(extraBody !== undefined && "max_completion_tokens" in extraBody) &&
    !(options !== undefined && "max_completion_tokens" in options)
  ) {
    body.max_tokens = request.maxOutputTokens;
  }
  if (extraBody !== undefined) Object.assign(body, extraBody);
  if (options !== undefined) Object.assign(body, options);
  if (stream) {
    body.stream = true;
    const given = body.stream_options;
    body.stream_options =
      given !== null && typeof given === "object"
        ? { ...given, include_usage: true }
        : { include_usage: true };
  } else {
    delete body.stream;
    delete body.stream_options;
  }
  editBody?.(body, stream);
  if ("messages" in body || "tools" in body) {
    throw new InvalidArgumentError({
      argument: "providerOptions",
      message: "messages and tools cannot be set through extraBody or providerOptions",
    });
  }
  const rest = JSON.stringify(body);
  // Whole-history conversion: a tool result's images travel in a user message after the tool messages.
  let json = `${rest.slice(0, -1)},"messages":[${openAIMessagesJson(request.messages)}]`;
  if (withTools) json += `,"tools":${openAIToolsJson(tools)}`;
  return `${json}}`;
}
