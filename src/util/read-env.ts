/** The process's environment where the runtime has one (Node, Bun, Deno, workerd with compat), else `{}`. */
export function environment(): Readonly<Record<string, string | undefined>> {
  return (globalThis as { process?: { env?: Record<string, string | undefined> } }).process?.env ?? {};
}

/**
 * The environment variable `name`, or `undefined` where it is unset or the runtime has no `process.env` (a
 * browser, workerd): provider options fall back to variables only where there are any.
 */
export function readEnv(name: string): string | undefined {
  return environment()[name];
}
