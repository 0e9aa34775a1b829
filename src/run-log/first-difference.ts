import { canonicalJson } from "../util/canonical-json.js";

/** Where two JSON values first differ. */
export interface Difference {
  /** A path such as `messages[3].content` (`""` for the values themselves). */
  path: string;
  /** The value at `path` on the expected side (`undefined` when it has none). */
  expected: unknown;
  /** The value at `path` on the actual side (`undefined` when it has none). */
  actual: unknown;
}

/** Options of {@link firstDifference}. */
export interface FirstDifferenceOptions {
  expected: unknown;
  actual: unknown;
}

const IDENTIFIER = /^[A-Za-z_$][A-Za-z0-9_$]*$/;

type Shape = "absent" | "array" | "object" | "scalar";

/** The value as JSON sees it: `toJSON` applied; functions, symbols and `undefined` are absent. */
function jsonView(value: unknown): unknown {
  if (typeof value === "function" || typeof value === "symbol") return undefined;
  if (
    value !== null &&
    typeof value === "object" &&
    typeof (value as { toJSON?: unknown }).toJSON === "function"
  ) {
    return (value as { toJSON: () => unknown }).toJSON();
  }
  return value;
}

function shapeOf(value: unknown): Shape {
  if (value === undefined) return "absent";
  if (Array.isArray(value)) return "array";
  if (value !== null && typeof value === "object") return "object";
  return "scalar";
}

function child(path: string, key: string | number): string {
  if (typeof key === "number") return `${path}[${key}]`;
  if (!IDENTIFIER.test(key)) return `${path}[${JSON.stringify(key)}]`;
  return path === "" ? key : `${path}.${key}`;
}

function diff(expected: unknown, actual: unknown, path: string): Difference | null {
  const a = jsonView(expected);
  const b = jsonView(actual);
  const shape = shapeOf(a);
  if (shape !== shapeOf(b)) return { path, expected: a, actual: b };
  if (shape === "absent") return null;
  if (shape === "scalar")
    return canonicalJson(a) === canonicalJson(b) ? null : { path, expected: a, actual: b };
  if (shape === "array") {
    const left = a as unknown[];
    const right = b as unknown[];
    const shared = Math.min(left.length, right.length);
    for (let i = 0; i < shared; i++) {
      // In arrays JSON turns missing values into null.
      const found = diff(jsonView(left[i]) ?? null, jsonView(right[i]) ?? null, child(path, i));
      if (found !== null) return found;
    }
    if (left.length === right.length) return null;
    return { path: child(path, shared), expected: left[shared], actual: right[shared] };
  }
  const left = a as Record<string, unknown>;
  const right = b as Record<string, unknown>;
  const keys = [...new Set([...Object.keys(left), ...Object.keys(right)])].sort();
  for (const key of keys) {
    const found = diff(left[key], right[key], child(path, key));
    if (found !== null) return found;
  }
  return null;
}

/**
 * The first place where two JSON values differ, comparing them as JSON does (`undefined` properties are
 * absent, key order does not matter): object keys are visited in sorted order, array items in order (a longer
 * array differs at the first extra index). `null` when they are JSON-equal.
 *
 * @example
 * firstDifference({ expected: { messages: [{ content: "a" }] }, actual: { messages: [{ content: "b" }] } });
 * // { path: "messages[0].content", expected: "a", actual: "b" }
 */
export function firstDifference({ expected, actual }: FirstDifferenceOptions): Difference | null {
  return diff(expected, actual, "");
}
