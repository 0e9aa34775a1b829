import { hashRecord } from "./hash-record.js";
import { GENESIS_HASH, TRACE_VERSION, type Trace, type TraceRecord } from "./trace-types.js";
import { verifyTrace } from "./verify-trace.js";

type Data = Record<string, unknown>;

const isObject = (value: unknown): value is Data =>
  typeof value === "object" && value !== null && !Array.isArray(value);

/** `data` with the key `from` renamed to `to`, or `undefined` when it has no `from` (or already a `to`). */
function renamed(data: Data, from: string, to: string): Data | undefined {
  if (!Object.hasOwn(data, from) || Object.hasOwn(data, to)) return undefined;
  const { [from]: value, ...rest } = data;
  return { ...rest, [to]: value };
}

/** The unified finish reasons agentloop 0.1 spelt in kebab-case. */
const FINISH_REASONS: Readonly<Record<string, string>> = {
  "tool-calls": "tool_calls",
  "content-filter": "content_filter",
};

/** A `{ finishReason }` holder with its unified reason in snake_case, or `undefined` when it has none to map. */
function upgradeFinishReason(holder: Data): Data | undefined {
  const reason = holder.finishReason;
  if (!isObject(reason) || typeof reason.unified !== "string") return undefined;
  const unified = FINISH_REASONS[reason.unified];
  return unified === undefined ? undefined : { ...holder, finishReason: { ...reason, unified } };
}

/** A call as agentloop 0.1 wrote it (`tool`, `args`) in the current shape (`toolName`, `arguments`). */
function upgradeCall(call: Data): Data | undefined {
  const named = renamed(call, "tool", "toolName");
  const withArguments = renamed(named ?? call, "args", "arguments");
  return withArguments ?? named;
}

/** The data of an `event` record in the current shape, or `undefined` when it is current already. */
function upgradeEvent(recorded: Data): Data | undefined {
  const withTurn = renamed(recorded, "step", "turn");
  const event = withTurn ?? recorded;
  const data = event.data;
  if (!isObject(data)) return withTurn;
  let upgraded: Data | undefined;
  if (event.type === "action" || event.type === "observation") upgraded = upgradeCall(data);
  if (event.type === "soft_limit" && data.reason === "steps") upgraded = { ...data, reason: "turns" };
  if (event.type === "model_call") upgraded = upgradeFinishReason(data);
  if (event.type === "compaction" && data.strategy === "sliding-window") {
    upgraded = { ...data, strategy: "sliding_window" };
  }
  const original: unknown = data.calls;
  if (event.type === "approval_requested" && Array.isArray(original)) {
    const calls = original.map((call: unknown) => (isObject(call) ? upgradeCall(call) : undefined));
    if (calls.some((call) => call !== undefined)) {
      upgraded = { ...data, calls: calls.map((call, i): unknown => call ?? original[i]) };
    }
  }
  return upgraded === undefined ? withTurn : { ...event, data: upgraded };
}

/** A record's data in the current shape, or `undefined` when it is current already. */
function upgradeData(record: TraceRecord): Data | undefined {
  const data: unknown = record.data;
  if (!isObject(data)) return undefined;
  if (record.kind === "event") return upgradeEvent(data);
  if (record.kind === "tool_result") return renamed(data, "tool", "toolName");
  if (record.kind === "model_response" && isObject(data.response)) {
    const response = upgradeFinishReason(data.response);
    return response === undefined ? undefined : { ...data, response };
  }
  return undefined;
}

/**
 * A trace recorded by agentloop 0.1 in the current shape: events carried their model turn as `step` (now
 * `turn`, and a soft limit's reason `"steps"` is now `"turns"`), and tool calls in events and `tool_result`
 * records were named `tool` / `args` (now `toolName` / `arguments`), and the finish reasons `tool-calls` /
 * `content-filter` and the compaction strategy `sliding-window` were kebab-case (now snake_case). The hash chain covers the data as it was written, so the
 * trace is verified first: only a trace that verifies is upgraded, and its chain is then computed anew over
 * the upgraded records (so the copy verifies too). A trace that does not verify, or that needs no upgrade, is
 * returned as it is (`verifyTrace` reports what is wrong with it).
 */
export function upgradeTrace(trace: Trace): Trace {
  if (trace.version === TRACE_VERSION) return trace;
  const upgraded = trace.records.map(upgradeData);
  if (upgraded.every((data) => data === undefined)) return { ...trace, version: TRACE_VERSION };
  if (!verifyTrace(trace).ok) return trace;
  let prevHash = GENESIS_HASH;
  const records = trace.records.map((record, i): TraceRecord => {
    const data = upgraded[i] ?? record.data;
    const hash = hashRecord({ seq: record.seq, kind: record.kind, data, prevHash });
    const next = { ...record, data, prevHash, hash } as TraceRecord;
    prevHash = hash;
    return next;
  });
  return { version: TRACE_VERSION, records };
}
