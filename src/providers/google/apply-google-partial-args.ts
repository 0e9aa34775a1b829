import type { GoogleWirePartialArg } from "./google-wire-types.js";

/** Paths deeper than this are ignored (they could only come from a broken or hostile server). */
const MAX_PATH_SEGMENTS = 64;

/**
 * The segments of a JSON path as Vertex writes them (`$.id`, `$.items[0].name`, `$['a key']`): property names
 * and array indexes. Undefined for a path this reader does not understand.
 */
export function parseGoogleJsonPath(path: string): Array<string | number> | undefined {
  if (!path.startsWith("$")) return undefined;
  const segments: Array<string | number> = [];
  const pattern = /\.([^.[\]]+)|\[(\d+)\]|\['((?:[^'\\]|\\.)*)'\]|\["((?:[^"\\]|\\.)*)"\]/y;
  pattern.lastIndex = 1;
  while (pattern.lastIndex < path.length) {
    const match = pattern.exec(path);
    if (match === null || segments.length >= MAX_PATH_SEGMENTS) return undefined;
    const [, name, index, single, double] = match;
    if (index !== undefined) segments.push(Number(index));
    else segments.push(name ?? (single ?? double ?? "").replace(/\\(.)/g, "$1"));
  }
  return segments;
}

function setOwn(target: Record<string, unknown> | unknown[], key: string | number, value: unknown): void {
  // defineProperty: a key such as `__proto__` is an ordinary property here, never the prototype.
  Object.defineProperty(target, key, { value, enumerable: true, writable: true, configurable: true });
}

function isContainer(value: unknown): value is Record<string, unknown> | unknown[] {
  return value !== null && typeof value === "object";
}

/** False for an array index past the end: arrays only grow one item at a time (no holes, no huge lengths). */
function canSet(node: Record<string, unknown> | unknown[], key: string | number): boolean {
  return !Array.isArray(node) || typeof key !== "number" || key <= node.length;
}

/** The container at `segments` (all but the last), created on the way; undefined when a value is in the way. */
function parentOf(
  root: Record<string, unknown>,
  segments: ReadonlyArray<string | number>,
): Record<string, unknown> | unknown[] | undefined {
  let node: Record<string, unknown> | unknown[] = root;
  for (let i = 0; i < segments.length - 1; i++) {
    const key = segments[i] as string | number;
    const current: unknown = Object.hasOwn(node, key) ? (node as Record<string, unknown>)[key] : undefined;
    if (isContainer(current)) {
      node = current;
      continue;
    }
    const next = segments[i + 1];
    // A new array can only start at index 0.
    if (current !== undefined || !canSet(node, key) || (typeof next === "number" && next > 0))
      return undefined;
    const child: Record<string, unknown> | unknown[] = typeof next === "number" ? [] : {};
    setOwn(node, key, child);
    node = child;
  }
  return node;
}

/**
 * Applies streamed argument values (Vertex `functionCall.partialArgs`) to `args` in place: a `stringValue`
 * is appended to the string already at its path (strings arrive in pieces), a `numberValue`, `boolValue` or
 * `nullValue` is set. Items with a path this reader does not understand are skipped.
 */
export function applyGooglePartialArgs(
  args: Record<string, unknown>,
  partialArgs: readonly GoogleWirePartialArg[],
): void {
  for (const item of partialArgs) {
    if (item === null || typeof item !== "object" || typeof item.jsonPath !== "string") continue;
    const segments = parseGoogleJsonPath(item.jsonPath);
    if (segments === undefined || segments.length === 0) continue;
    const parent = parentOf(args, segments);
    const key = segments[segments.length - 1] as string | number;
    if (parent === undefined || !canSet(parent, key)) continue;
    const current: unknown = Object.hasOwn(parent, key)
      ? (parent as Record<string, unknown>)[key]
      : undefined;
    if (typeof item.stringValue === "string") {
      setOwn(parent, key, (typeof current === "string" ? current : "") + item.stringValue);
    } else if (typeof item.numberValue === "number") setOwn(parent, key, item.numberValue);
    else if (typeof item.boolValue === "boolean") setOwn(parent, key, item.boolValue);
    else if ("nullValue" in item) setOwn(parent, key, null);
  }
}
