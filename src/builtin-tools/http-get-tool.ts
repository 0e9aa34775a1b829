import { STATUS_CODES } from "node:http";
import { AbortError } from "../errors/abort-error.js";
import { InvalidArgumentError } from "../errors/invalid-argument-error.js";
import { type Tool, tool } from "../tools/tool.js";
import { formatHttpBody } from "./format-http-body.js";
import { compileHostAllowlist, type HostCheck } from "./host-allowlist.js";
import { HttpGetError } from "./http-get-error.js";
import { readLimitedBody } from "./read-limited-body.js";

/** Options of {@link httpGetTool}. */
export interface HttpGetToolOptions {
  /** Hosts that may be fetched (also every redirect target): exact names or `"*.example.com"`. Default: any. */
  allowHosts?: readonly string[];
  /** At most this many bytes of the body are read; the rest is cut with a note. Default 1 MiB. */
  maxBytes?: number;
  /** The whole request (redirects and body included) is aborted after this many ms. Default 10 000. */
  timeoutMs?: number;
  /** At most this many redirects are followed. Default 3. */
  maxRedirects?: number;
  /** The fetch implementation. Default the global `fetch`. */
  fetch?: typeof globalThis.fetch;
  /** The `user-agent` header. Default `"agentloop-http_get"`. */
  userAgent?: string;
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
  maxBytes: number;
  timeoutMs: number;
  maxRedirects: number;
  fetch: typeof globalThis.fetch;
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
  const fetchImpl = options.fetch ?? globalThis.fetch;
  if (typeof fetchImpl !== "function") {
    throw new InvalidArgumentError({ argument: "fetch", message: "expected a fetch function" });
  }
  if (options.userAgent !== undefined && typeof options.userAgent !== "string") {
    throw new InvalidArgumentError({ argument: "userAgent", message: "expected a string" });
  }
  return {
    allows:
      options.allowHosts === undefined ? undefined : compileHostAllowlist({ hosts: options.allowHosts }),
    maxBytes: count("maxBytes", options.maxBytes, 1024 * 1024, 1),
    timeoutMs: count("timeoutMs", options.timeoutMs, 10_000, 1),
    maxRedirects: count("maxRedirects", options.maxRedirects, 3, 0),
    fetch: fetchImpl,
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
  return url;
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
      const response = await config.fetch(url.href, {
        method: "GET",
        redirect: "manual",
        signal: controller.signal,
        headers: { "user-agent": config.userAgent, accept: ACCEPT },
      });
      const location = response.headers.get("location");
      if (REDIRECTS.has(response.status) && location !== null) {
        await response.body?.cancel().catch(() => {});
        if (redirects >= config.maxRedirects) {
          throw new HttpGetError({
            url: url.href,
            message: `Too many redirects: ${requested} redirected more than ${config.maxRedirects} times`,
          });
        }
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
 * Residual risk: the allowlist is checked on host names, not addresses: without one (or with a name that
 * resolves to a private address) the tool can reach internal services such as `localhost` or cloud metadata
 * endpoints. Give an allowlist whenever the model's input is not trusted.
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
    // The tool enforces its own time limit; give the executor's timer a little more so ours reports first.
    timeoutMs: config.timeoutMs + 1000,
    execute: ({ url }, ctx) => get(config, url, ctx.signal),
  });
}
