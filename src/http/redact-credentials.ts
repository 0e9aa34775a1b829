/** What replaces a credential found in an error response. */
export const REDACTED_CREDENTIAL = "[REDACTED:credential]";

/** Header names whose values are credentials: `authorization`, `x-api-key`, `api-key`, `x-auth-token`, ... */
const CREDENTIAL_HEADER = /auth|api[_-]?key|token|secret|cookie/i;

/** Shorter values are not searched for (they would replace ordinary words). */
const MIN_CREDENTIAL_LENGTH = 8;

/** Options of {@link redactCredentials}. */
export interface RedactCredentialsOptions {
  /** The text to clean: an error response body, or a message built from it. */
  text: string;
  /** The request's headers; the values of credential headers (and the token after `Bearer `) are removed. */
  headers: Readonly<Record<string, string>>;
}

/**
 * Removes the request's own credentials (API keys, bearer tokens) from `text`, so an error body that echoes the
 * key (e.g. "Incorrect API key provided: sk-...") does not carry it into error messages, events, traces or logs.
 * Exact values are replaced (whatever their format) with {@link REDACTED_CREDENTIAL}; only the error path calls
 * it, so it costs nothing on successful requests.
 */
export function redactCredentials({ text, headers }: RedactCredentialsOptions): string {
  const secrets = new Set<string>();
  for (const [name, value] of Object.entries(headers)) {
    if (typeof value !== "string" || !CREDENTIAL_HEADER.test(name)) continue;
    secrets.add(value.trim());
    const scheme = /^[A-Za-z-]{1,20}\s+(?<token>\S.*)$/.exec(value.trim());
    if (scheme?.groups?.token !== undefined) secrets.add(scheme.groups.token);
  }
  let out = text;
  // Longest first, so a whole "Bearer <key>" goes before the key inside it.
  for (const secret of [...secrets].sort((a, b) => b.length - a.length)) {
    if (secret.length >= MIN_CREDENTIAL_LENGTH) out = out.replaceAll(secret, REDACTED_CREDENTIAL);
  }
  return out;
}
