import { throwIfAborted } from "../errors/abort-error.js";
import { StreamCollector } from "../models/collect-stream.js";
import type { Model, ModelCallOptions, ModelRequest, ModelResponse } from "../models/model.js";
import type { ModelStreamPart } from "../models/model-stream-part.js";
import { StoreError } from "../stores/store-error.js";
import { responseToParts, toRecordedResponse } from "../trace/recorded-model-call.js";
import { JOURNAL_RECORD_VERSION, type JournaledResponse, type JournalRecord } from "./journal-record.js";
import type { JournalWriter } from "./journal-writer.js";

/** Options of {@link JournaledModel}. */
export interface JournaledModelOptions {
  /** The real model, called for every call the journal has no response for. */
  model: Model;
  /** The run's journal records so far (their `model_response` records answer the first calls). */
  records: readonly JournalRecord[];
  /** Where new responses are appended. */
  writer: JournalWriter;
  /** Told when the first call is made for real (the replayed part of the run is over). */
  onLive?: (() => void) | undefined;
  /**
   * `false`: never call the model (replaying a finished run); a call the journal has no response for rejects
   * with `StoreError`. Default `true`.
   */
  live?: boolean | undefined;
}

/**
 * The model of a durable run. Model call N (0-based, counting successful calls only: a failed call is made
 * again under the same index) is answered from the journal's `model_response` record N when there is one —
 * no request is made, `stream` plays the recorded response as parts. Otherwise the real model is called and
 * its response is appended to the journal before the loop gets it (for `stream`: every part passes through
 * as it comes, except `finish`, which is held back until the response is journaled). Calls are expected one
 * at a time, as the agent loop makes them. A journal failure rejects the call (and stops the run).
 */
export class JournaledModel implements Model {
  readonly provider: string;
  readonly modelId: string;
  private readonly model: Model;
  private readonly writer: JournalWriter;
  private readonly recorded = new Map<number, JournaledResponse>();
  private readonly onLive: (() => void) | undefined;
  private readonly live: boolean;
  private next = 0;
  private replayedCount = 0;
  private replayedLast = false;

  constructor({ model, records, writer, onLive, live = true }: JournaledModelOptions) {
    this.model = model;
    this.provider = model.provider;
    this.modelId = model.modelId;
    this.writer = writer;
    this.onLive = onLive;
    this.live = live;
    for (const record of records)
      if (record.kind === "model_response") this.recorded.set(record.call, record.response);
  }

  /** Calls answered from the journal so far. */
  get replayed(): number {
    return this.replayedCount;
  }

  /** Whether the next call will be answered from the journal (so a shared budget is not charged for it). */
  get replaysNext(): boolean {
    return this.recorded.has(this.next);
  }

  /** Whether the last call was answered from the journal. */
  get lastReplayed(): boolean {
    return this.replayedLast;
  }

  /** Answers from the journal, or calls the model and journals its response first. */
  async generate(request: ModelRequest, options?: ModelCallOptions): Promise<ModelResponse> {
    const call = this.next;
    const recorded = this.take(call);
    if (recorded !== undefined) {
      throwIfAborted(options?.signal);
      return recorded;
    }
    this.goLive(call);
    const response = await this.model.generate(request, options);
    await this.journal(call, response);
    return response;
  }

  /** Plays the journaled response as parts, or streams the model and journals the response before `finish`. */
  stream(request: ModelRequest, options?: ModelCallOptions): AsyncIterable<ModelStreamPart> {
    const call = this.next;
    const recorded = this.take(call);
    const signal = options?.signal;
    if (recorded !== undefined) {
      return (async function* () {
        for (const part of responseToParts(recorded)) {
          throwIfAborted(signal);
          yield part;
        }
      })();
    }
    this.goLive(call);
    return this.journalStream(call, this.model.stream(request, options));
  }

  /** A call the journal cannot answer: made for real (or refused when replaying a finished run). */
  private goLive(call: number): void {
    if (!this.live) {
      throw new StoreError({
        message: `the journal has no response for model call ${call} of this finished run (it was compacted, or the agent changed)`,
        operation: "replay",
      });
    }
    this.replayedLast = false;
    this.onLive?.();
  }

  /** The journaled response of `call` (a copy), counting the call as made; undefined when there is none. */
  private take(call: number): ModelResponse | undefined {
    const recorded = this.recorded.get(call);
    if (recorded === undefined) return undefined;
    this.recorded.delete(call);
    this.next = call + 1;
    this.replayedCount++;
    this.replayedLast = true;
    return structuredClone(recorded);
  }

  /** Appends the response of `call`; the call counts as made once it is journaled. */
  private async journal(call: number, response: ModelResponse): Promise<void> {
    await this.writer.append([
      { v: JOURNAL_RECORD_VERSION, kind: "model_response", call, response: toRecordedResponse(response) },
    ]);
    this.next = call + 1;
  }

  private async *journalStream(
    call: number,
    parts: AsyncIterable<ModelStreamPart>,
  ): AsyncGenerator<ModelStreamPart> {
    const collector = new StreamCollector();
    let finish: ModelStreamPart | undefined;
    for await (const part of parts) {
      if (part.type === "error") {
        // The consumer throws on it: nothing to journal.
        yield part;
        return;
      }
      collector.add(part);
      if (part.type === "finish") finish = part;
      else yield part;
    }
    // What the loop folds from these parts: journaled before it can see the end of the stream.
    await this.journal(call, collector.response());
    if (finish !== undefined) yield finish;
  }
}
