import { UnsupportedContentError } from "../errors/unsupported-content-error.js";
import type { FilePart, ImagePart } from "../models/content-part.js";

/**
 * What the three providers (OpenAI Chat, OpenAI Responses, Anthropic) share when converting image and file
 * parts: media types read the same way, the image types they all take, default file names, and the errors.
 */

/** The image media types OpenAI and Anthropic both read: PNG, JPEG, GIF (non-animated for OpenAI), WebP. */
export const SUPPORTED_IMAGE_MEDIA_TYPES: readonly string[] = Object.freeze([
  "image/png",
  "image/jpeg",
  "image/gif",
  "image/webp",
]);

const EXTENSIONS: Readonly<Record<string, string>> = {
  "application/pdf": "pdf",
  "text/plain": "txt",
  "text/markdown": "md",
  "text/csv": "csv",
  "text/html": "html",
  "application/json": "json",
  "application/vnd.openxmlformats-officedocument.wordprocessingml.document": "docx",
  "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet": "xlsx",
  "application/vnd.openxmlformats-officedocument.presentationml.presentation": "pptx",
};

/**
 * The media type of a part without parameters, lowercased (`"Text/Plain; charset=utf-8"` → `"text/plain"`),
 * `image/jpg` read as `image/jpeg`; undefined when the part has none (an image by URL may not say).
 */
export function contentMediaType(part: ImagePart | FilePart): string | undefined {
  const given = part.mediaType;
  if (given === undefined) return undefined;
  const base = (given.split(";")[0] ?? "").trim().toLowerCase();
  return base === "image/jpg" ? "image/jpeg" : base;
}

/**
 * A file part holding an image (`mediaType` `image/*`) as the image part it is, so that every provider sends
 * it as an image; other parts are returned as they are.
 */
export function asImageIfImageFile(part: ImagePart | FilePart): ImagePart | FilePart {
  if (part.type !== "file" || !contentMediaType(part)?.startsWith("image/")) return part;
  const image: ImagePart = { type: "image", mediaType: part.mediaType };
  if (part.url !== undefined) image.url = part.url;
  else if (part.data !== undefined) image.data = part.data;
  return image;
}

/** Options of {@link checkImagePart}. */
export interface CheckImagePartOptions {
  part: ImagePart;
  /** The API converting it (see {@link UnsupportedContentError.provider}). */
  provider: string;
}

/**
 * Checks an image part before it is converted: an inline image needs a media type, and a media type (given,
 * or known from inline data) must be one of {@link SUPPORTED_IMAGE_MEDIA_TYPES}. Returns the media type
 * (undefined for an image by URL that does not say). Throws {@link UnsupportedContentError}.
 */
export function checkImagePart({ part, provider }: CheckImagePartOptions): string | undefined {
  const mediaType = contentMediaType(part);
  if (part.url === undefined && mediaType === undefined) {
    throw new UnsupportedContentError({
      provider,
      partType: "image",
      reason: "an inline image needs its mediaType (image/png, image/jpeg, image/gif or image/webp)",
    });
  }
  if (mediaType !== undefined && !SUPPORTED_IMAGE_MEDIA_TYPES.includes(mediaType)) {
    throw new UnsupportedContentError({
      provider,
      partType: "image",
      mediaType: part.mediaType,
      reason: "only PNG, JPEG, GIF and WebP images are read; convert the image to one of those first",
    });
  }
  return mediaType;
}

/**
 * Refuses audio and video given as file parts: none of the three APIs reads them as files. Throws
 * {@link UnsupportedContentError}.
 */
export function checkNotAudioOrVideo({ part, provider }: { part: FilePart; provider: string }): void {
  const mediaType = contentMediaType(part) ?? "";
  if (mediaType.startsWith("audio/") || mediaType.startsWith("video/")) {
    throw new UnsupportedContentError({
      provider,
      partType: "file",
      mediaType: part.mediaType,
      reason: "audio and video files are not read as file parts",
    });
  }
}

/**
 * The name sent with a file: its own `filename`, else `file.<extension>` for a known media type (`file.pdf`),
 * else `file`. OpenAI requires a name with inline file data.
 */
export function fileNameOf(part: FilePart): string {
  if (part.filename !== undefined && part.filename !== "") return part.filename;
  const extension = EXTENSIONS[contentMediaType(part) ?? ""];
  return extension === undefined ? "file" : `file.${extension}`;
}

/**
 * Decodes base64 to UTF-8 text (invalid sequences become U+FFFD), with the web-standard `atob` so it runs
 * wherever JavaScript does. Throws on text that is not base64.
 */
export function decodeBase64Text(data: string): string {
  const binary = atob(data);
  const bytes = new Uint8Array(binary.length);
  for (let i = 0; i < binary.length; i++) bytes[i] = binary.charCodeAt(i);
  return new TextDecoder().decode(bytes);
}
