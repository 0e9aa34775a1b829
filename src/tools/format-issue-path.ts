const IDENTIFIER = /^[A-Za-z_$][A-Za-z0-9_$]*$/;

/**
 * Formats a path of property keys as the model would write it: `city`, `items[2].name`, `headers["x-id"]`.
 * An empty path gives `""` (the arguments as a whole).
 */
export function formatIssuePath(segments: readonly PropertyKey[]): string {
  let path = "";
  for (const segment of segments) {
    if (typeof segment === "number") path += `[${segment}]`;
    else if (typeof segment === "symbol") path += `[${segment.toString()}]`;
    else if (IDENTIFIER.test(segment)) path += path === "" ? segment : `.${segment}`;
    else path += `[${JSON.stringify(segment)}]`;
  }
  return path;
}
