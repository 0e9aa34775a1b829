import { UnsupportedContentError } from "../../errors/unsupported-content-error.js";
import {
  type ContentPart,
  contentText,
  type FilePart,
  hasMediaParts,
  type ImagePart,
  type MessageContent,
  partUrl,
} from "../../models/content-part.js";
import type { ToolMessage } from "../../models/message.js";
import {
  asImageIfImageFile,
  checkImagePart,
  checkNotAudioOrVideo,
  contentMediaType,
  fileNameOf,
} from "../content-media-type.js";
import type { OpenAIWireUserContentPart } from "./openai-wire-types.js";

const PROVIDER = "openai_chat";

/**
 * Converts a user message's content to Chat Completions content: a string as it is; parts holding images or
 * files as content parts in order (`text`, `image_url`, `file`); text-only parts as one string (their texts
 * joined by newlines), which every OpenAI-compatible server reads. Throws {@link UnsupportedContentError} for
 * a part Chat Completions cannot take (see {@link convertToOpenAIContentPart}).
 */
export function convertToOpenAIUserContent(content: MessageContent): string | OpenAIWireUserContentPart[] {
  if (!hasMediaParts(content)) return contentText(content);
  return content.map(convertToOpenAIContentPart);
}

/**
 * Converts one part:
 * - text → `{type:"text", text}`;
 * - image (by URL or inline) → `{type:"image_url", image_url:{url, detail?}}`, `url` being the `https:` URL or
 *   a `data:` URL; PNG, JPEG, GIF and WebP only;
 * - file → `{type:"file", file:{filename, file_data:"data:application/pdf;base64,…"}}`: PDFs only, inline only
 *   (Chat Completions reads no other files and fetches no file URLs; the Responses API does both). A file
 *   part with an `image/*` media type is sent as an image.
 */
export function convertToOpenAIContentPart(part: ContentPart): OpenAIWireUserContentPart {
  if (part.type === "text") return { type: "text", text: part.text };
  const media = asImageIfImageFile(part);
  return media.type === "image" ? imagePart(media) : filePart(media);
}

function imagePart(part: ImagePart): OpenAIWireUserContentPart {
  checkImagePart({ part, provider: PROVIDER });
  const imageUrl: { url: string; detail?: "auto" | "low" | "high" } = { url: partUrl(part) };
  if (part.detail !== undefined) imageUrl.detail = part.detail;
  return { type: "image_url", image_url: imageUrl };
}

function filePart(part: FilePart): OpenAIWireUserContentPart {
  checkNotAudioOrVideo({ part, provider: PROVIDER });
  if (contentMediaType(part) !== "application/pdf") {
    throw new UnsupportedContentError({
      provider: PROVIDER,
      partType: "file",
      mediaType: part.mediaType,
      reason:
        "Chat Completions reads PDF files only; send the file's text as a text part, or use the Responses " +
        "API (createOpenAI().responses(modelId)), which reads other documents",
    });
  }
  if (part.url !== undefined) {
    throw new UnsupportedContentError({
      provider: PROVIDER,
      partType: "file",
      mediaType: part.mediaType,
      reason:
        "Chat Completions takes files inline only, not by URL; pass the file's bytes as `data`, or use " +
        "the Responses API (createOpenAI().responses(modelId)), which fetches file URLs",
    });
  }
  return { type: "file", file: { filename: fileNameOf(part), file_data: partUrl(part) } };
}

/** A tool result as Chat Completions can carry it: the text for the `tool` message, and its other parts. */
export interface OpenAIToolResultContent {
  /** The `content` of the `role:"tool"` message. */
  text: string;
  /**
   * The result's images and files, as user content parts (a label text part first), for the user message
   * after the run of tool messages; empty when the result is text only.
   */
  attachments: OpenAIWireUserContentPart[];
}

/**
 * Splits a tool result for Chat Completions, whose `tool` messages hold text only. The text parts stay in the
 * tool message; when the result has images or files, the tool message says so (`[1 attachment follows in
 * the next user message]`) and the attachments are returned as user content parts, led by a text part naming
 * the call (`Attachments of the result of tool call <id> (<tool>):`), for the caller to place in one user
 * message after the run of tool messages. Throws {@link UnsupportedContentError} for a part Chat Completions
 * cannot take.
 */
export function convertOpenAIToolResult(message: ToolMessage): OpenAIToolResultContent {
  const content = message.content;
  if (!hasMediaParts(content)) return { text: contentText(content), attachments: [] };
  const attachments: OpenAIWireUserContentPart[] = [
    {
      type: "text",
      text: `Attachments of the result of tool call ${message.toolCallId} (${message.toolName}):`,
    },
  ];
  for (const part of content) {
    if (part.type !== "text") attachments.push(convertToOpenAIContentPart(part));
  }
  const count = attachments.length - 1;
  const note = `[${count} attachment${count === 1 ? "" : "s"} follow${count === 1 ? "s" : ""} in the next user message]`;
  const text = contentText(content);
  return { text: text === "" ? note : `${text}\n${note}`, attachments };
}
