import { ModelCallError } from "../errors/model-call-error.js";
import { base64 } from "../util/base64.js";

/** What replaces a credential found in an error response. */
export const REDACTED_CREDENTIAL = "[REDACTED:credential]";

/** Header names whose values are credentials: `authorization`, `x-api-key`, `api-key`, `x-auth-token`, ... */
const CREDENTIAL_HEADER = /auth|api[_-]?key|token|secret|cookie/i;

/** Shorter values are not searched for (they would replace ordinary words). */
const MIN_CREDENTIAL_LENGTH = 8;

/** The credentials of one request: its headers, and its URL (whose `user:password@` part is a credential). */
export interface RequestCredentials {
  /** The request's headers; the values of credential headers (and the token after `Bearer `) are removed. */
  headers: Readonly<Record<string, string>>;
  /** The URL called; its userinfo is removed wherever it appears (also URL-encoded or decoded). */
  url?: string | undefined;
}

/** Options of {@link redactCredentials}. */
export interface RedactCredentialsOptions extends RequestCredentials {
  /** The text to clean: an error response body, or a message built from it. */
  text: string;
}

function safeDecode(text: string): string {
  try {
    return decodeURIComponent(text);
  } catch {
    return text;
  }
}

/** The userinfo forms to strip (`user:pass@` as written, encoded and decoded) and the secrets inside them. */
function urlCredentials(url: string | undefined, secrets: Set<string>): string[] {
  if (url === undefined || !url.includes("@")) return [];
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return [];
  }
  const { username, password } = parsed;
  if (username === "" && password === "") return [];
  const userinfo = new Set<string>();
  for (const [user, pass] of [
    [username, password],
    [safeDecode(username), safeDecode(password)],
  ] as const) {
    userinfo.add(pass === "" ? `${user}@` : `${user}:${pass}@`);
    for (const part of [user, pass]) if (part !== "") secrets.add(part);
  }
  // The transport sends them as `Authorization: Basic base64(user:password)`, which a server may echo.
  secrets.add(base64(`${safeDecode(username)}:${safeDecode(password)}`));
  // As typed in the URL (before the URL parser normalised its encoding).
  const raw = /^[a-z][a-z0-9+.-]*:\/\/([^/?#]*)@/i.exec(url)?.[1];
  if (raw !== undefined) userinfo.add(`${raw}@`);
  return [...userinfo];
}

/** Builds the cleaner of one request's credentials, or undefined when it has none. */
function credentialCleaner({ headers, url }: RequestCredentials): ((text: string) => string) | undefined {
  const secrets = new Set<string>();
  for (const [name, value] of Object.entries(headers)) {
    if (typeof value !== "string" || !CREDENTIAL_HEADER.test(name)) continue;
    secrets.add(value.trim());
    const scheme = /^[A-Za-z-]{1,20}\s+(?<token>\S.*)$/.exec(value.trim());
    if (scheme?.groups?.token !== undefined) secrets.add(scheme.groups.token);
  }
  const userinfo = urlCredentials(url, secrets);
  for (const secret of [...secrets]) {
    const encoded = encodeURIComponent(secret);
    if (encoded !== secret) secrets.add(encoded);
  }
  // Longest first, so a whole "Bearer <key>" goes before the key inside it.
  const ordered = [...secrets]
    .filter((s) => s.length >= MIN_CREDENTIAL_LENGTH)
    .sort((a, b) => b.length - a.length);
  if (ordered.length === 0 && userinfo.length === 0) return undefined;
  return (text) => {
    let out = text;
    for (const info of userinfo) out = out.replaceAll(`//${info}`, "//");
    for (const secret of ordered) out = out.replaceAll(secret, REDACTED_CREDENTIAL);
    return out;
  };
}

/**
 * Removes the request's own credentials (API keys, bearer tokens, URL `user:password@`) from `text`, so an
 * error body that echoes the key (e.g. "Incorrect API key provided: sk-...") does not carry it into error
 * messages, events, traces or logs. Exact values are replaced (whatever their format, also URL-encoded) with
 * {@link REDACTED_CREDENTIAL}; URLs lose their userinfo. Only error paths call it, so it costs nothing on
 * successful requests.
 */
export function redactCredentials({ text, headers, url }: RedactCredentialsOptions): string {
  return credentialCleaner({ headers, url })?.(text) ?? text;
}

/** Cleans `message` and `stack` of an Error in place (they are own, writable properties). */
function cleanErrorText(error: Error, clean: (text: string) => string): void {
  error.message = clean(error.message);
  if (typeof error.stack === "string") error.stack = clean(error.stack);
}

/**
 * The one cleaner of provider errors: removes the request's credentials from a {@link ModelCallError}'s
 * message, stack, body and url, and from the message of its `cause` chain, in place (class and fields kept),
 * and returns it. Anything else is returned unchanged. Every error a provider call throws or reports as a
 * retry passes through it (see `sendModelRequest`, `openModelStream` and `HttpModel`).
 */
export function redactCallError<T>(error: T, credentials: RequestCredentials): T {
  if (!ModelCallError.isInstance(error)) return error;
  const clean = credentialCleaner(credentials);
  if (clean === undefined) return error;
  cleanErrorText(error, clean);
  const fields = error as { -readonly [K in "body" | "url"]: string | undefined };
  if (fields.body !== undefined) fields.body = clean(fields.body);
  if (fields.url !== undefined) fields.url = clean(fields.url);
  let cause: unknown = error.cause;
  for (let depth = 0; cause instanceof Error && depth < 5; depth++) {
    cleanErrorText(cause, clean);
    cause = cause.cause;
  }
  return error;
}
