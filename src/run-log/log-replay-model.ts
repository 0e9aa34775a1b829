import { throwIfAborted } from "../errors/abort-error.js";
import { AgentloopError } from "../errors/agentloop-error.js";
import { StreamCollector } from "../models/collect-stream.js";
import type {
  Model,
  ModelCallOptions,
  ModelCapabilities,
  ModelRequest,
  ModelResponse,
} from "../models/model.js";
import type { ModelStreamPart } from "../models/model-stream-part.js";
import { canonicalJson } from "../util/canonical-json.js";
import { type Difference, firstDifference } from "./first-difference.js";
import type { RecordedError, RecordedModelRequest } from "./recorded-call.js";
import { responseToParts, toRecordedRequest, toReplayedError } from "./recorded-model-call.js";

/**
 * Where a replay first went a different way than the recording. For model requests `path` is inside the
 * request (`"messages[3].content"`; `""` for a call one side does not have); other paths are
 * `"toolResults.<id>"` (a tool call with no recorded result), `"result.text"` and `"result.stopReason"`.
 */
export interface Divergence extends Difference {
  /** The 0-based model call: the one whose request differed, or the last one before the difference. */
  call: number;
}

/** What came of a recorded model call: its response (without `raw`) or its error. */
export type RecordedModelOutcome = { response: Omit<ModelResponse, "raw"> } | { error: RecordedError };

/** One recorded model call. */
export interface RecordedModelCall {
  /** The request as recorded (a trace has it, a journal does not): the replayed request is compared with it. */
  request?: RecordedModelRequest | undefined;
  /** What came of the call; absent when the recorded run stopped during it. */
  outcome?: RecordedModelOutcome | undefined;
}

/** Options of {@link LogReplayModel}. */
export interface LogReplayModelOptions {
  /** The recorded calls by 0-based index. */
  calls: ReadonlyMap<number, RecordedModelCall>;
  /** The model's provider and id (of the live model, or of the recorded one). */
  provider: string;
  modelId: string;
  /** What the model can do (the live model's, or the recorded one's), so the loop asks for the same requests. */
  capabilities?: ModelCapabilities | undefined;
  /** Called for every call the recording has no outcome for. Without it such a call fails (`unanswered`). */
  live?: Model | undefined;
  /**
   * Records a live call's response before the loop gets it (a durable run appends it to its journal); the
   * call counts as made once this resolves. A rejection fails the call.
   */
  record?: ((entry: { call: number; response: ModelResponse }) => Promise<void>) | undefined;
  /** Told when a call is made for real (the replayed part of the run is over). */
  onLive?: (() => void) | undefined;
  /** Called once, with the first request that differs from its recorded request. */
  onDivergence?: ((divergence: Divergence) => void) | undefined;
  /**
   * The error of a call the recording cannot answer when there is no `live` model (`stoppedDuring`: the call
   * was recorded but the run stopped during it). Default: an `AgentloopError` saying so.
   */
  unanswered?: ((call: { call: number; stoppedDuring: boolean }) => Error) | undefined;
}

/** How one call is answered: from the recording (throws what the recording says), or live. */
type Answer = { replay: () => ModelResponse } | { live: true };

/**
 * The replay model of a run log: model call N (0-based) is answered with recorded call N's outcome — the
 * same response (for `stream`, parts rebuilt from it) or the same kind of error — without calling anything.
 * A call the recording has no outcome for is made on the `live` model, its response passed to `record` before
 * the loop gets it (for `stream`: every part passes through as it comes, but `finish`, held back until the
 * response is recorded); without `live` it fails. A live call that fails takes no index: it is made again
 * under the same one. When the recording holds requests (a trace), each request is compared with the
 * recorded one as canonical JSON and the first difference reported once ({@link LogReplayModel.divergence},
 * `onDivergence`); a recorded outcome still answers a call whose request differs. Calls are expected one at a
 * time, as the agent loop makes them. Crash recovery (`JournaledModel`) and offline replay (`ReplayModel`)
 * are both this model.
 */
export class LogReplayModel implements Model {
  readonly provider: string;
  readonly modelId: string;
  readonly capabilities: ModelCapabilities | undefined;
  private readonly recorded: ReadonlyMap<number, RecordedModelCall>;
  private readonly comparing: boolean;
  private readonly options: LogReplayModelOptions;
  private found: Divergence | null = null;
  private next = 0;
  private replayedCount = 0;
  private replayedLast = false;

  constructor(options: LogReplayModelOptions) {
    this.options = options;
    this.provider = options.provider;
    this.modelId = options.modelId;
    this.capabilities = options.capabilities;
    this.recorded = options.calls;
    this.comparing = [...options.calls.values()].some((call) => call.request !== undefined);
  }

