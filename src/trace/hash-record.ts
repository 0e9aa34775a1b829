import { canonicalJson, RawJson } from "../util/canonical-json.js";
import { sha256Hex } from "../util/sha256-hex.js";
import type { TraceRecordKind } from "./trace-types.js";

/** Options of {@link hashRecord}. */
export interface HashRecordOptions {
  seq: number;
  kind: TraceRecordKind;
  /** The record's data, or its canonical JSON already computed (as {@link RawJson}). */
  data: unknown;
  prevHash: string;
}

/**
 * The hash of a trace record: sha256 (hex) of the canonical JSON of `{ seq, kind, data, prevHash }`. Needs
 * node:crypto, or `loadSha256()` finished where there is none (see util/sha256-hex.ts).
 */
export function hashRecord({ seq, kind, data, prevHash }: HashRecordOptions): string {
  const dataJson = data instanceof RawJson ? data.json : canonicalJson(data);
  // The canonical form of { seq, kind, data, prevHash }: keys in sorted order.
  const text = `{"data":${dataJson},"kind":${plainJson(kind)},"prevHash":${plainJson(prevHash)},"seq":${canonicalJson(seq)}}`;
  return sha256Hex(text);
}

/** `JSON.stringify(text)`, without the call for a kind or hex hash (a record read from a file may hold anything). */
function plainJson(text: string): string {
  return typeof text === "string" && /^[a-z0-9_]*$/.test(text) ? `"${text}"` : JSON.stringify(text);
}
