import type { Model, ModelCallOptions, ModelRequest, ModelResponse } from "../../models/model.js";
import type { ModelStreamPart } from "../../models/model-stream-part.js";

/**
 * The model of a run with a `prepareStep` hook: calls go to the model the current step chose (`use`), else to
 * the run's own model (`base`: the agent's model, or its fallback list). It sits innermost, under the durable
 * journal and the trace recorder, so a step's model is journaled and traced like any call. A run whose model
 * replays a recording (a trace's `ReplayModel`: it has `replaysNext`) keeps every call on it: a step's choice
 * must not reach a live model during an offline replay. Made per run; calls are made one at a time, as the
 * loop makes them.
 */
export class StepModel implements Model {
  private chosen: Model | undefined;
  private readonly replays: boolean;

  constructor(private readonly base: Model) {
    this.replays = typeof (base as { replaysNext?: unknown }).replaysNext === "boolean";
  }

  /** Routes the next calls to `model` (undefined: back to the run's own model). */
  use(model: Model | undefined): void {
    this.chosen = this.replays ? undefined : model;
  }

  /** The model calls go to now. */
  get current(): Model {
    return this.chosen ?? this.base;
  }

  get provider(): string {
    return this.current.provider;
  }

  get modelId(): string {
    return this.current.modelId;
  }

  /** The run's own: the agent's retry policy is resolved once, from its model. */
  get retryPolicy() {
    return this.base.retryPolicy;
  }

  /** The run's own: a typed answer's form (native or a tool) is chosen once per run. */
  get capabilities() {
    return this.base.capabilities;
  }

  generate(request: ModelRequest, options?: ModelCallOptions): Promise<ModelResponse> {
    return this.current.generate(request, options);
  }

  stream(request: ModelRequest, options?: ModelCallOptions): AsyncIterable<ModelStreamPart> {
    return this.current.stream(request, options);
  }
}
