import { UnsupportedRuntimeError } from "../errors/unsupported-runtime-error.js";
import { findNodeBuiltin } from "./node-builtin.js";

type Hash = (text: string) => string;

let hash: Hash | undefined;
let loading: Promise<void> | undefined;

/** node:crypto's SHA-256 where the runtime has Node's built-ins (fast, native). */
function nodeHash(): Hash | undefined {
  const crypto = findNodeBuiltin("node:crypto");
  if (crypto === undefined) return undefined;
  // One-shot `crypto.hash` (Node 20.12+, 22): about a third cheaper than a Hash object per record.
  const oneShot = (crypto as { hash?: (algorithm: string, data: string, encoding: "hex") => string }).hash;
  if (typeof oneShot === "function") return (text) => oneShot("sha256", text, "hex");
  return (text) => crypto.createHash("sha256").update(text).digest("hex");
}

/** Whether {@link sha256Hex} can hash right now (node:crypto is there, or {@link loadSha256} has finished). */
export function canSha256(): boolean {
  hash ??= nodeHash();
  return hash !== undefined;
}

/**
 * Makes {@link sha256Hex} work where the runtime has no `node:crypto` (browsers, workerd without
 * `nodejs_compat`): loads `@noble/hashes`' SHA-256 (audited, pure JavaScript) once. A no-op on Node, Bun and
 * Deno, which hash with node:crypto.
 */
export function loadSha256(): Promise<void> {
  if (canSha256()) return Promise.resolve();
  loading ??= import("@noble/hashes/sha2.js").then(({ sha256 }) => {
    const encoder = new TextEncoder();
    hash = (text) =>
      Array.from(sha256(encoder.encode(text)), (b) => b.toString(16).padStart(2, "0")).join("");
  });
  return loading;
}

/**
 * SHA-256 of `text`'s UTF-8 bytes as lowercase hex, synchronously. Throws `UnsupportedRuntimeError` where
 * there is no `node:crypto` and {@link loadSha256} has not finished.
 */
export function sha256Hex(text: string): string {
  if (!canSha256() || hash === undefined) {
    throw new UnsupportedRuntimeError({ feature: "trace hashing", module: "node:crypto" });
  }
  return hash(text);
}
