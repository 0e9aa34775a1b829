import { ResponseTooLargeError } from "../errors/response-too-large-error.js";
import { displayUrl } from "./display-url.js";
import type { BodyLimit, HttpRequest } from "./http-transport-types.js";

/** What a transport needs to bound one response body: the limit in force and the error past it. */
export interface BodyLimitGuard {
  /** The bound for this response (a 2xx body: `bodyLimit`; an error body: `errorBodyLimit`), if any. */
  limit: BodyLimit | undefined;
  /** Whether `bytes` (declared or received so far) is over the limit. */
  exceeds(bytes: number): boolean;
  /** The error for a body over the limit (`received`: the declared or counted bytes, when known). */
  tooLarge(received: number | undefined): ResponseTooLargeError;
}

/** The body bound of a response with `status` to `request`, shared by both transports. */
export function bodyLimitGuard(options: { request: HttpRequest; status: number }): BodyLimitGuard {
  const { request, status } = options;
  const limit =
    status >= 200 && status < 300 ? request.bodyLimit : (request.errorBodyLimit ?? request.bodyLimit);
  return {
    limit,
    exceeds: (bytes) => limit !== undefined && bytes > limit.maxBytes,
    tooLarge: (received) =>
      new ResponseTooLargeError({
        limit: limit?.option ?? "maxResponseBytes",
        maximum: limit?.maxBytes ?? 0,
        received,
        what: "the response body",
        url: request.displayUrl ?? displayUrl(request.url),
      }),
  };
}
