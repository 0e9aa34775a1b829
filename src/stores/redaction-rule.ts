import { TOKEN_REDACTION_RULES } from "./token-redaction-rules.js";

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
 *   one digit, so words like `sk-learn` are left alone), also URL-encoded (`sk%2Dproj%2D...`);
 * - `bearer_token`: the token after `Bearer ` (12+ token characters with a digit; the word `Bearer` is kept);
 * - the service token shapes of `TOKEN_REDACTION_RULES`: GitHub, Slack, Stripe, Google, npm, JWTs,
 *   `Authorization: Basic`, cookies, and `NAME_TOKEN=` / `NAME_SECRET=` / `NAME_KEY=` assignments;
 * - `secret`: the value of `api_key=...`, `"apiKey": "..."`, `password: ...`, `x-api-key: ...` pairs (the name,
 *   separator and quotes are kept, so JSON stays valid);
 * - `aws_access_key`: AWS access key ids (`AKIA...`, `ASIA...`);
 * - `email`: email addresses (not `icon@2x.png`).
 */
export const DEFAULT_REDACTION_RULES: readonly RedactionRule[] = [
  {
    kind: "private_key",
    // The body is base64, blanks and legacy header lines (`Proc-Type: 4,ENCRYPTED`, `DEK-Info: ...`): any
    // character but the start of a "-----" line, so a body never runs into the next BEGIN or END line and
    // each character is scanned once (a lazy `[\s\S]*?` to END rescans up to 16 KiB at every BEGIN).
    regex:
      /-----BEGIN (?:[A-Z0-9]{1,20} ){0,3}PRIVATE KEY-----(?:[A-Za-z0-9+/=\s:,.()]|-(?!----)){0,16384}(?:-----END (?:[A-Z0-9]{1,20} ){0,3}PRIVATE KEY-----)?/g,
    triggers: ["private key-----"],
    replace: (marker) => marker,
  },
  {
    kind: "api_key",
    // "%2D" is a URL-encoded "-"; it starts with a character the class lacks, so the alternation never
    // backtracks, and its "2" cannot serve as the required digit. A key starts where no key character is
    // before it, so the look-ahead scans a run such as "sk-sk-sk-..." once, not from each "sk-" in it.
    regex: /(?<![\w-])sk(?:-|%2[Dd])(?=(?:[A-Za-z0-9_-]|%2[Dd]){0,300}\d)(?:[A-Za-z0-9_-]|%2[Dd]){20,300}/g,
    triggers: ["sk-", "sk%2d"],
    replace: (marker) => marker,
  },
  {
    kind: "bearer_token",
    regex: /\b(?<pre>bearer\s{1,10})(?=[\w.~+/-]{0,8192}\d)[\w.~+/-]{12,8192}=*/gi,
    triggers: ["bearer"],
    replace: keepPrefix,
  },
  ...TOKEN_REDACTION_RULES,
  {
    kind: "secret",
    regex: new RegExp(
      `(?<![\\w-])(?<pre>${SECRET_NAME}["']?[ \\t]{0,5}[:=][ \\t]{0,5})(?:"(?<dq>(?:[^"\\\\\\n]|\\\\.){1,4096})"|'(?<sq>[^'\\n]{1,4096})'|[^\\s"'\\\\,;&}\\]\\[]{1,4096})`,
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
    // A local part starts where the previous character cannot belong to one, so a run such as "a.a.a.a..."
    // is scanned once, not from each of its characters.
    regex:
      /(?<![A-Za-z0-9._%+-])[A-Za-z0-9._%+-]{1,64}@(?!\d{1,3}x\.)(?:[A-Za-z0-9-]{1,63}\.){1,8}[A-Za-z]{2,24}\b/g,
    triggers: ["@"],
    replace: (marker) => marker,
  },
];
