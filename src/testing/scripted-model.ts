import { loadTokenCounter } from "../context/load-token-counter.js";
import type { TokenCounter } from "../context/token-counter.js";
import { throwIfAborted } from "../errors/abort-error.js";
import { InvalidArgumentError } from "../errors/invalid-argument-error.js";
import { UnexpectedModelCallError } from "../errors/unexpected-model-call-error.js";
import { sleep } from "../http/retry-policy.js";
import type {
  Model,
  ModelCallOptions,
  ModelCapabilities,
  ModelRequest,
  ModelResponse,
} from "../models/model.js";
import type { ModelStreamPart } from "../models/model-stream-part.js";
import { responseToStreamParts } from "./response-to-stream-parts.js";
import { buildScriptedResponse, type ScriptedStep } from "./scripted-step.js";
import { type ChunkSize, validateChunkSize } from "./split-text.js";

/**
 * What a {@link ScriptedModel} answers: a list of steps played in order (one per call; a call beyond the
 * last step fails with {@link UnexpectedModelCallError}), or a function that builds the step of each call
 * from the request and the 0-based call index (never runs out).
 */
export type ScriptedSteps =
  | readonly ScriptedStep[]
  | ((request: ModelRequest, callIndex: number) => ScriptedStep | Promise<ScriptedStep>);

/** Options of {@link ScriptedModel}. */
export interface ScriptedModelOptions {
  /** The model id it reports. Default "scripted". */
  modelId?: string;
  /** How `stream` cuts text and refusals into deltas: characters per part, or `"word"` (default). */
  chunkSize?: ChunkSize;
  /** Characters per `tool_call_delta` fragment of the raw arguments. Default 8. */
  argumentsChunkSize?: number;
  /** Wait between two stream parts, in ms (aborted by the call's signal). Default 0. */
  streamDelayMs?: number;
  /**
   * Counts the tokens of the usage each answer reports (for the fields its step does not give). Default: the
   * counter the context layer uses for `modelId` (`loadTokenCounter`: the estimate for "scripted", the exact
   * OpenAI tokenizer for OpenAI model ids when gpt-tokenizer is installed). Pass the agent's `context.counter`
   * when it has one.
   */
  counter?: TokenCounter;
  /** What the model says it can do (e.g. `{ structuredOutput: true }` to be sent typed answers natively). */
  capabilities?: ModelCapabilities;
}

/** One recorded call of a {@link ScriptedModel}. */
export interface ScriptedModelCall {
  /** The request, with `messages` copied at call time (later changes to the caller's array do not show). */
  request: ModelRequest;
  /** Which method was called. */
  mode: "generate" | "stream";
}

/**
 * A {@link Model} that plays scripted answers and records every call: the test double for anything that
 * takes a model. Each answer reports the usage production would see: input tokens as the context layer
 * estimates the request, output tokens as it estimates the answer (a step's `usage` fields win). `generate` and `stream` answer the same step identically (folding the stream with
 * `StreamCollector` gives the `generate` response). Calls beyond the script fail loudly with
 * {@link UnexpectedModelCallError}; they are recorded too.
 *
 * @example
 * const model = new ScriptedModel([
 *   { toolCalls: [{ name: "get_weather", arguments: { city: "Paris" } }] },
 *   { text: "It is sunny." },
 * ]);
 */
export class ScriptedModel implements Model {
  /** Always "scripted". */
  readonly provider = "scripted";
  /** `options.modelId`, default "scripted". */
  readonly modelId: string;
  /** `options.capabilities`. */
  readonly capabilities: ModelCapabilities | undefined;
  /** Every call so far, in order. */
  readonly calls: ScriptedModelCall[] = [];
  private readonly steps: ScriptedSteps;
  private readonly chunkSize: ChunkSize;
  private readonly argumentsChunkSize: number;
  private readonly streamDelayMs: number;
  private counter: TokenCounter | Promise<TokenCounter> | undefined;
  private callCount = 0;

