import { InvalidArgumentError } from "../../errors/invalid-argument-error.js";
import type { ModelRequest } from "../../models/model.js";
import { convertToGoogleContents } from "./convert-to-google-contents.js";
import { convertToGoogleToolConfig, convertToGoogleTools } from "./convert-to-google-tools.js";
import type { GoogleWireSafetySetting, GoogleWireThinkingConfig } from "./google-wire-types.js";
import { toGoogleJsonSchema } from "./to-google-json-schema.js";

/** Options of {@link buildGoogleBody}. */
export interface BuildGoogleBodyOptions {
  modelId: string;
  request: ModelRequest;
  /** `generationConfig.thinkingConfig` of every request (`createGoogle({ thinking })`). */
  thinkingConfig?: GoogleWireThinkingConfig | undefined;
  /** `safetySettings` of every request (`createGoogle({ safetySettings })`). */
  safetySettings?: readonly GoogleWireSafetySetting[] | undefined;
  /** Provider-level extra fields (`createGoogle({ extraBody })`), merged before `request.providerOptions`. */
  extraBody?: Record<string, unknown> | undefined;
}

function isPlainObject(value: unknown): value is Record<string, unknown> {
  return value !== null && typeof value === "object" && !Array.isArray(value);
}

/** The request's own `generationConfig`: temperature, output limit, thinking and the typed answer's schema. */
function generationConfigOf({ request, thinkingConfig }: BuildGoogleBodyOptions): Record<string, unknown> {
  const config: Record<string, unknown> = {};
  if (request.temperature !== undefined) config.temperature = request.temperature;
  if (request.maxOutputTokens !== undefined) config.maxOutputTokens = request.maxOutputTokens;
  if (thinkingConfig !== undefined) config.thinkingConfig = thinkingConfig;
  return config;
}

/** Merges `extraBody` and `providerOptions` into `body`; their `generationConfig` fields merge one level deep. */
function mergeExtras(body: Record<string, unknown>, options: BuildGoogleBodyOptions): void {
  const providerOptions = options.request.providerOptions;
  for (const extra of [options.extraBody, providerOptions]) {
    if (extra === undefined) continue;
    if ("contents" in extra || "tools" in extra) {
      throw new InvalidArgumentError({
        argument: extra === providerOptions ? "providerOptions" : "extraBody",
        message: "contents and tools cannot be set through extraBody or providerOptions",
      });
    }
    const { generationConfig, ...rest } = extra;
    Object.assign(body, rest);
    if (isPlainObject(generationConfig)) {
      body.generationConfig = { ...(body.generationConfig as Record<string, unknown>), ...generationConfig };
    }
  }
}

/**
 * Builds the `generateContent` / `streamGenerateContent` body and serialises it (once per call; retries resend
 * the string).
 *
 * - `contents` and `systemInstruction` from the messages (see `convertToGoogleContents`);
 * - `tools: [{functionDeclarations}]` (see `convertToGoogleTools`) and `toolConfig.functionCallingConfig` for
 *   `toolChoice`, only with tools;
 * - `safetySettings` as configured;
 * - `generationConfig`: `temperature`, `maxOutputTokens`, `thinkingConfig`, and for a typed answer
 *   (`request.output`) `responseMimeType: "application/json"` with `responseJsonSchema` (the schema converted by
 *   `toGoogleJsonSchema`; a `responseSchema` or `responseJsonSchema` in the options wins).
 *
 * Precedence: the converted request, then `extraBody`, then `request.providerOptions` (the last wins); their
 * `generationConfig` is merged field by field into the request's (use them for `topK`, `stopSequences`,
 * `cachedContent`, `labels`, …). `contents` and `tools` cannot be set through them.
 */
export function buildGoogleBody(options: BuildGoogleBodyOptions): string {
  const { modelId, request, safetySettings } = options;
  const prompt = convertToGoogleContents({ messages: request.messages, modelId });
  const body: Record<string, unknown> = {};
  if (prompt.systemInstruction !== undefined) body.systemInstruction = prompt.systemInstruction;
  body.contents = prompt.contents;
  const tools = request.tools;
  if (tools !== undefined && tools.length > 0) {
    body.tools = convertToGoogleTools(tools);
    const toolConfig = convertToGoogleToolConfig(request.toolChoice);
    if (toolConfig !== undefined) body.toolConfig = toolConfig;
  }
  if (safetySettings !== undefined && safetySettings.length > 0) body.safetySettings = safetySettings;
  body.generationConfig = generationConfigOf(options);
  mergeExtras(body, options);
  const config = body.generationConfig as Record<string, unknown>;
  const output = request.output;
  if (
    output !== undefined &&
    config.responseSchema === undefined &&
    config.responseJsonSchema === undefined
  ) {
    config.responseMimeType = "application/json";
    config.responseJsonSchema = toGoogleJsonSchema({ schema: output.schema, argument: "output.schema" });
  }
  if (Object.keys(config).length === 0) delete body.generationConfig;
  return JSON.stringify(body);
}
