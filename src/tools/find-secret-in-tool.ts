import type { ModelToolSpec } from "../models/model.js";
import { DEFAULT_REDACTION_RULES, type RedactionRule } from "../stores/redaction-rule.js";

/** A secret found by {@link findSecretInTool}. */
export interface ToolSecretFinding {
  /** What it looks like: `api_key`, `bearer_token`, `secret`, `aws_access_key` or `private_key`. */
  kind: string;
  /** Where it is: `"description"`, or a path into the parameters such as `"parameters.properties.q.description"`. */
  location: string;
  /** The first characters of the secret followed by `…`: enough to find it, never the whole secret. */
  preview: string;
}

/** Options of {@link findSecretInTool}. */
export interface FindSecretInToolOptions {
  /** The tool (anything with a `spec` as the model sees it: name, description, JSON Schema parameters). */
  tool: { readonly spec: ModelToolSpec };
}

/** Schema keywords whose string values are read by the model as prose. */
const PROSE_KEYS = new Set(["description", "title"]);

/** Bounds the walk over a (possibly huge or cyclic) parameters schema. */
const MAX_SCHEMA_NODES = 10_000;
const MAX_SCHEMA_DEPTH = 64;

/** The redactor's rules that denote credentials (e-mail addresses are fine in a description). */
const RULES: readonly RedactionRule[] = DEFAULT_REDACTION_RULES.filter((rule) => rule.kind !== "email");

/** Specs already scanned and found clean (a spec is made once per tool; registries are made per run). */
const clean = new WeakSet<ModelToolSpec>();

/**
 * A `name=value` or `Bearer <token>` value is reported only when it looks like a credential rather than a
 * word ("password: the user's password", "Bearer authentication"): 12+ characters without spaces, letters and
 * digits, and either two digits or mixed case.
 */
function looksLikeCredential(value: string): boolean {
  if (value.length < 12 || /\s/.test(value) || !/[A-Za-z]/.test(value)) return false;
  const digits = value.replace(/\D/g, "").length;
  return digits >= 2 || (digits >= 1 && /[a-z]/.test(value) && /[A-Z]/.test(value));
}

/** The secret part of a rule's match (without the kept `name=` / `Bearer ` prefix and quotes). */
function secretOf(match: RegExpExecArray): string {
  const groups = match.groups ?? {};
  return groups.dq ?? groups.sq ?? match[0].slice(groups.pre?.length ?? 0);
}

function findInText(text: string): { kind: string; secret: string } | undefined {
  if (text.length < 6) return undefined;
  const lower = text.toLowerCase();
  for (const rule of RULES) {
    if (rule.triggers !== undefined && !rule.triggers.some((trigger) => lower.includes(trigger))) continue;
    // matchAll works on a copy of the regex: the shared rule's lastIndex is never touched.
    for (const match of text.matchAll(rule.regex)) {
      const secret = secretOf(match);
      const weak =
        rule.kind === "secret" ||
        rule.kind === "bearer_token" ||
        rule.kind === "cookie" ||
        rule.kind === "basic_auth";
      if (!weak || looksLikeCredential(secret)) return { kind: rule.kind, secret };
    }
  }
  return undefined;
}

/** Calls `visit` for every prose string in `schema` (depth-first, bounded), stopping when it returns a value. */
function walkSchema<T>({
  schema,
  path,
  visit,
}: {
  schema: unknown;
  path: string;
  visit: (text: string, path: string) => T | undefined;
}): T | undefined {
  const seen = new Set<object>();
  let nodes = 0;
  const walk = (node: unknown, at: string, depth: number): T | undefined => {
    if (typeof node !== "object" || node === null || seen.has(node) || depth > MAX_SCHEMA_DEPTH)
      return undefined;
    if (++nodes > MAX_SCHEMA_NODES) return undefined;
    seen.add(node);
    for (const [key, value] of Object.entries(node)) {
      const here = Array.isArray(node) ? `${at}[${key}]` : `${at}.${key}`;
      const found =
        typeof value === "string"
          ? PROSE_KEYS.has(key) && !Array.isArray(node)
            ? visit(value, here)
            : undefined
          : walk(value, here, depth + 1);
      if (found !== undefined) return found;
    }
    return undefined;
  };
  return walk(schema, path, 0);
}

/**
 * Looks for an obvious secret in what a tool tells the model: its description, and the `description` / `title`
 * strings anywhere in its parameters' JSON Schema. It uses the default patterns of the session redactor
 * (`DEFAULT_REDACTION_RULES`, without e-mail addresses): API keys (`sk-…`), bearer tokens, `api_key=…` /
 * `"password": "…"` pairs, AWS access key ids and PEM private keys. Bearer tokens and `name=value` pairs count
 * only when the value looks like a credential (12+ characters with digits), so prose such as "password: the
 * user's password" passes.
 *
 * Returns the first finding, or undefined. Cheap: a pattern runs only when the text contains its trigger, the
 * schema walk is bounded, and a clean spec is remembered, so registering the same tool again does not scan it
 * again.
 */
export function findSecretInTool({ tool }: FindSecretInToolOptions): ToolSecretFinding | undefined {
  const spec = tool.spec;
  if (clean.has(spec)) return undefined;
  const check = (text: string, location: string): ToolSecretFinding | undefined => {
    const found = findInText(text);
    if (found === undefined) return undefined;
    return { kind: found.kind, location, preview: `${found.secret.slice(0, 4)}…` };
  };
  const description: unknown = spec.description;
  const finding =
    (typeof description === "string" ? check(description, "description") : undefined) ??
    walkSchema({ schema: spec.parameters, path: "parameters", visit: check });
  if (finding === undefined) clean.add(spec);
  return finding;
}
