import { InvalidArgumentError } from "../errors/invalid-argument-error.js";
import { DEFAULT_REDACTION_RULES, type RedactionRule } from "../stores/redaction-rule.js";
import { checkSubject, checkText } from "./check-text.js";
import type { GuardrailVerdict } from "./guardrail.js";
import { type TextGuardrail, type TextGuardrailOptions, textGuardrail } from "./text-guardrail.js";

/** The kinds of secrets and personal data the redactor's default rules find (see `createRedactor`). */
export type SecretKind =
  | "private_key"
  | "api_key"
  | "bearer_token"
  | "github_token"
  | "slack_token"
  | "stripe_key"
  | "google_api_key"
  | "npm_token"
  | "jwt"
  | "basic_auth"
  | "cookie"
  | "secret"
  | "aws_access_key"
  | "email";

/** Options of {@link secretsGuardrail}. */
export interface SecretsGuardrailOptions extends TextGuardrailOptions {
  /** The kinds to look for. Default: every kind (credentials, tokens, keys and email addresses). */
  kinds?: readonly SecretKind[];
  /** More patterns to look for; a match is reported as kind `custom`. */
  patterns?: readonly RegExp[];
}

/** Kinds whose match may be an ordinary word ("password: the user's password"): reported only when it looks like a credential. */
const WEAK_KINDS: ReadonlySet<string> = new Set(["secret", "bearer_token", "cookie", "basic_auth"]);

/**
 * A `name=value`, `Bearer …`, cookie or basic-auth value counts only when it looks like a credential rather
 * than a word: 12+ characters without blanks, with letters, and two digits or a digit and mixed case (the
 * rule tool descriptions are checked with).
 */
function looksLikeCredential(value: string): boolean {
  if (value.length < 12 || /\s/.test(value) || !/[A-Za-z]/.test(value)) return false;
  const digits = value.replace(/\D/g, "").length;
  return digits >= 2 || (digits >= 1 && /[a-z]/.test(value) && /[A-Z]/.test(value));
}

/** The secret part of a match (without the `name=` / `Bearer ` prefix a rule keeps, and the quotes). */
function secretOf(match: RegExpExecArray): string {
  const groups = match.groups ?? {};
  return groups.dq ?? groups.sq ?? match[0].slice(groups.pre?.length ?? 0);
}

/** True when `rule` finds something in `text` (`lower`: the text lower-cased, for the rule's triggers). */
function finds(rule: RedactionRule, text: string, lower: string): boolean {
  if (rule.triggers !== undefined && !rule.triggers.some((trigger) => lower.includes(trigger))) return false;
  // matchAll works on a copy of the regex: the shared rule's lastIndex is never touched.
  for (const match of text.matchAll(rule.regex)) {
    if (!WEAK_KINDS.has(rule.kind) || looksLikeCredential(secretOf(match))) return true;
  }
  return false;
}

/** The rules of the chosen kinds, checked against the redactor's. */
function rulesOf(options: SecretsGuardrailOptions): RedactionRule[] {
  const known = new Set(DEFAULT_REDACTION_RULES.map((rule) => rule.kind));
  const kinds = options.kinds === undefined ? known : new Set<string>(options.kinds);
  for (const kind of kinds) {
    if (!known.has(kind)) {
      throw new InvalidArgumentError({
        argument: "kinds",
        message: `unknown kind ${JSON.stringify(kind)}; expected some of: ${[...known].join(", ")}`,
      });
    }
  }
  const custom = (options.patterns ?? []).map((pattern) => {
    if (!(pattern instanceof RegExp)) {
      throw new InvalidArgumentError({ argument: "patterns", message: "expected regular expressions" });
    }
    const regex = new RegExp(pattern.source, `${pattern.flags.replace(/[gy]/g, "")}g`);
    return { kind: "custom", regex, replace: (marker: string) => marker };
  });
  return [...DEFAULT_REDACTION_RULES.filter((rule) => kinds.has(rule.kind)), ...custom];
}

/**
 * A guardrail that blocks when the text it checks holds a secret or personal data, found with the session
 * redactor's rules (`createRedactor`): OpenAI / Anthropic keys, bearer tokens, GitHub, Slack, Stripe, Google
 * and npm tokens, JWTs, basic-auth and cookie headers, `api_key=…` / `password: …` pairs, AWS access key ids,
 * PEM private keys and email addresses (`kinds` picks some; `patterns` adds your own). `name=value` pairs,
 * bearer tokens, cookies and basic-auth values count only when the value looks like a credential (12+
 * characters with digits or mixed case), so prose such as "the password: see below" passes.
 *
 * One object serves as input guardrail (the user message), output guardrail (the answer) and tool guardrail
 * (a call's arguments, and its result: a secret read from a file is not sent to the model). The reason names
 * the kinds found, never the secret. Cheap: a rule runs only when the text contains one of its trigger
 * substrings, and every rule is linear in the text's length.
 *
 * @example
 * new Agent({ model, tools, guardrails: { input: [secretsGuardrail()], tool: [secretsGuardrail({ phase: "result" })] } });
 */
export function secretsGuardrail(options: SecretsGuardrailOptions = {}): TextGuardrail {
  const rules = rulesOf(options);
  const check = (input: Parameters<TextGuardrail["check"]>[0]): GuardrailVerdict => {
    const text = checkText(input);
    if (text.length === 0) return { block: false };
    const lower = text.toLowerCase();
    const found = new Set<string>();
    for (const rule of rules) if (finds(rule, text, lower)) found.add(rule.kind);
    if (found.size === 0) return { block: false };
    return { block: true, reason: `${checkSubject(input)} contains ${[...found].join(", ")}` };
  };
  return textGuardrail({ options, name: "secrets", check });
}
