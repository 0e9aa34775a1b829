import { throwIfAborted } from "../errors/abort-error.js";
import type { Model, ModelCallOptions, ModelRequest, ModelResponse } from "../models/model.js";
import type { ModelStreamPart } from "../models/model-stream-part.js";
import { canonicalJson } from "./canonical-json.js";
import { type Difference, firstDifference } from "./first-difference.js";
import { responseToParts, toRecordedRequest, toReplayedError } from "./recorded-model-call.js";
import { TraceError } from "./trace-error.js";
import type { RecordedError, RecordedModelRequest, Trace, TraceModelResponse } from "./trace-types.js";

/**
 * Where a replay first went a different way than the recording. For model requests `path` is inside the
 * request (`"messages[3].content"`; `""` for a call one side does not have); other paths are
 * `"toolResults.<id>"` (a tool call with no recorded result), `"result.text"` and `"result.stopReason"`.
 */
export interface Divergence extends Difference {
  /** The 0-based model call: the one whose request differed, or the last one before the difference. */
  call: number;
}

/** Options of {@link ReplayModel}. */
export interface ReplayModelOptions {
  /** The recorded run. Not verified here (`replay` verifies it first). */
  trace: Trace;
  /** Called once, with the first request that differs from the recording. */
  onDivergence?: (divergence: Divergence) => void;
}

/** One recorded model call: its request and what came of it (nothing when the run stopped during it). */
interface RecordedCall {
  request: RecordedModelRequest;
  outcome: { response: TraceModelResponse["response"] } | { error: RecordedError } | undefined;
}

/**
 * A {@link Model} that answers model call N of a run with the recorded answer to call N of `trace`: the same
 * response (for `stream`, parts rebuilt from it), or the same kind of error. It never calls a provider. Each
 * request is compared (as canonical JSON) with the recorded one; the first that differs is kept as
 * {@link ReplayModel.divergence}. A call beyond the recording fails with {@link TraceError}.
 */
export class ReplayModel implements Model {
  /** The recorded model's provider. */
  readonly provider: string;
  /** The recorded model's id. */
  readonly modelId: string;
  /** The first request that differed from the recording, or null. */
  divergence: Divergence | null = null;
  private readonly recorded = new Map<number, RecordedCall>();
  private readonly onDivergence: ((divergence: Divergence) => void) | undefined;
  private next = 0;

  constructor({ trace, onDivergence }: ReplayModelOptions) {
    const meta = trace.records[0];
    if (meta?.kind !== "meta")
      throw new TraceError({ message: "The trace does not start with a meta record", seq: 0 });
    const colon = meta.data.model.indexOf(":");
    this.provider = colon < 0 ? meta.data.model : meta.data.model.slice(0, colon);
    this.modelId = colon < 0 ? "" : meta.data.model.slice(colon + 1);
    this.onDivergence = onDivergence;
    for (const record of trace.records) {
      if (record.kind === "model_request") {
        this.recorded.set(record.data.call, { request: record.data.request, outcome: undefined });
      } else if (record.kind === "model_response" || record.kind === "model_error") {
        const call = this.recorded.get(record.data.call);
        if (call === undefined) {
          throw new TraceError({
            message: `Record ${record.seq} answers model call ${record.data.call}, which has no model_request`,
            seq: record.seq,
          });
        }
        call.outcome =
          record.kind === "model_response"
            ? { response: record.data.response }
            : { error: record.data.error };
      }
    }
  }

  /** Model calls made so far. */
  get calls(): number {
    return this.next;
  }

  /** Model calls in the recording. */
  get recordedCalls(): number {
    return this.recorded.size;
  }

  /** The recorded request of call `call`, if the trace has one. */
  recordedRequest(call: number): RecordedModelRequest | undefined {
    return this.recorded.get(call)?.request;
  }

  /** Answers with the recorded response of this call, or rejects with the recorded error. */
  async generate(request: ModelRequest, options?: ModelCallOptions): Promise<ModelResponse> {
    const answer = this.take(request);
    throwIfAborted(options?.signal);
    return answer();
  }

  /** Streams the recorded response of this call as parts, or fails with the recorded error. */
  stream(request: ModelRequest, options?: ModelCallOptions): AsyncIterable<ModelStreamPart> {
    const answer = this.take(request);
    const signal = options?.signal;
    return (async function* () {
      throwIfAborted(signal);
      for (const part of responseToParts(answer())) {
        throwIfAborted(signal);
        yield part;
      }
    })();
  }

  /** Notes a divergence unless one was noted before. */
  private diverge(divergence: Divergence): void {
    if (this.divergence !== null) return;
    this.divergence = divergence;
    this.onDivergence?.(divergence);
  }

  /** Takes the next call: compares its request and returns what answers it (throwing when called). */
  private take(request: ModelRequest): () => ModelResponse {
    const call = this.next++;
    const recorded = this.recorded.get(call);
    const actual = toRecordedRequest(request);
    if (recorded === undefined) {
      this.diverge({ call, path: "", expected: undefined, actual });
      return () => {
        throw new TraceError({
          message: `Replay: model call ${call} was not recorded (the trace holds ${this.recorded.size} model calls)`,
        });
      };
    }
    if (canonicalJson(actual) !== canonicalJson(recorded.request)) {
      const difference = firstDifference({ expected: recorded.request, actual }) ?? {
        path: "",
        expected: recorded.request,
        actual,
      };
      this.diverge({ call, ...difference });
    }
    const { outcome } = recorded;
    return () => {
      if (outcome === undefined) {
        throw new TraceError({
          message: `Replay: model call ${call} has no recorded outcome (the recorded run stopped during it)`,
        });
      }
      if ("error" in outcome) throw toReplayedError(outcome.error);
      // A copy: the loop keeps the response's tool calls in its history.
      return structuredClone(outcome.response);
    };
  }
}
