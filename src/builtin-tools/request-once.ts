import { request as httpRequest } from "node:http";
import { request as httpsRequest } from "node:https";
import { Readable } from "node:stream";
import type { LookupFunction } from "./address-policy.js";

/** The parts of a response `http_get` reads: what `fetch`'s `Response` has, and what {@link requestOnce} gives. */
export interface HopResponse {
  status: number;
  statusText: string;
  headers: { get(name: string): string | null };
  body: ReadableStream<Uint8Array> | null;
}

/** Options of {@link requestOnce}. */
export interface RequestOnceOptions {
  url: URL;
  headers: Readonly<Record<string, string>>;
  signal: AbortSignal;
  /** Resolves the host name of this connection (and may refuse it); IP literals are connected to as they are. */
  lookup: LookupFunction;
}

/**
 * One GET over node:http / node:https with the connection's own `lookup` (no redirects followed, no pooled
 * socket: the address checked by `lookup` is the one this request connects to). Resolves at the response
 * head; the body is a web stream whose cancellation closes the connection. Rejects with the request's error
 * (what `lookup` failed with, a network error, or the signal's abort).
 */
export function requestOnce({ url, headers, signal, lookup }: RequestOnceOptions): Promise<HopResponse> {
  return new Promise((resolve, reject) => {
    const send = url.protocol === "https:" ? httpsRequest : httpRequest;
    const request = send(url, { method: "GET", headers, signal, lookup, agent: false }, (response) => {
      resolve({
        status: response.statusCode ?? 0,
        statusText: response.statusMessage ?? "",
        headers: {
          get(name) {
            const value = response.headers[name.toLowerCase()];
            if (value === undefined) return null;
            return Array.isArray(value) ? value.join(", ") : value;
          },
        },
        body: Readable.toWeb(response) as ReadableStream<Uint8Array>,
      });
    });
    request.on("error", reject);
    request.end();
  });
}
