import { timingSafeEqual } from "node:crypto";
import type { IncomingMessage } from "node:http";

/** The header the dev UI sends the per-launch token in. */
export const DEV_TOKEN_HEADER = "x-agentloop-token";

/** Options of {@link authorizeDevRequest}. */
export interface AuthorizeDevRequestOptions {
  request: IncomingMessage;
  /**
   * The `host:port` values a request may name in its `Host` header (e.g. `127.0.0.1:4310`, `localhost:4310`);
   * `undefined` accepts any (a server bound to every interface: the token still guards the API).
   */
  hosts: ReadonlySet<string> | undefined;
  /** The per-launch token; `undefined` for requests that need none (the static files of the page). */
  token: string | undefined;
}

/** Why a request was refused: the HTTP status and a message. */
export interface DevRequestRefusal {
  status: number;
  message: string;
}

function sameToken(given: string, expected: string): boolean {
  const a = Buffer.from(given);
  const b = Buffer.from(expected);
  return a.length === b.length && timingSafeEqual(a, b);
}

/**
 * Protects the dev server from other sites in the same browser (the server runs tools on this machine):
 * - the `Host` header must name this server (a DNS-rebinding page names its own host and is refused);
 * - an `Origin` header, when sent, must be this server's own origin, the one the `Host` header names
 *   (cross-site requests carry theirs);
 * - API requests must carry the per-launch token in the {@link DEV_TOKEN_HEADER} header. The token is only in the
 *   URL printed at start (after `#`, so it is never sent in a request line or a Referer), and a custom header
 *   makes every cross-origin request a CORS preflight, which this server never answers.
 *
 * Returns `undefined` when the request may go on.
 */
export function authorizeDevRequest({
  request,
  hosts,
  token,
}: AuthorizeDevRequestOptions): DevRequestRefusal | undefined {
  const host = String(request.headers.host ?? "").toLowerCase();
  if (host === "" || (hosts !== undefined && !hosts.has(host)))
    return { status: 403, message: "unknown Host header" };
  const origin = request.headers.origin;
  if (origin !== undefined && origin !== "null") {
    let originHost = "";
    try {
      const url = new URL(origin);
      originHost = url.protocol === "http:" ? url.host.toLowerCase() : "";
    } catch {
      originHost = "";
    }
    if (originHost !== host) return { status: 403, message: "cross-origin requests are not allowed" };
  } else if (origin === "null") {
    return { status: 403, message: "cross-origin requests are not allowed" };
  }
  if (token === undefined) return undefined;
  const given = request.headers[DEV_TOKEN_HEADER];
  if (typeof given !== "string" || !sameToken(given, token)) {
    return {
      status: 401,
      message: `missing or wrong ${DEV_TOKEN_HEADER} header (open the URL agentloop dev printed)`,
    };
  }
  return undefined;
}
