import { AgentloopError, errorMarker, hasMarker } from "./agentloop-error.js";

const MARK_HTTPGETERROR = errorMarker("HttpGetError");

/**
 * The `http_get` tool could not fetch a URL: the URL or a redirect target was refused (not http/https, host
 * not on the allowlist), too many redirects, a timeout, or a network failure. An HTTP error status is not an
 * error: the tool returns it. `url` is the URL concerned.
 */
export class HttpGetError extends AgentloopError {
  protected readonly [MARK_HTTPGETERROR] = true;
  /** The URL that was refused or failed. */
  readonly url: string;

  constructor({ url, message, cause }: { url: string; message: string; cause?: unknown }) {
    super({ message, cause });
    this.name = "HttpGetError";
    this.url = url;
  }

  static override isInstance(error: unknown): error is HttpGetError {
    return hasMarker(error, MARK_HTTPGETERROR);
  }
}
