// The request-body builder as it was before per-message JSON caching (git 4eee255:
// src/providers/anthropic/build-anthropic-body.ts, convert-to-anthropic-messages.ts and the marking part of
// add-cache-breakpoints.ts, copied unchanged but for names and imports). It rebuilds every wire object and
// serialises the whole body each call; the tests compare the cached builder's output with it, byte for byte.
import { InvalidArgumentError } from "../../../errors/invalid-argument-error.js";
import type { Message } from "../../../models/message.js";
import { addAnthropicOutputFormat } from "../add-anthropic-output-format.js";
import type { AnthropicWireCacheControl } from "../add-cache-breakpoints.js";
import type { AnthropicWireBlock, AnthropicWireMessage } from "../anthropic-wire-types.js";
import type { BuildAnthropicBodyOptions } from "../build-anthropic-body.js";
import { convertToAnthropicContent } from "../convert-anthropic-content.js";
import { assistantBlocks } from "../convert-to-anthropic-messages.js";
import { convertToAnthropicToolChoice, convertToAnthropicTools } from "../convert-to-anthropic-tools.js";

function asBlocks(content: string | AnthropicWireBlock[]): AnthropicWireBlock[] {
  if (typeof content !== "string") return content;
  return content === "" ? [] : [{ type: "text", text: content }];
}
function referenceMessages(messages: readonly Message[]): {
  system: string | undefined;
  messages: AnthropicWireMessage[];
} {
  const system: string[] = [];
  const result: AnthropicWireMessage[] = [];
  const push = (role: "user" | "assistant", content: string | AnthropicWireBlock[]) => {
    const last = result[result.length - 1];
    if (last === undefined || last.role !== role) {
      result.push({ role, content });
      return;
    }
    last.content = [...asBlocks(last.content), ...asBlocks(content)];
  };
  for (const message of messages) {
    switch (message.role) {
      case "system":
        if (message.content !== "") system.push(message.content);
        break;
      case "user":
        push("user", convertToAnthropicContent(message.content));
        break;
      case "assistant": {
        const blocks = assistantBlocks(message);
        if (blocks.length > 0) push("assistant", blocks);
        break;
      }
      case "tool": {
        const block: AnthropicWireBlock = {
          type: "tool_result",
          tool_use_id: message.toolCallId,
          content: convertToAnthropicContent(message.content),
        };
        if (message.isError === true) block.is_error = true;
        push("user", [block]);
        break;
      }
    }
  }
  return { system: system.length > 0 ? system.join("\n\n") : undefined, messages: result };
}

/** How many `cache_control` breakpoints the Messages API accepts in one request. */
const MAX_CACHE_BREAKPOINTS = 4;

const UNCACHEABLE_BLOCKS = new Set(["thinking", "redacted_thinking"]);

type Json = Record<string, unknown>;

function isPlainObject(value: unknown): value is Json {
  return value !== null && typeof value === "object" && !Array.isArray(value);
}

/** True when a block carries a (non-null) `cache_control`. */
function marked(block: unknown): boolean {
  return isPlainObject(block) && block.cache_control !== undefined && block.cache_control !== null;
}

/** The breakpoints already in a list of blocks (and in the content blocks of its `tool_result` blocks). */
function countMarks(blocks: unknown): number {
  if (!Array.isArray(blocks)) return 0;
  let count = 0;
  for (const block of blocks) {
    if (marked(block)) count++;
    if (isPlainObject(block) && Array.isArray(block.content)) count += countMarks(block.content);
  }
  return count;
}

/** The breakpoints already in the messages' content blocks. */
function countMessageMarks(messages: unknown): number {
  if (!Array.isArray(messages)) return 0;
  let count = 0;
  for (const message of messages) if (isPlainObject(message)) count += countMarks(message.content);
  return count;
}

/** A block that can take the breakpoint: not thinking, and not an empty text block (the API rejects both). */
function cacheable(block: unknown): block is Json {
  if (!isPlainObject(block) || typeof block.type !== "string" || UNCACHEABLE_BLOCKS.has(block.type)) {
    return false;
  }
  return !(block.type === "text" && block.text === "");
}

/** A copy of `list` whose item `index` is `item`. */
function replaced<T>(list: readonly T[], index: number, item: T): T[] {
  const copy = list.slice();
  copy[index] = item;
  return copy;
}

/**
 * `content` (a string or blocks) with the breakpoint on its last cacheable block; `"marked"` when that block
 * already has one; undefined when there is no cacheable block.
 */
function markContent(content: unknown, mark: AnthropicWireCacheControl): Json[] | "marked" | undefined {
  if (typeof content === "string") {
    return content === "" ? undefined : [{ type: "text", text: content, cache_control: mark }];
  }
  if (!Array.isArray(content)) return undefined;
  for (let i = content.length - 1; i >= 0; i--) {
    const block: unknown = content[i];
    if (!cacheable(block)) continue;
    return marked(block) ? "marked" : replaced(content as Json[], i, { ...block, cache_control: mark });
  }
  return undefined;
}

/** Where {@link markMessageBefore} put (or found) a breakpoint. */
interface Placed {
  /** The message's index; -1 when no message had a cacheable block. */
  index: number;
  /** False when the block already carried one. */
  added: boolean;
}

/** Marks the last cacheable block of the last message at or before `from` that has one. */
function markMessageBefore(body: Json, from: number, mark: AnthropicWireCacheControl): Placed {
  const messages = body.messages;
  if (!Array.isArray(messages)) return { index: -1, added: false };
  for (let i = Math.min(from, messages.length - 1); i >= 0; i--) {
    const message: unknown = messages[i];
    if (!isPlainObject(message)) continue;
    const content = markContent(message.content, mark);
    if (content === undefined) continue;
    if (content === "marked") return { index: i, added: false };
    body.messages = replaced(messages, i, { ...message, content });
    return { index: i, added: true };
  }
  return { index: -1, added: false };
}

