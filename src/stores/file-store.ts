import { InvalidArgumentError } from "../errors/invalid-argument-error.js";
import { StoreError } from "../errors/store-error.js";
import type { Message } from "../models/message.js";
import { appendToFile } from "./append-to-file.js";
import { checkLockTtl } from "./check-lock-ttl.js";
import { compactSessionRecords } from "./compact-session-records.js";
import { decodeFileName, encodeFileName } from "./encode-file-name.js";
import { acquireFileLock } from "./file-lock.js";
import { foldSessionRecords } from "./fold-session-records.js";
import { KeyedMutex } from "./keyed-mutex.js";
import { nodeFs, nodePath } from "./node-fs.js";
import { readSessionFile } from "./read-session-file.js";
import { removeStaleTempFiles, STALE_TEMP_FILE_MS } from "./remove-stale-temp-files.js";
import {
  type AppendOptions,
  type JsonValue,
  SESSION_RECORD_VERSION,
  type SessionData,
  type SessionInfo,
  type SessionLock,
  type SessionRecord,
  type SessionStore,
} from "./session-store.js";
import { toStoreError } from "./to-store-error.js";
import { withSessionLock } from "./with-session-lock.js";
import { writeFileAtomic } from "./write-file-atomic.js";

/** Options of {@link FileStore}. */
export interface FileStoreOptions {
  /** The directory holding the session files (created on the first write). */
  dir: string;
  /**
   * `fsync` every write before it resolves, so acknowledged writes also survive a power loss or OS crash
   * (default `false`: they survive a crash of the process, which is what matters most, at no latency cost).
   */
  sync?: boolean;
  /**
   * On `replace`, a file larger than this many bytes is compacted: rewritten (atomically) to hold only the
   * last state and the new snapshot. Smaller files get the snapshot appended, unless more than half of the file
   * would be superseded records (it is larger than twice the new snapshot plus 8 KiB): that file is compacted
   * too, so a long conversation's file (and the cost of loading it) stays proportional to its current history.
   * Default 1 MiB; `Infinity` never compacts.
   */
  compactAboveBytes?: number;
  /** How long a session lock lives without renewal (default 60 s; see `SessionStore.lockTtlMs`). */
  lockTtlMs?: number;
}

const SUFFIX = ".jsonl";
/** How many sessions' last append ids a FileStore remembers (a retried append comes right after its first try). */
const LAST_APPEND_IDS = 1_000;

/**
 * The embedded default {@link SessionStore}: one append-only JSONL file per session,
 * `<dir>/<encoded session id>.jsonl`, each line one versioned {@link SessionRecord}.
 *
 * - Ids are encoded (see `encodeFileName`) so no id can name a file outside `dir`; ids whose encoding exceeds
 *   200 characters are rejected with {@link StoreError}.
 * - Writes are crash-safe: the lines of one call go out in one `write`, so a crash leaves at most a torn last
 *   line, which `load` ignores and the next write removes. A corrupt line anywhere else is reported
 *   ({@link StoreError} with file and line), never skipped. Writes of one session from one process are
 *   serialised; across processes, runs are serialised by the session lock.
 * - `append` with an `appendId` the session's last append (from this store) already had writes nothing; the
 *   id is kept in the records, so `load` drops a repeated call in any case.
 * - `replace` appends a snapshot record, or compacts a large file (see `compactAboveBytes`). `saveState`
 *   appends a state record. Compaction writes a temporary `<file>.<random>.tmp` and renames it; temporary
 *   files an interrupted compaction left behind (older than a minute) are removed at the store's first write,
 *   at every `compact` and every compaction past `compactAboveBytes`, and at most once a minute by the others.
 * - `lock` creates `<dir>/<encoded id>.lock` exclusively (pid, expiry); expired locks and locks of dead
 *   processes on this machine are taken over; `renew` extends the expiry.
 * - `list` reads the directory; `updatedAt` is the file's modification time.
 */
export class FileStore implements SessionStore {
  /** The absolute directory of the session files. */
  readonly dir: string;
  private readonly sync: boolean;
  private readonly compactAboveBytes: number;
  private readonly mutex = new KeyedMutex();
  /** The last append id written per session file by this store. */
  private readonly lastAppend = new Map<string, string>();
  private swept: Promise<void> | undefined;
  /** When this store last swept stale temporary files (ms since the epoch). */
  private sweptAt = 0;
  /** How long a session lock lives without renewal (see `SessionStore.lockTtlMs`). */
  readonly lockTtlMs: number | undefined;

  constructor(options: FileStoreOptions) {
    if (typeof options?.dir !== "string" || options.dir === "") {
      throw new InvalidArgumentError({ argument: "dir", message: "expected a directory path" });
    }
    const compactAboveBytes = options.compactAboveBytes ?? 1024 * 1024;
    if (!(compactAboveBytes >= 0)) {
      throw new InvalidArgumentError({ argument: "compactAboveBytes", message: "expected a number >= 0" });
    }
    this.dir = nodePath("FileStore").resolve(options.dir);
    nodeFs("FileStore");
    this.sync = options.sync ?? false;
    this.compactAboveBytes = compactAboveBytes;
    this.lockTtlMs = checkLockTtl(options.lockTtlMs);
  }

