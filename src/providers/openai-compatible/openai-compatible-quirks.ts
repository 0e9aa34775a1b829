import type { ErrorBodyInfo } from "../../http/send-model-request.js";
import type { ModelRequest } from "../../models/model.js";

/** What the request headers of one call are made from (the arguments of `openAIRequestHeaders`). */
export interface OpenAIRequestHeadersArgs {
  /** The API key read at call time (undefined or "" → none). */
  apiKey: string | undefined;
  /** The user's headers, keys lower-cased. */
  headers: Readonly<Record<string, string>>;
  stream: boolean;
  /** True when the endpoint is OpenAI's own API (a preset decides for itself). */
  needsKey: boolean;
  /** The endpoint as messages print it. */
  url: string;
}

/**
 * How an OpenAI-compatible server differs from OpenAI's Chat Completions API, as hooks the OpenAI Chat model
 * calls (`OpenAIChatModelConfig.quirks`, set by `createOpenAICompatible`). Every hook is optional; without
 * quirks a model behaves exactly as `createOpenAI` makes it.
 */
export interface OpenAICompatibleQuirks {
  /** The endpoint of a model (default `${baseURL}/chat/completions`): Azure's routes and `api-version`. */
  chatURL?: ((modelId: string) => string) | undefined;
  /** The request headers (default `openAIRequestHeaders`): the auth header, the missing-key error, defaults. */
  requestHeaders?: ((args: OpenAIRequestHeadersArgs) => Record<string, string>) | undefined;
  /**
   * Edits the request body in place before it is serialised: every field but `messages` and `tools` (which
   * are spliced in afterwards from their per-message caches). Drops or renames fields a server rejects.
   */
  editBody?: ((body: Record<string, unknown>, stream: boolean) => void) | undefined;
  /**
   * Rewrites the request before it is converted (e.g. tool-call ids into the form a server accepts). It must
   * return the request itself when nothing changes, and the same copy of a message every time (memoised), so
   * a message is still converted and serialised once.
   */
  editRequest?: ((request: ModelRequest) => ModelRequest) | undefined;
  /** Retryability of an error status (default: OpenAI's rule, 408/409/429/5xx but not `insufficient_quota`). */
  isRetryable?: ((status: number, info: ErrorBodyInfo) => boolean) | undefined;
}
