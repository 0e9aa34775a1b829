import type { Message, ToolMessage, UserMessage } from "../../models/message.js";

/**
 * How one form of the converted history is built (wire objects, or their JSON text), for
 * {@link placeOpenAIToolAttachments}: `M` is a converted message, `P` a user content part.
 */
export interface OpenAIAttachmentPlacement<M, P> {
  /** A message converted on its own (a tool message: its text only). */
  message(message: Message): M;
  /** The images and files of a tool result, as user content parts (none for a text-only result). */
  attachments(message: ToolMessage): P[];
  /** The content parts of a user message, to follow the attachments in the same message. */
  userParts(message: UserMessage): P[];
  /** A user message holding these content parts. */
  userMessage(parts: P[]): M;
}

/**
 * Chat Completions `tool` messages hold text only, so the images and files of tool results travel in a user
 * message: ONE user message right after the run of tool messages (a user message between two tool messages
 * would break the run that answers one assistant message's calls). When the history's next message is a user
 * message, the attachments open that message instead (two user messages in a row are avoided). Histories
 * without attachments convert message for message.
 */
export function placeOpenAIToolAttachments<M, P>(
  messages: readonly Message[],
  placement: OpenAIAttachmentPlacement<M, P>,
): M[] {
  const result: M[] = [];
  let pending: P[] = [];
  for (const message of messages) {
    if (message.role === "tool") {
      result.push(placement.message(message));
      const attachments = placement.attachments(message);
      if (attachments.length > 0) pending = [...pending, ...attachments];
      continue;
    }
    if (pending.length > 0) {
      if (message.role === "user") {
        result.push(placement.userMessage([...pending, ...placement.userParts(message)]));
        pending = [];
        continue;
      }
      result.push(placement.userMessage(pending));
      pending = [];
    }
    result.push(placement.message(message));
  }
  if (pending.length > 0) result.push(placement.userMessage(pending));
  return result;
}
