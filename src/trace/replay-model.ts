import { TraceError } from "../errors/trace-error.js";
import { type Divergence, LogReplayModel, type RecordedModelCall } from "../run-log/log-replay-model.js";
import type { Trace } from "./trace-types.js";

export type { Divergence } from "../run-log/log-replay-model.js";

/** Options of {@link ReplayModel}. */
export interface ReplayModelOptions {
  /** The recorded run. Not verified here (`replay` verifies it first). */
  trace: Trace;
  /** Called once, with the first request that differs from the recording. */
  onDivergence?: (divergence: Divergence) => void;
}

/** The trace's model calls by index: each request and what came of it (nothing when the run stopped during it). */
function tracedCalls(trace: Trace): Map<number, RecordedModelCall> {
  const calls = new Map<number, RecordedModelCall>();
  for (const record of trace.records) {
    if (record.kind === "model_request") {
      calls.set(record.data.call, { request: record.data.request });
    } else if (record.kind === "model_response" || record.kind === "model_error") {
      const call = calls.get(record.data.call);
      if (call === undefined) {
        throw new TraceError({
          message: `Record ${record.seq} answers model call ${record.data.call}, which has no model_request`,
          seq: record.seq,
        });
      }
      call.outcome =
        record.kind === "model_response" ? { response: record.data.response } : { error: record.data.error };
    }
  }
  return calls;
}

/** The recorded model's provider and id, from the trace's `meta` record (`"provider:modelId"`). */
function recordedModel(trace: Trace): { provider: string; modelId: string } {
  const meta = trace.records[0];
  if (meta?.kind !== "meta")
    throw new TraceError({ message: "The trace does not start with a meta record", seq: 0 });
  const colon = meta.data.model.indexOf(":");
  return colon < 0
    ? { provider: meta.data.model, modelId: "" }
    : { provider: meta.data.model.slice(0, colon), modelId: meta.data.model.slice(colon + 1) };
}

/**
 * A `Model` that answers model call N of a run with the recorded answer to call N of `trace`: the same
 * response (for `stream`, parts rebuilt from it), or the same kind of error. It never calls a provider. Each
 * request is compared (as canonical JSON) with the recorded one; the first that differs is kept as
 * {@link ReplayModel.divergence}. A call beyond the recording fails with {@link TraceError}. The run log's
 * replay model (the one a durable run resumes with) over a trace's records.
 */
export class ReplayModel extends LogReplayModel {
  constructor({ trace, onDivergence }: ReplayModelOptions) {
    const model = recordedModel(trace);
    const calls = tracedCalls(trace);
    // The recorded model took typed answers natively when a request asked for one that way.
    const native = [...calls.values()].some((call) => call.request?.output !== undefined);
    super({
      calls,
      ...model,
      ...(native && { capabilities: { structuredOutput: true } }),
      onDivergence,
      unanswered: ({ call, stoppedDuring }) =>
        new TraceError({
          message: stoppedDuring
            ? `Replay: model call ${call} has no recorded outcome (the recorded run stopped during it)`
            : `Replay: model call ${call} was not recorded (the trace holds ${calls.size} model calls)`,
        }),
    });
  }
}
