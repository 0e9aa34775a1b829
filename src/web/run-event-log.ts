import type { AgentStream } from "../agent-stream.js";
import { failOption, showValue } from "../util/check-option.js";
import { RunEntry } from "./run-entry.js";

/** Options of {@link RunEventLog}. All bounds are in messages or characters of SSE text. */
export interface RunEventLogOptions {
  /** The most messages kept per run. Default 10 000. */
  maxEvents?: number;
  /** The most characters kept per run. Default 2 000 000. */
  maxChars?: number;
  /** The most characters kept for all runs together: ended runs go first, then a run's oldest messages. Default 16 000 000. */
  maxTotalChars?: number;
  /** The most runs held (running or ended); a run beyond is streamed without being kept. Default 1 000. */
  maxRuns?: number;
  /** How long an ended run stays, in ms. Default 300 000 (5 minutes). */
  ttlMs?: number;
}

/** The defaults of {@link RunEventLogOptions}. */
export const DEFAULT_RUN_EVENT_LOG_OPTIONS: Readonly<Required<RunEventLogOptions>> = Object.freeze({
  maxEvents: 10_000,
  maxChars: 2_000_000,
  maxTotalChars: 16_000_000,
  maxRuns: 1_000,
  ttlMs: 300_000,
});

/** Options of {@link RunEventLog.record}. */
export interface RecordRunOptions {
  runId: string;
  stream: AgentStream;
  sessionId?: string | undefined;
}

/**
 * The in-process log of durable runs streamed over SSE, by run id: what each run sent so far (bounded), so a
 * client that reconnects with `Last-Event-ID` gets exactly the messages it missed, from the same process,
 * while the run goes on or for `ttlMs` after it ended. A run whose client went away keeps running here
 * (detached) and its events are kept for the reconnect. Beyond the bounds, or from another process, a
 * reconnect is answered from the run's journal instead (see `durableStream`).
 *
 * `toSSEResponse`, `pipeToNodeResponse`, `durableStream` and `createAgentHandler` share one log per process
 * unless given another (`log` option): a log of your own sets other bounds, or keeps tests apart.
 */
export class RunEventLog {
  private readonly options: Required<RunEventLogOptions>;
  private readonly entries = new Map<string, RunEntry>();
  private totalChars = 0;

  constructor(options: RunEventLogOptions = {}) {
    this.options = { ...DEFAULT_RUN_EVENT_LOG_OPTIONS };
    for (const key of Object.keys(DEFAULT_RUN_EVENT_LOG_OPTIONS) as Array<keyof RunEventLogOptions>) {
      const value = options[key];
      if (value === undefined) continue;
      const min = key === "ttlMs" ? 0 : 1;
      if (typeof value !== "number" || !Number.isFinite(value) || value < min) {
        failOption(key, `expected a number >= ${min}, got ${showValue(value)}`);
      }
      this.options[key] = value;
    }
  }

  /** True while the log holds run `runId` (running, or ended less than `ttlMs` ago). */
  has(runId: string): boolean {
    return this.get(runId) !== undefined;
  }

  /** The runs held. */
  get size(): number {
    this.sweep();
    return this.entries.size;
  }

  /** Characters of SSE text held, all runs together. */
  get chars(): number {
    return this.totalChars;
  }

  /** Internal: the entry of run `runId`, if held. */
  get(runId: string): RunEntry | undefined {
    this.sweep();
    return this.entries.get(runId);
  }

  /**
   * Internal: starts keeping a run's stream. Undefined (the stream is not kept) while the log holds the run
   * running already (a second stream of it fails: the run is busy), or when `maxRuns` runs are running.
   */
  record({ runId, stream, sessionId }: RecordRunOptions): RunEntry | undefined {
    const existing = this.get(runId);
    if (existing !== undefined && !existing.ended) return undefined;
    if (existing !== undefined) this.remove(runId, existing);
    if (this.entries.size >= this.options.maxRuns && !this.evictEnded()) return undefined;
    const { maxEvents, maxChars } = this.options;
    const entry: RunEntry = new RunEntry({
      stream,
      runId,
      sessionId,
      maxEvents,
      maxChars,
      onSize: (delta) => {
        this.totalChars += delta;
        if (delta > 0) this.bound(entry);
      },
    });
    this.entries.set(runId, entry);
    return entry;
  }

  /** Keeps the total within `maxTotalChars`: ended runs go first (oldest first), then `entry`'s oldest messages. */
  private bound(entry: RunEntry): void {
    const { maxTotalChars } = this.options;
    while (this.totalChars > maxTotalChars && this.evictEnded()) {
      // evicting
    }
    if (this.totalChars > maxTotalChars) entry.shed(this.totalChars - maxTotalChars);
  }

  /** Removes the oldest ended run. False when none has ended. */
  private evictEnded(): boolean {
    for (const [runId, entry] of this.entries) {
      if (!entry.ended) continue;
      this.remove(runId, entry);
      return true;
    }
    return false;
  }

  private remove(runId: string, entry: RunEntry): void {
    this.entries.delete(runId);
    this.totalChars -= entry.chars;
  }

  /** Removes the runs that ended more than `ttlMs` ago. */
  private sweep(): void {
    const expired = Date.now() - this.options.ttlMs;
    for (const [runId, entry] of this.entries) {
      if (entry.endedAt !== undefined && entry.endedAt <= expired) this.remove(runId, entry);
    }
  }
}

let processLog: RunEventLog | undefined;

/** The log shared in this process by default. */
export function defaultRunEventLog(): RunEventLog {
  processLog ??= new RunEventLog();
  return processLog;
}
