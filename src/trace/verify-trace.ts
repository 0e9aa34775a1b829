import { hashRecord } from "./hash-record.js";
import { GENESIS_HASH, TRACE_RECORD_KINDS, TRACE_VERSION, type Trace } from "./trace-types.js";

/** The outcome of {@link verifyTrace}. */
export type VerifyTraceResult =
  | { ok: true }
  | {
      ok: false;
      /** The `seq` of the first bad record (its position when its `seq` is not a number). */
      brokenAt: number;
      /** What is wrong, in words. */
      reason: string;
    };

const KINDS = new Set<string>(TRACE_RECORD_KINDS);

/**
 * Checks a trace's integrity: a supported version, records numbered 0, 1, 2, … without gaps, a `meta` record
 * first (and only there), each `prevHash` equal to the previous record's `hash`, and each `hash` equal to the
 * sha256 of the record's canonical JSON. Reports the first bad record. Removing records from the end of a
 * trace cannot be detected (nothing follows them).
 */
export function verifyTrace(trace: Trace): VerifyTraceResult {
  if (trace === null || typeof trace !== "object") {
    return { ok: false, brokenAt: 0, reason: "not a trace object" };
  }
  if (trace.version !== TRACE_VERSION && trace.version !== 1) {
    return {
      ok: false,
      brokenAt: 0,
      reason: `unsupported trace version ${JSON.stringify(trace.version)} (supported: 1, ${TRACE_VERSION})`,
    };
  }
  const records: unknown = trace.records;
  if (!Array.isArray(records) || records.length === 0) {
    return { ok: false, brokenAt: 0, reason: "the trace has no records (it must start with a meta record)" };
  }
  let prevHash = GENESIS_HASH;
  for (let i = 0; i < records.length; i++) {
    const record: unknown = records[i];
    if (record === null || typeof record !== "object") {
      return { ok: false, brokenAt: i, reason: `record at position ${i} is not an object` };
    }
    const { seq, kind, data, prevHash: recordPrev, hash } = record as Record<string, unknown>;
    const at = typeof seq === "number" ? seq : i;
    const fail = (reason: string): VerifyTraceResult => ({ ok: false, brokenAt: at, reason });
    if (seq !== i) {
      return fail(
        `expected seq ${i}, found ${JSON.stringify(seq)}: a record is missing, duplicated or out of order`,
      );
    }
    if (typeof kind !== "string" || !KINDS.has(kind))
      return fail(`unknown record kind ${JSON.stringify(kind)}`);
    if (i === 0 && kind !== "meta") return fail(`the first record must be "meta", found "${kind}"`);
    if (i > 0 && kind === "meta") return fail(`only the first record may be "meta"`);
    if (recordPrev !== prevHash) {
      return fail(`broken chain: prevHash does not match the hash of record ${i - 1}`);
    }
    let expected: string;
    try {
      expected = hashRecord({ seq: i, kind: kind as "meta", data, prevHash });
    } catch (error) {
      return fail(`data cannot be hashed: ${error instanceof Error ? error.message : String(error)}`);
    }
    if (hash !== expected) return fail("hash mismatch: the record was changed after it was written");
    prevHash = expected;
  }
  return { ok: true };
}
