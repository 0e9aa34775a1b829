import type { Message } from "../../models/message.js";
import type { AnthropicWireCacheControl } from "./resolve-anthropic-prompt-caching.js";

export {
  type AnthropicWireCacheControl,
  resolveAnthropicPromptCaching,
} from "./resolve-anthropic-prompt-caching.js";

/** How many `cache_control` breakpoints the Messages API accepts in one request. */
export const MAX_CACHE_BREAKPOINTS = 4;

/** Block types that cannot carry `cache_control` (the API rejects it on thinking blocks). */
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
export function countMarks(blocks: unknown): number {
  if (!Array.isArray(blocks)) return 0;
  let count = 0;
  for (const block of blocks) {
    if (marked(block)) count++;
    if (isPlainObject(block) && Array.isArray(block.content)) count += countMarks(block.content);
  }
  return count;
}

/**
 * The messages of a request body as {@link addCacheBreakpoints} reads and marks them: a view of
 * `body.messages` by default, or the body builder's list of cached message JSON (which builds a message's
 * content only when a breakpoint is looked for in it).
 */
export interface CacheBreakpointMessages {
  /** How many wire messages there are. */
  readonly length: number;
  /** The `role` of message `index`. */
  role(index: number): unknown;
  /** The `content` of message `index` (a string or blocks); never mutated. */
  content(index: number): unknown;
  /** Replaces the content of message `index` with `content` (a marked copy). */
  setContent(index: number, content: Record<string, unknown>[]): void;
  /** The breakpoints already in the messages' content blocks (and in their `tool_result` blocks). */
  marks(): number;
}

/** A {@link CacheBreakpointMessages} over `body.messages` (none when it is not an array). */
function bodyMessages(body: Json): CacheBreakpointMessages {
  const list = (): unknown[] => (Array.isArray(body.messages) ? body.messages : []);
  const at = (index: number): unknown => list()[index];
  return {
    length: list().length,
    role: (index) => {
      const message = at(index);
      return isPlainObject(message) ? message.role : undefined;
    },
    content: (index) => {
      const message = at(index);
      return isPlainObject(message) ? message.content : undefined;
    },
    setContent: (index, content) => {
      body.messages = replaced(list(), index, { ...(at(index) as Json), content });
    },
    marks: () => {
      let count = 0;
      for (const message of list()) if (isPlainObject(message)) count += countMarks(message.content);
      return count;
    },
  };
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
function markMessageBefore(
  messages: CacheBreakpointMessages,
  from: number,
  mark: AnthropicWireCacheControl,
): Placed {
  for (let i = Math.min(from, messages.length - 1); i >= 0; i--) {
    const content = markContent(messages.content(i), mark);
    if (content === undefined) continue;
    if (content === "marked") return { index: i, added: false };
    messages.setContent(i, content);
    return { index: i, added: true };
  }
  return { index: -1, added: false };
}

/** The index of the last assistant message before `index`, or -1. */
function assistantBefore(messages: CacheBreakpointMessages, index: number): number {
  for (let i = index - 1; i >= 0; i--) if (messages.role(i) === "assistant") return i;
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
export function systemTexts(messages: readonly Message[]): string[] {
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
export interface AddCacheBreakpointsOptions {
  /** The complete request body (`system`, `tools` and `messages` set); changed in place. */
  body: Record<string, unknown>;
  /**
   * The body's messages, when they are not in `body.messages` (the body builder keeps them as cached JSON);
   * marked through {@link CacheBreakpointMessages.setContent}. Default: `body.messages`.
   */
  messages?: CacheBreakpointMessages;
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
export function addCacheBreakpoints({
  body,
  mark,
  systemParts = [],
  messages = bodyMessages(body),
}: AddCacheBreakpointsOptions): void {
  if (body.cache_control === null) {
    delete body.cache_control;
    return;
  }
  if (body.cache_control !== undefined) return;
  const inSystem = countMarks(body.system);
  const inTools = countMarks(body.tools);
  let free = MAX_CACHE_BREAKPOINTS - inSystem - inTools - messages.marks();
  let tail = -1;
  if (free > 0) {
    const placed = markMessageBefore(messages, messages.length - 1, mark);
    tail = placed.index;
    if (placed.added) free--;
  }
  if (free > 0 && inSystem === 0 && markSystem(body, systemParts, mark)) free--;
  if (free > 0 && inTools === 0 && markTools(body, mark)) free--;
  const previous = assistantBefore(messages, tail);
  if (free > 0 && previous > 0) markMessageBefore(messages, previous - 1, mark);
}
