import { AwsV4Signer } from "aws4fetch";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { ModelCallError } from "../../errors/model-call-error.js";
import type { HttpClient, HttpRequest, HttpResponse } from "../../http/http-client.js";
import { REDACTED_CREDENTIAL } from "../../http/redact-credentials.js";
import { createBedrockAuthClient, regionOfHost, signBedrockRequest } from "./bedrock-auth.js";
import {
  SIGV4_CASES,
  SIGV4_CREDENTIALS,
  SIGV4_DATETIME,
  SIGV4_REGION,
  SIGV4_SERVICE,
} from "./test-utils/sigv4-test-vectors.js";
import { canonicalRequest, sigV4Problem } from "./test-utils/verify-sigv4.js";

const ENV = [
  "AWS_ACCESS_KEY_ID",
  "AWS_SECRET_ACCESS_KEY",
  "AWS_SESSION_TOKEN",
  "AWS_BEARER_TOKEN_BEDROCK",
  "AWS_REGION",
  "AWS_DEFAULT_REGION",
] as const;
let saved: Record<string, string | undefined>;
beforeEach(() => {
  saved = Object.fromEntries(ENV.map((name) => [name, process.env[name]]));
  for (const name of ENV) delete process.env[name];
});
afterEach(() => {
  for (const name of ENV) {
    if (saved[name] === undefined) delete process.env[name];
    else process.env[name] = saved[name];
  }
});

describe("SigV4: AWS's published test suite", () => {
  const cases = Object.entries(SIGV4_CASES).filter(([name]) => name !== "get-utf8");

  it.each(cases)("aws4fetch signs %s as AWS expects", async (_, c) => {
    const headers = Object.fromEntries(
      Object.entries(c.headers).filter(
        ([name]) => !["host", "x-amz-date", "x-amz-security-token"].includes(name),
      ),
    );
    const signer = new AwsV4Signer({
      method: c.method,
      url: `https://example.amazonaws.com${c.path}`,
      headers,
      body: c.body,
      ...SIGV4_CREDENTIALS,
      ...(c.headers["x-amz-security-token"] !== undefined && {
        sessionToken: c.headers["x-amz-security-token"],
      }),
      service: SIGV4_SERVICE,
      region: SIGV4_REGION,
      datetime: SIGV4_DATETIME,
      // The suite signs content-type too; Bedrock requests leave it unsigned (aws4fetch's default).
      allHeaders: true,
    });
    const signed = await signer.sign();
    expect(signed.headers.get("authorization")).toBe(c.authorization);
  });

  it.each(Object.entries(SIGV4_CASES))("the test verifier accepts %s and refuses it changed", (_, c) => {
    const request = {
      method: c.method,
      url: c.path,
      headers: { ...c.headers, authorization: c.authorization },
      body: c.body,
    };
    expect(sigV4Problem(request, SIGV4_CREDENTIALS)).toBeUndefined();
    expect(sigV4Problem({ ...request, body: `${c.body} ` }, SIGV4_CREDENTIALS)).toMatch(/signature/);
    expect(
      sigV4Problem({ ...request, method: c.method === "GET" ? "POST" : "GET" }, SIGV4_CREDENTIALS),
    ).toMatch(/signature/);
    expect(sigV4Problem(request, { ...SIGV4_CREDENTIALS, secretAccessKey: "other" })).toMatch(/signature/);
  });
});

describe("signBedrockRequest", () => {
  const credentials = { accessKeyId: "AKIDTEST", secretAccessKey: "secret-key-for-tests" };
  const modelPath = "/model/us.anthropic.claude-sonnet-4-5-20250929-v1%3A0/converse";

  it("signs the exact URL, headers and body; the path is signed double-encoded, as Bedrock checks it", async () => {
    const request: HttpRequest = {
      url: `https://bedrock-runtime.us-west-2.amazonaws.com${modelPath}`,
      method: "POST",
      headers: { "content-type": "application/json", accept: "application/json" },
      body: '{"messages":[{"role":"user","content":[{"text":"héllo"}]}]}',
    };
    const headers = await signBedrockRequest({ request, credentials, region: "us-west-2" });
    expect(headers["x-amz-date"]).toMatch(/^\d{8}T\d{6}Z$/);
    expect(headers.authorization).toMatch(
      /^AWS4-HMAC-SHA256 Credential=AKIDTEST\/\d{8}\/us-west-2\/bedrock\/aws4_request, SignedHeaders=accept;host;x-amz-date, Signature=[0-9a-f]{64}$/,
    );
    const received = {
      method: "POST",
      url: modelPath,
      headers: { ...headers, host: "bedrock-runtime.us-west-2.amazonaws.com" },
      body: request.body ?? "",
    };
    expect(canonicalRequest(received, ["host"]).split("\n")[1]).toBe(
      "/model/us.anthropic.claude-sonnet-4-5-20250929-v1%253A0/converse",
    );
    expect(sigV4Problem(received, credentials)).toBeUndefined();
    expect(sigV4Problem({ ...received, body: received.body.replace("é", "e") }, credentials)).toMatch(
      /signature/,
    );
  });

  it("sends and signs the session token of temporary credentials", async () => {
    const request: HttpRequest = {
      url: `https://h.test${modelPath}`,
      method: "POST",
      headers: {},
      body: "{}",
    };
    const headers = await signBedrockRequest({
      request,
      credentials: { ...credentials, sessionToken: "session-token-value" },
      region: "eu-west-1",
    });
    expect(headers["x-amz-security-token"]).toBe("session-token-value");
    expect(headers.authorization).toContain("SignedHeaders=host;x-amz-date;x-amz-security-token");
  });

  it("reads the region of Bedrock Runtime hosts", () => {
    expect(regionOfHost("bedrock-runtime.eu-central-1.amazonaws.com")).toBe("eu-central-1");
    expect(regionOfHost("bedrock-runtime-fips.us-east-1.amazonaws.com")).toBe("us-east-1");
    expect(regionOfHost("vpce-0abc.bedrock-runtime.ap-south-1.vpce.amazonaws.com")).toBe("ap-south-1");
    expect(regionOfHost("127.0.0.1")).toBeUndefined();
  });
});

