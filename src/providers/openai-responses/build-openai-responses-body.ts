import { InvalidArgumentError } from "../../errors/invalid-argument-error.js";
import type { Message } from "../../models/message.js";
import type { ModelRequest, ModelToolSpec, ToolChoice } from "../../models/model.js";
import {
  countLeadingSystemMessages,
  leadingInstructions,
  openAIResponsesItemsJson,
} from "./convert-to-openai-responses-input.js";
import { addOpenAIResponsesTextFormat } from "./openai-responses-text-format.js";
import type {
  OpenAIResponsesWireTool,
  OpenAIResponsesWireToolChoice,
} from "./openai-responses-wire-types.js";

/** Options of {@link buildOpenAIResponsesBody}. */
export interface BuildOpenAIResponsesBodyOptions {
  modelId: string;
  request: ModelRequest;
  /** Provider-level extra fields (`createOpenAI({ extraBody })`), merged before `request.providerOptions`. */
  extraBody?: Record<string, unknown> | undefined;
  /** Adds `stream: true`. */
  stream: boolean;
}

/** What the provider needs from the server to continue statelessly: reasoning state in every answer. */
export const OPENAI_RESPONSES_DEFAULT_INCLUDE: readonly string[] = Object.freeze([
  "reasoning.encrypted_content",
]);

const toolsJsonCache = new WeakMap<readonly ModelToolSpec[], string>();

/**
 * Converts tools to flat Responses function tools `{type:"function", name, description, parameters,
 * strict:false}` (strict mode would reject the optional properties and open objects agentloop schemas allow).
 */
export function convertToOpenAIResponsesTools(tools: readonly ModelToolSpec[]): OpenAIResponsesWireTool[] {
  return tools.map((tool) => ({
    type: "function",
    name: tool.name,
    description: tool.description,
    parameters: tool.parameters,
    strict: false,
  }));
}

/** The JSON text of {@link convertToOpenAIResponsesTools}, serialised once per tools array (treat it as immutable). */
function toolsJson(tools: readonly ModelToolSpec[]): string {
  let json = toolsJsonCache.get(tools);
  if (json === undefined) {
    json = JSON.stringify(convertToOpenAIResponsesTools(tools));
    toolsJsonCache.set(tools, json);
  }
  return json;
}

/** Converts a neutral {@link ToolChoice} to the Responses `tool_choice` (`{type:"function", name}` for one tool). */
export function convertToOpenAIResponsesToolChoice(choice: ToolChoice): OpenAIResponsesWireToolChoice {
  if (typeof choice === "string") return choice;
  return { type: "function", name: choice.name };
}

/**
 * Builds the Responses request body and serialises it (once per call; retries resend the string).
 *
 * - Stateless by default: `store: false` and `include: ["reasoning.encrypted_content"]`, and the whole
 *   history is sent every turn as `input` (reasoning items travel in `providerData`, see
 *   `convertMessageToOpenAIResponsesItems`). Both can be overridden through `extraBody`/`providerOptions`
 *   (e.g. `{ store: true }`, or `{ include: [] }` for servers that reject the include).
 * - The leading system messages become `instructions`; later ones are `{role:"system"}` input items.
 * - `request.output` → `text.format` (`addOpenAIResponsesTextFormat`: merged into a `text` the options set;
 *   a `text.format` there wins).
 * - `maxOutputTokens` → `max_output_tokens`; `tools` only when non-empty, and `tool_choice` /
 *   `parallel_tool_calls` only together with tools.
 * - Precedence: the converted request, then `extraBody`, then `request.providerOptions` (the last wins).
 *   `input` and `tools` cannot be set that way (InvalidArgumentError). `stream: true` is forced for streaming
 *   and removed (with `stream_options`) otherwise.
 */
export function buildOpenAIResponsesBody({
  modelId,
  request,
  extraBody,
  stream,
}: BuildOpenAIResponsesBodyOptions): string {
  const { messages, tools } = request;
  const leading = countLeadingSystemMessages(messages);
  const body: Record<string, unknown> = { model: modelId };
  const instructions = leadingInstructions(messages, leading);
  if (instructions !== undefined) body.instructions = instructions;
  const withTools = tools !== undefined && tools.length > 0;
  if (withTools) {
    if (request.toolChoice !== undefined) {
      body.tool_choice = convertToOpenAIResponsesToolChoice(request.toolChoice);
    }
    if (request.parallelToolCalls !== undefined) body.parallel_tool_calls = request.parallelToolCalls;
  }
  if (request.temperature !== undefined) body.temperature = request.temperature;
  if (request.maxOutputTokens !== undefined) body.max_output_tokens = request.maxOutputTokens;
  body.store = false;
  body.include = [...OPENAI_RESPONSES_DEFAULT_INCLUDE];
  if (extraBody !== undefined) Object.assign(body, extraBody);
  if (request.providerOptions !== undefined) Object.assign(body, request.providerOptions);
  if (request.output !== undefined) addOpenAIResponsesTextFormat({ body, output: request.output });
  if (stream) {
    body.stream = true;
  } else {
    delete body.stream;
    delete body.stream_options;
  }
  if ("input" in body || "tools" in body) {
    throw new InvalidArgumentError({
      argument: "providerOptions",
      message: "input and tools cannot be set through extraBody or providerOptions",
    });
  }
  let json = `${JSON.stringify(body).slice(0, -1)},"input":[`;
  let first = true;
  for (let i = leading; i < messages.length; i++) {
    const items = openAIResponsesItemsJson(messages[i] as Message);
    if (items === "") continue;
    json += first ? items : `,${items}`;
    first = false;
  }
  json += "]";
  if (withTools) json += `,"tools":${toolsJson(tools)}`;
  return `${json}}`;
}
