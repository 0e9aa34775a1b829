import { InvalidArgumentError } from "../errors/invalid-argument-error.js";
import { StoreError } from "../errors/store-error.js";
import { appendToFile } from "../stores/append-to-file.js";
import { checkLockTtl } from "../stores/check-lock-ttl.js";
import { decodeFileName, encodeFileName } from "../stores/encode-file-name.js";
import { acquireFileLock } from "../stores/file-lock.js";
import { KeyedMutex } from "../stores/keyed-mutex.js";
import { nodeFs, nodePath } from "../stores/node-fs.js";
import type { SessionLock } from "../stores/session-store.js";
import { writeFileAtomic } from "../stores/write-file-atomic.js";
import { checkRunId } from "./check-run-id.js";
import { compactRecords } from "./compact-records.js";
import { type JournalRecord, serializeJournalRecord } from "./journal-record.js";
import { readJournalFile } from "./read-journal-file.js";
import type { JournalRunInfo, RunJournal } from "./run-journal.js";
import { toJournalError } from "./to-journal-error.js";

/** Options of {@link FileJournal}. */
export interface FileJournalOptions {
  /** The directory holding the journal files (created on the first write). */
  dir: string;
  /**
   * `fsync` every append before it resolves, so journaled steps also survive a power loss or OS crash
   * (default `false`: they survive a crash of the process).
   */
  sync?: boolean;
  /** How long a run lock lives without renewal (default 60 s; see `RunJournal.lockTtlMs`). */
  lockTtlMs?: number;
}

const SUFFIX = ".jsonl";
const FINISHED_SUFFIX = ".done";

/**
 * A {@link RunJournal} on the local file system: one append-only JSONL file per run,
 * `<dir>/<encoded run id>.jsonl`, each line one versioned {@link JournalRecord}.
 *
 * - Ids are encoded (see `encodeFileName`) so no id can name a file outside `dir`; ids whose encoding exceeds
 *   200 characters are rejected with `StoreError`.
 * - The records of one `append` go out in one `write`, so a crash leaves at most a torn last line, which
 *   `load` ignores and the next append removes. A corrupt line anywhere else is reported (`StoreError` with
 *   file and line), never skipped. Appends of one run from one `FileJournal` apply in call order.
 * - A finished run also has an empty marker file `<encoded run id>.done` (written after its `end` record), so
 *   `list` needs no file contents. A crash between the two is repaired by the next `load` of the run.
 * - `compact` rewrites the file atomically (temporary file + rename) and keeps its modification time, which
 *   is the run's `updatedAt`.
 * - Several processes may read one directory. `lock` creates `<encoded run id>.lock` exclusively (token, pid,
 *   expiry; renewable; taken over when expired or when its process died), so `runDurably` attempts of one
 *   run never overlap, whichever `FileJournal` object or process makes them.
 */
export class FileJournal implements RunJournal {
  /** The absolute directory of the journal files. */
  readonly dir: string;
  private readonly sync: boolean;
  private readonly mutex = new KeyedMutex();
  /** How long a run lock lives without renewal (see `RunJournal.lockTtlMs`). */
  readonly lockTtlMs: number | undefined;

  constructor(options: FileJournalOptions) {
    if (typeof options?.dir !== "string" || options.dir === "") {
      throw new InvalidArgumentError({ argument: "dir", message: "expected a directory path" });
    }
    this.dir = nodePath("FileJournal").resolve(options.dir);
    nodeFs("FileJournal");
    this.sync = options.sync ?? false;
    this.lockTtlMs = checkLockTtl(options.lockTtlMs);
  }

  /** Takes the run's lock file (see the class description), or resolves `undefined` while it is held. */
  async lock(runId: string, options: { ttlMs: number }): Promise<SessionLock | undefined> {
    checkRunId(runId);
    return this.run("lock", runId, async () => {
      const file = this.fileOf(runId, "lock");
      await nodeFs().mkdir(this.dir, { recursive: true });
      const lock = await acquireFileLock({
        path: `${file.slice(0, -SUFFIX.length)}.lock`,
        ttlMs: options.ttlMs,
      });
      if (lock === undefined) return undefined;
      return {
        release: () => this.run("release", runId, () => lock.release()),
        renew: () => this.run("renew", runId, () => lock.renew?.() ?? Promise.resolve(false)),
      };
    });
  }

