import { InvalidArgumentError } from "../errors/invalid-argument-error.js";
import type { AgentEvent } from "../loop/agent-event.js";
import { StreamCollector } from "../models/collect-stream.js";
import type { MessageContent } from "../models/content-part.js";
import type { Message } from "../models/message.js";
import type { Model, ModelCallOptions, ModelRequest, ModelResponse } from "../models/model.js";
import type { ModelStreamPart } from "../models/model-stream-part.js";
import { toRecordedError, toRecordedRequest, toRecordedResponse } from "../run-log/recorded-model-call.js";
import { observationContent } from "../tools/observation-content.js";
import { canonicalJson, canonicalJsonCopy, RawJson } from "../util/canonical-json.js";
import { canSha256 } from "../util/sha256-hex.js";
import { hashRecord } from "./hash-record.js";
import { toolFailureOf } from "./tool-failure-of.js";
import {
  GENESIS_HASH,
  TRACE_VERSION,
  type Trace,
  type TraceMeta,
  type TraceModelRequest,
  type TraceRecord,
  type TraceRecordDataMap,
  type TraceRecordKind,
} from "./trace-types.js";

/** Options of {@link TraceRecorder}: what the run starts from (written as the `meta` record). */
export interface TraceRecorderOptions {
  /** The run's task. */
  input: MessageContent;
  /** The prior conversation the run continues (`RunOptions.messages ?? []`), without the agent's system prompt. */
  messages: readonly Message[];
  /** `"provider:modelId"` of the run's model. */
  model: string;
  /** The agent's tool names (`agent.tools.names()`). */
  tools: readonly string[];
  /** When the run started, in ms since the epoch. Default: now. */
  startedAt?: number;
}

/**
 * Records one run as a {@link Trace}. Construction writes the `meta` record; {@link TraceRecorder.wrapModel}
 * gives a model that records each request and its response (or error); {@link TraceRecorder.recordEvent}
 * records the run's events (and, for `observation` events, a `tool_result` record: the result as the model
 * got it, content parts included, with the structured `failure` of a tool that threw, returned an
 * unserialisable value or timed out); `finish` returns the trace. Each record is hashed once, when it is
 * added; a message is serialised once however many requests repeat it. Records added after `finish` are
 * ignored. Where the runtime has no node:crypto (a browser), records are hashed once `loadSha256()` has
 * finished (the agent awaits it before a traced run's first event), at the latest by `finish`.
 *
 * @example
 * const recorder = new TraceRecorder({ input, messages: [], model: "openai:gpt-4o-mini", tools: [] });
 * const agent = new Agent({ model: recorder.wrapModel(model), onEvent: (e) => recorder.recordEvent(e) });
 * await agent.run(input);
 * const trace = recorder.finish();
 */
export class TraceRecorder {
  private readonly records: TraceRecord[] = [];
  private prevHash = GENESIS_HASH;
  private calls = 0;
  private finished = false;
  /** Canonical JSON of messages already serialised (messages are immutable once in a history). */
  private readonly messageJson = new WeakMap<object, string>();
  /** The canonical JSON of records not hashed yet (only where hashing waits for `loadSha256`). */
  private unhashed: string[] = [];

  constructor(options: TraceRecorderOptions) {
    if (options === null || typeof options !== "object") {
      throw new InvalidArgumentError({ argument: "options", message: "expected an options object" });
    }
    const { input, messages, model, tools, startedAt = Date.now() } = options;
    if (typeof input !== "string" && !Array.isArray(input))
      throw new InvalidArgumentError({ argument: "input", message: "expected a string or content parts" });
    if (!Array.isArray(messages)) {
      throw new InvalidArgumentError({ argument: "messages", message: "expected an array of messages" });
    }
    if (typeof model !== "string")
      throw new InvalidArgumentError({ argument: "model", message: "expected a string" });
    if (!Array.isArray(tools) || tools.some((name) => typeof name !== "string")) {
      throw new InvalidArgumentError({ argument: "tools", message: "expected an array of tool names" });
    }
    const meta: TraceMeta = { input, messages: [...messages], model, tools: [...tools], startedAt };
    this.append("meta", meta, canonicalJson({ ...meta, messages: this.messagesJson(meta.messages) }));
  }

  /** How many records have been added so far. */
  get size(): number {
    return this.records.length;
  }

  /**
   * A model that passes every call on to `model` and records it: a `model_request` before the call, then a
   * `model_response` or a `model_error`. Streamed parts are passed through unchanged and the folded response
   * is recorded at the end (an `error` part is recorded as a `model_error`); a stream the consumer abandons
   * records nothing more. Calls are numbered per recorder, in the order they are made.
   */
  wrapModel(model: Model): Model {
    const recorder = this;
    return {
      provider: model.provider,
      modelId: model.modelId,
      capabilities: model.capabilities,
      async generate(request: ModelRequest, options?: ModelCallOptions): Promise<ModelResponse> {
        const call = recorder.recordRequest(request, "generate");
        let response: ModelResponse;
        try {
          response = await model.generate(request, options);
        } catch (error) {
          recorder.recordError(call, error);
          throw error;
        }
        recorder.recordResponse(call, response);
        return response;
      },
      stream(request: ModelRequest, options?: ModelCallOptions): AsyncIterable<ModelStreamPart> {
        const call = recorder.recordRequest(request, "stream");
        let parts: AsyncIterable<ModelStreamPart>;
        try {
          parts = model.stream(request, options);
        } catch (error) {
          recorder.recordError(call, error);
          throw error;
        }
        return recorder.recordStream(call, parts);
      },
    };
  }

