import { findNodeBuiltin } from "../util/node-builtin.js";
import { createFetchHttpClient } from "./fetch-http-client.js";
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

/**
 * The shared default client, made on first use (importing costs nothing): node:http where the runtime has
 * Node's built-ins (Node, Bun, Deno, workerd with `nodejs_compat`), `fetch` everywhere else (browsers, workerd).
 */
export function getDefaultHttpClient(): HttpClient {
  defaultClient ??=
    findNodeBuiltin("node:http") === undefined
      ? createFetchHttpClient((input, init) => fetch(input, init))
      : createNodeHttpClient();
  return defaultClient;
}
