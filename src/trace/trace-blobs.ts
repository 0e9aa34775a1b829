import { createHash } from "node:crypto";
import { TraceError } from "../errors/trace-error.js";

/** The `type` of a trace file's blob line: `{ "type": "agentloop-blob", "id": "sha256:<hex>", "data": "…" }`. */
export const TRACE_BLOB_TYPE = "agentloop-blob";

/** Inline data shorter than this is written where it is (a reference would save little). */
const MIN_BLOB_CHARS = 1024;

/** What stands for inline data in a record line: this prefix and the blob's id (`@` is not base64). */
const REF_PREFIX = "@blob:";

type Json = unknown;

/** An image or file part with inline (base64) data, wherever it is in a record. */
function isMediaWithData(value: Json): value is { type: "image" | "file"; data: string } {
  if (typeof value !== "object" || value === null || Array.isArray(value)) return false;
  const { type, data } = value as { type?: unknown; data?: unknown };
  return (type === "image" || type === "file") && typeof data === "string";
}

/** A trace's records as file lines, each inline image or file written once (see {@link writeTraceLines}). */
export interface TraceLines {
  /** `agentloop-blob` lines, one per distinct data, to write before the records. */
  blobs: string[];
  /** One line per record, inline data of 1 KiB or more replaced by a reference to its blob line. */
  records: string[];
}

/**
 * The lines of a trace file's records, with every inline image or file data (a `data` of 1 KiB or more in an
 * `{ type: "image" | "file" }` part: an input, a message of every model request, a tool result) written once
 * as a blob line and referred to by its sha256 (`"@blob:sha256:<hex>"`, which base64 data never is). A model
 * request repeats the whole conversation, so without this a 1 MB screenshot is written again for every later
 * model call. Records holding no such data are written as JSON as they are; a trace whose data already looks
 * like a reference (not base64) is written without blobs.
 */
export function writeTraceLines(records: readonly unknown[]): TraceLines {
  const ids = new Map<string, string>();
  const blobs: string[] = [];
  let clash = false;
  const replacer = (_key: string, value: Json): Json => {
    if (!isMediaWithData(value)) return value;
    if (value.data.startsWith(REF_PREFIX)) clash = true;
    if (value.data.length < MIN_BLOB_CHARS) return value;
    let id = ids.get(value.data);
    if (id === undefined) {
      id = `sha256:${createHash("sha256").update(value.data).digest("hex")}`;
      ids.set(value.data, id);
      blobs.push(JSON.stringify({ type: TRACE_BLOB_TYPE, id, data: value.data }));
    }
    return { ...value, data: `${REF_PREFIX}${id}` };
  };
  const lines = records.map((record) => JSON.stringify(record, replacer));
  if (!clash) return { blobs, records: lines };
  return { blobs: [], records: records.map((record) => JSON.stringify(record)) };
}

/** Options of {@link readTraceLine}. */
export interface ReadTraceLineOptions {
  /** The line's text. */
  line: string;
  /** The blobs read so far, by id; undefined for a file written without blobs (read as it is). */
  blobs: ReadonlyMap<string, string> | undefined;
  /** For errors: `<path>:<line number>`. */
  where: string;
}

/**
 * Parses a record line of a trace file, putting back the data of each blob reference. Throws
 * {@link TraceError} for a reference to a blob the file does not have. Lines of a file written without
 * blobs are parsed as they are (their data may look like a reference: then it is data).
 */
export function readTraceLine({ line, blobs, where }: ReadTraceLineOptions): unknown {
  if (blobs === undefined || !line.includes(REF_PREFIX)) return JSON.parse(line);
  return JSON.parse(line, (_key, value: Json) => {
    if (!isMediaWithData(value) || !value.data.startsWith(REF_PREFIX)) return value;
    const data = blobs.get(value.data.slice(REF_PREFIX.length));
    if (data === undefined) {
      throw new TraceError({ message: `${where} refers to a blob the file does not have (${value.data})` });
    }
    return { ...value, data };
  });
}

/** The id and data of a blob line, or undefined when the value is not one. */
export function blobOf(value: unknown): { id: string; data: string } | undefined {
  if (typeof value !== "object" || value === null) return undefined;
  const { type, id, data } = value as { type?: unknown; id?: unknown; data?: unknown };
  if (type !== TRACE_BLOB_TYPE || typeof id !== "string" || typeof data !== "string") return undefined;
  return { id, data };
}
