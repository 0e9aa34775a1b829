import type { Message } from "../../models/message.js";
import { type CacheBreakpointMessages, countMarks } from "./add-cache-breakpoints.js";
import type { AnthropicWireBlock } from "./anthropic-wire-types.js";
import { asBlocks, convertAnthropicMessage } from "./convert-to-anthropic-messages.js";

/** One neutral message converted and serialised on its own (cached per message object). */
interface ConvertedMessage {
  /** The wire role; undefined: the message sends nothing (a system message, an assistant with no block). */
  role: "user" | "assistant" | undefined;
  /** The converted content as the message stands alone; never mutated (marking copies it). */
  content: string | AnthropicWireBlock[];
  /** `JSON.stringify(content)`. */
  contentJson: string;
  /** `{"role":…,"content":…}`: the wire message when no neighbour of its role merges into it. */
  messageJson: string;
  /** The `cache_control` breakpoints already in its blocks (blocks kept from `providerData`). */
  marks: number;
}

const NOTHING: ConvertedMessage = {
  role: undefined,
  content: "",
  contentJson: "",
  messageJson: "",
  marks: 0,
};

const convertedCache = new WeakMap<Message, ConvertedMessage>();

/**
 * A message converted and serialised once per message object: a conversation's history is sent again every
 * turn, but only its new messages are converted. Messages must not be mutated after they were sent
 * (agentloop never does; build a new message instead).
 */
function converted(message: Message): ConvertedMessage {
  let entry = convertedCache.get(message);
  if (entry === undefined) {
    const part = convertAnthropicMessage(message);
    if (part === undefined) {
      entry = NOTHING;
    } else {
      const contentJson = JSON.stringify(part.content);
      entry = {
        role: part.role,
        content: part.content,
        contentJson,
        messageJson: `{"role":"${part.role}","content":${contentJson}}`,
        marks: countMarks(part.content),
      };
    }
    convertedCache.set(message, entry);
  }
  return entry;
}

/** The JSON texts of `asBlocks(entry.content)`, comma-separated without brackets ("" when there is none). */
function blocksJson(entry: ConvertedMessage): string {
  if (typeof entry.content !== "string") return entry.contentJson.slice(1, -1);
  return entry.content === "" ? "" : `{"type":"text","text":${entry.contentJson}}`;
}

/**
 * The converted history of a request, kept as cached JSON pieces: the same `system` and `messages` as
 * `convertToAnthropicMessages` (consecutive messages of one role merged into one wire message), but every
 * message is converted and serialised once per message object, so a turn costs a walk over the history and
 * the conversion of its new messages only. It is the {@link CacheBreakpointMessages} that `addCacheBreakpoints`
 * marks: a message's content object is built only when a breakpoint is looked for in it, and a marked message
 * is serialised again (its unmarked JSON stays cached).
 */
export class AnthropicMessagesJson implements CacheBreakpointMessages {
  /** Every non-empty system message's text, in order. */
  readonly systemParts: string[] = [];
  /** The converted messages that send something, in order. */
  private readonly parts: ConvertedMessage[] = [];
  /** The index in `parts` where each wire message starts (one per run of one role). */
  private readonly starts: number[] = [];
  /** Marked contents set by `addCacheBreakpoints`, by wire message index. */
  private readonly marked = new Map<number, Record<string, unknown>[]>();

  /** Converts (or takes from the cache) every message. Throws `UnsupportedContentError` as the converter does. */
  constructor(messages: readonly Message[]) {
    let role: string | undefined;
    for (const message of messages) {
      if (message.role === "system") {
        if (message.content !== "") this.systemParts.push(message.content);
        continue;
      }
      const entry = converted(message);
      if (entry.role === undefined) continue;
      if (entry.role !== role) this.starts.push(this.parts.length);
      role = entry.role;
      this.parts.push(entry);
    }
  }

  /** The top-level `system` field: the system texts joined by a blank line; undefined when there is none. */
  get system(): string | undefined {
    return this.systemParts.length > 0 ? this.systemParts.join("\n\n") : undefined;
  }

  /** How many wire messages there are. */
  get length(): number {
    return this.starts.length;
  }

  /** The wire message's role. */
  role(index: number): unknown {
    const start = this.starts[index];
    return start === undefined ? undefined : this.parts[start]?.role;
  }

  /** The wire message's content, built from the cached conversions (merged blocks are a new array). */
  content(index: number): unknown {
    const marked = this.marked.get(index);
    if (marked !== undefined) return marked;
    const [start, end] = this.range(index);
    if (end - start === 1) return this.parts[start]?.content;
    const blocks: AnthropicWireBlock[] = [];
    for (let i = start; i < end; i++) blocks.push(...asBlocks((this.parts[i] as ConvertedMessage).content));
    return blocks;
  }

  /** Records a marked copy of the wire message's content (sent instead of the cached JSON). */
  setContent(index: number, content: Record<string, unknown>[]): void {
    this.marked.set(index, content);
  }

  /** The breakpoints already in the messages' blocks. */
  marks(): number {
    let count = 0;
    for (const part of this.parts) count += part.marks;
    return count;
  }

  /** The JSON text of the wire messages, comma-separated without brackets. */
  json(): string {
    // `+` on strings makes ropes: the cached pieces are not copied until the body is encoded once.
    let json = "";
    for (let index = 0; index < this.starts.length; index++) {
      const message = this.messageJson(index);
      json = index === 0 ? message : `${json},${message}`;
    }
    return json;
  }

  private messageJson(index: number): string {
    const [start, end] = this.range(index);
    const first = this.parts[start] as ConvertedMessage;
    const marked = this.marked.get(index);
    if (marked !== undefined) return JSON.stringify({ role: first.role, content: marked });
    if (end - start === 1) return first.messageJson;
    let blocks = "";
    for (let i = start; i < end; i++) {
      const json = blocksJson(this.parts[i] as ConvertedMessage);
      if (json !== "") blocks = blocks === "" ? json : `${blocks},${json}`;
    }
    return `{"role":"${first.role}","content":[${blocks}]}`;
  }

  /** The `parts` of wire message `index`: [start, end). */
  private range(index: number): [number, number] {
    const start = this.starts[index] ?? 0;
    return [start, this.starts[index + 1] ?? this.parts.length];
  }
}
