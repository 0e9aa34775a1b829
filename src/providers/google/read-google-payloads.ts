import { ResponseTooLargeError } from "../../errors/response-too-large-error.js";
import { StreamInterruptedError } from "../../errors/stream-interrupted-error.js";
import { readSseEvents } from "../../http/read-sse-events.js";
import { bodySnippet } from "../openai/parse-openai-error.js";

/** Options of {@link readGooglePayloads}. */
export interface ReadGooglePayloadsOptions {
  /** The most characters one event (or one array element) may hold; more fails. Default: unbounded. */
  maxEventChars?: number | undefined;
  /** The URL called (without credentials), for errors. */
  url: string;
}

/** The body's chunks with the first one (already read) put back in front. */
async function* prepend(first: string, rest: AsyncIterator<string>): AsyncGenerator<string> {
  yield first;
  for (let next = await rest.next(); next.done !== true; next = await rest.next()) yield next.value;
}

/**
 * The JSON payloads of a `streamGenerateContent` body, as text, in order. With `alt=sse` (what this provider
 * asks for) the body is server-sent events (`data: {…}\r\n\r\n`, CRLF, no `[DONE]`); without it, Gemini sends
 * one JSON array written element by element (`[{…}\n,\r\n{…}\n]`). The format is told by the first character
 * that is not whitespace: `[` means the array, which is split into its elements as they arrive (see
 * {@link readJsonArrayElements}). Chunks may split anywhere.
 */
export async function* readGooglePayloads(
  body: AsyncIterable<string>,
  options: ReadGooglePayloadsOptions,
): AsyncGenerator<string> {
  const iterator = body[Symbol.asyncIterator]();
  let first = "";
  for (;;) {
    const next = await iterator.next();
    if (next.done === true) return;
    first += next.value;
    if (first.replace(/^\uFEFF/, "").trim() !== "") break;
  }
  const chunks = prepend(first, iterator);
  if (
    first
      .replace(/^\uFEFF/, "")
      .trimStart()
      .startsWith("[")
  ) {
    yield* readJsonArrayElements(chunks, options);
    return;
  }
  for await (const event of readSseEvents(chunks, {
    maxEventChars: options.maxEventChars,
    url: options.url,
  })) {
    const data = event.data;
    if (data.trim() === "" || data === "[DONE]") continue;
    yield data;
  }
}

/** Scanner state of {@link readJsonArrayElements}. */
interface ArrayScan {
  started: boolean;
  ended: boolean;
  depth: number;
  inString: boolean;
  escaped: boolean;
  /** The text of the element in progress from earlier chunks. */
  pending: string;
}

function malformed(url: string, text: string): StreamInterruptedError {
  return new StreamInterruptedError({
    message: `Model stream from ${url} is not a JSON array of responses: ${bodySnippet(text)}`,
    url,
    body: text,
  });
}

/** Scans one chunk: returns the elements it completes, keeping the open element's text in `scan.pending`. */
function scanChunk(scan: ArrayScan, chunk: string, url: string): string[] {
  const elements: string[] = [];
  let from = scan.depth > 0 ? 0 : -1;
  for (let i = 0; i < chunk.length && !scan.ended; i++) {
    const c = chunk[i] as string;
    if (scan.depth === 0) {
      if (c === "{" && scan.started) {
        scan.depth = 1;
        from = i;
      } else if (c === "[" && !scan.started) scan.started = true;
      else if (c === "]" && scan.started) scan.ended = true;
      else if (!(c === "," && scan.started) && c.trim() !== "" && c !== "\uFEFF") {
        throw malformed(url, chunk.slice(i));
      }
    } else if (scan.inString) {
      if (scan.escaped) scan.escaped = false;
      else if (c === "\\") scan.escaped = true;
      else if (c === '"') scan.inString = false;
    } else if (c === '"') scan.inString = true;
    else if (c === "{" || c === "[") scan.depth++;
    else if ((c === "}" || c === "]") && --scan.depth === 0) {
      elements.push(scan.pending + chunk.slice(from, i + 1));
      scan.pending = "";
      from = -1;
    }
  }
  if (scan.depth > 0 && from >= 0) scan.pending += chunk.slice(from);
  return elements;
}

/**
 * Splits a streamed JSON array (`[{…},{…}]`) into the text of its elements as each one completes, tracking
 * strings and escapes so braces inside text do not count. A top-level value that is not an object fails with
 * a {@link StreamInterruptedError}; an element over `maxEventChars` with `ResponseTooLargeError`. Text after
 * the closing `]` is ignored.
 */
export async function* readJsonArrayElements(
  chunks: AsyncIterable<string>,
  { maxEventChars, url }: ReadGooglePayloadsOptions,
): AsyncGenerator<string> {
  const scan: ArrayScan = {
    started: false,
    ended: false,
    depth: 0,
    inString: false,
    escaped: false,
    pending: "",
  };
  for await (const chunk of chunks) {
    if (scan.ended) continue;
    const elements = scanChunk(scan, chunk, url);
    if (maxEventChars !== undefined && scan.pending.length > maxEventChars) {
      throw new ResponseTooLargeError({
        limit: "limits.maxSseEventBytes",
        maximum: maxEventChars,
        received: scan.pending.length,
        what: "one element of the streamed JSON array",
        url,
      });
    }
    yield* elements;
  }
}
