/**
 * How deeply tool-call arguments may nest (objects and arrays). Real tools take a few levels; anything deeper
 * is refused before it is parsed or walked, so no recursive code (loop detection, hashing, serialising,
 * schema validation) can overflow the stack on a hostile model output.
 */
export const MAX_ARGUMENT_DEPTH = 64;

/** The message a model gets for arguments nested too deeply. */
export function tooDeepMessage(maxDepth: number = MAX_ARGUMENT_DEPTH): string {
  return `arguments nested deeper than ${maxDepth} levels; send the arguments with at most ${maxDepth} levels of nested objects and arrays`;
}

/**
 * True when the JSON text `text` nests objects/arrays deeper than `maxDepth`. One pass over the characters,
 * no recursion and no parsing (brackets inside strings are skipped), so it is safe on any input. Malformed
 * JSON is not detected here (the parser does that).
 */
export function jsonTextTooDeep(text: string, maxDepth: number = MAX_ARGUMENT_DEPTH): boolean {
  let depth = 0;
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (inString) {
      if (c === 0x5c)
        i++; // backslash: skip the escaped character
      else if (c === 0x22) inString = false;
    } else if (c === 0x22) {
      inString = true;
    } else if (c === 0x5b || c === 0x7b) {
      if (++depth > maxDepth) return true;
    } else if (c === 0x5d || c === 0x7d) {
      depth--;
    }
  }
  return false;
}

/**
 * True when the value `value` nests arrays/objects deeper than `maxDepth` (a cycle counts as too deep).
 * Iterative, and each object is walked again only when reached at a greater depth, so it is bounded by
 * `maxDepth` times the number of objects even for shared sub-objects.
 */
export function valueTooDeep(value: unknown, maxDepth: number = MAX_ARGUMENT_DEPTH): boolean {
  if (typeof value !== "object" || value === null) return false;
  const deepest = new Map<object, number>();
  const stack: Array<[object, number]> = [[value, 1]];
  while (stack.length > 0) {
    const [node, depth] = stack.pop() as [object, number];
    if (depth > maxDepth) return true;
    const seen = deepest.get(node);
    if (seen !== undefined && seen >= depth) continue;
    deepest.set(node, depth);
    const children: unknown[] = Array.isArray(node) ? node : Object.values(node);
    for (const child of children) {
      if (typeof child === "object" && child !== null) stack.push([child, depth + 1]);
    }
  }
  return false;
}
