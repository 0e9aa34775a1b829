import { type FSWatcher, watch } from "node:fs";
import { readFile } from "node:fs/promises";
import { basename, dirname, extname } from "node:path";
import { pathToFileURL } from "node:url";
import type { Agent } from "../agent.js";

/** What the dev server knows about the agent file: the last agent that loaded, and the last failure. */
export interface AgentLoadState {
  /** The last agent that loaded (kept when a later edit breaks the file). */
  agent: Agent | undefined;
  /** Counts successful loads from 1 (0: none yet). */
  version: number;
  /** When `agent` was loaded, in ms since the epoch. */
  loadedAt: number | undefined;
  /** Why the last load failed, when it did (cleared by the next good load). */
  error: { message: string; at: number } | undefined;
}

/** Options of {@link AgentLoader}. */
export interface AgentLoaderOptions {
  /** The agent file: an ES module exporting an `Agent` as `default` or `agent` (or a function returning one). */
  file: string;
  /** Reload when the file changes (default true). */
  watch?: boolean;
  /** Called after every load attempt caused by a change. */
  onReload?: (state: AgentLoadState) => void;
  /** Waits this long after the last change before reloading (editors write in several steps). Default 60. */
  debounceMs?: number;
}

const TYPESCRIPT = new Set([".ts", ".mts", ".cts", ".tsx"]);

/** Whether `value` looks like an `Agent` (duck-typed: the file may import another copy of agentloop). */
function isAgent(value: unknown): value is Agent {
  const candidate = value as Partial<Record<"stream" | "resume" | "with" | "run", unknown>> | null;
  return (
    typeof candidate === "object" &&
    candidate !== null &&
    ["stream", "resume", "with", "run"].every((key) => typeof candidate[key as "run"] === "function")
  );
}

function describe(error: unknown): string {
  if (error instanceof Error) return `${error.name}: ${error.message}`;
  return String(error);
}

/**
 * Loads the agent of `agentloop dev` from a file and reloads it when the file changes: each load imports the
 * file again with a cache-busting query (`?v=<n>`), so an edit takes effect without a restart. A load that
 * fails (a syntax error, a throw, no agent exported) is reported in {@link AgentLoadState.error} and the last
 * good agent stays in use. Only the file itself is re-imported: modules it imports are cached by Node until
 * the process restarts. TypeScript files load when Node strips types itself (Node 22.6+ with
 * `--experimental-strip-types`, Node 23.6+ by default); otherwise use `.js` / `.mjs`.
 */
export class AgentLoader {
  private current: AgentLoadState = { agent: undefined, version: 0, loadedAt: undefined, error: undefined };
  private watcher: FSWatcher | undefined;
  private timer: NodeJS.Timeout | undefined;
  private imports = 0;
  private lastText: string | undefined;
  private loading: Promise<AgentLoadState> | undefined;
  private closed = false;
  private readonly options: AgentLoaderOptions;

  constructor(options: AgentLoaderOptions) {
    this.options = options;
  }

  /** The current state (the last good agent and the last error). */
  get state(): AgentLoadState {
    return this.current;
  }

  /** Loads the file (once) and starts watching it; resolves with the state (a failed load does not reject). */
  async start(): Promise<AgentLoadState> {
    const state = await this.load();
    if (this.options.watch !== false && !this.closed) this.startWatching();
    return state;
  }

  /** Loads the file now (one load at a time; a change during a load loads again afterwards). */
  async load(): Promise<AgentLoadState> {
    while (this.loading !== undefined) await this.loading;
    this.loading = this.loadOnce();
    try {
      return await this.loading;
    } finally {
      this.loading = undefined;
    }
  }

  /** Stops watching. */
  close(): void {
    this.closed = true;
    clearTimeout(this.timer);
    this.watcher?.close();
    this.watcher = undefined;
  }

  private startWatching(): void {
    const { file } = this.options;
    const name = basename(file);
    // The directory, not the file: editors that save by renaming a new file into place end a file watch.
    this.watcher = watch(dirname(file), { persistent: false }, (_event, changed) => {
      if (changed !== null && changed !== name) return;
      clearTimeout(this.timer);
      this.timer = setTimeout(() => void this.reloadIfChanged(), this.options.debounceMs ?? 60);
    });
    this.watcher.on("error", () => undefined);
  }

  private async reloadIfChanged(): Promise<void> {
    if (this.closed) return;
    let text: string | undefined;
    try {
      text = await readFile(this.options.file, "utf8");
    } catch {
      return; // Mid-save (renamed away): the next event reloads.
    }
    if (text === this.lastText) return;
    const state = await this.load();
    if (!this.closed) this.options.onReload?.(state);
  }

  private async loadOnce(): Promise<AgentLoadState> {
    const { file } = this.options;
    const at = Date.now();
    try {
      if (TYPESCRIPT.has(extname(file)) && !(process.features as { typescript?: unknown }).typescript) {
        throw new Error(
          `${basename(file)} is TypeScript, and this Node (${process.version}) does not strip types: use Node ` +
            "22.6+ with --experimental-strip-types (23.6+ does it by default), or write the agent file as .mjs/.js",
        );
      }
      this.lastText = await readFile(file, "utf8");
      this.imports++;
      const url = `${pathToFileURL(file).href}?v=${Date.now()}-${this.imports}`;
      const module = (await import(url)) as { default?: unknown; agent?: unknown };
      let exported = module.default ?? module.agent;
      if (typeof exported === "function" && !isAgent(exported))
        exported = await (exported as () => unknown)();
      if (!isAgent(exported)) {
        throw new Error(
          `${basename(file)} exports no agent: export one as default (export default new Agent({ ... })) or as "agent"`,
        );
      }
      this.current = { agent: exported, version: this.current.version + 1, loadedAt: at, error: undefined };
    } catch (error) {
      this.current = { ...this.current, error: { message: describe(error), at } };
    }
    return this.current;
  }
}
