import { UnsupportedRuntimeError } from "../errors/unsupported-runtime-error.js";

/** The Node.js built-in modules agentloop's node-only pieces use, by id. */
export interface NodeBuiltins {
  "node:crypto": typeof import("node:crypto");
  "node:fs": typeof import("node:fs");
  "node:fs/promises": typeof import("node:fs/promises");
  "node:http": typeof import("node:http");
  "node:https": typeof import("node:https");
  "node:os": typeof import("node:os");
  "node:path": typeof import("node:path");
  "node:string_decoder": typeof import("node:string_decoder");
  "node:url": typeof import("node:url");
}

type GetBuiltin = (id: string) => unknown;

/** `process.getBuiltinModule` where the runtime has it (Node 20.16+ / 22.3+, Bun, Deno, workerd with compat). */
function getBuiltin(): GetBuiltin | undefined {
  const host = (globalThis as { process?: { getBuiltinModule?: GetBuiltin } }).process;
  const get = host?.getBuiltinModule;
  return typeof get === "function" ? get.bind(host) : undefined;
}

/**
 * Node's built-in module `id` if this runtime has it, else `undefined`. Read through `process.getBuiltinModule`
 * at the call, never imported: a module that uses this loads in browsers and workerd, and bundlers see no
 * `node:*` import.
 */
export function findNodeBuiltin<ID extends keyof NodeBuiltins>(id: ID): NodeBuiltins[ID] | undefined {
  try {
    return getBuiltin()?.(id) as NodeBuiltins[ID] | undefined;
  } catch {
    return undefined;
  }
}

/** Options of {@link nodeBuiltin}. */
export interface NodeBuiltinOptions<ID extends keyof NodeBuiltins> {
  /** The module, e.g. `"node:fs/promises"`. */
  id: ID;
  /** What needs it, named in the error where it is missing, e.g. `"FileStore"`. */
  feature: string;
}

/**
 * Node's built-in module `id`, or an {@link UnsupportedRuntimeError} naming `feature` where the runtime has no
 * Node built-ins (a browser, workerd without `nodejs_compat`). Call it where the module is first needed (a
 * constructor), not at import.
 */
export function nodeBuiltin<ID extends keyof NodeBuiltins>({
  id,
  feature,
}: NodeBuiltinOptions<ID>): NodeBuiltins[ID] {
  const found = findNodeBuiltin(id);
  if (found === undefined) throw new UnsupportedRuntimeError({ feature, module: id });
  return found;
}