  /** Records an event of the run; an `observation` also gets a `tool_result` record right after it. */
  recordEvent(event: AgentEvent): void {
    this.appendCopy("event", event);
    // A sub-agent's results are its own: the run's replay answers the sub-agent's call with its result.
    if (event.type === "observation" && event.agent === undefined) {
      const { toolCallId, toolName, ok, result, error } = event.data;
      const failure = ok ? undefined : toolFailureOf({ tool: toolName, result, error });
      // The event has the result as text; a result with content parts is recorded as its parts.
      const content = observationContent(event.data) ?? result;
      this.appendCopy("tool_result", {
        toolCallId,
        toolName,
        ok,
        result: content,
        ...(failure && { failure }),
      });
    }
  }

  /** Ends the recording and returns the trace. Later calls return the same trace; later records are ignored. */
  finish(): Trace {
    this.hashPending();
    this.finished = true;
    return { version: TRACE_VERSION, records: this.records };
  }

  private recordRequest(request: ModelRequest, mode: TraceModelRequest["mode"]): number {
    const call = this.calls++;
    if (this.finished) return call;
    const recorded = toRecordedRequest(request);
    const data: TraceModelRequest = { call, mode, request: recorded };
    const json = canonicalJson({
      call,
      mode,
      request: { ...recorded, messages: this.messagesJson(recorded.messages) },
    });
    this.append("model_request", data, json);
    return call;
  }

  private recordResponse(call: number, response: ModelResponse): void {
    this.appendCopy("model_response", { call, response: toRecordedResponse(response) });
  }

  private recordError(call: number, error: unknown): void {
    this.appendCopy("model_error", { call, error: toRecordedError(error) });
  }

  private async *recordStream(
    call: number,
    parts: AsyncIterable<ModelStreamPart>,
  ): AsyncGenerator<ModelStreamPart> {
    const collector = new StreamCollector();
    let failed = false;
    try {
      for await (const part of parts) {
        if (failed) {
          yield part;
          continue;
        }
        if (part.type === "error") {
          // The consumer throws on this part and stops reading: record the failure before handing it over.
          failed = true;
          this.recordError(call, part.error);
        } else {
          collector.add(part);
        }
        yield part;
      }
    } catch (error) {
      if (!failed) this.recordError(call, error);
      throw error;
    }
    if (!failed) this.recordResponse(call, collector.response());
  }

  /** The canonical JSON of a message list, each message serialised at most once per recorder. */
  private messagesJson(messages: readonly Message[]): RawJson {
    let json = "[";
    for (let i = 0; i < messages.length; i++) {
      const message = messages[i];
      let text: string | undefined;
      if (typeof message === "object" && message !== null) {
        text = this.messageJson.get(message);
        if (text === undefined) {
          text = canonicalJson(message);
          this.messageJson.set(message, text);
        }
      } else {
        text = canonicalJson(message);
      }
      json += `${i > 0 ? "," : ""}${text}`;
    }
    return new RawJson(`${json}]`);
  }

  /** Adds a record whose data is a JSON copy of `value` (so the trace holds plain JSON, not live objects). */
  private appendCopy<K extends TraceRecordKind>(kind: K, value: TraceRecordDataMap[K]): void {
    if (this.finished) return;
    // The copy is made while serialising: equal to JSON.parse(json), without parsing the text back.
    const { json, copy } = canonicalJsonCopy(value);
    this.append(kind, copy as TraceRecordDataMap[K], json);
  }

  private append<K extends TraceRecordKind>(kind: K, data: TraceRecordDataMap[K], json: string): void {
    if (this.finished) return;
    const seq = this.records.length;
    if (this.unhashed.length > 0 || !canSha256()) {
      this.records.push({ seq, kind, data, prevHash: "", hash: "" } as TraceRecord);
      this.unhashed.push(json);
      return;
    }
    const prevHash = this.prevHash;
    const hash = hashRecord({ seq, kind, data: new RawJson(json), prevHash });
    this.records.push({ seq, kind, data, prevHash, hash } as TraceRecord);
    this.prevHash = hash;
  }

  /** Hashes the records added before SHA-256 was available, in order (a no-op where node:crypto is). */
  hashPending(): void {
    const pending = this.unhashed;
    if (pending.length === 0) return;
    const first = this.records.length - pending.length;
    for (let i = 0; i < pending.length; i++) {
      const record = this.records[first + i] as TraceRecord;
      const prevHash = this.prevHash;
      const hash = hashRecord({
        seq: record.seq,
        kind: record.kind,
        data: new RawJson(pending[i] ?? ""),
        prevHash,
      });
      Object.assign(record, { prevHash, hash });
      this.prevHash = hash;
    }
    this.unhashed = [];
  }
}
