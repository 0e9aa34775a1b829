import { InvalidArgumentError } from "../../errors/invalid-argument-error.js";
import type { ModelRequest, OutputFormat } from "../../models/model.js";
import { toAnthropicJsonSchema } from "../anthropic/to-anthropic-json-schema.js";
import type { BedrockWireMessage } from "./bedrock-wire-types.js";
import { convertToBedrockMessages } from "./convert-to-bedrock-messages.js";
import { convertToBedrockToolChoice, convertToBedrockTools } from "./convert-to-bedrock-tools.js";

/** Options of {@link buildBedrockBody}. */
export interface BuildBedrockBodyOptions {
  request: ModelRequest;
  /** Provider-level extra fields (`createBedrock({ extraBody })`), merged before `request.providerOptions`. */
  extraBody?: Record<string, unknown> | undefined;
  /** Puts `cachePoint` blocks after the tools, the system prompt and the last message. */
  promptCaching: boolean;
}

/** Keys whose objects are merged field by field (ours first), not replaced, by `extraBody`/`providerOptions`. */
const MERGED_KEYS = ["inferenceConfig", "additionalModelRequestFields"] as const;

const CACHE_POINT = { cachePoint: { type: "default" } } as const;

function isPlainObject(value: unknown): value is Record<string, unknown> {
  return value !== null && typeof value === "object" && !Array.isArray(value);
}

function hasToolBlocks(messages: readonly BedrockWireMessage[]): boolean {
  return messages.some((message) =>
    message.content.some((block) => "toolUse" in block || "toolResult" in block),
  );
}

/** `outputConfig.textFormat` for a JSON answer: the schema goes as a JSON string (as Converse wants it). */
function outputConfig(output: OutputFormat): Record<string, unknown> {
  const jsonSchema: Record<string, unknown> = {
    schema: JSON.stringify(toAnthropicJsonSchema(output.schema)),
    name: output.name,
  };
  if (output.description !== undefined && output.description !== "")
    jsonSchema.description = output.description;
  return { textFormat: { type: "json_schema", structure: { jsonSchema } } };
}

function mergeExtra(body: Record<string, unknown>, extra: Record<string, unknown>, argument: string): void {
  if ("messages" in extra || "toolConfig" in extra) {
    throw new InvalidArgumentError({
      argument,
      message: "messages and toolConfig cannot be set through extraBody or providerOptions",
    });
  }
  for (const [key, value] of Object.entries(extra)) {
    const current = body[key];
    const merge =
      (MERGED_KEYS as readonly string[]).includes(key) && isPlainObject(current) && isPlainObject(value);
    body[key] = merge ? { ...current, ...value } : value;
  }
}

/**
 * Builds the Converse request body and serialises it (once per call; retries resend the same bytes, which
 * the signature covers).
 *
 * `system` holds the system messages; `inferenceConfig` carries `maxTokens` (`request.maxOutputTokens`) and
 * `temperature` when set. `toolConfig` is sent with non-empty tools: `toolChoice` maps auto/required/a named
 * tool; `none` has no Converse form, so the tools are left out, unless the conversation already holds toolUse
 * or toolResult blocks (Converse then requires `toolConfig`): they are sent without a choice.
 * `parallelToolCalls` has no Converse switch and is ignored. `request.output` becomes
 * `outputConfig.textFormat` (JSON Schema, as a string). Precedence: the converted request, then `extraBody`,
 * then `request.providerOptions` (`inferenceConfig` and `additionalModelRequestFields` are merged field by
 * field, other keys replaced) — use them for `additionalModelRequestFields.thinking` (Claude's extended
 * thinking), `inferenceConfig.topP` / `stopSequences`, `guardrailConfig` or `performanceConfig`. `messages`
 * and `toolConfig` cannot be overridden. With `promptCaching`, a `cachePoint` goes after the tools, after the
 * system blocks and at the end of the last message.
 */
export function buildBedrockBody({ request, extraBody, promptCaching }: BuildBedrockBodyOptions): string {
  const prompt = convertToBedrockMessages(request.messages);
  const body: Record<string, unknown> = {};
  if (prompt.system !== undefined)
    body.system = promptCaching ? [...prompt.system, CACHE_POINT] : prompt.system;
  const inference: Record<string, unknown> = {};
  if (request.maxOutputTokens !== undefined) inference.maxTokens = request.maxOutputTokens;
  if (request.temperature !== undefined) inference.temperature = request.temperature;
  if (Object.keys(inference).length > 0) body.inferenceConfig = inference;
  if (request.output !== undefined) body.outputConfig = outputConfig(request.output);
  const options = request.providerOptions;
  if (extraBody !== undefined) mergeExtra(body, extraBody, "extraBody");
  if (options !== undefined) mergeExtra(body, options, "providerOptions");
  const messages = prompt.messages;
  if (promptCaching) {
    const last = messages[messages.length - 1];
    if (last !== undefined)
      messages[messages.length - 1] = { ...last, content: [...last.content, CACHE_POINT] };
  }
  body.messages = messages;
  const tools = request.tools;
  if (tools !== undefined && tools.length > 0 && (request.toolChoice !== "none" || hasToolBlocks(messages))) {
    const converted = convertToBedrockTools(tools);
    const toolChoice = convertToBedrockToolChoice(request.toolChoice);
    body.toolConfig = {
      tools: promptCaching ? [...converted, CACHE_POINT] : converted,
      ...(toolChoice !== undefined && { toolChoice }),
    };
  }
  return JSON.stringify(body);
}
