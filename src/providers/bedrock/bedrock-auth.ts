import { ModelCallError } from "../../errors/model-call-error.js";
import type { HttpClient, HttpRequest, HttpResponse } from "../../http/http-client.js";
import { redactCredentials } from "../../http/redact-credentials.js";
import { readEnv } from "../../util/read-env.js";

/** AWS credentials (as the AWS SDK's credential providers return them; extra fields are ignored). */
export interface BedrockCredentials {
  accessKeyId: string;
  secretAccessKey: string;
  /** The session token of temporary credentials (STS, SSO, an IAM role), sent as `x-amz-security-token`. */
  sessionToken?: string | undefined;
}

/** Fixed credentials, or a function that returns them (called before every request attempt). */
export type BedrockCredentialsSource =
  | BedrockCredentials
  | (() => Promise<BedrockCredentials> | BedrockCredentials);

/** How requests are authorised: the resolved settings of `createBedrock`. */
export interface BedrockAuthConfig {
  /** A Bedrock API key given as an option (sent as `Authorization: Bearer`). */
  apiKey?: string | undefined;
  /** Credentials given as an option (SigV4). */
  credentials?: BedrockCredentialsSource | undefined;
  /** The signing region at call time (undefined: from the endpoint's host, else us-east-1). */
  region: () => string | undefined;
  /** True when the endpoint is AWS's own (`*.amazonaws.com`): a request without credentials is refused. */
  needsCredentials: boolean;
  /** Extra headers of the provider: a given `authorization` header turns signing off (a proxy's own auth). */
  headers: Readonly<Record<string, string>>;
}

/** aws4fetch, loaded on the first signed request (importing agentloop does not load it). */
let signerModule: Promise<typeof import("aws4fetch")> | undefined;

/** The SigV4 service name of Bedrock Runtime. */
const SERVICE = "bedrock";

/** What authorises one request. */
type Auth = { bearer: string } | { credentials: BedrockCredentials } | undefined;

function isPlainObject(value: unknown): value is Record<string, unknown> {
  return value !== null && typeof value === "object" && !Array.isArray(value);
}

function credentialsError(message: string, url: string, cause?: unknown): ModelCallError {
  return new ModelCallError({ message, isRetryable: false, code: "missing_credentials", url, cause });
}

function checkCredentials(value: unknown, url: string): BedrockCredentials {
  const ok =
    isPlainObject(value) &&
    typeof value.accessKeyId === "string" &&
    value.accessKeyId !== "" &&
    typeof value.secretAccessKey === "string" &&
    value.secretAccessKey !== "" &&
    (value.sessionToken === undefined || typeof value.sessionToken === "string");
  if (!ok) {
    throw credentialsError(
      "The Bedrock credentials are invalid: expected { accessKeyId, secretAccessKey, sessionToken? } strings",
      url,
    );
  }
  return value as unknown as BedrockCredentials;
}

function credentialsFromEnv(): BedrockCredentials | undefined {
  const accessKeyId = readEnv("AWS_ACCESS_KEY_ID");
  const secretAccessKey = readEnv("AWS_SECRET_ACCESS_KEY");
  if (!accessKeyId || !secretAccessKey) return undefined;
  const sessionToken = readEnv("AWS_SESSION_TOKEN");
  return { accessKeyId, secretAccessKey, ...(sessionToken && { sessionToken }) };
}

/**
 * What authorises a request, in this order: the `apiKey` option (Bearer), the `credentials` option (SigV4;
 * a function is called now), `AWS_BEARER_TOKEN_BEDROCK` (a Bedrock API key), then `AWS_ACCESS_KEY_ID` /
 * `AWS_SECRET_ACCESS_KEY` / `AWS_SESSION_TOKEN` — all read at call time. Undefined: none.
 */
async function resolveAuth(config: BedrockAuthConfig, url: string): Promise<Auth> {
  if (config.apiKey !== undefined && config.apiKey !== "") return { bearer: config.apiKey };
  const source = config.credentials;
  if (source !== undefined) {
    let value: unknown;
    try {
      value = typeof source === "function" ? await source() : source;
    } catch (error) {
      const reason = error instanceof Error ? error.message : String(error);
      throw credentialsError(`The Bedrock credentials function failed: ${reason}`, url, error);
    }
    return { credentials: checkCredentials(value, url) };
  }
  const token = readEnv("AWS_BEARER_TOKEN_BEDROCK");
  if (token) return { bearer: token };
  const fromEnv = credentialsFromEnv();
  return fromEnv === undefined ? undefined : { credentials: fromEnv };
}

