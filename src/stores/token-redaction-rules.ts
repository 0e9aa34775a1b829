import type { RedactionRule } from "./redaction-rule.js";

const whole: RedactionRule["replace"] = (marker) => marker;

/** Keeps the `pre` group and the quotes of a quoted value (`dq` / `sq` groups), replaces the value. */
const keepPrefixAndQuotes: RedactionRule["replace"] = (marker, _match, groups) => {
  const quote = groups?.dq !== undefined ? '"' : groups?.sq !== undefined ? "'" : "";
  return `${groups?.pre ?? ""}${quote}${marker}${quote}`;
};

/** A double-quoted, single-quoted or bare value (bare: up to a blank, quote, separator or bracket). */
const VALUE = `(?:"(?<dq>(?:[^"\\\\\\n]|\\\\.){1,4096})"|'(?<sq>[^'\\n]{1,4096})'|[^\\s"'\\\\,;&}\\]\\[]{1,4096})`;

/**
 * Rules for the token shapes of common services, run by `createRedactor` before the generic `secret` rule
 * (see `DEFAULT_REDACTION_RULES`). Every pattern has bounded repetitions over character classes that cannot
 * overlap, and a literal prefix, so matching stays linear in the text's length.
 * - `github_token`: `ghp_` / `gho_` / `ghs_` / `ghu_` / `ghr_` + 36 or more characters, `github_pat_...`;
 * - `slack_token`: `xoxa-` / `xoxb-` / `xoxp-` / `xoxr-` / `xoxs-` / `xoxe-` tokens and `xapp-` app tokens;
 * - `stripe_key`: `sk_live_`, `rk_live_`, `sk_test_`, `rk_test_` keys and `whsec_` webhook secrets;
 * - `google_api_key`: `AIza` + 35 characters;
 * - `npm_token`: `npm_` + 36 characters;
 * - `jwt`: three base64url parts, the first two starting `eyJ` (a JSON object);
 * - `basic_auth`: the credentials after `Authorization: Basic` (the header name and scheme are kept);
 * - `cookie`: the value of `Cookie:` / `Set-Cookie:` headers (name kept, quotes kept);
 * - `secret`: the value of `NAME_TOKEN=`, `NAME_SECRET=`, `NAME_KEY=`, `NAME_PASSWORD=` style assignments.
 */
export const TOKEN_REDACTION_RULES: readonly RedactionRule[] = [
  {
    kind: "github_token",
    regex: /\b(?:gh[pousr]_[A-Za-z0-9]{36,255}|github_pat_[A-Za-z0-9_]{22,255})\b/g,
    triggers: ["ghp_", "gho_", "ghu_", "ghs_", "ghr_", "github_pat_"],
    replace: whole,
  },
  {
    kind: "slack_token",
    regex: /\b(?:xox[abprse]-[A-Za-z0-9-]{10,255}|xapp-\d-[A-Za-z0-9-]{10,255})/g,
    triggers: ["xox", "xapp-"],
    replace: whole,
  },
  {
    kind: "stripe_key",
    regex: /\b(?:(?:sk|rk)_(?:live|test)_[A-Za-z0-9]{10,255}|whsec_[A-Za-z0-9]{10,255})\b/g,
    triggers: ["_live_", "_test_", "whsec_"],
    replace: whole,
  },
  {
    kind: "google_api_key",
    regex: /\bAIza[0-9A-Za-z_-]{35}(?![0-9A-Za-z_-])/g,
    triggers: ["aiza"],
    replace: whole,
  },
  {
    kind: "npm_token",
    regex: /\bnpm_[A-Za-z0-9]{36}\b/g,
    triggers: ["npm_"],
    replace: whole,
  },
  {
    kind: "jwt",
    regex: /\beyJ[A-Za-z0-9_-]{4,8192}\.eyJ[A-Za-z0-9_-]{4,8192}\.[A-Za-z0-9_-]{0,8192}/g,
    triggers: ["eyj"],
    replace: whole,
  },
  {
    kind: "basic_auth",
    regex: /\b(?<pre>authorization["']?\s{0,5}[:=]\s{0,5}["']?basic\s{1,10})[A-Za-z0-9+/]{4,8192}={0,2}/gi,
    triggers: ["basic"],
    replace: (marker, _match, groups) => `${groups?.pre ?? ""}${marker}`,
  },
  {
    kind: "cookie",
    regex:
      /(?<![\w-])(?<pre>(?:set-)?cookie["']?[ \t]{0,5}:[ \t]{0,5})(?:"(?<dq>(?:[^"\\\n]|\\.){1,8192})"|'(?<sq>[^'\n]{1,8192})'|[^\r\n"']{1,8192})/gi,
    triggers: ["cookie"],
    replace: keepPrefixAndQuotes,
  },
  {
    kind: "secret",
    regex: new RegExp(
      `(?<![\\w-])(?<pre>[A-Za-z][A-Za-z0-9]{0,40}(?:_[A-Za-z0-9]{1,40}){0,6}_(?:token|secret|key|password|passwd|pass|pwd|credentials?)["']?[ \\t]{0,5}=[ \\t]{0,5})${VALUE}`,
      "gi",
    ),
    triggers: ["_token", "_secret", "_key", "_pass", "_pwd", "_credential"],
    replace: keepPrefixAndQuotes,
  },
];