  /** Appends the records in one write (serialised first: a record JSON cannot hold writes nothing). */
  async append(runId: string, records: readonly JournalRecord[]): Promise<void> {
    checkRunId(runId);
    if (records.length === 0) return;
    await this.run("append", runId, async () => {
      const file = this.fileOf(runId, "append");
      let text = "";
      for (const record of records) text += `${serializeJournalRecord(record)}\n`;
      const finished = records.some((record) => record.kind === "end");
      await this.mutex.run(file, async () => {
        await nodeFs().mkdir(this.dir, { recursive: true });
        await appendToFile({ file, text, sync: this.sync });
        if (finished) await nodeFs().writeFile(markerOf(file), "");
      });
    });
  }

  /** The run's records, or `undefined` when it has no file. */
  async load(runId: string): Promise<JournalRecord[] | undefined> {
    checkRunId(runId);
    return this.run("load", runId, async () => {
      const file = this.fileOf(runId, "load");
      const content = await readJournalFile({ file, runId });
      if (content === undefined) return undefined;
      if (content.records.some((record) => record.kind === "end")) {
        // Repairs a crash between an end record and its marker (best effort: load still succeeds).
        await nodeFs()
          .stat(markerOf(file))
          .catch(() =>
            nodeFs()
              .writeFile(markerOf(file), "")
              .catch(() => undefined),
          );
      }
      return content.records;
    });
  }

  /** Rewrites a finished run's file to hold only its `start` and `end` records (keeping its mtime). */
  async compact(runId: string): Promise<boolean> {
    checkRunId(runId);
    return this.run("compact", runId, async () => {
      const file = this.fileOf(runId, "compact");
      return this.mutex.run(file, async () => {
        const content = await readJournalFile({ file, runId, operation: "compact" });
        if (content === undefined) return false;
        const indexes = content.records.map((_, index) => index);
        const kept = compactRecords({ records: indexes, kindOf: (index) => content.records[index]?.kind });
        if (kept === undefined) return false;
        const before = await nodeFs().stat(file);
        await writeFileAtomic({ file, data: kept.map((index) => `${content.lines[index]}\n`).join("") });
        // The middle of the same millisecond: a float round trip can not move it to the one before.
        await nodeFs().utimes(file, before.atime, (Math.floor(before.mtimeMs) + 0.5) / 1000);
        return true;
      });
    });
  }

  /** Deletes the run's file and marker. */
  async delete(runId: string): Promise<void> {
    checkRunId(runId);
    await this.run("delete", runId, async () => {
      const file = this.fileOf(runId, "delete");
      await this.mutex.run(file, async () => {
        await nodeFs().rm(file, { force: true });
        await nodeFs().rm(markerOf(file), { force: true });
      });
    });
  }

  /** The runs of `dir` (from the file names), most recently updated first. */
  async list(): Promise<JournalRunInfo[]> {
    return this.run("list", undefined, async () => {
      let names: string[];
      try {
        names = await nodeFs().readdir(this.dir);
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code === "ENOENT") return [];
        throw error;
      }
      const present = new Set(names);
      const infos = await Promise.all(
        names.map(async (name): Promise<JournalRunInfo | undefined> => {
          if (!name.endsWith(SUFFIX)) return undefined;
          const encoded = name.slice(0, -SUFFIX.length);
          const runId = decodeFileName(encoded);
          if (runId === undefined) return undefined;
          const stats = await nodeFs()
            .stat(nodePath().join(this.dir, name))
            .catch(() => undefined);
          if (stats === undefined) return undefined;
          const finished = present.has(encoded + FINISHED_SUFFIX);
          return { runId, finished, updatedAt: Math.floor(stats.mtimeMs) };
        }),
      );
      return infos.filter((info) => info !== undefined).sort((a, b) => b.updatedAt - a.updatedAt);
    });
  }

  /** The run's file path. */
  private fileOf(runId: string, operation: string): string {
    const name = encodeFileName(runId);
    const file = name === undefined ? undefined : nodePath().join(this.dir, name + SUFFIX);
    if (file === undefined || nodePath().dirname(file) !== this.dir) {
      throw new StoreError({
        message: `FileJournal cannot store run id ${JSON.stringify(runId)}: too long for a file name or not valid UTF-16`,
        operation,
      });
    }
    return file;
  }

  private async run<T>(operation: string, runId: string | undefined, task: () => Promise<T>): Promise<T> {
    try {
      return await task();
    } catch (error) {
      throw toJournalError({ error, journal: "FileJournal", operation, runId });
    }
  }
}

/** The marker file of a finished run. */
function markerOf(file: string): string {
  return file.slice(0, -SUFFIX.length) + FINISHED_SUFFIX;
}
