import type { Model, ModelCallOptions, ModelRequest, ModelResponse } from "./model.js";
import type { ModelStreamPart } from "./model-stream-part.js";

/** A switch {@link FallbackModel.fallBack} made: the model that failed and the one that answers now. */
export interface ModelSwitch {
  from: Model;
  to: Model;
}

/**
 * The models of one run, in order of preference (`Agent({ model: [primary, fallback, ...] })`): calls go to
 * the current one, starting with the first. When a call of the current model has failed for good (after the
 * loop's retries, and after compaction for a context-length error), the loop calls {@link fallBack} and makes
 * the call again on the next model; the run stays on it (a provider that is down is not asked again each turn).
 * Made per run: it holds the run's position in the list.
 */
export class FallbackModel implements Model {
  private index = 0;

  constructor(private readonly models: readonly [Model, ...Model[]]) {}

  /** The model calls go to now. */
  get current(): Model {
    return this.models[this.index] as Model;
  }

  get provider(): string {
    return this.current.provider;
  }

  get modelId(): string {
    return this.current.modelId;
  }

  /** The first model's policy: the agent's retry policy is resolved once, from its primary model. */
  get retryPolicy() {
    return this.models[0].retryPolicy;
  }

  /** The first model's: a typed answer's form (native or a tool) is chosen once per run. */
  get capabilities() {
    return this.models[0].capabilities;
  }

  /** Moves to the next model; the switch made, or undefined when the current model is the last. */
  fallBack(): ModelSwitch | undefined {
    const from = this.current;
    const to = this.models[this.index + 1];
    if (to === undefined) return undefined;
    this.index++;
    return { from, to };
  }

  generate(request: ModelRequest, options?: ModelCallOptions): Promise<ModelResponse> {
    return this.current.generate(request, options);
  }

  stream(request: ModelRequest, options?: ModelCallOptions): AsyncIterable<ModelStreamPart> {
    return this.current.stream(request, options);
  }
}
