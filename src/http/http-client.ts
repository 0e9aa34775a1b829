import type { HttpClient } from "./http-transport-types.js";
import { createNodeHttpClient } from "./node-http-client.js";

export { createFetchHttpClient } from "./fetch-http-client.js";
export {
  type BodyLimit,
  type HttpClient,
  type HttpRequest,
  type HttpResponse,
  RequestTimeoutError,
} from "./http-transport-types.js";
export { createNodeHttpClient } from "./node-http-client.js";

let defaultClient: HttpClient | undefined;

/** The shared default client (created on first use, so importing costs nothing). */
export function getDefaultHttpClient(): HttpClient {
  defaultClient ??= createNodeHttpClient();
  return defaultClient;
}
