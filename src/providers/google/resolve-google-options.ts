import { InvalidArgumentError } from "../../errors/invalid-argument-error.js";
import type { GoogleWireSafetySetting, GoogleWireThinkingConfig } from "./google-wire-types.js";

/**
 * Thinking of Gemini 2.5 and 3 models (`generationConfig.thinkingConfig`). Gemini 2.5 takes a token budget,
 * Gemini 3 a level; the API refuses both at once.
 */
export interface GoogleThinkingOptions {
  /**
   * Gemini 2.5: the most tokens to think with (`thinkingBudget`): 0 turns thinking off (Flash models), -1 lets
   * the model decide.
   */
  budgetTokens?: number;
  /** Gemini 3: how much to think (`thinkingLevel`): `minimal` and `medium` on Flash models, `low`, `high`. */
  level?: "minimal" | "low" | "medium" | "high";
  /**
   * Return thought summaries (`includeThoughts`): they stream as `reasoning_delta` parts and land in
   * `ModelResponse.reasoning`. Default: the API's (off).
   */
  includeThoughts?: boolean;
}

/** A safety setting: a harm category (`HARM_CATEGORY_…`) and its blocking threshold (`BLOCK_…`, `OFF`). */
export type GoogleSafetySetting = GoogleWireSafetySetting;

const LEVELS = new Set(["minimal", "low", "medium", "high"]);

function isPlainObject(value: unknown): value is Record<string, unknown> {
  return value !== null && typeof value === "object" && !Array.isArray(value);
}

function invalid(argument: string, message: string): InvalidArgumentError {
  return new InvalidArgumentError({ argument, message });
}

/**
 * Checks the `thinking` option and returns its `thinkingConfig` (undefined when not given). Throws
 * {@link InvalidArgumentError} for unknown keys, a budget that is not an integer >= -1, an unknown level, or a
 * budget together with a level.
 */
export function resolveGoogleThinking(thinking: unknown): GoogleWireThinkingConfig | undefined {
  if (thinking === undefined) return undefined;
  if (!isPlainObject(thinking)) throw invalid("thinking", "expected an object");
  for (const key of Object.keys(thinking)) {
    if (key !== "budgetTokens" && key !== "level" && key !== "includeThoughts") {
      throw invalid(`thinking.${key}`, "unknown option; expected budgetTokens, level or includeThoughts");
    }
  }
  const { budgetTokens, level, includeThoughts } = thinking;
  const config: GoogleWireThinkingConfig = {};
  if (budgetTokens !== undefined) {
    if (typeof budgetTokens !== "number" || !Number.isSafeInteger(budgetTokens) || budgetTokens < -1) {
      throw invalid("thinking.budgetTokens", `expected an integer >= -1, got ${String(budgetTokens)}`);
    }
    config.thinkingBudget = budgetTokens;
  }
  if (level !== undefined) {
    if (typeof level !== "string" || !LEVELS.has(level)) {
      throw invalid("thinking.level", `expected minimal, low, medium or high, got ${String(level)}`);
    }
    if (budgetTokens !== undefined) {
      throw invalid("thinking", "give budgetTokens (Gemini 2.5) or level (Gemini 3), not both");
    }
    config.thinkingLevel = level;
  }
  if (includeThoughts !== undefined) {
    if (typeof includeThoughts !== "boolean") throw invalid("thinking.includeThoughts", "expected a boolean");
    config.includeThoughts = includeThoughts;
  }
  return config;
}

/** Checks the `safetySettings` option: a list of `{category, threshold}` strings. Returns a frozen copy. */
export function resolveGoogleSafetySettings(settings: unknown): readonly GoogleSafetySetting[] | undefined {
  if (settings === undefined) return undefined;
  if (!Array.isArray(settings)) throw invalid("safetySettings", "expected an array of {category, threshold}");
  return Object.freeze(
    settings.map((setting, i) => {
      if (
        !isPlainObject(setting) ||
        typeof setting.category !== "string" ||
        typeof setting.threshold !== "string"
      ) {
        throw invalid(`safetySettings[${i}]`, "expected {category: string, threshold: string}");
      }
      return { category: setting.category, threshold: setting.threshold };
    }),
  );
}