  /** Model calls made so far (answered or refused). */
  get calls(): number {
    return this.next;
  }

  /** Model calls in the recording. */
  get recordedCalls(): number {
    return this.recorded.size;
  }

  /** Calls answered from the recording so far. */
  get replayed(): number {
    return this.replayedCount;
  }

  /** Whether the next call will be answered from the recording (so a shared budget is not charged for it). */
  get replaysNext(): boolean {
    return this.recorded.get(this.next)?.outcome !== undefined;
  }

  /** Whether the last call was answered from the recording. */
  get lastReplayed(): boolean {
    return this.replayedLast;
  }

  /** The first request that differed from the recording, or null. */
  get divergence(): Divergence | null {
    return this.found;
  }

  /** The recorded request of call `call`, if the recording has one. */
  recordedRequest(call: number): RecordedModelRequest | undefined {
    return this.recorded.get(call)?.request;
  }

  /** Answers from the recording, or calls the live model and records its response first. */
  async generate(request: ModelRequest, options?: ModelCallOptions): Promise<ModelResponse> {
    const call = this.next;
    const answer = this.take(call, request);
    if ("replay" in answer) {
      throwIfAborted(options?.signal);
      return answer.replay();
    }
    const response = await (this.options.live as Model).generate(request, options);
    await this.settle(call, response);
    return response;
  }

  /** Plays the recorded response as parts, or streams the live model and records the response before `finish`. */
  stream(request: ModelRequest, options?: ModelCallOptions): AsyncIterable<ModelStreamPart> {
    const call = this.next;
    const answer = this.take(call, request);
    const signal = options?.signal;
    if ("replay" in answer) {
      return (async function* () {
        throwIfAborted(signal);
        for (const part of responseToParts(answer.replay())) {
          throwIfAborted(signal);
          yield part;
        }
      })();
    }
    return this.recordStream(call, (this.options.live as Model).stream(request, options));
  }

  /** Compares the request and decides how call `call` is answered. */
  private take(call: number, request: ModelRequest): Answer {
    const recorded = this.recorded.get(call);
    if (this.comparing) this.compare(call, request, recorded?.request);
    const outcome = recorded?.outcome;
    if (outcome !== undefined) {
      this.next = call + 1;
      this.replayedCount++;
      this.replayedLast = true;
      return { replay: () => answerWith(outcome) };
    }
    if (this.options.live === undefined) {
      this.next = call + 1;
      const error = this.unanswered(call, recorded !== undefined);
      return {
        replay: () => {
          throw error;
        },
      };
    }
    this.replayedLast = false;
    this.options.onLive?.();
    return { live: true };
  }

  private unanswered(call: number, stoppedDuring: boolean): Error {
    if (this.options.unanswered !== undefined) return this.options.unanswered({ call, stoppedDuring });
    return new AgentloopError({
      message: `model call ${call} has no recorded ${stoppedDuring ? "outcome" : "call"} and no live model answers it`,
    });
  }

  /** Notes the first request that differs from its recorded one (or a call the recording does not have). */
  private compare(call: number, request: ModelRequest, expected: RecordedModelRequest | undefined): void {
    if (this.found !== null) return;
    const actual = toRecordedRequest(request);
    if (expected === undefined) {
      this.diverge({ call, path: "", expected: undefined, actual });
    } else if (canonicalJson(actual) !== canonicalJson(expected)) {
      const difference = firstDifference({ expected, actual }) ?? { path: "", expected, actual };
      this.diverge({ call, ...difference });
    }
  }

  private diverge(divergence: Divergence): void {
    this.found = divergence;
    this.options.onDivergence?.(divergence);
  }

  /** Records the response of live call `call`; the call counts as made once it is recorded. */
  private async settle(call: number, response: ModelResponse): Promise<void> {
    await this.options.record?.({ call, response });
    this.next = call + 1;
  }

  private async *recordStream(
    call: number,
    parts: AsyncIterable<ModelStreamPart>,
  ): AsyncGenerator<ModelStreamPart> {
    const collector = new StreamCollector();
    let finish: ModelStreamPart | undefined;
    for await (const part of parts) {
      if (part.type === "error") {
        // The consumer throws on it: nothing to record.
        yield part;
        return;
      }
      collector.add(part);
      if (part.type === "finish") finish = part;
      else yield part;
    }
    // What the loop folds from these parts: recorded before it can see the end of the stream.
    await this.settle(call, collector.response());
    if (finish !== undefined) yield finish;
  }
}

/** The recorded response (a copy: the loop keeps its tool calls in its history), or the recorded error thrown. */
function answerWith(outcome: RecordedModelOutcome): ModelResponse {
  if ("error" in outcome) throw toReplayedError(outcome.error);
  return structuredClone(outcome.response);
}