  /** Loads a session, or `undefined` when it has no file. */
  async load(sessionId: string): Promise<SessionData | undefined> {
    return this.run("load", sessionId, async () => {
      const file = this.fileOf(sessionId, "load");
      const records = await readSessionFile({ file, sessionId });
      if (records === undefined) return undefined;
      return foldSessionRecords({ sessionId, records }) ?? { sessionId, messages: [], state: {}, records: 0 };
    });
  }

  /** Appends one message record per message, all in one write (an empty list writes nothing). */
  async append(sessionId: string, messages: readonly Message[], options?: AppendOptions): Promise<void> {
    if (messages.length === 0) return;
    const appendId = options?.appendId;
    await this.run("append", sessionId, async () => {
      const at = Date.now();
      const text = lines(
        messages.map(
          (message): SessionRecord =>
            appendId === undefined
              ? { v: SESSION_RECORD_VERSION, type: "message", at, message }
              : { v: SESSION_RECORD_VERSION, type: "message", at, message, appendId },
        ),
      );
      const file = this.fileOf(sessionId, "append");
      await this.mutex.run(file, async () => {
        if (appendId !== undefined && this.lastAppend.get(file) === appendId) return;
        await this.ensureDir();
        await appendToFile({ file, text, sync: this.sync });
        if (appendId !== undefined) {
          // Only a retry right after an append needs its id: keep the most recent sessions' ids, bounded.
          this.lastAppend.delete(file);
          this.lastAppend.set(file, appendId);
          if (this.lastAppend.size > LAST_APPEND_IDS) {
            const oldest = this.lastAppend.keys().next().value;
            if (oldest !== undefined) this.lastAppend.delete(oldest);
          }
        }
      });
    });
  }

  /** Appends a snapshot record, or compacts the file when it is larger than `compactAboveBytes`. */
  async replace(sessionId: string, messages: readonly Message[]): Promise<void> {
    await this.run("replace", sessionId, async () => {
      const snapshot = lines([
        { v: SESSION_RECORD_VERSION, type: "snapshot", at: Date.now(), messages: [...messages] },
      ]);
      const file = this.fileOf(sessionId, "replace");
      // Queued synchronously, so concurrent calls apply in call order.
      await this.mutex.run(file, async () => {
        await this.ensureDir();
        const size = await nodeFs()
          .stat(file)
          .then(
            (stats) => stats.size,
            () => 0,
          );
        const limit = this.compactAboveBytes;
        if (shouldCompact({ size, snapshotBytes: Buffer.byteLength(snapshot), limit })) {
          const records = await readSessionFile({ file, sessionId, operation: "replace" }).catch(
            () => undefined,
          );
          if (records !== undefined) {
            const state = records.findLast((record) => record.type === "state");
            // Sweeping reads the whole directory: done at every compaction past `compactAboveBytes`, but at
            // most once a minute for the frequent proportional ones (a temporary file is stale after a minute).
            if (size > limit || Date.now() - this.sweptAt >= STALE_TEMP_FILE_MS) {
              this.sweptAt = Date.now();
              await removeStaleTempFiles({ dir: this.dir });
            }
            await writeFileAtomic({ file, data: (state === undefined ? "" : lines([state])) + snapshot });
            return;
          }
        }
        await appendToFile({ file, text: snapshot, sync: this.sync });
      });
    });
  }

  /** Appends a state record (the last one wins on load). */
  async saveState(sessionId: string, state: { [key: string]: JsonValue }): Promise<void> {
    await this.run("saveState", sessionId, async () => {
      await this.write(
        sessionId,
        "saveState",
        lines([{ v: SESSION_RECORD_VERSION, type: "state", at: Date.now(), state }]),
      );
    });
  }

  /**
   * Rewrites the session file as its compact form (see `SessionStore.compact`): a temporary file renamed over
   * it, so a crash leaves the old file or the new one. It holds the session lock (`SessionBusyError` while a
   * run of any process holds it) and this store's write queue of the file; the file keeps its modification
   * time. A retry of the last append is still dropped (the id is kept in this store's memory, as before).
   */
  async compact(sessionId: string): Promise<boolean> {
    const file = this.fileOf(sessionId, "compact");
    return withSessionLock({
      store: this,
      sessionId,
      task: () =>
        this.run("compact", sessionId, () =>
          this.mutex.run(file, async () => {
            const before = await nodeFs()
              .stat(file)
              .catch(() => undefined);
            const records = await readSessionFile({ file, sessionId, operation: "compact" });
            if (before === undefined || records === undefined) return false;
            const compacted = compactSessionRecords({ sessionId, records });
            if (compacted === undefined) return false;
            await this.ensureDir();
            await removeStaleTempFiles({ dir: this.dir });
            await writeFileAtomic({ file, data: lines(compacted.records) });
            await nodeFs()
              .utimes(file, before.atimeMs / 1000, before.mtimeMs / 1000)
              .catch(() => undefined);
            return true;
          }),
        ),
    });
  }

