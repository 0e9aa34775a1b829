import { jsonTextTooDeep, tooDeepMessage } from "../util/json-depth.js";
import type { MessageContent } from "./content-part.js";

/**
 * Provider-neutral conversation messages. Every provider converts these at its edge; nothing above the
 * provider layer knows a wire format.
 */

/** A tool call requested by the model. */
export interface ToolCall {
  /** Provider-assigned call id; tool results refer to it. */
  id: string;
  /** The tool's name as the model wrote it (may name a tool that does not exist). */
  name: string;
  /** Parsed arguments. `undefined` when `rawArguments` is not valid JSON (see `parseError`). */
  arguments: unknown;
  /** The arguments exactly as the model sent them. */
  rawArguments: string;
  /** Set when `rawArguments` is not valid JSON: the parser's message. The loop tells the model. */
  parseError?: string;
}

/** System instructions. */
export interface SystemMessage {
  role: "system";
  content: string;
}

/** A user turn. */
export interface UserMessage {
  role: "user";
  /** Text, or content parts (text, images, files) in order. */
  content: MessageContent;
}

/** A model turn: text and/or tool calls. */
export interface AssistantMessage {
  role: "assistant";
  /** The text the model wrote ("" when it only called tools). */
  content: string;
  /** Tool calls, in the order the model emitted them. */
  toolCalls?: ToolCall[];
  /**
   * Opaque provider data that must be sent back unchanged on the next turn (reasoning items, thinking
   * signatures). JSON-serialisable.
   */
  providerData?: Record<string, unknown>;
}

/** The result of one tool call. */
export interface ToolMessage {
  role: "tool";
  /** The id of the {@link ToolCall} this answers. */
  toolCallId: string;
  /** The tool's name (some providers need it, and it makes histories readable). */
  toolName: string;
  /** The result sent to the model: text, or content parts (a tool that returned images or files). */
  content: MessageContent;
  /** True when the call failed (unknown tool, invalid arguments, a throw, a timeout). */
  isError?: boolean;
}

/** Any conversation message. */
export type Message = SystemMessage | UserMessage | AssistantMessage | ToolMessage;

/**
 * Parses raw tool-call arguments, never throwing. An empty string means `{}` (no-argument tools). Arguments
 * nested deeper than `MAX_ARGUMENT_DEPTH` (64) levels are refused unparsed, with a `parseError` the model can
 * act on, so nothing downstream walks a value deep enough to overflow the stack.
 */
export function parseToolArguments(raw: string): { arguments: unknown; parseError?: string } {
  if (raw.trim() === "") return { arguments: {} };
  if (jsonTextTooDeep(raw)) return { arguments: undefined, parseError: tooDeepMessage() };
  try {
    return { arguments: JSON.parse(raw) };
  } catch (error) {
    return { arguments: undefined, parseError: error instanceof Error ? error.message : String(error) };
  }
}

/** Builds a {@link ToolCall} from its raw argument string. */
export function createToolCall({
  id,
  name,
  rawArguments,
}: {
  id: string;
  name: string;
  rawArguments: string;
}): ToolCall {
  const parsed = parseToolArguments(rawArguments);
  const call: ToolCall = { id, name, arguments: parsed.arguments, rawArguments };
  if (parsed.parseError !== undefined) call.parseError = parsed.parseError;
  return call;
}
