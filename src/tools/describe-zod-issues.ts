import type { z } from "zod";
import type { ToolArgumentIssue } from "../errors/tool-arguments-error.js";
import { describeType, describeValue } from "./describe-received.js";
import { formatIssuePath } from "./format-issue-path.js";

type ZodIssue = z.core.$ZodIssue;

/** The value found at `path` inside `input` (undefined when the path does not exist). */
function valueAt(input: unknown, path: readonly PropertyKey[]): unknown {
  let value = input;
  for (const key of path) {
    if (typeof value !== "object" || value === null) return undefined;
    value = (value as Record<PropertyKey, unknown>)[key];
  }
  return value;
}

function typeName(expected: string): string {
  return expected === "int" ? "integer" : expected;
}

function literal(value: unknown): string {
  return typeof value === "bigint" ? `${value}` : (JSON.stringify(value) ?? String(value));
}

/** `string with at least 3 characters`, `number <= 7`, `array with exactly 2 items`, ... */
function bound(
  origin: string,
  limit: number | bigint,
  side: "min" | "max",
  inclusive: boolean,
  exact: boolean,
) {
  const unit =
    origin === "string" ? "characters" : origin === "array" || origin === "set" ? "items" : undefined;
  if (unit === undefined) {
    const op = side === "min" ? (inclusive ? ">=" : ">") : inclusive ? "<=" : "<";
    return `${typeName(origin)} ${op} ${limit}`;
  }
  const n = Number(limit) - (inclusive ? 0 : side === "min" ? -1 : 1);
  const how = exact ? "exactly" : side === "min" ? "at least" : "at most";
  return `${origin} with ${how} ${n} ${unit}`;
}

/** What a value matching one branch of a failed union would have been, from the branches' own issues. */
function unionExpected(issue: Extract<ZodIssue, { code: "invalid_union" }>): string {
  const options = new Set<string>();
  for (const branch of issue.errors) {
    const top = branch.find((inner) => inner.path.length === 0);
    if (top === undefined) return "a value matching one of the allowed shapes";
    options.add(expectedOf(top));
  }
  return options.size === 0 ? "a value matching one of the allowed shapes" : [...options].join(" or ");
}

function expectedOf(issue: ZodIssue): string {
  switch (issue.code) {
    case "invalid_type":
      return typeName(issue.expected);
    case "invalid_value":
      return issue.values.length === 1
        ? literal(issue.values[0])
        : `one of ${issue.values.map((value) => literal(value)).join(", ")}`;
    case "too_small":
      return bound(issue.origin, issue.minimum, "min", issue.inclusive ?? true, issue.exact ?? false);
    case "too_big":
      return bound(issue.origin, issue.maximum, "max", issue.inclusive ?? true, issue.exact ?? false);
    case "invalid_format":
      return issue.format === "regex" && issue.pattern !== undefined
        ? `string matching ${issue.pattern}`
        : `string in ${issue.format} format`;
    case "not_multiple_of":
      return `multiple of ${issue.divisor}`;
    case "unrecognized_keys":
      return "only the declared properties";
    case "invalid_union":
      return unionExpected(issue);
    default:
      return issue.message;
  }
}

function receivedOf(issue: ZodIssue, value: unknown): string {
  switch (issue.code) {
    case "invalid_type":
    case "invalid_union":
    case "invalid_key":
    case "invalid_element":
      return describeType(value);
    case "unrecognized_keys":
      return `unknown ${issue.keys.length === 1 ? "property" : "properties"} ${issue.keys.map((key) => JSON.stringify(key)).join(", ")}`;
    case "too_small":
    case "too_big":
      if (typeof value === "string") return `string of ${value.length} characters`;
      return describeValue(value);
    default:
      return describeValue(value);
  }
}

/**
 * Converts zod issues into {@link ToolArgumentIssue}s (path, expected, received, message). `input` is the
 * value that was validated: zod issues do not carry what was received, so it is read from `input` at the path.
 */
export function describeZodIssues({
  issues,
  input,
}: {
  issues: readonly ZodIssue[];
  input: unknown;
}): ToolArgumentIssue[] {
  return issues.map((issue) => ({
    path: formatIssuePath(issue.path),
    expected: expectedOf(issue),
    received: receivedOf(issue, valueAt(input, issue.path)),
    message: issue.message,
  }));
}
