import { HttpModel } from "../http/http-model.js";
import type { ModelCallOptions, ModelRequest, ModelResponse } from "../models/model.js";
import type { ModelStreamPart } from "../models/model-stream-part.js";
import type { LazyImplementation } from "./lazy-implementation.js";

/**
 * An {@link HttpModel} whose provider code (request body, response and stream parsing) is a
 * {@link LazyImplementation}, loaded in the background from the model's construction. A call made before the
 * load finished waits for it (and fails with its `ModelCallError` if it fails); from then on it goes straight to {@link HttpModel}'s,
 * with no promise added. Subclasses reach the loaded module through `this.implementation.value`.
 */
export abstract class LazyHttpModel<T> extends HttpModel {
  /** The provider's heavy half, shared by its models. */
  protected readonly implementation: LazyImplementation<T>;

  constructor(implementation: LazyImplementation<T>) {
    super();
    this.implementation = implementation;
    // Start loading now, in the background: an app that makes its models at start-up has the code by its first
    // call. A failure here is dropped; the first call loads again and reports it.
    if (implementation.current === undefined) implementation.load().catch(() => undefined);
  }

  /** Loads the provider's code on the first call, then sends as {@link HttpModel.generate} does. */
  override generate(request: ModelRequest, options?: ModelCallOptions): Promise<ModelResponse> {
    if (this.implementation.current !== undefined) return super.generate(request, options);
    return this.implementation.load().then(() => super.generate(request, options));
  }

  /** Loads the provider's code on the first call, then streams as {@link HttpModel.stream} does. */
  override stream(
    request: ModelRequest,
    options?: ModelCallOptions,
  ): AsyncGenerator<ModelStreamPart, void, undefined> {
    if (this.implementation.current !== undefined) return super.stream(request, options);
    return this.streamAfterLoad(request, options);
  }

  private async *streamAfterLoad(
    request: ModelRequest,
    options: ModelCallOptions | undefined,
  ): AsyncGenerator<ModelStreamPart, void, undefined> {
    await this.implementation.load();
    yield* super.stream(request, options);
  }
}
