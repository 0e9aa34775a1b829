import { readFile, writeFile } from "node:fs/promises";
import { InvalidArgumentError } from "../errors/invalid-argument-error.js";
import { TraceError } from "../errors/trace-error.js";
import { createRedactor, type Redactor } from "../stores/redactor.js";
import { redactTrace } from "./redact-trace.js";
import { blobOf, readTraceLine, TRACE_BLOB_TYPE, writeTraceLines } from "./trace-blobs.js";
import { TRACE_RECORD_KINDS, TRACE_VERSION, type Trace, type TraceRecord } from "./trace-types.js";
import { upgradeTrace } from "./upgrade-trace.js";

/** The `type` of a trace file's header line. */
export const TRACE_FILE_TYPE = "agentloop-trace";

const KINDS = new Set<string>(TRACE_RECORD_KINDS);

/** Options of {@link saveTrace}. */
export interface SaveTraceOptions {
  /** The trace to write (`result.trace`, or a `TraceRecorder`'s). */
  trace: Trace;
  /** The file to write (replaced if it exists). */
  path: string;
  /**
   * Redact what is written (API keys, bearer tokens, `password=...` pairs, private keys, emails; see
   * `createRedactor`), re-chaining the hashes over the redacted records: on by default, as traces are meant to
   * be kept and committed. `false` writes the trace as recorded; a redactor configures it.
   */
  redact?: boolean | Redactor;
}

/**
 * Writes `trace` to `path` as JSON Lines: a header `{"type":"agentloop-trace","version":2}` (with
 * `"blobs":true` when there are blob lines), then one line per distinct inline image or file of 1 KiB or more (`{"type":"agentloop-blob","id":"sha256:…","data":…}`,
 * which the records refer to as `"@blob:sha256:…"`: a screenshot is written once, not with every later model
 * request), then one record per line, in order. Replaces the file if it exists. {@link loadTrace} reads it back unchanged, except for
 * what was redacted (see {@link SaveTraceOptions.redact}; a redacted trace verifies and replays).
 */
export async function saveTrace(options: SaveTraceOptions): Promise<void> {
  if (typeof options !== "object" || options === null || !("trace" in options) || !("path" in options)) {
    throw new InvalidArgumentError({
      argument: "options",
      message: "saveTrace takes one options object since agentloop 0.2: saveTrace({ trace, path, redact })",
    });
  }
  const { trace, path, redact = true } = options;
  const saved =
    redact === false ? trace : redactTrace({ trace, redactor: redact === true ? createRedactor() : redact });
  const { blobs, records } = writeTraceLines(saved.records);
  const header = { type: TRACE_FILE_TYPE, version: saved.version, ...(blobs.length > 0 && { blobs: true }) };
  const lines = [JSON.stringify(header), ...blobs, ...records];
  await writeFile(path, `${lines.join("\n")}\n`, "utf8");
}

/** How a blob line starts (it is written with `type` first). */
const BLOB_LINE_START = `{"type":${JSON.stringify(TRACE_BLOB_TYPE)},`;

function parseLine(
  line: string,
  lineNumber: number,
  path: string,
  blobs?: ReadonlyMap<string, string>,
): unknown {
  try {
    return readTraceLine({ line, blobs, where: `${path}:${lineNumber}` });
  } catch (error) {
    if (TraceError.isInstance(error)) throw error;
    throw new TraceError({
      message: `${path}:${lineNumber} is not valid JSON: ${error instanceof Error ? error.message : String(error)}`,
      cause: error,
    });
  }
}

function checkHeader(header: unknown, path: string): 1 | typeof TRACE_VERSION {
  const { type, version } = (typeof header === "object" && header !== null ? header : {}) as Record<
    string,
    unknown
  >;
  if (type !== TRACE_FILE_TYPE || typeof version !== "number") {
    throw new TraceError({
      message: `${path} is not an agentloop trace: its first line must be {"type":"${TRACE_FILE_TYPE}","version":${TRACE_VERSION}}`,
    });
  }
  if (version > TRACE_VERSION) {
    throw new TraceError({
      message: `${path} is a version ${version} trace, written by a newer agentloop; this version reads version ${TRACE_VERSION}`,
    });
  }
  if (version !== TRACE_VERSION && version !== 1) {
    throw new TraceError({ message: `${path} has an unsupported trace version ${version}` });
  }
  return version;
}

function checkRecord(value: unknown, lineNumber: number, path: string): TraceRecord {
  const record = (typeof value === "object" && value !== null ? value : {}) as Record<string, unknown>;
  const problem =
    typeof record.seq !== "number"
      ? "seq"
      : typeof record.kind !== "string" || !KINDS.has(record.kind)
        ? "kind"
        : typeof record.data !== "object" || record.data === null
          ? "data"
          : typeof record.prevHash !== "string"
            ? "prevHash"
            : typeof record.hash !== "string"
              ? "hash"
              : undefined;
  if (problem !== undefined) {
    throw new TraceError({
      message: `${path}:${lineNumber} is not a trace record (missing or invalid "${problem}")`,
      ...(typeof record.seq === "number" && { seq: record.seq }),
    });
  }
  return value as TraceRecord;
}

/**
 * Reads a trace written by {@link saveTrace} (blob references replaced by their data). Rejects with
 * {@link TraceError} when the file is not a trace (wrong header, a line that is not JSON or not a record, a
 * reference to a missing blob) or was written by a newer version. Does not verify the hash chain: call
 * `verifyTrace` (`replay` does). A trace written by agentloop 0.1 is read in the current shape (see
 * `upgradeTrace`) when its hash chain verifies; its chain is then computed anew over the upgraded records.
 */
export async function loadTrace(path: string): Promise<Trace> {
  const text = await readFile(path, "utf8");
  const lines = text.split("\n");
  if (lines.at(-1) === "") lines.pop();
  const [first] = lines;
  if (first === undefined || first.trim() === "") {
    throw new TraceError({ message: `${path} is empty: not an agentloop trace` });
  }
  let header: unknown;
  try {
    header = JSON.parse(first);
  } catch {
    header = undefined;
  }
  const version = checkHeader(header, path);
  const records: TraceRecord[] = [];
  // Blob references are read only in a file that says it has blobs.
  const blobs = (header as { blobs?: unknown }).blobs === true ? new Map<string, string>() : undefined;
  for (let i = 1; i < lines.length; i++) {
    const line = lines[i] as string;
    if (line.trim() === "") continue;
    const blob =
      blobs !== undefined && line.startsWith(BLOB_LINE_START)
        ? blobOf(parseLine(line, i + 1, path))
        : undefined;
    if (blob !== undefined) blobs?.set(blob.id, blob.data);
    else records.push(checkRecord(parseLine(line, i + 1, path, blobs), i + 1, path));
  }
  return upgradeTrace({ version, records });
}
