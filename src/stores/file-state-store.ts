import { InvalidArgumentError } from "../errors/invalid-argument-error.js";
import { StoreError } from "../errors/store-error.js";
import { decodeFileName, encodeFileName } from "./encode-file-name.js";
import { KeyedMutex } from "./keyed-mutex.js";
import { nodeFs, nodePath } from "./node-fs.js";
import type { JsonValue, StateStore } from "./session-store.js";
import { createStateEnvelope, parseStateEnvelope } from "./state-envelope.js";
import { toStoreError } from "./to-store-error.js";
import { writeFileAtomic } from "./write-file-atomic.js";

/** Options of {@link FileStateStore}. */
export interface FileStateStoreOptions {
  /** The directory holding one `<encoded key>.json` file per key (created on the first save). */
  dir: string;
}

/**
 * A {@link StateStore} on files: one JSON file per key (`<dir>/<encoded key>.json`, holding
 * `{ v, at, value }`), replaced atomically on every save (temporary file, fsync, rename), so a reader or a crash
 * sees the old value or the new one, never a mix. Keys are encoded like session ids, so none can escape `dir`.
 * Saves of one key from one process apply in call order.
 */
export class FileStateStore implements StateStore {
  /** The absolute directory of the value files. */
  readonly dir: string;
  private readonly mutex = new KeyedMutex();

  constructor(options: FileStateStoreOptions) {
    if (typeof options?.dir !== "string" || options.dir === "") {
      throw new InvalidArgumentError({ argument: "dir", message: "expected a directory path" });
    }
    this.dir = nodePath("FileStateStore").resolve(options.dir);
    nodeFs("FileStateStore");
  }

  /** Replaces the value of `key` atomically. */
  async save(key: string, value: JsonValue): Promise<void> {
    await this.run("save", key, async () => {
      const file = this.fileOf(key, "save");
      const data = JSON.stringify(createStateEnvelope(value));
      // Queued synchronously, so concurrent saves apply in call order.
      await this.mutex.run(file, async () => {
        await nodeFs().mkdir(this.dir, { recursive: true });
        await writeFileAtomic({ file, data });
      });
    });
  }

  /** The value of `key`, or `undefined`. */
  async load(key: string): Promise<JsonValue | undefined> {
    return this.run("load", key, async () => {
      const file = this.fileOf(key, "load");
      let text: string;
      try {
        text = await nodeFs().readFile(file, "utf8");
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code === "ENOENT") return undefined;
        throw error;
      }
      return parseStateEnvelope({ text, key, where: file });
    });
  }

  /**
   * Removes `key` (no error when absent). With no key, removes every value: each `<encoded key>.json` file
   * of `dir` (other files are left alone).
   */
  async clear(key?: string): Promise<void> {
    if (key === undefined) {
      await this.run("clear", undefined, async () => {
        let names: string[];
        try {
          names = await nodeFs().readdir(this.dir);
        } catch (error) {
          if ((error as NodeJS.ErrnoException).code === "ENOENT") return;
          throw error;
        }
        const files = names
          .filter((name) => name.endsWith(".json") && decodeFileName(name.slice(0, -5)) !== undefined)
          .map((name) => nodePath().join(this.dir, name));
        await Promise.all(
          files.map((file) => this.mutex.run(file, () => nodeFs().rm(file, { force: true }))),
        );
      });
      return;
    }
    await this.run("clear", key, async () => {
      const file = this.fileOf(key, "clear");
      await this.mutex.run(file, () => nodeFs().rm(file, { force: true }));
    });
  }

  /** Nothing to release (files are opened per operation). */
  async close(): Promise<void> {}

  private fileOf(key: string, operation: string): string {
    const name = typeof key === "string" ? encodeFileName(key) : undefined;
    const file = name === undefined ? undefined : nodePath().join(this.dir, `${name}.json`);
    if (file === undefined || nodePath().dirname(file) !== this.dir) {
      throw new StoreError({
        message: `FileStateStore cannot store key ${JSON.stringify(key)}: too long for a file name or not valid UTF-16`,
        operation,
      });
    }
    return file;
  }

  private async run<T>(operation: string, key: string | undefined, task: () => Promise<T>): Promise<T> {
    try {
      return await task();
    } catch (error) {
      throw toStoreError({ error, store: "FileStateStore", operation, key });
    }
  }
}
