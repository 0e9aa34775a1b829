import { readdirSync, readFileSync } from "node:fs";

/** The recorded fixtures: `<repo>/test/fixtures/recorded/google-gemini/` (this file is 4 levels deep). */
export const GOOGLE_FIXTURES = new URL("../../../../test/fixtures/recorded/google-gemini/", import.meta.url);

/** Every fixture file name, sorted. */
export function listFixtures(): string[] {
  return readdirSync(GOOGLE_FIXTURES).sort();
}

/** A fixture's bytes. */
export function readFixture(name: string): Buffer {
  return readFileSync(new URL(name, GOOGLE_FIXTURES));
}

/** A fixture parsed as JSON. */
export function readJsonFixture<T = unknown>(name: string): T {
  return JSON.parse(readFixture(name).toString("utf8")) as T;
}

/**
 * The response body of a streamed fixture: `.sse` files and the JSON-array stream as recorded; `.chunks.txt`
 * files (one JSON payload per line) wrapped as `data: <line>\r\n\r\n`, the framing Gemini uses.
 */
export function streamBody(name: string): Buffer {
  const bytes = readFixture(name);
  if (name.endsWith(".sse") || name.startsWith("stream-json-array-")) return bytes;
  if (!name.endsWith(".chunks.txt")) throw new Error(`not a stream fixture: ${name}`);
  const lines = bytes
    .toString("utf8")
    .split("\n")
    .filter((line) => line.trim() !== "");
  return Buffer.from(lines.map((line) => `data: ${line}\r\n\r\n`).join(""));
}

/** The content type a stream fixture is served with: the JSON-array stream is `application/json`. */
export function streamContentType(name: string): string {
  return name.startsWith("stream-json-array-") ? "application/json" : "text/event-stream";
}