describe("createBedrockAuthClient", () => {
  const okResponse = (status = 200, text = ""): HttpResponse => ({
    status,
    header: () => undefined,
    body: (async function* () {})(),
    text: async () => text,
    cancel: () => undefined,
  });

  function setUp(
    auth: Partial<Parameters<typeof createBedrockAuthClient>[0]["auth"]>,
    response: HttpResponse = okResponse(),
  ) {
    const sent: HttpRequest[] = [];
    const inner: HttpClient = async (request) => {
      sent.push(request);
      return response;
    };
    const client = createBedrockAuthClient({
      client: inner,
      auth: { region: () => "us-east-1", needsCredentials: true, headers: {}, ...auth },
    });
    const request: HttpRequest = {
      url: "https://bedrock-runtime.us-east-1.amazonaws.com/model/m/converse",
      method: "POST",
      headers: { "content-type": "application/json" },
      body: "{}",
    };
    return { sent, send: () => client(request) };
  }

  it("uses, in order: apiKey, credentials, AWS_BEARER_TOKEN_BEDROCK, the access-key variables (read per request)", async () => {
    const { sent, send } = setUp({});
    process.env.AWS_ACCESS_KEY_ID = "AKIDENV";
    process.env.AWS_SECRET_ACCESS_KEY = "env-secret";
    process.env.AWS_SESSION_TOKEN = "env-session";
    await send();
    expect(sent[0]?.headers.authorization).toMatch(/^AWS4-HMAC-SHA256 Credential=AKIDENV\//);
    expect(sent[0]?.headers["x-amz-security-token"]).toBe("env-session");
    process.env.AWS_BEARER_TOKEN_BEDROCK = "bedrock-api-key-env";
    await send();
    expect(sent[1]?.headers.authorization).toBe("Bearer bedrock-api-key-env");

    const withCredentials = setUp({ credentials: { accessKeyId: "AKIDOPT", secretAccessKey: "opt-secret" } });
    await withCredentials.send();
    expect(withCredentials.sent[0]?.headers.authorization).toMatch(/Credential=AKIDOPT\//);

    const withKey = setUp({
      apiKey: "bedrock-api-key-opt",
      credentials: { accessKeyId: "A", secretAccessKey: "B" },
    });
    await withKey.send();
    expect(withKey.sent[0]?.headers.authorization).toBe("Bearer bedrock-api-key-opt");
  });

  it("calls a credentials function before every attempt (fresh credentials and a fresh x-amz-date)", async () => {
    const source = vi.fn(async () => ({
      accessKeyId: `AKID${source.mock.calls.length}`,
      secretAccessKey: "s",
    }));
    const { sent, send } = setUp({ credentials: source });
    await send();
    await send();
    expect(source).toHaveBeenCalledTimes(2);
    expect(sent.map((r) => /Credential=(\w+)\//.exec(r.headers.authorization ?? "")?.[1])).toEqual([
      "AKID1",
      "AKID2",
    ]);
    expect(sent.every((r) => r.headers["x-amz-date"] !== undefined)).toBe(true);
  });

  it("fails clearly, without a request, when AWS's endpoint would get no credentials", async () => {
    const { sent, send } = setUp({});
    const error = await send().catch((e: unknown) => e);
    expect(ModelCallError.isInstance(error)).toBe(true);
    expect(error).toMatchObject({ isRetryable: false, code: "missing_credentials" });
    expect((error as Error).message).toMatch(/AWS_ACCESS_KEY_ID.*AWS_BEARER_TOKEN_BEDROCK/);
    expect(sent).toEqual([]);

    const failing = setUp({ credentials: () => Promise.reject(new Error("SSO session expired")) });
    await expect(failing.send()).rejects.toThrow(/credentials function failed: SSO session expired/);
    const invalid = setUp({ credentials: async () => ({ accessKeyId: "", secretAccessKey: "x" }) });
    await expect(invalid.send()).rejects.toThrow(/credentials are invalid/);
  });

  it("sends unsigned requests to other endpoints without credentials, and leaves a proxy's authorization alone", async () => {
    const local = setUp({ needsCredentials: false });
    await local.send();
    expect(local.sent[0]?.headers).toEqual({ "content-type": "application/json" });

    process.env.AWS_ACCESS_KEY_ID = "AKIDENV";
    process.env.AWS_SECRET_ACCESS_KEY = "env-secret";
    const proxy = setUp({ headers: { authorization: "Basic cHJveHk6cGFzcw==" } });
    await proxy.send();
    expect(proxy.sent[0]?.headers.authorization).toBeUndefined(); // the provider's own header is added later
  });

  it("removes the credentials it sent from error bodies (a signature mismatch quotes the session token)", async () => {
    const body = '{"message":"The Canonical String ... x-amz-security-token:very-secret-session-token ..."}';
    const { send } = setUp(
      {
        credentials: {
          accessKeyId: "AKIDX",
          secretAccessKey: "s",
          sessionToken: "very-secret-session-token",
        },
      },
      okResponse(403, body),
    );
    const response = await send();
    const text = await response.text();
    expect(text).not.toContain("very-secret-session-token");
    expect(text).toContain(REDACTED_CREDENTIAL);
  });
});
