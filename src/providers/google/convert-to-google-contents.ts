import { contentText, hasMediaParts } from "../../models/content-part.js";
import type { AssistantMessage, Message, ToolMessage } from "../../models/message.js";
import { convertToGoogleParts } from "./convert-google-content.js";
import { storedGoogleParts } from "./google-provider-data.js";
import type { GoogleWireContent, GoogleWirePart } from "./google-wire-types.js";

/**
 * The signature Google documents for function calls that no Gemini model made (a history from another
 * provider): it tells Gemini 3, which requires a signature on the first call of each step, to skip the check.
 */
export const SKIP_THOUGHT_SIGNATURE = "skip_thought_signature_validator";

/** The converted prompt: `systemInstruction` and the alternating `contents`. */
export interface GooglePrompt {
  /** Every system message's text, in order, joined by a blank line. Undefined when there is none. */
  systemInstruction: GoogleWireContent | undefined;
  contents: GoogleWireContent[];
}

/** Options of {@link convertToGoogleContents}. */
export interface ConvertToGoogleContentsOptions {
  messages: readonly Message[];
  /** The model id: Gemini 3 and later take a tool's images nested in its function response. */
  modelId: string;
}

/** What a tool result needs to know about its call. */
interface CallInfo {
  name: string;
  /** The id the API gave the call; undefined when it gave none (the result then goes by name and order). */
  wireId: string | undefined;
  /** The call's position in its model turn. */
  order: number;
}

/** True for Gemini 3 and later (`gemini-3-flash-preview`, `models/gemini-3.1-pro`), which differ in two ways. */
export function isGemini3OrLater(modelId: string): boolean {
  const major = /(?:^|\/)gemini-(\d+)/.exec(modelId)?.[1];
  return major !== undefined && Number(major) >= 3;
}

function isPlainObject(value: unknown): value is Record<string, unknown> {
  return value !== null && typeof value === "object" && !Array.isArray(value);
}

/**
 * The parts of a model turn: the stored parts of the Gemini answer (`providerData.google.parts`: signatures on
 * the parts they came with), else rebuilt: a `text` part (left out when empty), then one `functionCall` per
 * call with its id (arguments that are not an object are sent as `{}`). For Gemini 3 a rebuilt turn's first
 * call carries {@link SKIP_THOUGHT_SIGNATURE}. Records each call in `calls`.
 */
function modelParts({
  message,
  calls,
  gemini3,
}: {
  message: AssistantMessage;
  calls: Map<string, CallInfo>;
  gemini3: boolean;
}): GoogleWirePart[] {
  const toolCalls = message.toolCalls ?? [];
  const stored = storedGoogleParts(message);
  if (stored !== undefined) {
    const wireIds = stored
      .filter((part) => isPlainObject(part.functionCall))
      .map((part) => part.functionCall?.id);
    toolCalls.forEach((call, order) => {
      const wireId = wireIds[order];
      calls.set(call.id, { name: call.name, wireId: typeof wireId === "string" ? wireId : undefined, order });
    });
    return stored;
  }
  const parts: GoogleWirePart[] = message.content === "" ? [] : [{ text: message.content }];
  toolCalls.forEach((call, order) => {
    calls.set(call.id, { name: call.name, wireId: call.id, order });
    const args = isPlainObject(call.arguments) ? call.arguments : {};
    const part: GoogleWirePart = { functionCall: { name: call.name, args, id: call.id } };
    if (gemini3 && order === 0) part.thoughtSignature = SKIP_THOUGHT_SIGNATURE;
    parts.push(part);
  });
  return parts;
}

/**
 * The parts of consecutive tool results, in the order of their calls: a `functionResponse` each (`response`
 * is `{output: text}`, or `{error: text}` for a failed call; `id` only when the call had one from the API),
 * with the results' images and files nested in it for Gemini 3, else as parts after the responses.
 */
function resultParts({
  results,
  calls,
  gemini3,
}: {
  results: readonly ToolMessage[];
  calls: ReadonlyMap<string, CallInfo>;
  gemini3: boolean;
}): GoogleWirePart[] {
  const ordered = [...results].sort(
    (a, b) => (calls.get(a.toolCallId)?.order ?? 0) - (calls.get(b.toolCallId)?.order ?? 0),
  );
  const responses: GoogleWirePart[] = [];
  const media: GoogleWirePart[] = [];
  for (const result of ordered) {
    const call = calls.get(result.toolCallId);
    const text = contentText(result.content);
    const response = result.isError === true ? { error: text } : { output: text };
    const wireId = call === undefined ? result.toolCallId : call.wireId;
    const functionResponse: NonNullable<GoogleWirePart["functionResponse"]> = {
      name: call?.name ?? result.toolName,
      response,
      ...(wireId !== undefined && { id: wireId }),
    };
    if (hasMediaParts(result.content)) {
      const attached = convertToGoogleParts(result.content.filter((part) => part.type !== "text"));
      if (gemini3) functionResponse.parts = attached;
      else media.push(...attached);
    }
    responses.push({ functionResponse });
  }
  return [...responses, ...media];
}

/**
 * Converts neutral messages to Gemini `contents`:
 * - every non-empty system message goes to `systemInstruction` (one text part, joined by a blank line);
 * - user → a `user` turn of text, `inlineData` and `fileData` parts (see `convertToGoogleParts`);
 * - assistant → a `model` turn (see {@link modelParts}); a turn with no part at all is left out;
 * - tool results → `functionResponse` parts in a `user` turn, in the order of their calls (see
 *   {@link resultParts}).
 *
 * Consecutive turns of one role are merged into one (the results of parallel calls and a user message after
 * them become one `user` turn). Throws `UnsupportedContentError` for a part Gemini cannot take.
 */
export function convertToGoogleContents({ messages, modelId }: ConvertToGoogleContentsOptions): GooglePrompt {
  const gemini3 = isGemini3OrLater(modelId);
  const system: string[] = [];
  const contents: GoogleWireContent[] = [];
  const calls = new Map<string, CallInfo>();
  let results: ToolMessage[] = [];
  const push = (role: "user" | "model", parts: GoogleWirePart[]) => {
    const last = contents[contents.length - 1];
    if (last !== undefined && last.role === role) last.parts = [...(last.parts ?? []), ...parts];
    else contents.push({ role, parts });
  };
  const flush = () => {
    if (results.length === 0) return;
    push("user", resultParts({ results, calls, gemini3 }));
    results = [];
  };
  for (const message of messages) {
    if (message.role === "tool") {
      results.push(message);
      continue;
    }
    flush();
    if (message.role === "system") {
      if (message.content !== "") system.push(message.content);
    } else if (message.role === "user") {
      push("user", convertToGoogleParts(message.content));
    } else {
      const parts = modelParts({ message, calls, gemini3 });
      if (parts.length > 0) push("model", parts);
    }
  }
  flush();
  const systemInstruction = system.length > 0 ? { parts: [{ text: system.join("\n\n") }] } : undefined;
  return { systemInstruction, contents };
}
