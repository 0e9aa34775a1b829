import { InvalidArgumentError } from "../../errors/invalid-argument-error.js";

/** The `cache_control` of a block, a tool or a system block: a prompt-cache breakpoint. */
export interface AnthropicWireCacheControl {
  type: "ephemeral";
  /** The cache lifetime; absent: the API default (5 minutes). */
  ttl?: "5m" | "1h";
}

function isPlainObject(value: unknown): value is Record<string, unknown> {
  return value !== null && typeof value === "object" && !Array.isArray(value);
}

/**
 * Resolves `createAnthropic({ promptCaching })`: `"auto"` (the default) → `{type:"ephemeral"}`, `{ ttl }` → that
 * breakpoint with its `ttl`, `"off"` → undefined (no breakpoints). Throws {@link InvalidArgumentError} on
 * anything else.
 */
export function resolveAnthropicPromptCaching(value: unknown): AnthropicWireCacheControl | undefined {
  if (value === undefined || value === "auto") return { type: "ephemeral" };
  if (value === "off") return undefined;
  if (isPlainObject(value)) {
    const extra = Object.keys(value).filter((key) => key !== "ttl");
    const { ttl } = value;
    if (extra.length === 0 && (ttl === undefined || ttl === "5m" || ttl === "1h")) {
      return ttl === undefined ? { type: "ephemeral" } : { type: "ephemeral", ttl };
    }
  }
  throw new InvalidArgumentError({
    argument: "promptCaching",
    message: `expected "auto", "off" or { ttl?: "5m" | "1h" }, got ${JSON.stringify(value) ?? String(value)}`,
  });
}
