import { STATUS_CODES } from "node:http";
import { AbortError } from "../errors/abort-error.js";
import { HttpGetError } from "../errors/http-get-error.js";
import { InvalidArgumentError } from "../errors/invalid-argument-error.js";
import { NonPublicAddressError } from "../errors/non-public-address-error.js";
import { type Tool, tool } from "../tools/tool.js";
import { checkAddressLiteral, guardedLookup, type LookupFunction, systemLookup } from "./address-policy.js";
import { formatHttpBody } from "./format-http-body.js";
import { compileExactHosts, compileHostAllowlist, type HostCheck } from "./host-allowlist.js";
import { readLimitedBody } from "./read-limited-body.js";
import { type HopResponse, requestOnce } from "./request-once.js";

/** Options of {@link httpGetTool}. */
export interface HttpGetToolOptions {
  /**
   * Hosts that may be fetched (also every redirect target): exact names or `"*.example.com"`. Default: any
   * public host. A host named exactly here (not by a wildcard) may also be a private, loopback or link-local
   * address (e.g. `"localhost"`, `"10.0.0.5"`, `"intranet.corp"`).
   */
  allowHosts?: readonly string[];
  /**
   * Lets every host reach loopback, link-local (cloud metadata), private-network and other non-public
   * addresses. Default false: those are refused, checked on the address each connection resolves to.
   */
  allowPrivateNetwork?: boolean;
  /**
   * The resolver of host names (`dns.lookup`'s signature). Default `dns.lookup`. Its answers are checked
   * like the system resolver's; tests and custom DNS set it.
   */
  lookup?: LookupFunction;
  /** At most this many bytes of the body are read; the rest is cut with a note. Default 1 MiB. */
  maxBytes?: number;
  /** The whole request (redirects and body included) is aborted after this many ms. Default 10 000. */
  timeoutMs?: number;
  /** At most this many redirects are followed. Default 3. */
  maxRedirects?: number;
  /**
   * A fetch implementation to send requests with instead of the built-in node:http transport. It does the
   * connecting, so host names are then NOT checked on the address they resolve to (IP literals still are):
   * give `allowHosts` with it.
   */
  fetch?: typeof globalThis.fetch;
  /** The `user-agent` header. Default `"agentloop-http_get"`. */
  userAgent?: string;
  /** When true, every call needs approval (see the agent's approval handling). Default false. */
  needsApproval?: boolean;
}

/** Arguments of the `http_get` tool. */
export interface HttpGetArgs extends Record<string, unknown> {
  /** An absolute http or https URL. */
  url: string;
}

const REDIRECTS = new Set([301, 302, 303, 307, 308]);
const MAX_URL_LENGTH = 8192;
const ACCEPT = "text/html, application/json;q=0.9, text/*;q=0.8, */*;q=0.5";

interface Config {
  allows: HostCheck | undefined;
  /** Whether a host may be a non-public address. */
  mayBePrivate: HostCheck;
  lookup: LookupFunction | undefined;
  fetch: typeof globalThis.fetch | undefined;
  maxBytes: number;
  timeoutMs: number;
  maxRedirects: number;
  userAgent: string;
}

function count(argument: string, value: unknown, fallback: number, min: number): number {
  if (value === undefined) return fallback;
  if (typeof value !== "number" || !Number.isSafeInteger(value) || value < min) {
    throw new InvalidArgumentError({
      argument,
      message: `expected an integer >= ${min}, got ${String(value)}`,
    });
  }
  return value;
}

