import type { AssistantMessage } from "../../models/message.js";
import type { GoogleWirePart } from "./google-wire-types.js";

/**
 * The `providerData` a Gemini answer leaves on its assistant message when it holds a thought signature or a
 * function call: the model turn's parts as the next request must send them back (signatures on the parts they
 * came with, call ids only where the API gave them).
 */
export type GoogleProviderData = {
  google: {
    /** The model turn's parts, in order (see `GooglePartsAssembler`). */
    parts: GoogleWirePart[];
  };
};

function isPlainObject(value: unknown): value is Record<string, unknown> {
  return value !== null && typeof value === "object" && !Array.isArray(value);
}

/**
 * The stored parts of an assistant message (`providerData.google.parts`), when they are valid and still
 * describe the message: every entry an object, and their function calls the message's tool calls by name, in
 * order (a history edited since, or a message from another provider, is rebuilt instead). Undefined otherwise.
 */
export function storedGoogleParts(message: AssistantMessage): GoogleWirePart[] | undefined {
  const google = message.providerData?.google;
  if (!isPlainObject(google) || !Array.isArray(google.parts) || google.parts.length === 0) return undefined;
  const parts = google.parts as unknown[];
  if (!parts.every(isPlainObject)) return undefined;
  const names = (parts as GoogleWirePart[])
    .filter((part) => isPlainObject(part.functionCall))
    .map((part) => part.functionCall?.name);
  const calls = message.toolCalls ?? [];
  if (names.length !== calls.length || calls.some((call, i) => call.name !== names[i])) return undefined;
  return parts as GoogleWirePart[];
}