/** The region in a Bedrock Runtime host (`bedrock-runtime.eu-west-1.amazonaws.com`, FIPS and VPC forms). */
export function regionOfHost(host: string): string | undefined {
  return /(?:^|\.)bedrock-runtime(?:-fips)?\.([a-z0-9-]+)\.(?:vpce\.)?amazonaws\.com(?:\.cn)?$/.exec(
    host,
  )?.[1];
}

/** Signs `request` with SigV4: the exact URL, headers and body the transport sends. Returns all headers. */
export async function signBedrockRequest({
  request,
  credentials,
  region,
  cache,
}: {
  request: HttpRequest;
  credentials: BedrockCredentials;
  region: string;
  /** aws4fetch's cache of signing keys (one per secret, day, region and service). */
  cache?: Map<string, ArrayBuffer>;
}): Promise<Record<string, string>> {
  signerModule ??= import("aws4fetch");
  const { AwsV4Signer } = await signerModule;
  const signer = new AwsV4Signer({
    method: request.method,
    url: request.url,
    headers: request.headers,
    body: request.body ?? "",
    accessKeyId: credentials.accessKeyId,
    secretAccessKey: credentials.secretAccessKey,
    ...(credentials.sessionToken !== undefined && { sessionToken: credentials.sessionToken }),
    service: SERVICE,
    region,
    ...(cache !== undefined && { cache }),
  });
  const signed = await signer.sign();
  const headers: Record<string, string> = {};
  signed.headers.forEach((value, name) => {
    headers[name] = value;
  });
  return headers;
}

/** The response with its error body cleaned of the credentials this request sent. */
function cleanErrors(response: HttpResponse, headers: Record<string, string>, url: string): HttpResponse {
  if (response.status >= 200 && response.status < 300) return response;
  const text = response.text;
  return { ...response, text: async () => redactCredentials({ text: await text(), headers, url }) };
}

/**
 * Wraps a transport so that every request attempt is authorised just before it is sent: SigV4-signed (over
 * the exact URL, headers and body the transport sends, with a fresh `x-amz-date`, so a retry minutes later
 * is not refused as stale) or given the Bedrock API key as `Authorization: Bearer`. With no credentials, a
 * request to AWS's own endpoint fails with a non-retryable `ModelCallError` (code `missing_credentials`)
 * naming the variables to set; other endpoints (a local server, a proxy with its own auth, or a provider
 * `authorization` header) get the request unsigned. Error bodies are cleaned of the credentials sent
 * (a signature-mismatch message quotes the canonical request, session token included).
 */
export function createBedrockAuthClient({
  client,
  auth,
}: {
  client: HttpClient;
  auth: BedrockAuthConfig;
}): HttpClient {
  const cache = new Map<string, ArrayBuffer>();
  const proxyAuth = auth.headers.authorization !== undefined;
  return async (request) => {
    const shown = request.displayUrl ?? request.url;
    const resolved = proxyAuth ? undefined : await resolveAuth(auth, shown);
    let headers = request.headers;
    if (resolved !== undefined && "bearer" in resolved) {
      headers = { ...headers, authorization: `Bearer ${resolved.bearer}` };
    } else if (resolved !== undefined) {
      const region = auth.region() ?? regionOfHost(new URL(request.url).hostname) ?? "us-east-1";
      headers = await signBedrockRequest({ request, credentials: resolved.credentials, region, cache });
    } else if (auth.needsCredentials && !proxyAuth) {
      throw credentialsError(
        "No AWS credentials for Bedrock: set AWS_ACCESS_KEY_ID and AWS_SECRET_ACCESS_KEY (and AWS_SESSION_TOKEN " +
          "for temporary credentials), or AWS_BEARER_TOKEN_BEDROCK (a Bedrock API key), or pass { credentials } " +
          `or { apiKey } to createBedrock() (requests to ${shown} need them)`,
        shown,
      );
    }
    const response = await client({ ...request, headers });
    return headers === request.headers ? response : cleanErrors(response, headers, request.url);
  };
}
