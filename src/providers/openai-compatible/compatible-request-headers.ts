import { ModelCallError } from "../../errors/model-call-error.js";
import { readEnv } from "../../util/read-env.js";
import type { OpenAIRequestHeadersArgs } from "./openai-compatible-quirks.js";

/** Options of {@link compatibleRequestHeaders}. */
export interface CompatibleRequestHeadersOptions {
  /** The service's name in the missing-key message ("DeepSeek"). */
  label: string;
  /** The key variables named in the missing-key message. */
  keyVariables: readonly string[];
  /** How the key is sent: `Authorization: Bearer <key>` (default) or Azure's `api-key: <key>`. */
  auth: "bearer" | "api-key";
  /** Whether a call without a key (or an auth header of the user's) fails before it is sent. */
  keyRequired: boolean;
  /** Default headers read from environment variables at call time (header → variable), when set. */
  headerVariables?: Readonly<Record<string, string>> | undefined;
  /** A bearer token (Azure's Microsoft Entra ID), read at call time; when set it is sent instead of the key. */
  bearerToken?: (() => string | undefined) | undefined;
}

/**
 * The `requestHeaders` quirk of a preset: JSON in, JSON or SSE out, the preset's default headers from the
 * environment (OpenRouter's `HTTP-Referer` / `X-Title`), the credential in the service's form, then the user's
 * headers (which win). Without a credential, a service that needs one fails at once with a non-retryable
 * `ModelCallError` (code `missing_api_key`) naming the variable to set.
 */
export function compatibleRequestHeaders(
  options: CompatibleRequestHeadersOptions,
): (args: OpenAIRequestHeadersArgs) => Record<string, string> {
  const { label, keyVariables, auth, keyRequired, headerVariables = {}, bearerToken } = options;
  const defaults = Object.entries(headerVariables);
  return ({ apiKey, headers, stream, url }) => {
    const result: Record<string, string> = {
      "content-type": "application/json",
      accept: stream ? "text/event-stream" : "application/json",
    };
    for (const [header, variable] of defaults) {
      const value = readEnv(variable);
      if (value !== undefined && value !== "") result[header] = value;
    }
    const token = bearerToken?.();
    if (token !== undefined && token !== "") {
      result.authorization = `Bearer ${token}`;
    } else if (apiKey !== undefined && apiKey !== "") {
      if (auth === "api-key") result["api-key"] = apiKey;
      else result.authorization = `Bearer ${apiKey}`;
    } else if (keyRequired && headers.authorization === undefined && headers["api-key"] === undefined) {
      const variable = keyVariables[0] ?? "the API key";
      throw new ModelCallError({
        message:
          `No ${label} API key: set the ${variable} environment variable or pass { apiKey } to ` +
          `createOpenAICompatible() (requests to ${url} need one)`,
        isRetryable: false,
        code: "missing_api_key",
        url,
      });
    }
    return Object.assign(result, headers);
  };
}
