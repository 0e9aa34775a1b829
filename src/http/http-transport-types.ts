/** A bound on the bytes of a response body, enforced by the transport while it reads. */
export interface BodyLimit {
  /** The most bytes the body may have. */
  maxBytes: number;
  /** The option that sets it, for the error (e.g. `limits.maxResponseBytes`). */
  option: string;
}

/** One HTTP request as the model layer sends it. */
export interface HttpRequest {
  url: string;
  method: "POST" | "GET";
  headers: Record<string, string>;
  body?: string;
  signal?: AbortSignal | undefined;
  /** Rejects with `RequestTimeoutError` when the response headers have not arrived within this time. */
  timeoutMs?: number | undefined;
  /**
   * The body (2xx or error) may not exceed this: a larger declared `content-length` fails before reading, and
   * reading fails with `ResponseTooLargeError` once more bytes arrived (the connection is closed).
   */
  bodyLimit?: BodyLimit | undefined;
  /** The bound of an error body (a status outside 2xx). Default: `bodyLimit`. */
  errorBodyLimit?: BodyLimit | undefined;
  /** The URL as error messages print it (without credentials). Default: `url` without userinfo. */
  displayUrl?: string | undefined;
  /**
   * Read a 2xx body as bytes: its chunks are then "binary strings", one character (U+0000 to U+00FF) per byte
   * (`Buffer.from(chunk, "latin1")` gives the bytes back), for binary framings such as AWS event streams. An
   * error body is still read as UTF-8 text.
   */
  binary?: boolean | undefined;
}

/** An HTTP response whose body is read as UTF-8 text chunks (multi-byte sequences never split). */
export interface HttpResponse {
  status: number;
  /** Header lookup, case-insensitive. */
  header(name: string): string | undefined;
  /** The body as text chunks. Iterate it once. */
  body: AsyncIterable<string>;
  /** Reads the whole body as text. */
  text(): Promise<string>;
  /** Stops reading and releases the connection. A pending read settles. Safe to call twice. */
  cancel(): void;
}

/** Sends one request. Rejects on network failures (and with `AbortError` on abort). */
export type HttpClient = (request: HttpRequest) => Promise<HttpResponse>;
