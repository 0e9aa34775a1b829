import type { Message } from "../../models/message.js";
import type { ModelRequest } from "../../models/model.js";
import type { OpenAIWireReasoningFields, OpenAIWireResponseReasoning } from "./openai-wire-types.js";

/**
 * Reasoning of OpenAI-compatible servers: read from answers, kept on the assistant message, and sent back on
 * the next turn as the server requires.
 *
 * Kept in `providerData.openaiCompatible` ({@link OpenAICompatibleProviderData}):
 * - `reasoning_content` (DeepSeek, xAI, llama.cpp, vLLM) → `reasoningContent`, sent back as `reasoning_content`
 *   (DeepSeek's thinking mode answers 400 when it is missing from an assistant message with tool calls);
 * - `reasoning` (Ollama, OpenRouter; kept only when no `reasoning_content` came) → `reasoning`, sent back as
 *   `reasoning` unless `reasoning_details` are sent;
 * - `reasoning_details` (OpenRouter; items with signatures or encrypted data) → `reasoningDetails`, sent back as
 *   `reasoning_details`, whole (streamed text fragments of one item are joined into that item);
 * - `extra_content` of each tool call (Gemini's thought signature, `{ google: { thought_signature } }`) →
 *   `toolCallExtras[callId]`, sent back on that call.
 *
 * The data is stamped with the server's host (`server`) and sent back only to that server: a conversation that
 * moves to another OpenAI-compatible server (or to OpenAI) does not carry fields the new server may reject.
 */

/** The `providerData` key of what an OpenAI Chat (or compatible) answer leaves on its assistant message. */
export const OPENAI_COMPATIBLE_KEY = "openaiCompatible";

/** What `providerData.openaiCompatible` holds (JSON). */
export interface OpenAICompatibleProviderData {
  /** The host (`hostname[:port]`) of the server that answered; the data is sent back only to it. */
  server: string;
  /** The `reasoning_content` text (DeepSeek, xAI, llama.cpp, vLLM). */
  reasoningContent?: string;
  /** The `reasoning` text (Ollama, OpenRouter), when no `reasoning_content` came. */
  reasoning?: string;
  /** The `reasoning_details` items (OpenRouter), whole. */
  reasoningDetails?: Array<Record<string, unknown>>;
  /** The `extra_content` object of each tool call, by call id (Gemini: `{ google: { thought_signature } }`). */
  toolCallExtras?: Record<string, Record<string, unknown>>;
}

type JsonObject = Record<string, unknown>;

const isObject = (value: unknown): value is JsonObject =>
  typeof value === "object" && value !== null && !Array.isArray(value);

/** Hosts by URL: a model calls one or two endpoints, so each URL is parsed once (bounded). */
const hosts = new Map<string, string>();

/** The host a request URL (or base URL) names: the identity `server` is compared by. */
export function serverOf(url: string): string {
  let host = hosts.get(url);
  if (host !== undefined) return host;
  try {
    host = new URL(url).host;
  } catch {
    host = url;
  }
  if (hosts.size >= 256) hosts.clear();
  hosts.set(url, host);
  return host;
}

/** The field of a `reasoning_details` item that streams in fragments (undefined: the item comes whole). */
function fragmentField(type: unknown): "text" | "summary" | undefined {
  if (type === "reasoning.text") return "text";
  if (type === "reasoning.summary") return "summary";
  return undefined;
}

/** The readable text of a `reasoning_details` item ("" for encrypted items). */
function detailText(item: JsonObject): string {
  const field = fragmentField(item.type);
  const text = field === undefined ? undefined : item[field];
  return typeof text === "string" ? text : "";
}

/**
 * Adds a streamed `reasoning_details` item: a text or summary fragment of the item before it (same type and
 * `index`) is joined into it (its text appended, other fields filled where still empty: the signature comes in
 * a fragment of its own); any other item is kept as a copy.
 */
function mergeDetail(details: JsonObject[], item: JsonObject): void {
  const field = fragmentField(item.type);
  const last = details[details.length - 1];
  if (field === undefined || last === undefined || last.type !== item.type || last.index !== item.index) {
    details.push({ ...item });
    return;
  }
  for (const [key, value] of Object.entries(item)) {
    if (key === "__proto__") continue;
    if (key === field) {
      if (typeof value === "string") last[key] = (typeof last[key] === "string" ? last[key] : "") + value;
    } else if (last[key] === undefined || last[key] === null || last[key] === "") {
      last[key] = value;
    }
  }
}

/**
 * Collects the reasoning of one answer (a stream's deltas, or a whole message) and the `extra_content` of its
 * tool calls, then gives the `providerData` to keep.
 */
export class OpenAICompatibleReasoning {
  private reasoningContent = "";
  private reasoning = "";
  private readonly details: JsonObject[] = [];
  private readonly extras = new Map<string, JsonObject>();
  private readonly server: string;

  /** `url`: the endpoint called (its host stamps the data). */
  constructor(url: string) {
    this.server = serverOf(url);
  }

