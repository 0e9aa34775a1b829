import { UnsupportedContentError } from "../../errors/unsupported-content-error.js";
import {
  type ContentPart,
  contentText,
  type FilePart,
  hasMediaParts,
  type ImagePart,
  type MessageContent,
} from "../../models/content-part.js";
import {
  asImageIfImageFile,
  checkImagePart,
  checkNotAudioOrVideo,
  contentMediaType,
  decodeBase64Text,
} from "../content-media-type.js";
import type {
  AnthropicWireBlock,
  AnthropicWireDocumentBlock,
  AnthropicWireImageBlock,
} from "./anthropic-wire-types.js";

const PROVIDER = "anthropic";

/**
 * Converts message content (a user message's, or a tool result's `content`) to the Messages API: a string
 * as it is; parts holding images or files as blocks in order (`text`, `image`, `document`), empty text parts
 * left out (the API refuses empty text blocks); text-only parts as one string (their texts joined by
 * newlines). Throws {@link UnsupportedContentError} for a part the API cannot take (see
 * {@link convertToAnthropicBlock}).
 */
export function convertToAnthropicContent(content: MessageContent): string | AnthropicWireBlock[] {
  if (!hasMediaParts(content)) return contentText(content);
  const blocks: AnthropicWireBlock[] = [];
  for (const part of content) {
    if (part.type === "text" && part.text === "") continue;
    blocks.push(convertToAnthropicBlock(part));
  }
  return blocks;
}

/**
 * Converts one part:
 * - text → `{type:"text", text}`;
 * - image → `{type:"image", source:{type:"base64", media_type, data}}` inline, `{type:"image",
 *   source:{type:"url", url}}` by URL; PNG, JPEG, GIF and WebP only;
 * - PDF file → `{type:"document", source:{type:"base64", media_type:"application/pdf", data}}` inline,
 *   `source:{type:"url", url}` by URL;
 * - text file (`text/*`, inline) → `{type:"document", source:{type:"text", media_type:"text/plain", data}}`
 *   with the decoded text;
 * - a file's `filename` becomes the document's `title`. Other files (and text files by URL) are refused. A
 *   file part with an `image/*` media type is sent as an image.
 */
export function convertToAnthropicBlock(part: ContentPart): AnthropicWireBlock {
  if (part.type === "text") return { type: "text", text: part.text };
  const media = asImageIfImageFile(part);
  const block = media.type === "image" ? imageBlock(media) : documentBlock(media);
  return block as unknown as AnthropicWireBlock;
}

function imageBlock(part: ImagePart): AnthropicWireImageBlock {
  const mediaType = checkImagePart({ part, provider: PROVIDER });
  if (part.url !== undefined) return { type: "image", source: { type: "url", url: part.url } };
  return {
    type: "image",
    source: { type: "base64", media_type: mediaType ?? "", data: part.data ?? "" },
  };
}

function documentBlock(part: FilePart): AnthropicWireDocumentBlock {
  checkNotAudioOrVideo({ part, provider: PROVIDER });
  const block: AnthropicWireDocumentBlock = { type: "document", source: documentSource(part) };
  if (part.filename !== undefined && part.filename !== "") block.title = part.filename;
  return block;
}

function documentSource(part: FilePart): AnthropicWireDocumentBlock["source"] {
  const mediaType = contentMediaType(part) ?? "";
  if (mediaType === "application/pdf") {
    if (part.url !== undefined) return { type: "url", url: part.url };
    return { type: "base64", media_type: "application/pdf", data: part.data ?? "" };
  }
  if (!mediaType.startsWith("text/")) {
    throw unsupportedFile(part, "Anthropic reads PDF and plain-text documents only");
  }
  if (part.url !== undefined) {
    throw unsupportedFile(
      part,
      "Anthropic fetches PDFs by URL, not text files; pass the text inline as `data`",
    );
  }
  let text: string;
  try {
    text = decodeBase64Text(part.data ?? "");
  } catch {
    throw unsupportedFile(part, "the file's `data` is not base64");
  }
  return { type: "text", media_type: "text/plain", data: text };
}

function unsupportedFile(part: FilePart, reason: string): UnsupportedContentError {
  return new UnsupportedContentError({
    provider: PROVIDER,
    partType: "file",
    mediaType: part.mediaType,
    reason,
  });
}
