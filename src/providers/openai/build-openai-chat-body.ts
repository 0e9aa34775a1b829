import type { ModelRequest } from "../../models/model.js";
import { convertToOpenAIMessages } from "./convert-to-openai-messages.js";
import { convertToOpenAIToolChoice, convertToOpenAITools } from "./convert-to-openai-tools.js";

/** Options of {@link buildOpenAIChatBody}. */
export interface BuildOpenAIChatBodyOptions {
  modelId: string;
  request: ModelRequest;
  /** Provider-level extra fields (`createOpenAI({ extraBody })`), merged before `request.providerOptions`. */
  extraBody?: Record<string, unknown> | undefined;
  /** Adds `stream: true` and `stream_options.include_usage: true`. */
  stream: boolean;
}

/**
 * Builds the Chat Completions request body and serialises it (once per call; retries resend the string).
 *
 * Field order of precedence: the converted request, then `extraBody`, then `request.providerOptions` (the
 * last wins). `maxOutputTokens` is sent as `max_tokens`, which every OpenAI-compatible server understands;
 * newer OpenAI models (o-series, gpt-5) want `max_completion_tokens` instead — pass that in
 * `providerOptions`/`extraBody` and `max_tokens` is then left out. `tools` is sent only when non-empty, and
 * `tool_choice`/`parallel_tool_calls` only together with tools (the API rejects them without tools). For
 * streaming, `stream` and `stream_options.include_usage` are forced on (other `stream_options` given in the
 * options, such as `include_obfuscation`, are kept); for non-streaming calls a `stream` option is removed.
 */
export function buildOpenAIChatBody({
  modelId,
  request,
  extraBody,
  stream,
}: BuildOpenAIChatBodyOptions): string {
  const body: Record<string, unknown> = {
    model: modelId,
    messages: convertToOpenAIMessages(request.messages),
  };
  const tools = request.tools;
  if (tools !== undefined && tools.length > 0) {
    body.tools = convertToOpenAITools(tools);
    if (request.toolChoice !== undefined) body.tool_choice = convertToOpenAIToolChoice(request.toolChoice);
    if (request.parallelToolCalls !== undefined) body.parallel_tool_calls = request.parallelToolCalls;
  }
  if (request.temperature !== undefined) body.temperature = request.temperature;
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
  return JSON.stringify(body);
}
