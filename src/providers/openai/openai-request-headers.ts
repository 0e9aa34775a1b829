import { ModelCallError } from "../../errors/model-call-error.js";

/**
 * The headers of an OpenAI request (Chat Completions and Responses alike): JSON in, JSON or SSE out, the bearer
 * key when there is one, then the user's headers. Without a key, a request to OpenAI's own API (`needsKey`)
 * fails at once with a non-retryable `ModelCallError` naming OPENAI_API_KEY; compatible local servers need none.
 */
export function openAIRequestHeaders({
  apiKey,
  headers,
  stream,
  needsKey,
  url,
}: {
  apiKey: string | undefined;
  headers: Readonly<Record<string, string>>;
  stream: boolean;
  needsKey: boolean;
  url: string;
}): Record<string, string> {
  const result: Record<string, string> = {
    "content-type": "application/json",
    accept: stream ? "text/event-stream" : "application/json",
  };
  if (apiKey !== undefined && apiKey !== "") {
    result.authorization = `Bearer ${apiKey}`;
  } else if (needsKey && headers.authorization === undefined) {
    throw new ModelCallError({
      message:
        "No OpenAI API key: set the OPENAI_API_KEY environment variable or pass { apiKey } to createOpenAI() " +
        `(requests to ${url} need one)`,
      isRetryable: false,
      code: "missing_api_key",
      url,
    });
  }
  return Object.assign(result, headers);
}
