/**
 * Cases of AWS's Signature Version 4 test suite, as published in smithy-lang/smithy-typescript @
 * 6815d3e96f3abc32e238bf6d806523aab81c6a8e : `packages/signature-v4/src/suite.fixture.ts` (Apache-2.0, licence
 * in `test/fixtures/recorded/LICENSES/`; the suite is AWS's own, docs.aws.amazon.com/general/latest/gr/
 * signature-v4-test-suite.html). Credentials AKIDEXAMPLE, region us-east-1, service "service", signed at
 * 2015-08-30T12:36:00Z. `path` is the path as written in the request line (not URL-encoded).
 */
export const SIGV4_CREDENTIALS = {
  accessKeyId: "AKIDEXAMPLE",
  secretAccessKey: "wJalrXUtnFEMI/K7MDENG+bPxRfiCYEXAMPLEKEY",
};
export const SIGV4_REGION = "us-east-1";
export const SIGV4_SERVICE = "service";
export const SIGV4_DATETIME = "20150830T123600Z";

/** One case: the request and the `Authorization` header AWS expects for it. */
export interface SigV4Case {
  method: "GET" | "POST";
  path: string;
  headers: Record<string, string>;
  body: string;
  authorization: string;
}

const prefix = "AWS4-HMAC-SHA256 Credential=AKIDEXAMPLE/20150830/us-east-1/service/aws4_request, ";
const host = "example.amazonaws.com";
const date = SIGV4_DATETIME;

export const SIGV4_CASES: Record<string, SigV4Case> = {
  "get-vanilla": {
    method: "GET",
    path: "/",
    headers: { host, "x-amz-date": date },
    body: "",
    authorization: `${prefix}SignedHeaders=host;x-amz-date, Signature=5fa00fa31553b73ebf1942676e86291e8372ff2a2260956d9b8aae1d763fbf31`,
  },
  "post-vanilla": {
    method: "POST",
    path: "/",
    headers: { host, "x-amz-date": date },
    body: "",
    authorization: `${prefix}SignedHeaders=host;x-amz-date, Signature=5da7c1a2acd57cee7505fc6676e4e544621c30862966e37dddb68e92efbe5d6b`,
  },
  "get-utf8": {
    method: "GET",
    path: "/ሴ",
    headers: { host, "x-amz-date": date },
    body: "",
    authorization: `${prefix}SignedHeaders=host;x-amz-date, Signature=8318018e0b0f223aa2bbf98705b62bb787dc9c0e678f255a891fd03141be5d85`,
  },
  "post-x-www-form-urlencoded": {
    method: "POST",
    path: "/",
    headers: { "content-type": "application/x-www-form-urlencoded", host, "x-amz-date": date },
    body: "Param1=value1",
    authorization: `${prefix}SignedHeaders=content-type;host;x-amz-date, Signature=ff11897932ad3f4e8b18135d722051e5ac45fc38421b1da7b9d196a0fe09473a`,
  },
  "post-sts-header-before": {
    method: "POST",
    path: "/",
    headers: {
      host,
      "x-amz-date": date,
      "x-amz-security-token":
        "AQoDYXdzEPT//////////wEXAMPLEtc764bNrC9SAPBSM22wDOk4x4HIZ8j4FZTwdQWLWsKWHGBuFqwAeMicRXmxfpSPfIeoIYRqTflfKD8YUuwthAx7mSEI/qkPpKPi/kMcGdQrmGdeehM4IC1NtBmUpp2wUE8phUZampKsburEDy0KPkyQDYwT7WZ0wq5VSXDvp75YU9HFvlRd8Tx6q6fE8YQcHNVXAkiY9q6d+xo0rKwT38xVqr7ZD0u0iPPkUL64lIZbqBAz+scqKmlzm8FDrypNC9Yjc8fPOLn9FX9KSYvKTr4rvx3iSIlTJabIQwj2ICCR/oLxBA==",
    },
    body: "",
    authorization: `${prefix}SignedHeaders=host;x-amz-date;x-amz-security-token, Signature=85d96828115b5dc0cfc3bd16ad9e210dd772bbebba041836c64533a82be05ead`,
  },
};
