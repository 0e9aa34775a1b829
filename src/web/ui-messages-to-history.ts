import { InvalidArgumentError } from "../errors/invalid-argument-error.js";
import type { MessageContent } from "../models/content-part.js";
import type { AssistantMessage, Message, ToolCall, ToolMessage } from "../models/message.js";
import { type ContentPartInput, normalizeContent } from "../models/normalize-content.js";
import type { UIMessage, UIMessagePart } from "./ui-message-types.js";

/** The text a denied call's tool message holds (as the loop writes it). */
const DENIED_TEXT = "The user denied this tool call; it was not executed.";

/** Tool part states whose call has an outcome the model can be told. */
const SETTLED = new Set(["output-available", "output-error", "output-denied"]);

/**
 * The content of a user message: its text parts (joined as one string when there is nothing else) and its
 * file parts (`image/*` as image parts, others as file parts; `data:` and http(s) URLs). Other parts (data,
 * sources) are not the model's. Throws `InvalidArgumentError` (naming `where`) for a bad file part.
 */
export function uiUserContent(message: UIMessage, where: string): MessageContent {
  const parts: ContentPartInput[] = [];
  message.parts.forEach((part, index) => {
    if (part.type === "text" && typeof part.text === "string") parts.push({ type: "text", text: part.text });
    else if (part.type === "file") parts.push(filePart(part, `${where}.parts[${index}]`));
  });
  if (parts.every((part) => part.type === "text")) {
    return parts.map((part) => (part as { text: string }).text).join("\n");
  }
  return normalizeContent({ content: parts, argument: `${where}.content` });
}

function filePart(part: UIMessagePart, where: string): ContentPartInput {
  const { url, mediaType, filename } = part;
  if (typeof url !== "string" || typeof mediaType !== "string") {
    throw new InvalidArgumentError({
      argument: where,
      message: "a file part needs a string `url` and `mediaType`",
    });
  }
  if (!/^(data:|https?:\/\/)/i.test(url)) {
    throw new InvalidArgumentError({ argument: `${where}.url`, message: "expected a data: or http(s): URL" });
  }
  if (mediaType.startsWith("image/")) return { type: "image", url, mediaType };
  return { type: "file", url, mediaType, ...(typeof filename === "string" && { filename }) };
}

/**
 * `useChat` messages as agentloop messages, for a run without a session (the client holds the history): user
 * messages with their text and files; each step of an assistant message (the parts between two `step-start`s)
 * as an assistant message (its text, its settled tool calls) followed by the tool messages of those calls
 * (outputs as text; errors and denials flagged). Reasoning, data and source parts are dropped (a typed
 * answer's `data-output` becomes the step's text, as JSON); a tool call with no outcome yet is dropped with
 * its part. System messages are refused: the server sets the system prompt.
 */
export function uiMessagesToHistory(messages: readonly UIMessage[]): Message[] {
  const history: Message[] = [];
  messages.forEach((message, index) => {
    const where = `body.messages[${index}]`;
    if (message.role === "system") {
      throw new InvalidArgumentError({
        argument: `${where}.role`,
        message: "system messages are not taken from the client (the agent has its system prompt)",
      });
    }
    if (message.role === "user") history.push({ role: "user", content: uiUserContent(message, where) });
    else history.push(...assistantSteps(message));
  });
  return history;
}

/** The messages of one assistant `UIMessage`: per step, the assistant's turn and its tool results. */
function assistantSteps(message: UIMessage): Message[] {
  const out: Message[] = [];
  let step: UIMessagePart[] = [];
  const flush = () => {
    out.push(...stepMessages(step));
    step = [];
  };
  for (const part of message.parts) {
    if (part.type === "step-start") flush();
    else step.push(part);
  }
  flush();
  return out;
}

function stepMessages(parts: readonly UIMessagePart[]): Message[] {
  let text = "";
  const toolCalls: ToolCall[] = [];
  const results: ToolMessage[] = [];
  const addText = (more: string) => {
    text = text === "" ? more : `${text}\n${more}`;
  };
  for (const part of parts) {
    if (part.type === "text" && typeof part.text === "string") addText(part.text);
    else if (part.type === "data-output" && isDoneOutput(part.data)) addText(JSON.stringify(part.data.value));
    else if (isToolPart(part) && SETTLED.has(part.state as string) && typeof part.toolCallId === "string") {
      const name = toolNameOf(part);
      const rawArguments = JSON.stringify(part.input ?? {});
      toolCalls.push({ id: part.toolCallId, name, arguments: part.input ?? {}, rawArguments });
      results.push(toolResult(part, name));
    }
  }
  if (text === "" && toolCalls.length === 0) return [];
  const assistant: AssistantMessage = { role: "assistant", content: text };
  if (toolCalls.length > 0) assistant.toolCalls = toolCalls;
  return [assistant, ...results];
}

function toolResult(part: UIMessagePart, toolName: string): ToolMessage {
  const message: ToolMessage = { role: "tool", toolCallId: part.toolCallId as string, toolName, content: "" };
  if (part.state === "output-available") {
    message.content = typeof part.output === "string" ? part.output : (JSON.stringify(part.output) ?? "");
  } else {
    message.content = part.state === "output-denied" ? DENIED_TEXT : String(part.errorText ?? "error");
    message.isError = true;
  }
  return message;
}

/** A tool part: `tool-<name>` or `dynamic-tool`. */
export function isToolPart(part: UIMessagePart): boolean {
  return part.type === "dynamic-tool" || part.type.startsWith("tool-");
}

/** The tool name of a tool part. */
export function toolNameOf(part: UIMessagePart): string {
  return part.type === "dynamic-tool" ? String(part.toolName ?? "") : part.type.slice("tool-".length);
}

function isDoneOutput(data: unknown): data is { state: "done"; value: unknown } {
  return typeof data === "object" && data !== null && (data as { state?: unknown }).state === "done";
}
