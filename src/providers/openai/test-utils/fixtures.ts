import { readdirSync, readFileSync } from "node:fs";

/** The recorded OpenAI Chat fixtures: `<repo>/test/fixtures/recorded/openai-chat/` (this file is 4 levels deep). */
export const OPENAI_CHAT_FIXTURES = new URL(
  "../../../../test/fixtures/recorded/openai-chat/",
  import.meta.url,
);

/** Every fixture file name, sorted. */
export function listFixtures(): string[] {
  return readdirSync(OPENAI_CHAT_FIXTURES).sort();
}

/** A fixture's bytes. */
export function readFixture(name: string): Buffer {
  return readFileSync(new URL(name, OPENAI_CHAT_FIXTURES));
}

/**
 * The SSE response body of a streamed fixture: `.sse` files as recorded; `.chunks.txt` files (one JSON
 * payload per line) wrapped as `data: <line>\n\n` with `data: [DONE]\n\n` appended.
 */
export function streamBody(name: string): Buffer {
  const bytes = readFixture(name);
  if (name.endsWith(".sse")) return bytes;
  if (!name.endsWith(".chunks.txt")) throw new Error(`not a stream fixture: ${name}`);
  const lines = bytes
    .toString("utf8")
    .split("\n")
    .filter((line) => line.trim() !== "");
  return Buffer.from(`${lines.map((line) => `data: ${line}\n\n`).join("")}data: [DONE]\n\n`);
}

/** A small seeded PRNG (mulberry32), so re-chunking tests are reproducible. */
export function seededRandom(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4_294_967_296;
  };
}

/** Random split offsets for a body of `length` bytes: chunk sizes between 1 and `maxChunk`. */
export function randomSplits(length: number, seed: number, maxChunk: number): number[] {
  const random = seededRandom(seed);
  const cuts: number[] = [];
  for (let at = 1 + Math.floor(random() * maxChunk); at < length; at += 1 + Math.floor(random() * maxChunk)) {
    cuts.push(at);
  }
  return cuts;
}

/** Offsets that fall inside multi-byte UTF-8 sequences (one after each lead byte). */
export function utf8InnerOffsets(bytes: Uint8Array): number[] {
  const offsets: number[] = [];
  for (let i = 0; i < bytes.length; i++) {
    const byte = bytes[i] as number;
    if (byte >= 0xc0) offsets.push(i + 1);
  }
  return offsets;
}
