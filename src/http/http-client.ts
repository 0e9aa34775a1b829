import type { HttpClient } from "./http-transport-types.js";
import { createNodeHttpClient } from "./node-http-client.js";

export { RequestTimeoutError } from "../errors/request-timeout-error.js";
export { createFetchHttpClient } from "./fetch-http-client.js";
export type {
  BodyLimit,
  HttpClient,
  HttpRequest,
  HttpResponse,
} from "./http-transport-types.js";
export { createNodeHttpClient } from "./node-http-client.js";

let defaultClient: HttpClient | undefined;

/** The shared default client (created on first use, so importing costs nothing). */
export function getDefaultHttpClient(): HttpClient {
  defaultClient ??= createNodeHttpClient();
  return defaultClient;
}
