import { InvalidArgumentError } from "../errors/invalid-argument-error.js";

/** How text is cut into stream deltas: a fixed number of characters, or `"word"` boundaries. */
export type ChunkSize = number | "word";

/**
 * Cuts `text` into the pieces a streaming API would send. With a number, pieces of that many characters
 * (UTF-16 units, the last one shorter). With `"word"`, each piece is `wordsPerChunk` words (default 1) with
 * their leading whitespace, the way token streams look (`"Hello"`, `" world"`); trailing whitespace stays on
 * the last piece. The pieces always join back to `text`; an empty text gives no pieces.
 */
export function splitText({
  text,
  chunkSize,
  wordsPerChunk = 1,
}: {
  text: string;
  chunkSize: ChunkSize;
  wordsPerChunk?: number;
}): string[] {
  if (text === "") return [];
  if (chunkSize === "word") return splitWords(text, wordsPerChunk);
  const pieces: string[] = [];
  for (let i = 0; i < text.length; i += chunkSize) pieces.push(text.slice(i, i + chunkSize));
  return pieces;
}

/** Throws {@link InvalidArgumentError} unless `value` is `"word"` or a positive integer. */
export function validateChunkSize({ argument, value }: { argument: string; value: ChunkSize }): void {
  if (value === "word") return;
  if (!Number.isInteger(value) || value < 1) {
    throw new InvalidArgumentError({
      argument,
      message: `expected a positive integer or "word", got ${value}`,
    });
  }
}

function splitWords(text: string, wordsPerChunk: number): string[] {
  const words = text.match(/\s*\S+/g) ?? [];
  const pieces: string[] = [];
  for (let i = 0; i < words.length; i += wordsPerChunk) {
    pieces.push(words.slice(i, i + wordsPerChunk).join(""));
  }
  const covered = pieces.reduce((length, piece) => length + piece.length, 0);
  const rest = text.slice(covered);
  if (rest !== "") {
    if (pieces.length === 0) pieces.push(rest);
    else pieces[pieces.length - 1] += rest;
  }
  return pieces;
}
