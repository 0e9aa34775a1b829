import type { Message } from "../../models/message.js";
import type { ModelRequest } from "../../models/model.js";

/**
 * Mistral accepts tool-call ids of exactly 9 characters of a-z, A-Z, 0-9 and answers 400 ("Tool call id was
 * call_abc… but must be a-z, A-Z, 0-9, with a length of 9") for any other id in the history. Its own ids have
 * that form, but a conversation that started on another provider (or moved to Mistral through a fallback
 * model) carries ids like `call_…` or `toolu_…`. Those are sent as a 9-character hash of the id: the same id
 * always maps to the same string, so a call and its result still match. The history itself is not changed.
 */

const ALPHABET = "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz";
const MISTRAL_ID = /^[A-Za-z0-9]{9}$/;

/** Two 32-bit FNV-1a hashes (different offsets) of a string's UTF-16 code units, as one 64-bit number. */
function hash64(text: string): bigint {
  let a = 0x811c9dc5;
  let b = 0x01000193 ^ 0x5bd1e995;
  for (let i = 0; i < text.length; i++) {
    const code = text.charCodeAt(i);
    a = Math.imul(a ^ code, 0x01000193);
    b = Math.imul(b ^ code, 0x01000193) ^ (b >>> 13);
  }
  return (BigInt(a >>> 0) << 32n) | BigInt(b >>> 0);
}

/** The id as Mistral accepts it: unchanged when it already has the form, else 9 base-62 digits of its hash. */
export function mistralToolCallId(id: string): string {
  if (MISTRAL_ID.test(id)) return id;
  let n = hash64(id);
  let result = "";
  for (let i = 0; i < 9; i++) {
    result += ALPHABET[Number(n % 62n)];
    n /= 62n;
  }
  return result;
}

/** Rewritten copies, one per message, so each is converted and serialised once like any message. */
const copies = new WeakMap<Message, Message>();

/** The memoised copy of a message (made once). */
function copyOf(message: Message, make: () => Message): Message {
  let copy = copies.get(message);
  if (copy === undefined) {
    copy = make();
    copies.set(message, copy);
  }
  return copy;
}

/** The message with its tool-call ids in Mistral's form (the message itself when they already are). */
function withMistralIds(message: Message): Message {
  if (message.role === "tool") {
    if (MISTRAL_ID.test(message.toolCallId)) return message;
    return copyOf(message, () => ({ ...message, toolCallId: mistralToolCallId(message.toolCallId) }));
  }
  if (message.role !== "assistant") return message;
  const calls = message.toolCalls;
  if (calls === undefined || calls.every((call) => MISTRAL_ID.test(call.id))) return message;
  return copyOf(message, () => ({
    ...message,
    toolCalls: calls.map((call) => ({ ...call, id: mistralToolCallId(call.id) })),
  }));
}

/** The request with every tool-call id in Mistral's form: the request itself when all already are. */
export function withMistralToolCallIds(request: ModelRequest): ModelRequest {
  const messages = request.messages;
  let result: Message[] | undefined;
  for (let i = 0; i < messages.length; i++) {
    const message = messages[i] as Message;
    const own = withMistralIds(message);
    if (own !== message && result === undefined) result = messages.slice(0, i);
    result?.push(own);
  }
  return result === undefined ? request : { ...request, messages: result };
}
