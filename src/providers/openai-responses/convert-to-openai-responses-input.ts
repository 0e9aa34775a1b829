import type { AssistantMessage, Message } from "../../models/message.js";
import { convertToResponsesContent } from "./convert-responses-content.js";
import type { OpenAIResponsesInputItem, OpenAIResponsesWireItem } from "./openai-responses-wire-types.js";

/** The `instructions` and `input` of a Responses request. */
export interface OpenAIResponsesInput {
  /** The leading system messages, joined with a blank line; undefined when the history starts otherwise. */
  instructions: string | undefined;
  input: OpenAIResponsesInputItem[];
}

function isObject(value: unknown): value is Record<string, unknown> {
  return value !== null && typeof value === "object" && !Array.isArray(value);
}

/**
 * The recorded output items of an assistant message (`providerData.openaiResponses.output`, written by this
 * provider), or undefined when the message has none (another provider's turn, or a turn without reasoning).
 */
export function recordedOpenAIResponsesOutput(
  message: AssistantMessage,
): readonly OpenAIResponsesWireItem[] | undefined {
  const data = message.providerData?.openaiResponses;
  if (!isObject(data)) return undefined;
  const output = data.output;
  if (!Array.isArray(output) || output.length === 0 || !output.every(isObject)) return undefined;
  return output as OpenAIResponsesWireItem[];
}

/** How many system messages open the history (they become `instructions`). */
export function countLeadingSystemMessages(messages: readonly Message[]): number {
  let count = 0;
  while (count < messages.length && messages[count]?.role === "system") count++;
  return count;
}

/** The instructions text of the leading system messages (undefined when there are none). */
export function leadingInstructions(messages: readonly Message[], count: number): string | undefined {
  if (count === 0) return undefined;
  return messages
    .slice(0, count)
    .map((message) => message.content)
    .join("\n\n");
}

/**
 * Converts one neutral message to its input items:
 * - system (not leading) → `{role:"system", content}` (the API accepts `system` for every model; leading
 *   system messages go to `instructions` instead, see {@link convertToOpenAIResponsesInput});
 * - user → `{role:"user", content}`: text, or `input_text` / `input_image` / `input_file` parts (see
 *   `convertToResponsesContent`);
 * - assistant with `providerData.openaiResponses.output` → those recorded output items, unchanged and in
 *   order (reasoning items with their `encrypted_content`, messages, function calls): this is how reasoning is
 *   carried across turns statelessly. `content` and `toolCalls` of such a message are not sent (the recorded
 *   items already hold them);
 * - other assistant messages → `{role:"assistant", content}` when there is text, then one
 *   `{type:"function_call", call_id, name, arguments}` per tool call (`arguments` = `rawArguments`);
 * - tool → `{type:"function_call_output", call_id, output}` (the API has no error flag: `isError` is not sent);
 *   `output` is the result's text, or its parts as `input_*` items when it holds images or files.
 *
 * Throws `UnsupportedContentError` for a part the API cannot take.
 */
export function convertMessageToOpenAIResponsesItems(message: Message): OpenAIResponsesInputItem[] {
  switch (message.role) {
    case "system":
      return [{ role: "system", content: message.content }];
    case "user":
      return [{ role: "user", content: convertToResponsesContent(message.content) }];
    case "assistant": {
      const recorded = recordedOpenAIResponsesOutput(message);
      if (recorded !== undefined) return [...recorded];
      const items: OpenAIResponsesInputItem[] = [];
      if (message.content !== "") items.push({ role: "assistant", content: message.content });
      for (const call of message.toolCalls ?? []) {
        items.push({
          type: "function_call",
          call_id: call.id,
          name: call.name,
          arguments: call.rawArguments,
        });
      }
      return items;
    }
    case "tool":
      return [
        {
          type: "function_call_output",
          call_id: message.toolCallId,
          output: convertToResponsesContent(message.content),
        },
      ];
  }
}

/**
 * Converts a neutral history to Responses `instructions` + `input`. The leading system messages become
 * `instructions` (joined with a blank line); every other message is converted by
 * {@link convertMessageToOpenAIResponsesItems}. The whole history is sent every turn (`store: false`).
 */
export function convertToOpenAIResponsesInput(messages: readonly Message[]): OpenAIResponsesInput {
  const leading = countLeadingSystemMessages(messages);
  const input: OpenAIResponsesInputItem[] = [];
  for (let i = leading; i < messages.length; i++) {
    input.push(...convertMessageToOpenAIResponsesItems(messages[i] as Message));
  }
  return { instructions: leadingInstructions(messages, leading), input };
}

const itemsJsonCache = new WeakMap<Message, string>();

/**
 * The JSON text of one message's input items, comma-separated without brackets ("" when it has none),
 * serialised once per message object: the history is resent every turn (reasoning items are large), but only
 * new messages are converted. Messages must not be mutated after they were sent (agentloop never does).
 */
export function openAIResponsesItemsJson(message: Message): string {
  let json = itemsJsonCache.get(message);
  if (json === undefined) {
    json = convertMessageToOpenAIResponsesItems(message)
      .map((item) => JSON.stringify(item))
      .join(",");
    itemsJsonCache.set(message, json);
  }
  return json;
}
