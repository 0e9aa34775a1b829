/**
 * The subset of the Gemini API wire format (`generateContent`, `streamGenerateContent`) this provider reads and
 * writes. Response types are loose (fields optional, `null` allowed) because new fields appear without notice
 * (`groundingMetadata`, `avgLogprobs`, `trafficType`, …); unknown fields are ignored.
 */

import type { JsonSchema } from "../../models/model.js";

/** A function call of the model. `args` is an object (may be `{}` or missing); `id` only from newer models. */
export interface GoogleWireFunctionCall {
  name?: string;
  args?: Record<string, unknown> | null;
  id?: string;
  /** Vertex streamed arguments: more parts of this call follow. */
  willContinue?: boolean;
  /** Vertex streamed arguments: values addressed by JSON path (`$.id`), strings possibly in pieces. */
  partialArgs?: GoogleWirePartialArg[];
}

/** One streamed argument value (Vertex `streamFunctionCallArguments`). */
export interface GoogleWirePartialArg {
  jsonPath?: string;
  stringValue?: string;
  numberValue?: number;
  boolValue?: boolean;
  nullValue?: unknown;
  willContinue?: boolean;
}

/** The result of a function call, sent back in a `user` turn. `response` holds `output` or `error`. */
export interface GoogleWireFunctionResponse {
  name: string;
  response: Record<string, unknown>;
  id?: string;
  /** Gemini 3: images and files the tool returned, nested in the response. */
  parts?: GoogleWirePart[];
}

/** Inline bytes (base64) of an image, a PDF, audio or video. */
export interface GoogleWireBlob {
  mimeType: string;
  data: string;
}

/** A file by URI (the Files API, a YouTube or a public URL). */
export interface GoogleWireFileData {
  fileUri: string;
  mimeType?: string;
}

/**
 * One part of a content. Exactly one data field is set (`text`, `functionCall`, `functionResponse`,
 * `inlineData`, `fileData`, …); `thought: true` marks a thought summary and `thoughtSignature` rides on the part
 * it belongs to and must be sent back on that same part. Unknown kinds (`executableCode`, …) are kept as they
 * are.
 */
export interface GoogleWirePart {
  text?: string;
  thought?: boolean;
  thoughtSignature?: string;
  functionCall?: GoogleWireFunctionCall;
  functionResponse?: GoogleWireFunctionResponse;
  inlineData?: GoogleWireBlob;
  fileData?: GoogleWireFileData;
  [key: string]: unknown;
}

/** A turn: role `user` or `model`, and its parts. */
export interface GoogleWireContent {
  role?: string;
  parts?: GoogleWirePart[] | null;
}

/** A function the model may call. `parametersJsonSchema` is JSON Schema (left out for no arguments). */
export interface GoogleWireFunctionDeclaration {
  name: string;
  description?: string;
  parametersJsonSchema?: JsonSchema;
}

/** The `tools` entry holding the function declarations. */
export interface GoogleWireTool {
  functionDeclarations: GoogleWireFunctionDeclaration[];
}

/** `toolConfig`: which functions the model may or must call. */
export interface GoogleWireToolConfig {
  functionCallingConfig: {
    mode: "AUTO" | "ANY" | "NONE";
    allowedFunctionNames?: string[];
  };
}

/** `generationConfig.thinkingConfig`. */
export interface GoogleWireThinkingConfig {
  thinkingBudget?: number;
  thinkingLevel?: string;
  includeThoughts?: boolean;
}

/** A safety setting: a harm category and the threshold at which answers are blocked. */
export interface GoogleWireSafetySetting {
  category: string;
  threshold: string;
}

/** Per-modality token counts (`TEXT`, `IMAGE`, `DOCUMENT`, …). */
export interface GoogleWireModalityTokenCount {
  modality?: string;
  tokenCount?: number;
}

/**
 * `usageMetadata`. `promptTokenCount` includes `cachedContentTokenCount`; `candidatesTokenCount` does not
 * include `thoughtsTokenCount`; `totalTokenCount` includes all of them and `toolUsePromptTokenCount`. In a
 * stream every chunk carries a running snapshot (not a delta).
 */
export interface GoogleWireUsage {
  promptTokenCount?: number | null;
  candidatesTokenCount?: number | null;
  totalTokenCount?: number | null;
  cachedContentTokenCount?: number | null;
  thoughtsTokenCount?: number | null;
  toolUsePromptTokenCount?: number | null;
  promptTokensDetails?: GoogleWireModalityTokenCount[] | null;
  [key: string]: unknown;
}

/** A safety rating of a candidate or of the prompt. */
export interface GoogleWireSafetyRating {
  category?: string;
  probability?: string;
  blocked?: boolean;
}

/** One answer candidate (this provider reads the first one). */
export interface GoogleWireCandidate {
  content?: GoogleWireContent | null;
  finishReason?: string | null;
  finishMessage?: string | null;
  safetyRatings?: GoogleWireSafetyRating[] | null;
  index?: number;
  [key: string]: unknown;
}

/** Why the prompt was refused (no candidates at all). */
export interface GoogleWirePromptFeedback {
  blockReason?: string | null;
  blockReasonMessage?: string | null;
  safetyRatings?: GoogleWireSafetyRating[] | null;
}

/** A `generateContent` response, or one chunk of a stream. */
export interface GoogleWireResponse {
  candidates?: GoogleWireCandidate[] | null;
  promptFeedback?: GoogleWirePromptFeedback | null;
  usageMetadata?: GoogleWireUsage | null;
  modelVersion?: string | null;
  responseId?: string | null;
  /** An error inside a 200 body or stream (`google.rpc.Status`). */
  error?: GoogleWireStatus | null;
  [key: string]: unknown;
}

/** A `google.rpc.Status` error: numeric `code`, string `status`, and typed `details`. */
export interface GoogleWireStatus {
  code?: number | string | null;
  message?: string | null;
  status?: string | null;
  details?: Array<{ "@type"?: string; retryDelay?: string; [key: string]: unknown }> | null;
}
