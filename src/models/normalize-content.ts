import { InvalidArgumentError } from "../errors/invalid-argument-error.js";
import type { ContentPart, FilePart, ImagePart, MessageContent } from "./content-part.js";

/** Binary data as a caller may give it: base64 text, a `data:` URL, or bytes. */
export type BinaryData = string | Uint8Array | ArrayBuffer;

/** An image part as a caller may give it: `data` may be bytes or a `data:` URL (see {@link ImagePart}). */
export type ImagePartInput = Omit<ImagePart, "data"> & { data?: BinaryData };

/** A file part as a caller may give it: `data` may be bytes or a `data:` URL (see {@link FilePart}). */
export type FilePartInput = Omit<FilePart, "data" | "mediaType"> & { data?: BinaryData; mediaType?: string };

/** A content part as a caller may give it. */
export type ContentPartInput = { type: "text"; text: string } | ImagePartInput | FilePartInput;

/** What `agent.run` accepts: a task as text, or content parts (text, images, files) in order. */
export type RunInput = string | readonly ContentPartInput[];

/** The largest inline part accepted, in bytes of decoded data (20 MiB; providers refuse more). */
export const MAX_INLINE_PART_BYTES = 20 * 1024 * 1024;

/** The most parts one message may hold. */
export const MAX_CONTENT_PARTS = 100;

const DATA_URL = /^data:([^;,]+)?(;[^,]*)?,/;
const BASE64 = /^[A-Za-z0-9+/]*={0,2}$/;

/** Options of {@link normalizeContent}. */
export interface NormalizeContentOptions {
  content: RunInput;
  /** What the error names (`"input"`, `"tool result"`). */
  argument: string;
}

/**
 * Checks content given by a caller and returns it in its stored shape: a string as it is; parts with bytes
 * and `data:` URLs turned into base64 `data` and a `mediaType`. Throws {@link InvalidArgumentError} for an
 * unknown part type, a part with neither or both of `url` and `data`, inline data without a media type, data
 * that is not base64, a part over {@link MAX_INLINE_PART_BYTES}, or more than {@link MAX_CONTENT_PARTS} parts.
 */
export function normalizeContent({ content, argument }: NormalizeContentOptions): MessageContent {
  if (typeof content === "string") return content;
  if (!Array.isArray(content)) throw invalid(argument, "expected a string or an array of content parts");
  if (content.length > MAX_CONTENT_PARTS) {
    throw invalid(argument, `${content.length} content parts (at most ${MAX_CONTENT_PARTS})`);
  }
  return content.map((part, index) => normalizePart(part, `${argument}[${index}]`));
}

function normalizePart(part: ContentPartInput, where: string): ContentPart {
  if (typeof part !== "object" || part === null) throw invalid(where, "expected a content part object");
  if (part.type === "text") {
    if (typeof part.text !== "string") throw invalid(where, "a text part needs a string `text`");
    return { type: "text", text: part.text };
  }
  if (part.type !== "image" && part.type !== "file") {
    throw invalid(where, `unknown part type ${JSON.stringify((part as { type?: unknown }).type)}`);
  }
  const hasUrl = part.url !== undefined;
  if (hasUrl === (part.data !== undefined)) throw invalid(where, "give exactly one of `url` and `data`");
  if (hasUrl) return withUrl(part, where);
  const { data, mediaType } = inlineData(part.data as BinaryData, part.mediaType, where);
  if (part.type === "image") {
    const image: ImagePart = { type: "image", data, mediaType };
    if (part.detail !== undefined) image.detail = part.detail;
    return image;
  }
  const file: FilePart = { type: "file", data, mediaType };
  if (part.filename !== undefined) file.filename = part.filename;
  return file;
}

function withUrl(part: ImagePartInput | FilePartInput, where: string): ContentPart {
  const url = part.url;
  if (typeof url !== "string" || !/^https?:\/\//i.test(url)) {
    if (typeof url === "string" && DATA_URL.test(url)) {
      // A data: URL given as `url`: store it inline.
      return normalizePart({ ...part, url: undefined, data: url } as ContentPartInput, where);
    }
    throw invalid(where, "`url` must be an http(s): or data: URL");
  }
  if (part.type === "file") {
    if (typeof part.mediaType !== "string") throw invalid(where, "a file part needs a `mediaType`");
    const file: FilePart = { type: "file", url, mediaType: part.mediaType };
    if (part.filename !== undefined) file.filename = part.filename;
    return file;
  }
  const image: ImagePart = { type: "image", url };
  if (part.mediaType !== undefined) image.mediaType = part.mediaType;
  if (part.detail !== undefined) image.detail = part.detail;
  return image;
}

function inlineData(
  data: BinaryData,
  mediaType: string | undefined,
  where: string,
): { data: string; mediaType: string } {
  let base64: string;
  let type = mediaType;
  if (typeof data === "string") {
    const match = DATA_URL.exec(data);
    if (match !== null) {
      if (match[2] === undefined || !match[2].includes("base64")) {
        throw invalid(where, "only base64 data: URLs are accepted");
      }
      type ??= match[1];
      base64 = data.slice(match[0].length);
    } else {
      base64 = data;
    }
    if (!BASE64.test(base64)) throw invalid(where, "`data` is not base64 (nor a base64 data: URL)");
  } else if (data instanceof Uint8Array || data instanceof ArrayBuffer) {
    const bytes = data instanceof Uint8Array ? data : new Uint8Array(data);
    if (bytes.byteLength > MAX_INLINE_PART_BYTES) throw tooLarge(where, bytes.byteLength);
    base64 = bytesToBase64(bytes);
  } else {
    throw invalid(where, "`data` must be base64 text, a data: URL, a Uint8Array or an ArrayBuffer");
  }
  const bytes = Math.floor((base64.length * 3) / 4);
  if (bytes > MAX_INLINE_PART_BYTES) throw tooLarge(where, bytes);
  if (type === undefined || type === "") throw invalid(where, "inline `data` needs a `mediaType`");
  return { data: base64, mediaType: type };
}

function tooLarge(where: string, bytes: number): InvalidArgumentError {
  return invalid(where, `${bytes} bytes of inline data (at most ${MAX_INLINE_PART_BYTES})`);
}

function invalid(argument: string, message: string): InvalidArgumentError {
  return new InvalidArgumentError({ argument, message });
}

/** Base64 of bytes with the web-standard `btoa` (no `Buffer`: this runs wherever JavaScript does). */
function bytesToBase64(bytes: Uint8Array): string {
  let binary = "";
  for (let i = 0; i < bytes.length; i += 0x8000) {
    binary += String.fromCharCode(...bytes.subarray(i, i + 0x8000));
  }
  return btoa(binary);
}