  constructor(steps: ScriptedSteps, options: ScriptedModelOptions = {}) {
    this.steps = typeof steps === "function" ? steps : [...steps];
    this.modelId = options.modelId ?? "scripted";
    this.capabilities = options.capabilities;
    this.chunkSize = options.chunkSize ?? "word";
    this.argumentsChunkSize = options.argumentsChunkSize ?? 8;
    this.streamDelayMs = options.streamDelayMs ?? 0;
    this.counter = options.counter;
    validateChunkSize({ argument: "chunkSize", value: this.chunkSize });
    validateChunkSize({ argument: "argumentsChunkSize", value: this.argumentsChunkSize });
    if (!Number.isFinite(this.streamDelayMs) || this.streamDelayMs < 0) {
      throw new InvalidArgumentError({
        argument: "streamDelayMs",
        message: `expected a number >= 0, got ${this.streamDelayMs}`,
      });
    }
  }

  /** Steps not played yet (`Infinity` for a function script). */
  get remaining(): number {
    if (typeof this.steps === "function") return Number.POSITIVE_INFINITY;
    return Math.max(0, this.steps.length - this.callCount);
  }

  /** Forgets the recorded calls and plays the script from its first step again. */
  reset(): void {
    this.calls.length = 0;
    this.callCount = 0;
  }

  /** Answers with the next step. Rejects with the step's `error`, or with `AbortError` when aborted. */
  async generate(request: ModelRequest, options?: ModelCallOptions): Promise<ModelResponse> {
    const callIndex = this.record(request, "generate");
    throwIfAborted(options?.signal);
    const step = await this.resolveStep(request, callIndex);
    if (step.delayMs !== undefined && step.delayMs > 0) await sleep(step.delayMs, options?.signal);
    if (step.error !== undefined) throw step.error;
    return buildScriptedResponse({ step, callIndex, request, counter: await this.tokenCounter() });
  }

  /**
   * Streams the next step as a provider would (see {@link ScriptedModelOptions} for chunking and pacing).
   * The call is recorded at once; the step is resolved when iteration starts.
   */
  stream(request: ModelRequest, options?: ModelCallOptions): AsyncIterable<ModelStreamPart> {
    const callIndex = this.record(request, "stream");
    return this.play(request, callIndex, options?.signal);
  }

  private async *play(
    request: ModelRequest,
    callIndex: number,
    signal: AbortSignal | undefined,
  ): AsyncGenerator<ModelStreamPart> {
    throwIfAborted(signal);
    const step = await this.resolveStep(request, callIndex);
    if (step.delayMs !== undefined && step.delayMs > 0) await sleep(step.delayMs, signal);
    const parts = responseToStreamParts({
      response: buildScriptedResponse({ step, callIndex, request, counter: await this.tokenCounter() }),
      chunkSize: this.chunkSize,
      argumentsChunkSize: this.argumentsChunkSize,
    });
    const failing = step.error !== undefined;
    // A failing stream never reaches its `finish` part.
    const count = failing ? Math.min(Math.max(0, step.errorAfterParts ?? 0), parts.length - 1) : parts.length;
    for (let i = 0; i < count; i++) {
      if (i > 0 && this.streamDelayMs > 0) await sleep(this.streamDelayMs, signal);
      throwIfAborted(signal);
      yield parts[i] as ModelStreamPart;
    }
    if (!failing) return;
    if (step.errorAs === "part") yield { type: "error", error: step.error };
    else throw step.error;
  }

  /** The counter of the usage estimates, loaded on first use (as the context layer loads it). */
  private async tokenCounter(): Promise<TokenCounter> {
    this.counter ??= loadTokenCounter({ modelId: this.modelId });
    if (this.counter instanceof Promise) this.counter = await this.counter;
    return this.counter;
  }

  private record(request: ModelRequest, mode: ScriptedModelCall["mode"]): number {
    this.calls.push({ request: { ...request, messages: [...request.messages] }, mode });
    return this.callCount++;
  }

  private async resolveStep(request: ModelRequest, callIndex: number): Promise<ScriptedStep> {
    if (typeof this.steps === "function") return await this.steps(request, callIndex);
    const step = this.steps[callIndex];
    if (step === undefined) {
      throw new UnexpectedModelCallError({
        callIndex,
        scriptedSteps: this.steps.length,
        lastMessage: request.messages.at(-1),
      });
    }
    return step;
  }
}
