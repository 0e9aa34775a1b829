/** The checks of `node:util`'s `types` this module uses, where the runtime has them. */
interface UtilTypes {
  isNativeError(value: unknown): boolean;
  isProxy(value: unknown): boolean;
}

/**
 * `node:util`'s `types` when the runtime has Node's built-ins (`process.getBuiltinModule`: Node 20.16+, Bun,
 * Deno), without an import: the module also loads where there is no `node:util` (browsers, workerd). Elsewhere
 * an error is recognised by `instanceof` and its tag, and a Proxy is not told apart (every read is guarded).
 */
const types: UtilTypes | undefined = (() => {
  try {
    const host = (globalThis as { process?: { getBuiltinModule?: (id: string) => unknown } }).process;
    return (host?.getBuiltinModule?.("node:util") as { types?: UtilTypes } | undefined)?.types;
  } catch {
    return undefined;
  }
})();

/** At most this many characters of a thrown value are quoted in a description. */
const MAX_PREVIEW = 200;

/** What {@link describeThrown} says about a value. */
export interface ThrownDescription {
  /**
   * What the value is: `"Proxy"`, `"bigint"`, `"symbol"`, `"string"`, `"number"`, `"boolean"`, `"undefined"`,
   * `"null"`, `"function"`, `"object"`, or `"Error"` for an error object.
   */
  type: string;
  /** A short, human-readable description, e.g. `a BigInt (12n)` or `an object with no prototype`. */
  text: string;
  /** For an error object: its name and message when both could be read as strings, else undefined. */
  error?: { name: string; message: string } | undefined;
}

function cut(text: string): string {
  return text.length > MAX_PREVIEW ? `${text.slice(0, MAX_PREVIEW)}…` : text;
}

/** Reads `value[key]` when it is a string; undefined when it is not or when reading it throws. */
function readString(value: object, key: string): string | undefined {
  try {
    const read: unknown = (value as Record<string, unknown>)[key];
    return typeof read === "string" ? read : undefined;
  } catch {
    return undefined;
  }
}

/** True when reading `value[key]` throws (a hostile getter). */
function readThrows(value: object, key: string): boolean {
  try {
    void (value as Record<string, unknown>)[key];
    return false;
  } catch {
    return true;
  }
}

/** The name of an object's constructor, when it can be read without running hostile code. */
function constructorName(value: object): string | undefined | null {
  try {
    const proto: unknown = Object.getPrototypeOf(value);
    if (proto === null) return null;
    const ctor: unknown = Object.getOwnPropertyDescriptor(proto, "constructor")?.value;
    if (typeof ctor !== "function") return undefined;
    const name: unknown = Object.getOwnPropertyDescriptor(ctor, "name")?.value;
    return typeof name === "string" && name !== "" ? name : undefined;
  } catch {
    return undefined;
  }
}

function isErrorObject(value: object): boolean {
  if (types?.isNativeError(value) === true) return true;
  try {
    return value instanceof Error || Object.prototype.toString.call(value) === "[object Error]";
  } catch {
    return false;
  }
}

function describeError(value: object): ThrownDescription {
  const name = readString(value, "name");
  const message = readString(value, "message");
  const stackThrows = readThrows(value, "stack");
  const kind = name ?? constructorName(value) ?? "Error";
  if (name !== undefined && message !== undefined && !stackThrows) {
    return { type: "Error", text: cut(`${name}: ${message}`), error: { name, message } };
  }
  const unreadable = [
    name === undefined && "name",
    message === undefined && "message",
    stackThrows && "stack",
  ]
    .filter((part): part is string => part !== false)
    .join(", ");
  const known = message === undefined ? "" : ` (message: ${JSON.stringify(cut(message))})`;
  return { type: "Error", text: `an error (${kind}) whose ${unreadable} cannot be read as text${known}` };
}

function describeObject(value: object): ThrownDescription {
  const ctor = constructorName(value);
  const kind =
    ctor === null
      ? "an object with no prototype"
      : ctor === undefined || ctor === "Object"
        ? "an object"
        : `${/^[AEIOU]/.test(ctor) ? "an" : "a"} ${ctor}`;
  let json: string | undefined;
  try {
    json = JSON.stringify(value);
  } catch {
    json = undefined;
  }
  if (json !== undefined) return { type: "object", text: `${kind} (${cut(json)})` };
  let keys = "";
  try {
    const names = Object.keys(value);
    keys = names.length === 0 ? "" : ` with keys ${cut(names.slice(0, 10).join(", "))}`;
  } catch {
    keys = "";
  }
  return {
    type: "object",
    text: `${kind}${keys} that cannot be serialised (circular, a BigInt, or a throwing toJSON)`,
  };
}

/**
 * Describes any value that was thrown (or a promise was rejected with), without ever throwing itself: no
 * `toString`, no getters that are not guarded, no Proxy traps. Used wherever agentloop turns a foreign
 * failure into a message (see {@link toError}).
 */
export function describeThrown(value: unknown): ThrownDescription {
  try {
    if (value === null) return { type: "null", text: "null" };
    switch (typeof value) {
      case "undefined":
        return { type: "undefined", text: "undefined" };
      case "string":
        return { type: "string", text: `the string ${JSON.stringify(cut(value))}` };
      case "number":
      case "boolean":
        return { type: typeof value, text: `the ${typeof value} ${String(value)}` };
      case "bigint":
        return { type: "bigint", text: `a BigInt (${cut(value.toString())}n)` };
      case "symbol":
        return { type: "symbol", text: `a Symbol (${cut(value.toString())})` };
      default:
        break;
    }
    const object = value as object;
    if (types?.isProxy(object) === true) return { type: "Proxy", text: "a Proxy object" };
    if (typeof object === "function") {
      const name = Object.getOwnPropertyDescriptor(object, "name")?.value;
      return {
        type: "function",
        text: typeof name === "string" && name !== "" ? `a function (${name})` : "a function",
      };
    }
    return isErrorObject(object) ? describeError(object) : describeObject(object);
  } catch {
    return { type: "unknown", text: "a value that cannot be described" };
  }
}
