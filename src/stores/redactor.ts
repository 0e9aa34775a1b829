import type { Message, ToolCall } from "../models/message.js";
import { redactContent } from "./redact-content.js";
import { DEFAULT_REDACTION_RULES, type RedactionRule, SECRET_KEY_NAME } from "./redaction-rule.js";
import type { JsonValue } from "./session-store.js";

/** Options of {@link createRedactor}. */
export interface RedactorOptions {
  /** Extra patterns; every match is replaced whole. The regexes are copied (with the `g` flag added). */
  patterns?: readonly RegExp[];
  /**
   * The replacement of every match. Default: `[REDACTED]` for custom patterns, and a typed marker for the
   * default ones: `[REDACTED:api_key]`, `[REDACTED:bearer_token]`, `[REDACTED:secret]`,
   * `[REDACTED:aws_access_key]`, `[REDACTED:private_key]`, `[REDACTED:email]`, `[REDACTED:github_token]`,
   * `[REDACTED:slack_token]`, `[REDACTED:stripe_key]`, `[REDACTED:google_api_key]`, `[REDACTED:npm_token]`,
   * `[REDACTED:jwt]`, `[REDACTED:basic_auth]`, `[REDACTED:cookie]`. When set, it is used for every
   * match, default or custom.
   */
  replacement?: string;
  /** Apply the default patterns (see `DEFAULT_REDACTION_RULES`); default `true`. */
  defaults?: boolean;
}

/** Removes secrets and personal data from what is persisted. Every method returns new values. */
export interface Redactor {
  /** The text with every match replaced. */
  redactText(text: string): string;
  /**
   * A redacted copy of a message: content, tool calls (raw arguments as text; parsed arguments deeply, where
   * values under secret-looking keys such as `apiKey` or `password` are replaced whole) and tool results.
   * `providerData` is opaque data the provider needs back unchanged, so it is kept as it is.
   */
  redactMessage(message: Message): Message;
  /**
   * A redacted deep copy of a JSON value (strings redacted; values under secret-looking keys replaced). The
   * base64 `data` of an image or file part (`{ type: "image" | "file", data }`) is kept as it is.
   */
  redactValue(value: JsonValue): JsonValue;
}

const BASE64 = /^[A-Za-z0-9+/]*={0,2}$/;

/** An inline image or file part (`{ type: "image" | "file", data: <base64> }`), in a message or a record. */
function isInlineMedia(value: object): boolean {
  const { type, data } = value as { type?: unknown; data?: unknown };
  return (type === "image" || type === "file") && typeof data === "string" && BASE64.test(data);
}

/** The shortest text any default pattern can match (`a@b.cc`). */
const MIN_DEFAULT_MATCH = 6;

/**
 * Creates a {@link Redactor}. The default patterns find OpenAI / Anthropic API keys (`sk-...`, `sk-proj-...`,
 * `sk-ant-...`, also URL-encoded), `Bearer` tokens, GitHub (`ghp_`, `gho_`, `ghs_`, `github_pat_`), Slack
 * (`xox?-`), Stripe (`sk_live_`, `rk_live_`, `sk_test_`), Google (`AIza`) and npm (`npm_`) tokens, JWTs,
 * `Authorization: Basic` credentials, cookie headers, `api_key=...` / `"apiKey": "..."` / `password: ...` /
 * `NAME_TOKEN=...` / `NAME_SECRET=...` / `NAME_KEY=...` style pairs, AWS access key ids (`AKIA...`), PEM private
 * keys and email addresses. It is cheap: the regexes are compiled once, linear in the text's length (no
 * catastrophic backtracking, no rescanning: 1 MB of adversarial text takes milliseconds), and a default
 * pattern only runs when the text contains one of its trigger substrings.
 */
export function createRedactor(options: RedactorOptions = {}): Redactor {
  const useDefaults = options.defaults ?? true;
  const custom: RedactionRule[] = (options.patterns ?? []).map((pattern) => ({
    kind: "custom",
    regex: new RegExp(pattern.source, pattern.flags.replace(/[gy]/g, "") + "g"),
    replace: (marker) => marker,
  }));
  const rules = [...(useDefaults ? DEFAULT_REDACTION_RULES : []), ...custom].map((rule) => ({
    ...rule,
    regex: new RegExp(rule.regex.source, rule.regex.flags),
    marker: options.replacement ?? (rule.kind === "custom" ? "[REDACTED]" : `[REDACTED:${rule.kind}]`),
  }));
  const secretMarker = options.replacement ?? "[REDACTED:secret]";

  const redactText = (text: string): string => {
    let out = text;
    let lower: string | undefined;
    for (const rule of rules) {
      if (rule.triggers !== undefined) {
        if (text.length < MIN_DEFAULT_MATCH) continue;
        lower ??= text.toLowerCase();
        const source = lower;
        if (!rule.triggers.some((trigger) => source.includes(trigger))) continue;
      }
      rule.regex.lastIndex = 0;
      out = out.replace(rule.regex, (match: string, ...rest: unknown[]) => {
        const last = rest[rest.length - 1];
        const groups =
          typeof last === "object" && last !== null ? (last as { [name: string]: string }) : undefined;
        return rule.replace(rule.marker, match, groups);
      });
    }
    return out;
  };

  const redactUnknown = (value: unknown, secret: boolean): unknown => {
    if (typeof value === "string") return secret ? secretMarker : redactText(value);
    if (typeof value === "number") return secret ? secretMarker : value;
    if (Array.isArray(value)) return value.map((item) => redactUnknown(item, secret));
    if (typeof value === "object" && value !== null) {
      const proto = Object.getPrototypeOf(value);
      if (proto !== Object.prototype && proto !== null) return value;
      const out: { [key: string]: unknown } = {};
      const media = isInlineMedia(value);
      for (const [key, item] of Object.entries(value)) {
        // An image's or a file's base64 data is not text: a pattern matching by chance would corrupt it.
        out[key] =
          media && key === "data" ? item : redactUnknown(item, useDefaults && SECRET_KEY_NAME.test(key));
      }
      return out;
    }
    return value;
  };

  const redactToolCall = (call: ToolCall): ToolCall => ({
    ...call,
    rawArguments: redactText(call.rawArguments),
    arguments: redactUnknown(call.arguments, false),
  });

  return {
    redactText,
    redactValue: (value) => redactUnknown(value, false) as JsonValue,
    redactMessage: (message) => {
      switch (message.role) {
        case "assistant": {
          const copy = { ...message, content: redactText(message.content) };
          if (message.toolCalls !== undefined) copy.toolCalls = message.toolCalls.map(redactToolCall);
          return copy;
        }
        case "system":
          return { ...message, content: redactText(message.content) };
        default:
          return { ...message, content: redactContent(message.content, redactText) };
      }
    },
  };
}
