import type { RecordedRequest } from "../../openai/test-utils/fixture-server.js";
import { type BedrockProviderOptions, createBedrock } from "../create-bedrock.js";
import { sigV4Problem } from "./verify-sigv4.js";

/** The credentials test models sign with (the test servers check the signatures with them). */
export const TEST_CREDENTIALS = {
  accessKeyId: "AKIDBEDROCKTEST",
  secretAccessKey: "bedrock-test-secret-key",
};

/** The model id of the tests: an inference profile id with a `:` (URL-encoded into the path). */
export const TEST_MODEL_ID = "us.anthropic.claude-sonnet-4-5-20250929-v1:0";

/** A Bedrock model talking to a local server, signing with {@link TEST_CREDENTIALS}, fast retries. */
export function testBedrockModel(baseURL: string, options: BedrockProviderOptions = {}) {
  return createBedrock({
    baseURL,
    region: "us-east-1",
    credentials: TEST_CREDENTIALS,
    retry: { baseDelayMs: 1 },
    ...options,
  })(TEST_MODEL_ID);
}

/** Why a request the local server received is not validly signed (undefined when it is). */
export function signatureProblem(request: RecordedRequest | undefined): string | undefined {
  if (request === undefined) return "no request";
  return sigV4Problem(
    { method: request.method, url: request.url, headers: request.headers, body: request.rawBody },
    TEST_CREDENTIALS,
  );
}
