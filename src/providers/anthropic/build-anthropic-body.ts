import { InvalidArgumentError } from "../../errors/invalid-argument-error.js";
import type { ModelRequest } from "../../models/model.js";
import { addAnthropicOutputFormat } from "./add-anthropic-output-format.js";
import { type AnthropicWireCacheControl, addCacheBreakpoints } from "./add-cache-breakpoints.js";
import { AnthropicMessagesJson } from "./anthropic-messages-json.js";
import { anthropicToolsJson } from "./anthropic-tools-json.js";
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
 *
 * Everything but `messages` and `tools` goes through one small `JSON.stringify`; those two are spliced in from
 * per-message and per-tools-array caches (see `AnthropicMessagesJson`), so a turn converts and serialises only
 * the new messages (and the one or two messages a prompt-cache breakpoint goes on). Messages must not be
 * mutated after they were sent (build a new message instead).
 */
export function buildAnthropicBody({
  modelId,
  request,
  defaultMaxOutputTokens,
  extraBody,
  stream,
  cacheControl,
}: BuildAnthropicBodyOptions): string {
  const prompt = new AnthropicMessagesJson(request.messages);
  const body: Record<string, unknown> = {
    model: modelId,
    max_tokens: request.maxOutputTokens ?? defaultMaxOutputTokens,
  };
  const system = prompt.system;
  if (system !== undefined) body.system = system;
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
  const convertedTools = withTools ? convertToAnthropicTools(tools) : undefined;
  if (cacheControl !== undefined) {
    // `tools` is set for the breakpoint and taken out again: it is spliced in as cached JSON below.
    if (convertedTools !== undefined) body.tools = convertedTools;
    addCacheBreakpoints({ body, mark: cacheControl, systemParts: prompt.systemParts, messages: prompt });
  }
  const sentTools = body.tools;
  delete body.tools;
  // The same key order as a body built as one object: the options' fields, then `messages`, then `tools`
  // (neither can come from the options, so both are last).
  const rest = JSON.stringify(body);
  let json = `${rest.slice(0, -1)}${rest === "{}" ? "" : ","}"messages":[${prompt.json()}]`;
  if (convertedTools !== undefined) {
    json += `,"tools":${anthropicToolsJson({ converted: convertedTools, sent: sentTools ?? convertedTools })}`;
  }
  return `${json}}`;
}
