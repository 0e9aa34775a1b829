import type { AnthropicWireTool } from "./anthropic-wire-types.js";

/** The JSON texts of converted tool arrays (keyed by the cached array `convertToAnthropicTools` returns). */
const toolsJsonCache = new WeakMap<readonly AnthropicWireTool[], { all: string; head: string }>();

function cachedJson(tools: readonly AnthropicWireTool[]): { all: string; head: string } {
  let json = toolsJsonCache.get(tools);
  if (json === undefined) {
    const head = tools
      .slice(0, -1)
      .map((tool) => JSON.stringify(tool))
      .join(",");
    const last = tools.length > 0 ? JSON.stringify(tools[tools.length - 1]) : "";
    json = { head, all: `[${head === "" ? last : `${head},${last}`}]` };
    toolsJsonCache.set(tools, json);
  }
  return json;
}

/** Options of {@link anthropicToolsJson}. */
export interface AnthropicToolsJsonOptions {
  /** The converted tools (the cached array from `convertToAnthropicTools`, never mutated). */
  converted: readonly AnthropicWireTool[];
  /** What the body holds after `addCacheBreakpoints`: `converted`, or a copy with its last tool marked. */
  sent: unknown;
}

/**
 * The JSON text of the body's `tools`, serialised once per converted array: when `sent` is `converted` its
 * cached text; when it is a copy whose tools but the last are `converted`'s (the breakpoint on the last tool),
 * the cached text of those followed by the marked last tool; otherwise `JSON.stringify(sent)`.
 */
export function anthropicToolsJson({ converted, sent }: AnthropicToolsJsonOptions): string {
  if (sent === converted) return cachedJson(converted).all;
  const count = converted.length;
  if (!Array.isArray(sent) || sent.length !== count || count === 0) return JSON.stringify(sent);
  for (let i = 0; i < count - 1; i++) if (sent[i] !== converted[i]) return JSON.stringify(sent);
  const head = cachedJson(converted).head;
  const last = JSON.stringify(sent[count - 1]);
  return `[${head === "" ? last : `${head},${last}`}]`;
}
