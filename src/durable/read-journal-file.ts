import { StoreError } from "../errors/store-error.js";
import { nodeFs } from "../stores/node-fs.js";
import { type JournalRecord, parseJournalRecord } from "./journal-record.js";

/** Options of {@link readJournalFile}. */
export interface ReadJournalFileOptions {
  /** The run's JSONL file. */
  file: string;
  runId: string;
  /** The operation reported by errors (default `"load"`). */
  operation?: string;
}

/** A journal file's records, with the exact line each was read from. */
export interface JournalFileContent {
  records: JournalRecord[];
  /** `lines[i]` is the text of `records[i]` (without its `\n`). */
  lines: string[];
}

/**
 * Reads a run's JSONL journal file, or `undefined` when it does not exist. Every line is one record. A final
 * line without its `\n` that is not valid JSON is a write torn by a crash and is ignored (the appends before it
 * are intact); any other unparsable or invalid line, and any record from a newer schema version, throws
 * {@link StoreError} naming the file and line. Blank lines are skipped.
 */
export async function readJournalFile(
  options: ReadJournalFileOptions,
): Promise<JournalFileContent | undefined> {
  const { file, runId } = options;
  const operation = options.operation ?? "load";
  let text: string;
  try {
    text = await nodeFs().readFile(file, "utf8");
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "ENOENT") return undefined;
    throw new StoreError({
      message: `Cannot read the journal of run "${runId}" from ${file}: ${(error as Error).message}`,
      operation,
      cause: error,
    });
  }
  const all = text.split("\n");
  const content: JournalFileContent = { records: [], lines: [] };
  for (let index = 0; index < all.length; index++) {
    const line = all[index]!;
    if (line.trim() === "") continue;
    const terminated = index < all.length - 1;
    let value: unknown;
    try {
      value = JSON.parse(line);
    } catch (error) {
      if (!terminated) break; // a torn last line
      throw new StoreError({
        message: `Run "${runId}": ${file} line ${index + 1} is corrupt (${(error as Error).message}); fix or remove the line to load the run`,
        operation,
        cause: error,
      });
    }
    content.records.push(parseJournalRecord({ value, runId, where: `${file} line ${index + 1}`, operation }));
    content.lines.push(line);
  }
  return content;
}
