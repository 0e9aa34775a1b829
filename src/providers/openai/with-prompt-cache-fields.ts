import { InvalidArgumentError } from "../../errors/invalid-argument-error.js";

/** The body fields of `createOpenAI`'s prompt-cache options, keyed by option name. */
const PROMPT_CACHE_FIELDS = {
  promptCacheKey: "prompt_cache_key",
  promptCacheRetention: "prompt_cache_retention",
} as const;

/** Options of {@link withPromptCacheFields}: the provider's `extraBody` and its prompt-cache options. */
export interface WithPromptCacheFieldsOptions {
  extraBody: Record<string, unknown> | undefined;
  promptCacheKey: unknown;
  promptCacheRetention: unknown;
}

/**
 * `extraBody` with `prompt_cache_key` / `prompt_cache_retention` added for the options that are set (each must
 * be a non-empty string); unchanged (the same object, or undefined) when neither is set, so OpenAI-compatible
 * servers never see the fields unless asked. A field set both ways is refused ({@link InvalidArgumentError}):
 * which one wins would be a guess.
 */
export function withPromptCacheFields({
  extraBody,
  ...given
}: WithPromptCacheFieldsOptions): Record<string, unknown> | undefined {
  let body = extraBody;
  for (const [argument, field] of Object.entries(PROMPT_CACHE_FIELDS)) {
    const value = given[argument as keyof typeof PROMPT_CACHE_FIELDS];
    if (value === undefined) continue;
    if (typeof value !== "string" || value === "") {
      throw new InvalidArgumentError({ argument, message: "expected a non-empty string" });
    }
    if (extraBody !== undefined && field in extraBody) {
      throw new InvalidArgumentError({
        argument,
        message: `${field} is also set in extraBody; set it in one place`,
      });
    }
    body = { ...body, [field]: value };
  }
  return body;
}
