import { StoreError } from "../errors/store-error.js";
import { nodeFs } from "./node-fs.js";
import { parseSessionRecord } from "./parse-session-record.js";
import type { SessionRecord } from "./session-store.js";

/** Options of {@link readSessionFile}. */
export interface ReadSessionFileOptions {
  /** The session's JSONL file. */
  file: string;
  sessionId: string;
  /** The operation reported by errors (default `"load"`). */
  operation?: string;
}

/**
 * Reads a session's JSONL file into its records, or `undefined` when the file does not exist. Every line is
 * one record. A final line without its `\n` that is not valid JSON is a write torn by a crash and is ignored
 * (the appends before it are intact); any other unparsable or invalid line, and any record from a newer
 * schema version, throws {@link StoreError} naming the file and line: history is never silently dropped.
 * Blank lines are skipped.
 */
export async function readSessionFile(options: ReadSessionFileOptions): Promise<SessionRecord[] | undefined> {
  const { file, sessionId } = options;
  const operation = options.operation ?? "load";
  let text: string;
  try {
    text = await nodeFs().readFile(file, "utf8");
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "ENOENT") return undefined;
    throw new StoreError({
      message: `Cannot read session "${sessionId}" from ${file}: ${(error as Error).message}`,
      operation,
      sessionId,
      cause: error,
    });
  }
  const lines = text.split("\n");
  const records: SessionRecord[] = [];
  for (let index = 0; index < lines.length; index++) {
    const line = lines[index]!;
    if (line.trim() === "") continue;
    const terminated = index < lines.length - 1;
    let value: unknown;
    try {
      value = JSON.parse(line);
    } catch (error) {
      if (!terminated) break; // a torn last line
      throw new StoreError({
        message: `Session "${sessionId}": ${file} line ${index + 1} is corrupt (${(error as Error).message}); fix or remove the line to load the session`,
        operation,
        sessionId,
        cause: error,
      });
    }
    records.push(parseSessionRecord({ value, sessionId, where: `${file} line ${index + 1}`, operation }));
  }
  return records;
}
