import {
  type ContentPart,
  contentText,
  type FilePart,
  hasMediaParts,
  type ImagePart,
  type MessageContent,
  partUrl,
} from "../../models/content-part.js";
import {
  asImageIfImageFile,
  checkImagePart,
  checkNotAudioOrVideo,
  fileNameOf,
} from "../content-media-type.js";
import type { OpenAIResponsesWireContentPart } from "./openai-responses-wire-types.js";

const PROVIDER = "openai_responses";

/**
 * Converts message content (a user message's, or a tool result's for `function_call_output.output`) to the
 * Responses API: a string as it is; parts holding images or files as `input_*` items in order; text-only
 * parts as one string (their texts joined by newlines). Throws `UnsupportedContentError` for a part the API
 * cannot take (see {@link convertToResponsesContentPart}).
 */
export function convertToResponsesContent(
  content: MessageContent,
): string | OpenAIResponsesWireContentPart[] {
  if (!hasMediaParts(content)) return contentText(content);
  return content.map(convertToResponsesContentPart);
}

/**
 * Converts one part:
 * - text → `{type:"input_text", text}`;
 * - image → `{type:"input_image", image_url, detail}`: `image_url` is a plain string (the `https:` URL or a
 *   `data:` URL), `detail` the part's or `"auto"`; PNG, JPEG, GIF and WebP only;
 * - file → `{type:"input_file", filename, file_data:"data:<type>;base64,…"}` inline, `{type:"input_file",
 *   file_url}` by URL. PDFs, text, code and office documents are read (see OpenAI's file inputs guide); audio
 *   and video files are refused. A file part with an `image/*` media type is sent as an image.
 */
export function convertToResponsesContentPart(part: ContentPart): OpenAIResponsesWireContentPart {
  if (part.type === "text") return { type: "input_text", text: part.text };
  const media = asImageIfImageFile(part);
  return media.type === "image" ? imagePart(media) : filePart(media);
}

function imagePart(part: ImagePart): OpenAIResponsesWireContentPart {
  checkImagePart({ part, provider: PROVIDER });
  return { type: "input_image", image_url: partUrl(part), detail: part.detail ?? "auto" };
}

function filePart(part: FilePart): OpenAIResponsesWireContentPart {
  checkNotAudioOrVideo({ part, provider: PROVIDER });
  if (part.url === undefined)
    return { type: "input_file", filename: fileNameOf(part), file_data: partUrl(part) };
  return part.filename === undefined
    ? { type: "input_file", file_url: part.url }
    : { type: "input_file", file_url: part.url, filename: part.filename };
}
