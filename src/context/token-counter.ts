import type { ContentPart } from "../models/content-part.js";
import type { Message } from "../models/message.js";
import type { ModelToolSpec } from "../models/model.js";
import { TextCountCache, type TextCountCacheOptions } from "./text-count-cache.js";

/**
 * Counts tokens the way a model's context window sees them. Counts of messages and tool arrays are cached
 * per object identity (messages are immutable once they are in a history), so counting a growing history
 * costs only its new messages; counts of texts are also cached by the text (a bounded LRU), so a text that
 * comes back in a new message object (the system prompt of every run) is not encoded again.
 */
export interface TokenCounter {
  /** The tokenizer: `"o200k_base"`, `"cl100k_base"`, `"estimate"`, or whatever a custom counter says. */
  readonly encoding: string;
  /** True when counts come from the model's real tokenizer; false for the character-based estimate. */
  readonly exact: boolean;
  /** Tokens of a plain text. */
  countText(text: string): number;
  /** Tokens of one message: its content plus role and tool-call overhead. Cached per message object. */
  countMessage(message: Message): number;
  /** Tokens the tool definitions add to a request. Cached per array (and per tool spec object). */
  countTools(tools: readonly ModelToolSpec[]): number;
}

/**
 * The overhead constants, after OpenAI's published accounting (the cookbook "How to count tokens with
 * tiktoken", also used by gpt-tokenizer's `countChatCompletionTokens`). For other providers they are an
 * approximation that {@link ContextTracker.calibrate} corrects.
 */
export const TOKEN_OVERHEAD = {
  /** Framing of every message (`<|start|>`, the separator, `<|end|>`). */
  message: 3,
  /** The role name ("system", "user", "assistant" and "tool" are one token each in o200k and cl100k). */
  role: 1,
  /** Each tool call of an assistant message, on top of its name and raw arguments. */
  toolCall: 3,
  /** Each tool definition, on top of its compact JSON (`{"name","description","parameters"}`). */
  toolDefinition: 4,
  /**
   * An image part, whatever its size (no dimensions are known here). Anthropic bills about (width × height) /
   * 750 tokens, up to about 1,600 for a full-size image; OpenAI's high detail 85 + 170 per 512-pixel tile
   * (765 for 1024×1024). The upper bound is used so that compaction acts before a context overflows.
   */
  image: 1_600,
  /** A file part: at least this many tokens (a one-page PDF is about 1,500: its text plus a page image). */
  file: 1_600,
  /** Once per request that has tools: the tools section header the provider renders around them. */
  toolsBlock: 9,
  /** Every reply is primed with `<|start|>assistant<|message|>`. Added once per request. */
  replyPriming: 3,
} as const;

/** Options of {@link createTokenCounter}. */
export interface CreateTokenCounterOptions {
  /** The tokenizer's name, reported as {@link TokenCounter.encoding}. */
  encoding: string;
  /** Whether `countText` is the model's real tokenizer. */
  exact: boolean;
  /** Counts the tokens of a plain text. Called at most once per message part thanks to the caches. */
  countText: (text: string) => number;
  /**
   * The cache of counts by text (least recently used evicted first), on top of the per-object caches: it
   * holds texts that recur in new objects on every run (the system prompt). It returns exactly what
   * `countText` returned for an equal text, so it needs `countText` to depend on the text alone. `false`
   * turns it off. Default `{ maxEntries: 256, maxChars: 1_048_576 }`.
   */
  textCache?: TextCountCacheOptions | false;
}

/**
 * Builds a {@link TokenCounter} from a text-counting function: adds the message, tool-call and tool
 * definition overhead of {@link TOKEN_OVERHEAD} and caches counts per message object, per tools array and
 * (bounded, see {@link CreateTokenCounterOptions.textCache}) per text.
 * Use it to plug in another provider's tokenizer.
 */
export function createTokenCounter(options: CreateTokenCounterOptions): TokenCounter {
  const { encoding, exact, countText, textCache } = options;
  const messageCounts = new WeakMap<Message, number>();
  const toolArrayCounts = new WeakMap<readonly ModelToolSpec[], number>();
  const toolCounts = new WeakMap<ModelToolSpec, number>();
  const cache = textCache === false ? undefined : new TextCountCache(textCache);
  const text =
    cache === undefined
      ? (value: string): number => (value === "" ? 0 : countText(value))
      : (value: string): number => (value === "" ? 0 : cache.count(value, countText));

  const countTool = (tool: ModelToolSpec): number => {
    let count = toolCounts.get(tool);
    if (count === undefined) {
      const json = JSON.stringify({
        name: tool.name,
        description: tool.description,
        parameters: tool.parameters,
      });
      count = text(json) + TOKEN_OVERHEAD.toolDefinition;
      toolCounts.set(tool, count);
    }
    return count;
  };

  return {
    encoding,
    exact,
    countText: text,
    countMessage(message) {
      let count = messageCounts.get(message);
      if (count !== undefined) return count;
      const content = message.content;
      count = TOKEN_OVERHEAD.message + TOKEN_OVERHEAD.role;
      count += typeof content === "string" ? text(content) : countParts(content, text);
      if (message.role === "assistant" && message.toolCalls !== undefined) {
        for (const call of message.toolCalls) {
          count += TOKEN_OVERHEAD.toolCall + text(call.name) + text(call.rawArguments);
        }
      }
      messageCounts.set(message, count);
      return count;
    },
    countTools(tools) {
      let count = toolArrayCounts.get(tools);
      if (count !== undefined) return count;
      count = tools.length === 0 ? 0 : TOKEN_OVERHEAD.toolsBlock;
      for (const tool of tools) count += countTool(tool);
      toolArrayCounts.set(tools, count);
      return count;
    },
  };
}

/** Options of {@link countMessages}. */
export interface CountMessagesOptions {
  counter: TokenCounter;
  messages: readonly Message[];
}

/**
 * Tokens of a whole message list as one request: the sum of {@link TokenCounter.countMessage} plus the reply
 * priming. O(messages) cache lookups; use {@link ContextTracker} to follow a growing history incrementally.
 */
export function countMessages({ counter, messages }: CountMessagesOptions): number {
  let total = TOKEN_OVERHEAD.replyPriming;
  for (const message of messages) total += counter.countMessage(message);
  return total;
}

/**
 * Tokens of content parts: their text, {@link TOKEN_OVERHEAD}.image per image and, per file, the larger of
 * {@link TOKEN_OVERHEAD}.file and a quarter of its inline base64 length (documents are billed by their text
 * and pages; a URL's size is unknown).
 */
function countParts(parts: readonly ContentPart[], text: (value: string) => number): number {
  let count = 0;
  for (const part of parts) {
    if (part.type === "text") count += text(part.text);
    else if (part.type === "image") count += TOKEN_OVERHEAD.image;
    else count += Math.max(TOKEN_OVERHEAD.file, Math.ceil((part.data?.length ?? 0) / 4));
  }
  return count;
}
