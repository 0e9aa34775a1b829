import { StoreError } from "../errors/store-error.js";
import type { Model } from "../models/model.js";
import { LogReplayModel, type RecordedModelCall } from "../run-log/log-replay-model.js";
import { toRecordedResponse } from "../run-log/recorded-model-call.js";
import { JOURNAL_RECORD_VERSION, type JournalRecord } from "./journal-record.js";
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

/** The journal's model calls by index (a journal records responses only: failed calls take no index). */
function journaledCalls(records: readonly JournalRecord[]): Map<number, RecordedModelCall> {
  const calls = new Map<number, RecordedModelCall>();
  for (const record of records) {
    if (record.kind === "model_response") calls.set(record.call, { outcome: { response: record.response } });
  }
  return calls;
}

/**
 * The model of a durable run: a {@link LogReplayModel} over the journal. Model call N (0-based,
 * counting successful calls only: a failed call is made again under the same index) is answered from the
 * journal's `model_response` record N when there is one — no request is made, `stream` plays the recorded
 * response as parts. Otherwise the real model is called and its response is appended to the journal before
 * the loop gets it (for `stream`: every part passes through as it comes, except `finish`, which is held back
 * until the response is journaled). A journal failure rejects the call (and stops the run).
 */
export class JournaledModel extends LogReplayModel {
  constructor({ model, records, writer, onLive, live = true }: JournaledModelOptions) {
    super({
      calls: journaledCalls(records),
      provider: model.provider,
      modelId: model.modelId,
      capabilities: model.capabilities,
      live: live ? model : undefined,
      // `model` names the model that answered (with fallbacks, not always the first).
      record: ({ call, response }) =>
        writer.append([
          {
            v: JOURNAL_RECORD_VERSION,
            kind: "model_response",
            call,
            response: toRecordedResponse(response),
            model: `${model.provider}:${model.modelId}`,
          },
        ]),
      onLive,
      unanswered: ({ call }) =>
        new StoreError({
          message: `the journal has no response for model call ${call} of this finished run (it was compacted, or the agent changed)`,
          operation: "replay",
        }),
    });
  }
}
