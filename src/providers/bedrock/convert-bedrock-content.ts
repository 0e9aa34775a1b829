import { UnsupportedContentError } from "../../errors/unsupported-content-error.js";
import type { ContentPart, FilePart, ImagePart, MessageContent } from "../../models/content-part.js";
import {
  asImageIfImageFile,
  checkImagePart,
  checkNotAudioOrVideo,
  contentMediaType,
  fileNameOf,
} from "../content-media-type.js";
import type {
  BedrockWireDocumentBlock,
  BedrockWireImageBlock,
  BedrockWirePartBlock,
  BedrockWireSource,
} from "./bedrock-wire-types.js";

const PROVIDER = "bedrock";

/** The document formats Converse reads, by media type. */
const DOCUMENT_FORMATS: Readonly<Record<string, string>> = {
  "application/pdf": "pdf",
  "text/csv": "csv",
  "application/msword": "doc",
  "application/vnd.openxmlformats-officedocument.wordprocessingml.document": "docx",
  "application/vnd.ms-excel": "xls",
  "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet": "xlsx",
  "text/html": "html",
  "text/plain": "txt",
  "text/markdown": "md",
};

/**
 * Converts message content (a user message's, or a tool result's) to Converse content blocks in order:
 * `{text}`, `{image}`, `{document}`. Empty text is left out (Converse refuses blank text blocks), so
 * empty content gives `[]`. Throws {@link UnsupportedContentError} for a part Converse cannot take.
 */
export function convertToBedrockContent(content: MessageContent): BedrockWirePartBlock[] {
  if (typeof content === "string") return content === "" ? [] : [{ text: content }];
  const blocks: BedrockWirePartBlock[] = [];
  for (const part of content) {
    if (part.type === "text" && part.text === "") continue;
    blocks.push(convertToBedrockBlock(part));
  }
  return blocks;
}

/**
 * Converts one part:
 * - text → `{text}`;
 * - image → `{image: {format, source: {bytes}}}` inline (base64), `source: {s3Location: {uri}}` for an
 *   `s3://` URL; PNG, JPEG, GIF and WebP only; an `https:` URL is refused (Converse does not fetch URLs);
 * - file → `{document: {format, name, source}}` for PDF, CSV, DOC(X), XLS(X), HTML, plain text and
 *   Markdown, inline or from `s3://`; `name` is the file name made safe for Converse (letters, digits,
 *   single spaces, hyphens, parentheses and square brackets). Other files, audio and video are refused.
 */
export function convertToBedrockBlock(part: ContentPart): BedrockWirePartBlock {
  if (part.type === "text") return { text: part.text };
  const media = asImageIfImageFile(part);
  return media.type === "image" ? imageBlock(media) : documentBlock(media);
}

function sourceOf(part: ImagePart | FilePart, what: string): BedrockWireSource {
  if (part.url === undefined) return { bytes: part.data ?? "" };
  if (part.url.startsWith("s3://")) return { s3Location: { uri: part.url } };
  throw new UnsupportedContentError({
    provider: PROVIDER,
    partType: part.type,
    ...(part.mediaType !== undefined && { mediaType: part.mediaType }),
    reason: `Bedrock takes ${what} inline (data) or from S3 (s3:// URLs); it does not fetch other URLs`,
  });
}

function imageBlock(part: ImagePart): BedrockWireImageBlock {
  const mediaType = checkImagePart({ part, provider: PROVIDER });
  if (mediaType === undefined && part.url?.startsWith("s3://")) {
    throw new UnsupportedContentError({
      provider: PROVIDER,
      partType: "image",
      reason: "an image from S3 needs its mediaType (image/png, image/jpeg, image/gif or image/webp)",
    });
  }
  const source = sourceOf(part, "images");
  return { image: { format: (mediaType ?? "").slice("image/".length), source } };
}

function documentBlock(part: FilePart): BedrockWireDocumentBlock {
  checkNotAudioOrVideo({ part, provider: PROVIDER });
  const format = DOCUMENT_FORMATS[contentMediaType(part) ?? ""];
  if (format === undefined) {
    throw new UnsupportedContentError({
      provider: PROVIDER,
      partType: "file",
      mediaType: part.mediaType,
      reason: "Bedrock reads PDF, CSV, DOC, DOCX, XLS, XLSX, HTML, plain-text and Markdown documents",
    });
  }
  return { document: { format, name: documentName(part), source: sourceOf(part, "documents") } };
}

/**
 * A document name Converse accepts: the file name without its extension, other characters than letters,
 * digits, spaces, hyphens, parentheses and square brackets replaced by hyphens, runs of spaces collapsed;
 * `document` when nothing is left.
 */
export function documentName(part: FilePart): string {
  const base = fileNameOf(part).replace(/\.[A-Za-z0-9]{1,5}$/, "");
  const safe = base
    .replace(/[^A-Za-z0-9 ()[\]-]/g, "-")
    .replace(/\s+/g, " ")
    .trim();
  return safe === "" ? "document" : safe.slice(0, 200);
}