/** The index of the last assistant message before `index`, or -1. */
function assistantBefore(messages: unknown, index: number): number {
  if (!Array.isArray(messages)) return -1;
  for (let i = index - 1; i >= 0; i--) {
    const message: unknown = messages[i];
    if (isPlainObject(message) && message.role === "assistant") return i;
  }
  return -1;
}

/**
 * The system breakpoint. When `system` is the converted system messages joined by blank lines (not replaced
 * through the options), it is sent as one text block per system message and the breakpoint goes on the
 * FIRST: the system prompt, which compaction never changes (its running summary is a later system message).
 * Otherwise it goes on the last block of `system` (a string becomes one text block).
 */
function markSystem(body: Json, parts: readonly string[], mark: AnthropicWireCacheControl): boolean {
  const [first, ...rest] = parts;
  if (first !== undefined && rest.length > 0 && body.system === parts.join("\n\n")) {
    body.system = [
      { type: "text", text: first, cache_control: mark },
      ...rest.map((text) => ({ type: "text", text })),
    ];
    return true;
  }
  const content = markContent(body.system, mark);
  if (content === undefined || content === "marked") return false;
  body.system = content;
  return true;
}

/** The texts of the non-empty system messages, in order (what the converter joins into `system`). */
function systemTexts(messages: readonly Message[]): string[] {
  const texts: string[] = [];
  for (const message of messages) {
    if (message.role === "system" && message.content !== "") texts.push(message.content);
  }
  return texts;
}

/** The tools breakpoint: on the last tool definition (it caches every tool). */
function markTools(body: Json, mark: AnthropicWireCacheControl): boolean {
  const tools = body.tools;
  if (!Array.isArray(tools) || tools.length === 0) return false;
  const last: unknown = tools[tools.length - 1];
  if (!isPlainObject(last)) return false;
  body.tools = replaced(tools, tools.length - 1, { ...last, cache_control: mark });
  return true;
}

/** Options of {@link addCacheBreakpoints}. */
interface AddCacheBreakpointsOptions {
  /** The complete request body (`system`, `tools` and `messages` set); changed in place. */
  body: Record<string, unknown>;
  /** The breakpoint to place (from {@link resolveAnthropicPromptCaching}). */
  mark: AnthropicWireCacheControl;
  /** The request's system texts ({@link systemTexts}), to send them as separate blocks. Default: none. */
  systemParts?: readonly string[];
}

/**
 * Places Anthropic prompt-cache breakpoints (`cache_control`) on a request body, at most
 * {@link MAX_CACHE_BREAKPOINTS} in all. The cache is a prefix in the order tools → system → messages; the
 * breakpoints, in order of priority:
 *
 * 1. the moving one: the last cacheable block of the conversation (the last message's last block: a user text,
 *    an image, a tool result; never a thinking block or an empty text), so a turn writes only what is new;
 * 2. the system prompt (see {@link markSystem}): still a hit when compaction rewrites the history;
 * 3. the last tool definition: still a hit when the system prompt changes;
 * 4. the previous turn's moving breakpoint (the last block of the message before the last assistant
 *    message): an exact hit even when one turn adds more than the API's 20-block lookback.
 *
 * Manual control wins: a top-level `cache_control` (the API's automatic caching, set through `extraBody` or
 * `providerOptions`) leaves the body alone, and `cache_control: null` turns breakpoints off for that request
 * (the null is removed). Tools or a system that already carry a breakpoint (a block-form `system` with its own
 * `cache_control`) are left as they are, and breakpoints already present count against the limit. Nothing
 * shared is mutated: the converted tools array and the blocks kept in `providerData` are copied where a
 * breakpoint goes.
 */
function addCacheBreakpoints({ body, mark, systemParts = [] }: AddCacheBreakpointsOptions): void {
  if (body.cache_control === null) {
    delete body.cache_control;
    return;
  }
  if (body.cache_control !== undefined) return;
  const inSystem = countMarks(body.system);
  const inTools = countMarks(body.tools);
  let free = MAX_CACHE_BREAKPOINTS - inSystem - inTools - countMessageMarks(body.messages);
  const end = Array.isArray(body.messages) ? body.messages.length - 1 : -1;
  let tail = -1;
  if (free > 0) {
    const placed = markMessageBefore(body, end, mark);
    tail = placed.index;
    if (placed.added) free--;
  }
  if (free > 0 && inSystem === 0 && markSystem(body, systemParts, mark)) free--;
  if (free > 0 && inTools === 0 && markTools(body, mark)) free--;
  const previous = assistantBefore(body.messages, tail);
  if (free > 0 && previous > 0) markMessageBefore(body, previous - 1, mark);
}

export function referenceAnthropicBody({
  modelId,
  request,
  defaultMaxOutputTokens,
  extraBody,
  stream,
  cacheControl,
}: BuildAnthropicBodyOptions): string {
  const prompt = referenceMessages(request.messages);
  const body: Record<string, unknown> = {
    model: modelId,
    max_tokens: request.maxOutputTokens ?? defaultMaxOutputTokens,
  };
  if (prompt.system !== undefined) body.system = prompt.system;
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
  body.messages = prompt.messages;
  if (withTools) body.tools = convertToAnthropicTools(tools);
  if (cacheControl !== undefined) {
    addCacheBreakpoints({ body, mark: cacheControl, systemParts: systemTexts(request.messages) });
  }
  return JSON.stringify(body);
}
