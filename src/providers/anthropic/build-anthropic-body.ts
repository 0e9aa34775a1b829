import { InvalidArgumentError } from "../../errors/invalid-argument-error.js";
import type { ModelRequest } from "../../models/model.js";
import { addAnthropicOutputFormat } from "./add-anthropic-output-format.js";
import { type AnthropicWireCacheControl, addCacheBreakpoints, systemTexts } from "./add-cache-breakpoints.js";
import { convertToAnthropicMessages } from "./convert-to-anthropic-messages.js";
import { convertToAnthropicToolChoice, convertToAnthropicTools } from "./convert-to-anthropic-tools.js";

/** Options of {@link buildAnthropicBody}. */
export interface BuildAnthropicBodyOptions {
  modelId: string;
  request: ModelRequest;
  /** `max_tokens` when the request has no `maxOutputTokens` (the API requires the field). */
  defaultMaxOutputTokens: number;
  /** Provider-level extra fields (`createAnthropic({ extraBody })`), merged before `request.providerOptions`. */
  extraBody?: Record<string, unknown> | undefined;
  /** Adds `stream: true`. */
  stream: boolean;
  /** The prompt-cache breakpoint to place (see `addCacheBreakpoints`); undefined: none (`promptCaching: "off"`). */
  cacheControl?: AnthropicWireCacheControl | undefined;
}

/**
 * Builds the Messages request body and serialises it (once per call; retries resend the string).
 *
 * `max_tokens` is always sent (`request.maxOutputTokens`, else `defaultMaxOutputTokens`). System messages become the
 * top-level `system` field. `tools` is sent only when non-empty, and `tool_choice` (which also carries
 * `disable_parallel_tool_use` for `parallelToolCalls: false`) only together with tools. Precedence: the
 * converted request, then `extraBody`, then `request.providerOptions` (the last wins) — use them for
 * `thinking`, `stop_sequences`, `top_k`, `metadata`, or a block-form `system` with `cache_control`. `stream` is
 * forced on for streaming and removed otherwise; `messages` and `tools` cannot be overridden. `request.output`
 * goes into `output_config.format` (`addAnthropicOutputFormat`; a `format` in the options wins). Last, with
 * `cacheControl`, prompt-cache breakpoints go on the last tool, the system prompt and the last message (see
 * `addCacheBreakpoints`, which also says how a top-level `cache_control` in the options takes over).
 */
export function buildAnthropicBody({
  modelId,
  request,
  defaultMaxOutputTokens,
  extraBody,
  stream,
  cacheControl,
}: BuildAnthropicBodyOptions): string {
  const prompt = convertToAnthropicMessages(request.messages);
  const body: Record<string, unknown> = {
    model: modelId,
    max_tokens: request.maxOutputTokens ?? defaultMaxOutputTokens,
  };
  if (prompt.system !== undefined) body.system = prompt.system;
  if (request.temperature !== undefined) body.temperature = request.temperature;
  const tools = request.tools;
  const withTools = tools !== undefined && tools.length > 0;
  if (withTools) {
    const toolChoice = convertToAnthropicToolChoice({
      choice: request.toolChoice,
      parallelToolCalls: request.parallelToolCalls,
    });
    if (toolChoice !== undefined) body.tool_choice = toolChoice;
  }
  const options = request.providerOptions;
  for (const extra of [extraBody, options]) {
    if (extra === undefined) continue;
    if ("messages" in extra || "tools" in extra) {
      throw new InvalidArgumentError({
        argument: extra === options ? "providerOptions" : "extraBody",
        message: "messages and tools cannot be set through extraBody or providerOptions",
      });
    }
    Object.assign(body, extra);
  }
  if (request.output !== undefined) addAnthropicOutputFormat({ body, output: request.output });
  if (stream) body.stream = true;
  else delete body.stream;
  body.messages = prompt.messages;
  if (withTools) body.tools = convertToAnthropicTools(tools);
  if (cacheControl !== undefined) {
    addCacheBreakpoints({ body, mark: cacheControl, systemParts: systemTexts(request.messages) });
  }
  return JSON.stringify(body);
}
