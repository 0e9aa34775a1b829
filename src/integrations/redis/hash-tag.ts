import { createHash } from "node:crypto";

/**
 * The Redis Cluster hash tag of one session's or one run's keys: `{<id>}`, so all its keys hash to one slot
 * (Redis hashes only what is between the first `{` and the next `}`) while different ids spread over the
 * cluster. An id that is empty or holds a `}` (which would end the tag early, or leave it empty) is tagged by
 * the first 16 hex digits of its SHA-1 instead, followed by the id itself: `{<sha1>}<id>`. The two forms never
 * collide (the first ends at its only `}`).
 */
export function hashTag(id: string): string {
  if (id !== "" && !id.includes("}")) return `{${id}}`;
  return `{${createHash("sha1").update(id).digest("hex").slice(0, 16)}}${id}`;
}

/** Whether `key` holds a hash tag: a `{` followed later by a `}` with at least one character between. */
export function hasHashTag(key: string): boolean {
  const open = key.indexOf("{");
  if (open < 0) return false;
  const close = key.indexOf("}", open + 1);
  return close > open + 1;
}

/**
 * The part of `key` Redis Cluster hashes to pick its slot: the text between the first `{` and the next `}`
 * when that is not empty, the whole key otherwise. Keys with the same such part share a slot.
 */
export function hashedPart(key: string): string {
  const open = key.indexOf("{");
  if (open < 0) return key;
  const close = key.indexOf("}", open + 1);
  return close > open + 1 ? key.slice(open + 1, close) : key;
}
