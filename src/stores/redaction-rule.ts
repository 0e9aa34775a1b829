/** One pattern of a redactor: what to find, and how to rewrite a match. */
export interface RedactionRule {
  /** What the match is: the `kind` of the default `[REDACTED:kind]` marker. */
  kind: string;
  /** A global regular expression (owned by the rule; its `lastIndex` is reset before each use). */
  regex: RegExp;
  /**
   * Lower-case substrings of which at least one occurs in every match. When the text (lower-cased) contains
   * none, the regex is not run. Omitted: always run.
   */
  triggers?: readonly string[];
  /** Builds the replacement of one match; `marker` is the configured replacement text. */
  replace(marker: string, match: string, groups: { [name: string]: string | undefined } | undefined): string;
}

/** Keeps the `pre` group of a match, replaces the rest. */
const keepPrefix: RedactionRule["replace"] = (marker, _match, groups) => (groups?.pre ?? "") + marker;

/**
 * Key names (in `name=value` text and in argument objects) whose values are secrets: `api_key`, `apiKey`,
 * `x-api-key`, `OPENAI_API_KEY`, `secret`, `client_secret`, `AWS_SECRET_ACCESS_KEY`, `password`, `passwd`,
 * `access_token`, `refreshToken`, `private_key`, ...
 */
const SECRET_NAME =
  "[\\w-]{0,40}?(?:api[_-]?key|secret|passw(?:or)?d|pwd|(?:access|refresh|auth|id|session)[_-]?token|private[_-]?key)(?:[_-][\\w-]{0,30})?";

/** Matches a whole key name that denotes a secret (for argument objects). */
export const SECRET_KEY_NAME = new RegExp(`^${SECRET_NAME}$`, "i");

/**
 * The default rules of `createRedactor`, in the order they run:
 * - `private_key`: PEM private keys (`-----BEGIN RSA PRIVATE KEY-----` ... `-----END RSA PRIVATE KEY-----`, the
 *   whole block; without an `END` line, the header and the base64 lines after it);
 * - `api_key`: OpenAI / Anthropic style keys: `sk-...`, `sk-proj-...`, `sk-ant-...` (20+ key characters, at least
 *   one digit, so words like `sk-learn` are left alone);
 * - `bearer_token`: the token after `Bearer ` (12+ token characters with a digit; the word `Bearer` is kept);
 * - `secret`: the value of `api_key=...`, `"apiKey": "..."`, `password: ...`, `x-api-key: ...` pairs (the name,
 *   separator and quotes are kept, so JSON stays valid);
 * - `aws_access_key`: AWS access key ids (`AKIA...`, `ASIA...`);
 * - `email`: email addresses (not `icon@2x.png`).
 */
export const DEFAULT_REDACTION_RULES: readonly RedactionRule[] = [
  {
    kind: "private_key",
    regex:
      /-----BEGIN (?:[A-Z0-9]{1,20} ){0,3}PRIVATE KEY-----(?:[\s\S]{0,16384}?-----END (?:[A-Z0-9]{1,20} ){0,3}PRIVATE KEY-----|[A-Za-z0-9+/=\s]{0,16384})/g,
    triggers: ["private key-----"],
    replace: (marker) => marker,
  },
  {
    kind: "api_key",
    regex: /\bsk-(?=[A-Za-z0-9_-]{0,300}\d)[A-Za-z0-9_-]{20,300}/g,
    triggers: ["sk-"],
    replace: (marker) => marker,
  },
  {
    kind: "bearer_token",
    regex: /\b(?<pre>bearer\s{1,10})(?=[\w.~+/-]{0,8192}\d)[\w.~+/-]{12,8192}=*/gi,
    triggers: ["bearer"],
    replace: keepPrefix,
  },
  {
    kind: "secret",
    regex: new RegExp(
      `\\b(?<pre>${SECRET_NAME}["']?\\s{0,5}[:=]\\s{0,5})(?:"(?<dq>(?:[^"\\\\\\n]|\\\\.){1,4096})"|'(?<sq>[^'\\n]{1,4096})'|[^\\s"'\\\\,;&}\\]\\[]{1,4096})`,
      "gi",
    ),
    triggers: ["key", "secret", "passw", "pwd", "token"],
    replace: (marker, _match, groups) => {
      const quote = groups?.dq !== undefined ? '"' : groups?.sq !== undefined ? "'" : "";
      return `${groups?.pre ?? ""}${quote}${marker}${quote}`;
    },
  },
  {
    kind: "aws_access_key",
    regex: /\b(?:AKIA|ASIA)[0-9A-Z]{16}\b/g,
    triggers: ["akia", "asia"],
    replace: (marker) => marker,
  },
  {
    kind: "email",
    regex: /\b[A-Za-z0-9._%+-]{1,64}@(?!\d{1,3}x\.)(?:[A-Za-z0-9-]{1,63}\.){1,8}[A-Za-z]{2,24}\b/g,
    triggers: ["@"],
    replace: (marker) => marker,
  },
];
