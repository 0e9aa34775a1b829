import { createHash, createHmac } from "node:crypto";

/**
 * An independent SigV4 verifier for tests (node:crypto, written from AWS's description of the algorithm, not
 * from the signing library): it rebuilds the canonical request of a received request from the scope and the
 * signed header list its own `Authorization` names, and recomputes the signature with the secret key.
 */

/** A request as a server received it. */
export interface ReceivedRequest {
  method: string;
  /** The request-line target: path (as sent, percent-encoding kept) and query. */
  url: string;
  headers: Record<string, string | string[] | undefined>;
  body: string;
}

const sha256 = (text: string): string => createHash("sha256").update(text, "utf8").digest("hex");
const hmac = (key: Buffer | string, text: string): Buffer =>
  createHmac("sha256", key).update(text, "utf8").digest();

/** RFC 3986 encoding: `encodeURIComponent` plus `!'()*`. */
function encodeRfc3986(text: string): string {
  return encodeURIComponent(text).replace(
    /[!'()*]/g,
    (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`,
  );
}

function header(request: ReceivedRequest, name: string): string {
  const value = request.headers[name];
  return Array.isArray(value) ? value.join(",") : (value ?? "");
}

/**
 * The canonical request: method; the path with every segment encoded once more (services other than S3 sign
 * the path "double-encoded": `%3A` in the request line becomes `%253A`); the sorted query; the signed headers
 * (values trimmed, inner spaces collapsed); their names; and the body's SHA-256.
 */
export function canonicalRequest(request: ReceivedRequest, signedHeaders: readonly string[]): string {
  const [path = "/", query = ""] = request.url.split("?", 2);
  const canonicalPath = path.split("/").map(encodeRfc3986).join("/");
  const canonicalQuery = query
    .split("&")
    .filter((pair) => pair !== "")
    .map((pair) => pair.split("=", 2).map((part) => encodeRfc3986(decodeURIComponent(part ?? ""))))
    .map(([k = "", v = ""]) => `${k}=${v}`)
    .sort()
    .join("&");
  const headers = signedHeaders
    .map((name) => `${name}:${header(request, name).trim().replace(/\s+/g, " ")}\n`)
    .join("");
  return [
    request.method,
    canonicalPath,
    canonicalQuery,
    headers,
    signedHeaders.join(";"),
    sha256(request.body),
  ].join("\n");
}

/** The parts of an `Authorization: AWS4-HMAC-SHA256 …` header. */
export function parseAuthorization(value: string):
  | {
      accessKeyId: string;
      date: string;
      region: string;
      service: string;
      signedHeaders: string[];
      signature: string;
    }
  | undefined {
  const match =
    /^AWS4-HMAC-SHA256 Credential=([^/]+)\/(\d{8})\/([^/]+)\/([^/]+)\/aws4_request, SignedHeaders=([^,]+), Signature=([0-9a-f]{64})$/.exec(
      value,
    );
  if (match === null) return undefined;
  const [, accessKeyId = "", date = "", region = "", service = "", signed = "", signature = ""] = match;
  return { accessKeyId, date, region, service, signedHeaders: signed.split(";"), signature };
}

/** The signature a request should carry, for its own scope and signed headers. */
export function expectedSignature(request: ReceivedRequest, secretAccessKey: string): string | undefined {
  const auth = parseAuthorization(header(request, "authorization"));
  if (auth === undefined) return undefined;
  const datetime = header(request, "x-amz-date");
  const scope = `${auth.date}/${auth.region}/${auth.service}/aws4_request`;
  const stringToSign = [
    "AWS4-HMAC-SHA256",
    datetime,
    scope,
    sha256(canonicalRequest(request, auth.signedHeaders)),
  ].join("\n");
  const key = hmac(
    hmac(hmac(hmac(`AWS4${secretAccessKey}`, auth.date), auth.region), auth.service),
    "aws4_request",
  );
  return hmac(key, stringToSign).toString("hex");
}

/**
 * Why a received request's signature is not valid (undefined when it is): no or a malformed `Authorization`,
 * another access key, `host`/`x-amz-date` not signed, a date outside the scope's day, or a signature that
 * does not match the method, path, signed headers and exact body received.
 */
export function sigV4Problem(
  request: ReceivedRequest,
  credentials: { accessKeyId: string; secretAccessKey: string },
): string | undefined {
  const auth = parseAuthorization(header(request, "authorization"));
  if (auth === undefined) return `no SigV4 Authorization header (got "${header(request, "authorization")}")`;
  if (auth.accessKeyId !== credentials.accessKeyId) return `signed with access key ${auth.accessKeyId}`;
  for (const name of ["host", "x-amz-date"]) {
    if (!auth.signedHeaders.includes(name)) return `${name} is not signed`;
  }
  if (!header(request, "x-amz-date").startsWith(auth.date)) return "x-amz-date is not on the scope's day";
  const expected = expectedSignature(request, credentials.secretAccessKey);
  return expected === auth.signature ? undefined : `signature ${auth.signature} != expected ${expected}`;
}
