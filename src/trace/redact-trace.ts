import type { Redactor } from "../stores/redactor.js";
import type { JsonValue } from "../stores/session-store.js";
import { hashRecord } from "./hash-record.js";
import { GENESIS_HASH, type Trace, type TraceRecord } from "./trace-types.js";

/** Options of {@link redactTrace}. */
export interface RedactTraceOptions {
  trace: Trace;
  /** The redactor applied to every record's data (`createRedactor()` for the defaults). */
  redactor: Redactor;
}

/**
 * A copy of `trace` with every record's data redacted (inputs, messages, requests, responses, tool results,
 * events) and the hash chain computed anew over the redacted records, so the copy verifies. Redaction is
 * deterministic, so a redacted trace replays without divergence: the recorded input, tool results and model
 * responses are redacted alike, and the requests rebuilt from them match the redacted recorded requests.
 * Records whose data has nothing to redact keep their content; the original trace is not changed.
 */
export function redactTrace({ trace, redactor }: RedactTraceOptions): Trace {
  let prevHash = GENESIS_HASH;
  const records = trace.records.map((record): TraceRecord => {
    const data = redactor.redactValue(record.data as unknown as JsonValue);
    const hash = hashRecord({ seq: record.seq, kind: record.kind, data, prevHash });
    const redacted = { ...record, data, prevHash, hash } as TraceRecord;
    prevHash = hash;
    return redacted;
  });
  return { ...trace, records };
}
