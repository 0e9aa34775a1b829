import { mkdir, mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { FileJournal } from "../durable/file-journal.js";
import { MemoryJournal } from "../durable/memory-journal.js";
import type { RunJournal } from "../durable/run-journal.js";
import { FileStore } from "../stores/file-store.js";
import { MemoryStore } from "../stores/memory-store.js";
import type { SessionStore } from "../stores/session-store.js";

/** The default directory of `agentloop dev`'s sessions, runs and traces, relative to the working directory. */
export const DEFAULT_DEV_DIR = ".agentloop/dev";

/** Where `agentloop dev` keeps what its runs leave behind (for an agent that brings no store or journal). */
export interface DevWorkspace {
  /** Sessions (the chat's conversations). */
  store: SessionStore;
  /** The run log of every run (each chat message is a durable run). */
  journal: RunJournal;
  /** The directory of the saved traces (one per run part; uploaded traces too). */
  tracesDir: string;
  /** A description for the start banner and the UI (`.agentloop/dev`, or "memory"). */
  where: string;
  /** Removes what must not outlive the process (the temporary traces directory of `memory`). */
  close(): Promise<void>;
}

/** Options of {@link openDevWorkspace}. */
export interface OpenDevWorkspaceOptions {
  /** The directory (`sessions/`, `runs/`, `traces/` inside), resolved against `cwd`. */
  dir: string;
  cwd: string;
  /** Keep sessions and runs in memory and traces in a temporary directory removed on close. */
  memory: boolean;
}

/**
 * The embedded defaults of `agentloop dev`, needing no service: a `FileStore` in `<dir>/sessions`, a
 * `FileJournal` in `<dir>/runs` and traces in `<dir>/traces` (kept across restarts, so past runs stay
 * browsable), or with `memory` a `MemoryStore` and `MemoryJournal` and a temporary traces directory.
 */
export async function openDevWorkspace({ dir, cwd, memory }: OpenDevWorkspaceOptions): Promise<DevWorkspace> {
  if (memory) {
    const tracesDir = await mkdtemp(join(tmpdir(), "agentloop-dev-"));
    return {
      store: new MemoryStore(),
      journal: new MemoryJournal(),
      tracesDir,
      where: "memory (traces in a temporary directory)",
      close: () => rm(tracesDir, { recursive: true, force: true }),
    };
  }
  const root = resolve(cwd, dir);
  const tracesDir = join(root, "traces");
  await mkdir(tracesDir, { recursive: true });
  return {
    store: new FileStore({ dir: join(root, "sessions") }),
    journal: new FileJournal({ dir: join(root, "runs") }),
    tracesDir,
    where: root,
    close: async () => undefined,
  };
}