function configOf(options: HttpGetToolOptions): Config {
  if (options === null || typeof options !== "object") {
    throw new InvalidArgumentError({ argument: "options", message: "expected an options object" });
  }
  if (options.fetch !== undefined && typeof options.fetch !== "function") {
    throw new InvalidArgumentError({ argument: "fetch", message: "expected a fetch function" });
  }
  if (options.lookup !== undefined && typeof options.lookup !== "function") {
    throw new InvalidArgumentError({ argument: "lookup", message: "expected a dns.lookup-like function" });
  }
  const { allowPrivateNetwork } = options;
  if (allowPrivateNetwork !== undefined && typeof allowPrivateNetwork !== "boolean") {
    throw new InvalidArgumentError({ argument: "allowPrivateNetwork", message: "expected a boolean" });
  }
  const allows =
    options.allowHosts === undefined ? undefined : compileHostAllowlist({ hosts: options.allowHosts });
  const named = allows === undefined ? undefined : compileExactHosts({ hosts: options.allowHosts ?? [] });
  if (options.needsApproval !== undefined && typeof options.needsApproval !== "boolean") {
    throw new InvalidArgumentError({ argument: "needsApproval", message: "expected a boolean" });
  }
  if (options.userAgent !== undefined && typeof options.userAgent !== "string") {
    throw new InvalidArgumentError({ argument: "userAgent", message: "expected a string" });
  }
  return {
    allows,
    maxBytes: count("maxBytes", options.maxBytes, 1024 * 1024, 1),
    timeoutMs: count("timeoutMs", options.timeoutMs, 10_000, 1),
    maxRedirects: count("maxRedirects", options.maxRedirects, 3, 0),
    mayBePrivate: allowPrivateNetwork === true ? () => true : (named ?? (() => false)),
    lookup: options.lookup,
    fetch: options.fetch,
    userAgent: options.userAgent ?? "agentloop-http_get",
  };
}

/** Parses and checks a URL (the requested one or a redirect target); throws {@link HttpGetError} if refused. */
function checkUrl(config: Config, raw: string, base?: URL): URL {
  let url: URL;
  try {
    url = new URL(raw, base);
  } catch (error) {
    const where = base === undefined ? "" : ` (redirect from ${base.href})`;
    throw new HttpGetError({ url: raw, message: `Invalid URL ${JSON.stringify(raw)}${where}`, cause: error });
  }
  const refuse = (reason: string): HttpGetError => {
    const message =
      base === undefined
        ? `Refused ${url.href}: ${reason}`
        : `Refused the redirect from ${base.href} to ${url.href}: ${reason}`;
    return new HttpGetError({ url: url.href, message });
  };
  if (url.protocol !== "http:" && url.protocol !== "https:") {
    throw refuse(`only http and https URLs can be fetched, not ${url.protocol}`);
  }
  if (config.allows !== undefined && !config.allows(url.hostname)) {
    throw refuse(`the host ${JSON.stringify(url.hostname)} is not on the allowlist`);
  }
  const literal = config.mayBePrivate(url.hostname) ? undefined : checkAddressLiteral(url.hostname);
  if (literal !== undefined) throw refuse(privateReason(literal));
  return url;
}

function privateReason(error: NonPublicAddressError): string {
  return `${error.message}; private, loopback and link-local addresses are refused (opt in with allowPrivateNetwork, or name the host in allowHosts)`;
}

/** Sends one hop: through the user's fetch, or node:http with a lookup that refuses non-public addresses. */
function send(config: Config, url: URL, signal: AbortSignal): Promise<HopResponse> {
  const headers = { "user-agent": config.userAgent, accept: ACCEPT };
  if (config.fetch !== undefined) {
    return config.fetch(url.href, { method: "GET", redirect: "manual", signal, headers });
  }
  const resolver = config.lookup ?? systemLookup;
  const lookup = config.mayBePrivate(url.hostname) ? resolver : guardedLookup(resolver);
  return requestOnce({ url, headers, signal, lookup });
}

function describeCause(error: unknown): string {
  const cause = (error as { cause?: unknown } | null)?.cause;
  const inner = cause instanceof Error ? cause : error instanceof Error ? error : undefined;
  if (inner === undefined) return String(error);
  const code = (inner as { code?: unknown }).code;
  return typeof code === "string" && !inner.message.includes(code)
    ? `${code}: ${inner.message}`
    : inner.message;
}

