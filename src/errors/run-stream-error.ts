import { AgentloopError, errorMarker, hasMarker } from "./agentloop-error.js";

const MARK_RUNSTREAMERROR = errorMarker("RunStreamError");

/**
 * What went wrong with a run's stream, for `streamRun` (`agentloop/client`): `http` (the server answered with an
 * error status), `server` (it sent `event: error`: the run could not start or its stream failed; `errorName`
 * is the server's error class), `too_large` (one message or line beyond `maxEventChars`), `malformed` (not an
 * agentloop SSE stream), `timeout` (no response or no data in time) or `network` (the connection failed or
 * broke off before the run's result, after any reconnects).
 */
export type RunStreamErrorKind = "http" | "server" | "too_large" | "malformed" | "timeout" | "network";

/** Options of {@link RunStreamError}. */
export interface RunStreamErrorOptions {
  kind: RunStreamErrorKind;
  message: string;
  /** The HTTP status, for `http`. */
  status?: number | undefined;
  /** The server's error name, for `server` (and `http` when its JSON body named one). */
  errorName?: string | undefined;
  /** The URL called. */
  url?: string | undefined;
  cause?: unknown;
}

/** A run streamed from an agentloop endpoint failed without a result (see {@link RunStreamErrorKind}). */
export class RunStreamError extends AgentloopError {
  protected readonly [MARK_RUNSTREAMERROR] = true;
  readonly kind: RunStreamErrorKind;
  readonly status: number | undefined;
  readonly errorName: string | undefined;
  readonly url: string | undefined;

  constructor({ kind, message, status, errorName, url, cause }: RunStreamErrorOptions) {
    super({ message, cause });
    this.name = "RunStreamError";
    this.kind = kind;
    this.status = status;
    this.errorName = errorName;
    this.url = url;
  }

  /** Whether a reconnect may help: a broken connection, a timeout, or a gateway error (502, 503, 504). */
  get reconnectable(): boolean {
    if (this.kind === "network" || this.kind === "timeout") return true;
    return this.kind === "http" && (this.status === 502 || this.status === 503 || this.status === 504);
  }

  static override isInstance(error: unknown): error is RunStreamError {
    return hasMarker(error, MARK_RUNSTREAMERROR);
  }
}
