import { TextDecoder } from "node:util";
import { htmlToText } from "./html-to-text.js";

/** How a body is shown, by media type. */
type BodyKind = "html" | "json" | "text" | "binary";

/** Media types outside `text/*` that are text. */
const TEXT_TYPES = new Set([
  "application/javascript",
  "application/ecmascript",
  "application/xml",
  "application/x-www-form-urlencoded",
  "application/x-ndjson",
  "application/yaml",
  "application/x-yaml",
  "application/toml",
  "application/sql",
  "application/graphql",
]);
/** Pretty-printing may at most add this many characters per byte of the body; more falls back to raw. */
const MAX_JSON_GROWTH = 2;

function kindOf(mediaType: string, bytes: Uint8Array): BodyKind {
  if (mediaType === "text/html" || mediaType === "application/xhtml+xml") return "html";
  if (mediaType === "application/json" || mediaType.endsWith("+json") || mediaType === "text/json") {
    return "json";
  }
  if (mediaType.startsWith("text/") || mediaType.endsWith("+xml") || TEXT_TYPES.has(mediaType)) return "text";
  if (mediaType !== "" && mediaType !== "application/octet-stream") return "binary";
  // No useful type: sniff. NUL bytes or invalid UTF-8 in the first KiB mean binary.
  const head = bytes.subarray(0, 1024);
  if (head.includes(0)) return "binary";
  try {
    new TextDecoder("utf-8", { fatal: true }).decode(head, { stream: true });
  } catch {
    return "binary";
  }
  const start = new TextDecoder().decode(bytes.subarray(0, 64)).trimStart().toLowerCase();
  return start.startsWith("<!doctype html") || start.startsWith("<html") ? "html" : "text";
}

function decoderFor(charset: string | undefined): TextDecoder {
  try {
    return new TextDecoder(charset ?? "utf-8");
  } catch {
    return new TextDecoder("utf-8");
  }
}

/**
 * Estimates how many characters `JSON.stringify(value, null, 2)` adds to `raw` (a newline and indentation
 * per element), stopping once `budget` is exceeded. Linear, ignores string contents.
 */
function prettyGrowthWithin(raw: string, budget: number): boolean {
  let depth = 0;
  let growth = 0;
  let inString = false;
  for (let index = 0; index < raw.length; index++) {
    const char = raw[index];
    if (inString) {
      if (char === "\\") index++;
      else if (char === '"') inString = false;
      continue;
    }
    if (char === '"') inString = true;
    else if (char === "[" || char === "{") depth++;
    else if (char === "]" || char === "}") depth = Math.max(0, depth - 1);
    if (char === "[" || char === "{" || char === "," || char === "]" || char === "}") growth += 1 + 2 * depth;
    if (growth > budget) return false;
  }
  return true;
}

function prettyJson(raw: string): string {
  if (!prettyGrowthWithin(raw, raw.length * MAX_JSON_GROWTH)) return raw;
  try {
    return JSON.stringify(JSON.parse(raw), null, 2);
  } catch {
    return raw;
  }
}

/**
 * Turns a response body into text for the model by its `content-type`: HTML to readable text (with its
 * title), JSON pretty-printed (as is when invalid, cut or too deeply nested), other text as is (decoded with
 * the declared charset, UTF-8 by default), binary as a one-line placeholder. A body without a useful type is
 * sniffed. A `truncated` body never ends in a broken character and is followed by a note.
 */
export function formatHttpBody({
  contentType,
  bytes,
  truncated,
}: {
  contentType: string | null;
  bytes: Uint8Array;
  truncated: boolean;
}): string {
  const [type = "", ...params] = (contentType ?? "").split(";");
  const mediaType = type.trim().toLowerCase();
  const charsetParam = params.map((param) => param.trim()).find((param) => /^charset=/i.test(param));
  const charset = charsetParam?.slice("charset=".length).replace(/^"|"$/g, "");
  const kind = kindOf(mediaType, bytes);
  const note = truncated ? `\n\n[http_get: the body was cut after ${bytes.length} bytes]` : "";
  if (kind === "binary") {
    const size = `${bytes.length}${truncated ? "+" : ""} bytes`;
    return `[binary content (${mediaType || "unknown type"}), ${size}, not shown]`;
  }
  // A streaming decode keeps an incomplete final character out of the text.
  const text = decoderFor(charset).decode(bytes, { stream: truncated });
  if (kind === "html") {
    const { title, text: body } = htmlToText(text);
    return `${title === undefined ? "" : `Title: ${title}\n\n`}${body}${note}`;
  }
  if (kind === "json" && !truncated) return prettyJson(text);
  return `${text}${note}`;
}