  /** Lists the session files of `dir`, most recently modified first. */
  async list(): Promise<SessionInfo[]> {
    return this.run("list", undefined, async () => {
      let names: string[];
      try {
        names = await nodeFs().readdir(this.dir);
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code === "ENOENT") return [];
        throw error;
      }
      const infos = await Promise.all(
        names.map(async (name): Promise<SessionInfo | undefined> => {
          if (!name.endsWith(SUFFIX)) return undefined;
          const sessionId = decodeFileName(name.slice(0, -SUFFIX.length));
          if (sessionId === undefined) return undefined;
          const stats = await nodeFs()
            .stat(nodePath().join(this.dir, name))
            .catch(() => undefined);
          return stats === undefined ? undefined : { sessionId, updatedAt: Math.floor(stats.mtimeMs) };
        }),
      );
      return infos.filter((info) => info !== undefined).sort((a, b) => b.updatedAt - a.updatedAt);
    });
  }

  /** Deletes the session's file (its lock file, if held, stays). */
  async delete(sessionId: string): Promise<void> {
    await this.run("delete", sessionId, async () => {
      const file = this.fileOf(sessionId, "delete");
      await this.mutex.run(file, async () => {
        this.lastAppend.delete(file);
        await nodeFs().rm(file, { force: true });
      });
    });
  }

  /** Takes the session's lock file; see the class description. */
  async lock(sessionId: string, options: { ttlMs: number }): Promise<SessionLock | undefined> {
    return this.run("lock", sessionId, async () => {
      const file = this.fileOf(sessionId, "lock");
      await this.ensureDir();
      const lock = await acquireFileLock({
        path: `${file.slice(0, -SUFFIX.length)}.lock`,
        ttlMs: options.ttlMs,
      });
      if (lock === undefined) return undefined;
      return {
        release: () => this.run("release", sessionId, () => lock.release()),
        renew: () => this.run("renew", sessionId, () => lock.renew?.() ?? Promise.resolve(false)),
      };
    });
  }

  /** Nothing to release (files are opened per operation). */
  async close(): Promise<void> {}

  /** The session's file path. */
  private fileOf(sessionId: string, operation: string): string {
    const name = typeof sessionId === "string" ? encodeFileName(sessionId) : undefined;
    const file = name === undefined ? undefined : nodePath().join(this.dir, name + SUFFIX);
    if (file === undefined || nodePath().dirname(file) !== this.dir) {
      throw new StoreError({
        message: `FileStore cannot store session id ${JSON.stringify(sessionId)}: too long for a file name or not valid UTF-16`,
        operation,
        sessionId,
      });
    }
    return file;
  }

  /**
   * Creates the directory when missing (every write: cheap, and survives the directory being removed); the
   * first time, also removes temporary files that interrupted compactions left behind.
   */
  private async ensureDir(): Promise<void> {
    await nodeFs().mkdir(this.dir, { recursive: true });
    this.swept ??= removeStaleTempFiles({ dir: this.dir }).then(() => {
      this.sweptAt = Date.now();
    });
    await this.swept;
  }

  private async write(sessionId: string, operation: string, text: string): Promise<void> {
    const file = this.fileOf(sessionId, operation);
    // Queued synchronously, so concurrent calls apply in call order.
    await this.mutex.run(file, async () => {
      await this.ensureDir();
      await appendToFile({ file, text, sync: this.sync });
    });
  }

  private async run<T>(operation: string, sessionId: string | undefined, task: () => Promise<T>): Promise<T> {
    try {
      return await task();
    } catch (error) {
      throw toStoreError({ error, store: "FileStore", operation, sessionId });
    }
  }
}

/**
 * Slack of the proportional compaction rule: a file is not rewritten for the sake of fewer than this many bytes
 * of superseded records (a rewrite costs two `fsync`s).
 */
const COMPACT_SLACK_BYTES = 8 * 1024;

/**
 * Whether `replace` rewrites the file instead of appending its snapshot: when it is larger than `limit`
 * (`compactAboveBytes`), or when more than half of it would be records the new snapshot supersedes (larger than
 * twice the snapshot, plus {@link COMPACT_SLACK_BYTES}). The second rule keeps a session's file, and so the
 * cost of every `load`, proportional to its current history however long the conversation has run, instead of
 * growing with each context compaction's snapshot until the absolute limit. `limit: Infinity` never compacts.
 */
function shouldCompact(args: { size: number; snapshotBytes: number; limit: number }): boolean {
  if (args.limit === Number.POSITIVE_INFINITY) return false;
  return args.size > args.limit || args.size > 2 * args.snapshotBytes + COMPACT_SLACK_BYTES;
}

/** Serialises records as JSONL (throws on values JSON cannot hold, before anything is written). */
function lines(records: readonly SessionRecord[]): string {
  let text = "";
  for (const record of records) text += `${JSON.stringify(record)}\n`;
  return text;
}