  /**
   * Reads the reasoning fields of one streamed delta and returns the reasoning text it adds ("" when none):
   * `reasoning_content`, else `reasoning`, else the text of its `reasoning_details` (OpenRouter sends the same
   * text twice, as `reasoning` and in `reasoning_details`; it is shown once).
   */
  addDelta(delta: OpenAIWireResponseReasoning): string {
    return this.add(delta, true);
  }

  /** Reads the reasoning fields of a non-streamed message; returns its reasoning text ("" when none). */
  addMessage(message: OpenAIWireResponseReasoning): string {
    return this.add(message, false);
  }

  /** Keeps the `extra_content` of a tool call (ignored unless it is an object). */
  addToolCallExtra(callId: string, extra: unknown): void {
    if (isObject(extra)) this.extras.set(callId, extra);
  }

  /** The `providerData` to keep on the assistant message, or undefined when the answer had nothing to keep. */
  providerData(): Record<string, unknown> | undefined {
    const data: OpenAICompatibleProviderData = { server: this.server };
    if (this.reasoningContent !== "") data.reasoningContent = this.reasoningContent;
    else if (this.reasoning !== "") data.reasoning = this.reasoning;
    if (this.details.length > 0) data.reasoningDetails = this.details;
    if (this.extras.size > 0) data.toolCallExtras = Object.fromEntries(this.extras);
    return Object.keys(data).length === 1 ? undefined : { [OPENAI_COMPATIBLE_KEY]: data };
  }

  private add(fields: OpenAIWireResponseReasoning, streamed: boolean): string {
    const { reasoning_content: content, reasoning, reasoning_details: details } = fields;
    if (typeof content === "string") this.reasoningContent += content;
    if (typeof reasoning === "string") this.reasoning += reasoning;
    let detailsText = "";
    if (Array.isArray(details)) {
      for (const item of details) {
        if (!isObject(item)) continue;
        if (streamed) mergeDetail(this.details, item);
        else this.details.push(item);
        detailsText += detailText(item);
      }
    }
    if (typeof content === "string" && content !== "") return content;
    if (typeof reasoning === "string" && reasoning !== "") return reasoning;
    return detailsText;
  }
}

/** The kept data of an assistant message's `providerData`, when it is well-formed. */
function keptData(providerData: Record<string, unknown> | undefined): JsonObject | undefined {
  const data = providerData?.[OPENAI_COMPATIBLE_KEY];
  return isObject(data) ? data : undefined;
}

/**
 * The reasoning fields to send back on an assistant message (empty when it kept none): `reasoning_content`,
 * `reasoning_details`, else `reasoning`, each as the server sent it.
 */
export function reasoningWireFields(
  providerData: Record<string, unknown> | undefined,
): OpenAIWireReasoningFields {
  const data = keptData(providerData);
  if (data === undefined) return {};
  const fields: OpenAIWireReasoningFields = {};
  if (typeof data.reasoningContent === "string") fields.reasoning_content = data.reasoningContent;
  const details = Array.isArray(data.reasoningDetails) ? data.reasoningDetails.filter(isObject) : [];
  if (details.length > 0) fields.reasoning_details = details;
  else if (typeof data.reasoning === "string") fields.reasoning = data.reasoning;
  return fields;
}

/** The `extra_content` to send back on a tool call (undefined when none was kept for it). */
export function toolCallExtraContent(
  providerData: Record<string, unknown> | undefined,
  callId: string,
): Record<string, unknown> | undefined {
  const extras = keptData(providerData)?.toolCallExtras;
  if (!isObject(extras) || !Object.hasOwn(extras, callId)) return undefined;
  const extra = extras[callId];
  return isObject(extra) ? extra : undefined;
}

/** Copies without the other server's data, one per message (so a message is converted once, as usual). */
const strippedCopies = new WeakMap<Message, Message>();

/** The message without `providerData.openaiCompatible` when another server wrote it; else the message itself. */
function ownReasoningOnly(message: Message, server: string): Message {
  if (message.role !== "assistant") return message;
  const data = keptData(message.providerData);
  if (data === undefined || data.server === server) return message;
  let copy = strippedCopies.get(message);
  if (copy === undefined) {
    const { [OPENAI_COMPATIBLE_KEY]: _foreign, ...rest } = message.providerData ?? {};
    copy = { ...message, providerData: rest };
    strippedCopies.set(message, copy);
  }
  return copy;
}

/** Options of {@link withOwnReasoning}. */
export interface WithOwnReasoningOptions {
  request: ModelRequest;
  /** The endpoint about to be called. */
  url: string;
}

/**
 * The request with the reasoning other servers left on its assistant messages removed (see the module
 * notes): the request itself when there is none, so the usual case costs one pass over the messages.
 */
export function withOwnReasoning({ request, url }: WithOwnReasoningOptions): ModelRequest {
  const server = serverOf(url);
  const messages = request.messages;
  let result: Message[] | undefined;
  for (let i = 0; i < messages.length; i++) {
    const message = messages[i] as Message;
    const own = ownReasoningOnly(message, server);
    if (own !== message && result === undefined) result = messages.slice(0, i);
    result?.push(own);
  }
  return result === undefined ? request : { ...request, messages: result };
}