async function get(config: Config, requested: string, signal: AbortSignal): Promise<string> {
  let url = checkUrl(config, requested);
  let from: URL | undefined;
  const controller = new AbortController();
  let timedOut = false;
  const timer = setTimeout(() => {
    timedOut = true;
    controller.abort();
  }, config.timeoutMs);
  const onAbort = (): void => controller.abort(signal.reason);
  signal.addEventListener("abort", onAbort, { once: true });
  try {
    if (signal.aborted) throw new AbortError({ cause: signal.reason });
    for (let redirects = 0; ; redirects++) {
      const response = await send(config, url, controller.signal);
      const location = response.headers.get("location");
      if (REDIRECTS.has(response.status) && location !== null) {
        await response.body?.cancel().catch(() => {});
        if (redirects >= config.maxRedirects) {
          throw new HttpGetError({
            url: url.href,
            message: `Too many redirects: ${requested} redirected more than ${config.maxRedirects} times`,
          });
        }
        from = url;
        url = checkUrl(config, location, url);
        continue;
      }
      const body = await readLimitedBody({ body: response.body, maxBytes: config.maxBytes });
      const text = formatHttpBody({ contentType: response.headers.get("content-type"), ...body });
      const statusText = response.statusText || STATUS_CODES[response.status] || "";
      return `Status ${response.status}${statusText ? ` ${statusText}` : ""}\nURL: ${url.href}\n\n${text}`;
    }
  } catch (error) {
    if (HttpGetError.isInstance(error) || AbortError.isInstance(error)) throw error;
    if (NonPublicAddressError.isInstance(error)) {
      const reason = privateReason(error);
      throw new HttpGetError({
        url: url.href,
        message:
          from === undefined
            ? `Refused ${url.href}: ${reason}`
            : `Refused the redirect from ${from.href} to ${url.href}: ${reason}`,
      });
    }
    if (signal.aborted) throw new AbortError({ cause: signal.reason });
    if (timedOut) {
      throw new HttpGetError({
        url: url.href,
        message: `Request to ${url.href} timed out after ${config.timeoutMs} ms`,
      });
    }
    throw new HttpGetError({
      url: url.href,
      message: `Request to ${url.href} failed: ${describeCause(error)}`,
      cause: error,
    });
  } finally {
    clearTimeout(timer);
    signal.removeEventListener("abort", onAbort);
  }
}

/**
 * Creates the `http_get` tool: fetches an http(s) URL and returns `Status <code> <text>\nURL: <final url>\n\n<body>`.
 * HTML becomes readable text (title first, scripts and styles dropped), JSON is pretty-printed, other text is
 * returned as is, binary content as a placeholder. An HTTP error status is returned like any other, so the
 * model sees it; refused URLs, too many redirects, timeouts and network failures throw {@link HttpGetError}
 * (reported to the model as a tool error), an abort of the call throws `AbortError`.
 *
 * - Only `http:` and `https:`; with `allowHosts`, only those hosts, checked again on every redirect hop
 *   (redirects are followed by hand, at most `maxRedirects`).
 * - The body is streamed and cut after `maxBytes` bytes (the connection is closed, never more than one
 *   chunk past the limit is held); `timeoutMs` covers the whole call, redirects and body included.
 *
 * - Loopback, link-local (169.254.169.254 cloud metadata), private-network (10/8, 172.16/12, 192.168/16,
 *   fc00::/7), unspecified and every other non-public address are refused by default, in any spelling
 *   (`http://2130706433/`, `http://0x7f.1/`, `[::ffff:127.0.0.1]`) and behind any name that resolves to one:
 *   the check runs inside each connection's own `lookup`, on every address the name resolves to, on every
 *   hop, so DNS rebinding between a check and the connect is impossible. Opt in with `allowPrivateNetwork`,
 *   or for one host by naming it exactly in `allowHosts`. With a custom `fetch`, only IP literals are checked.
 */
export function httpGetTool(options: HttpGetToolOptions = {}): Tool<HttpGetArgs, string> {
  const config = configOf(options);
  return tool<HttpGetArgs, string>({
    name: "http_get",
    description:
      "Fetches a web page or API with an HTTP GET and returns the status and the body as text (HTML is " +
      `converted to plain text, JSON is pretty-printed; at most ${config.maxBytes} bytes are read).` +
      (options.allowHosts === undefined
        ? ""
        : ` Only these hosts can be fetched: ${options.allowHosts.join(", ")}.`),
    parameters: {
      type: "object",
      properties: {
        url: {
          type: "string",
          minLength: 1,
          maxLength: MAX_URL_LENGTH,
          description: "The absolute http or https URL, e.g. https://example.com/page",
        },
      },
      required: ["url"],
      additionalProperties: false,
    },
    idempotent: true,
    needsApproval: options.needsApproval === true,
    // The tool enforces its own time limit; give the executor's timer a little more so ours reports first.
    timeoutMs: config.timeoutMs + 1000,
    execute: ({ url }, ctx) => get(config, url, ctx.signal),
  });
}
