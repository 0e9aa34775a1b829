import { AgentloopError } from "../errors/agentloop-error.js";
import { ModelCallError } from "../errors/model-call-error.js";

/** Options of {@link LazyImplementation}. */
export interface LazyImplementationOptions<T> {
  /** What the module implements, for the error message (e.g. "the OpenAI Chat provider"). */
  what: string;
  /**
   * Loads the module: a dynamic `import()`, which keeps it out of the files `import("agentloop")` loads (the build
   * puts the providers' lazy code into one `providers` chunk: scripts/bundle-entries.mjs).
   */
  load: () => Promise<T>;
}

/**
 * A provider's heavy half (request bodies, response and stream parsing, message conversion), loaded on the first
 * model call and cached, so that importing agentloop and creating models stays cheap (#22). After the load,
 * {@link LazyImplementation.current} returns it synchronously: calls made later pay no promise for it.
 */
export class LazyImplementation<T> {
  private readonly options: LazyImplementationOptions<T>;
  private loaded: T | undefined;
  private loading: Promise<T> | undefined;

  constructor(options: LazyImplementationOptions<T>) {
    this.options = options;
  }

  /** The loaded module, or undefined before the first {@link load} has finished. */
  get current(): T | undefined {
    return this.loaded;
  }

  /**
   * The loaded module. Only for code that runs after a {@link load} resolved (a model's request building and
   * parsing, called by `generate`/`stream` once loaded).
   */
  get value(): T {
    const { loaded } = this;
    if (loaded === undefined)
      throw new AgentloopError({ message: `${this.options.what} is used before it was loaded` });
    return loaded;
  }

  /**
   * Loads the module once (concurrent callers share the load). A failure rejects with a non-retryable
   * `ModelCallError` (code `provider_load_failed`) and is not cached: the next call tries again.
   */
  load(): Promise<T> {
    if (this.loaded !== undefined) return Promise.resolve(this.loaded);
    this.loading ??= this.options.load().then(
      (module) => {
        this.loaded = module;
        return module;
      },
      (error: unknown) => {
        this.loading = undefined;
        throw new ModelCallError({
          message: `Could not load ${this.options.what}: ${error instanceof Error ? error.message : String(error)}`,
          isRetryable: false,
          code: "provider_load_failed",
          cause: error,
        });
      },
    );
    return this.loading;
  }
}
