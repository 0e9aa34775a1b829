import { UnsupportedContentError } from "../../errors/unsupported-content-error.js";
import type { ContentPart, FilePart, ImagePart, MessageContent } from "../../models/content-part.js";
import { asImageIfImageFile, contentMediaType } from "../content-media-type.js";
import type { GoogleWirePart } from "./google-wire-types.js";

const PROVIDER = "google";

/** The image media types Gemini reads. */
export const GOOGLE_IMAGE_MEDIA_TYPES: readonly string[] = Object.freeze([
  "image/png",
  "image/jpeg",
  "image/webp",
  "image/heic",
  "image/heif",
]);

/** File media types Gemini reads besides `text/*`, `audio/*` and `video/*`. */
const FILE_MEDIA_TYPES = new Set([
  "application/pdf",
  "application/json",
  "application/x-javascript",
  "application/x-python",
  "application/rtf",
]);

/**
 * Converts message content (a user message's, or a tool result's media) to Gemini parts: a string as one
 * `text` part; parts in order, empty text parts left out (at least one part is kept). Throws
 * {@link UnsupportedContentError} for a part Gemini cannot take (see {@link convertToGooglePart}).
 */
export function convertToGoogleParts(content: MessageContent): GoogleWirePart[] {
  if (typeof content === "string") return [{ text: content }];
  const parts: GoogleWirePart[] = [];
  for (const part of content) {
    if (part.type === "text" && part.text === "") continue;
    parts.push(convertToGooglePart(part));
  }
  return parts.length > 0 ? parts : [{ text: "" }];
}

/**
 * Converts one part:
 * - text → `{text}`;
 * - an image or a file inline → `{inlineData: {mimeType, data}}`; by URL → `{fileData: {fileUri, mimeType}}`
 *   (a Files API URI, a YouTube link or a public URL; the media type is left out when an image by URL does not
 *   say);
 * - images: PNG, JPEG, WebP, HEIC and HEIF (GIF is refused: convert it first); a file part with an `image/*`
 *   type is sent as an image;
 * - files: PDF, `text/*`, audio, video, JSON and source code (`application/x-javascript`, `application/x-python`);
 *   other documents (Word, spreadsheets, …) are refused. Gemini has no field for a file's name.
 */
export function convertToGooglePart(part: ContentPart): GoogleWirePart {
  if (part.type === "text") return { text: part.text };
  const media = asImageIfImageFile(part);
  const mediaType = media.type === "image" ? checkImage(media) : checkFile(media);
  if (media.url !== undefined) {
    return { fileData: { fileUri: media.url, ...(mediaType !== undefined && { mimeType: mediaType }) } };
  }
  return { inlineData: { mimeType: mediaType ?? "", data: media.data ?? "" } };
}

function checkImage(part: ImagePart): string | undefined {
  const mediaType = contentMediaType(part);
  if (part.url === undefined && mediaType === undefined) {
    throw new UnsupportedContentError({
      provider: PROVIDER,
      partType: "image",
      reason:
        "an inline image needs its mediaType (image/png, image/jpeg, image/webp, image/heic or image/heif)",
    });
  }
  if (mediaType !== undefined && !GOOGLE_IMAGE_MEDIA_TYPES.includes(mediaType)) {
    throw new UnsupportedContentError({
      provider: PROVIDER,
      partType: "image",
      mediaType: part.mediaType,
      reason: "Gemini reads PNG, JPEG, WebP, HEIC and HEIF images; convert the image to one of those first",
    });
  }
  return mediaType;
}

function checkFile(part: FilePart): string {
  const mediaType = contentMediaType(part) ?? "";
  const known =
    FILE_MEDIA_TYPES.has(mediaType) ||
    mediaType.startsWith("text/") ||
    mediaType.startsWith("audio/") ||
    mediaType.startsWith("video/");
  if (!known) {
    throw new UnsupportedContentError({
      provider: PROVIDER,
      partType: "file",
      mediaType: part.mediaType,
      reason:
        "Gemini reads PDF, plain-text, audio and video files; convert other documents to PDF or text first",
    });
  }
  return mediaType;
}
