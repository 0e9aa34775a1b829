import { readdirSync, readFileSync } from "node:fs";
import { bedrockEventFrame } from "./encode-event-stream.js";

/** The recorded fixtures: `<repo>/test/fixtures/recorded/amazon-bedrock/` (this file is 4 levels deep). */
export const BEDROCK_FIXTURES = new URL(
  "../../../../test/fixtures/recorded/amazon-bedrock/",
  import.meta.url,
);

/** Every fixture file name, sorted. */
export function listFixtures(): string[] {
  return readdirSync(BEDROCK_FIXTURES).sort();
}

/** A fixture's bytes. */
export function readFixture(name: string): Buffer {
  return readFileSync(new URL(name, BEDROCK_FIXTURES));
}

/** The recorded error of `error-400-validation.json`: status, headers and body. */
export interface RecordedError {
  status: number;
  headers: Record<string, string>;
  body: unknown;
}

/** Reads a wrapper-format error fixture (`{recordedAt, modelId, status, headers, body}`). */
export function readRecordedError(name: string): RecordedError {
  return JSON.parse(readFixture(name).toString("utf8")) as RecordedError;
}

/**
 * The ConverseStream body of a streamed fixture: `.eventstream` files as recorded; `.chunks.txt` files (one
 * decoded `{"<eventType>": payload}` object per line, vercel/ai's view of a stream) framed again as events.
 */
export function streamBody(name: string): Buffer {
  const bytes = readFixture(name);
  if (name.endsWith(".eventstream")) return bytes;
  if (!name.endsWith(".chunks.txt")) throw new Error(`not a stream fixture: ${name}`);
  const frames = bytes
    .toString("utf8")
    .split("\n")
    .filter((line) => line.trim() !== "")
    .map((line) => {
      const [[eventType, payload]] = Object.entries(JSON.parse(line) as Record<string, unknown>) as [
        [string, unknown],
      ];
      return bedrockEventFrame(eventType, payload);
    });
  return Buffer.concat(frames);
}
