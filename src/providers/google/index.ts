/**
 * The Google Gemini provider (the Gemini API's native `generateContent` / `streamGenerateContent`): text,
 * function calling, thinking with thought signatures, images and files, typed answers, streaming.
 */

export {
  createGoogle,
  DEFAULT_GOOGLE_BASE_URL,
  DEFAULT_GOOGLE_TIMEOUT_MS,
  type GoogleProvider,
  type GoogleProviderOptions,
} from "./create-google.js";
export type { GoogleGeminiModel, GoogleGeminiModelConfig } from "./google-gemini-model.js";
export type { GoogleProviderData } from "./google-provider-data.js";
export type { GoogleSafetySetting, GoogleThinkingOptions } from "./resolve-google-options.js";
