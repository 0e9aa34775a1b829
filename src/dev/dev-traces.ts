import { readdir, rm, stat, writeFile } from "node:fs/promises";
import { join } from "node:path";
import type { Agent } from "../agent.js";
import { agentFromTrace, traceMeta } from "../cli/agent-from-trace.js";
import type { AgentEvent } from "../loop/agent-event.js";
import { contentText } from "../models/content-part.js";
import { replayThroughPauses } from "../trace/replay-through-pauses.js";
import { loadTrace } from "../trace/trace-file.js";
import type { Trace } from "../trace/trace-types.js";
import { verifyTrace } from "../trace/verify-trace.js";
import { type RunResultSummary, summarizeRunResult } from "./summarize-run-result.js";

/** The largest trace file the dev UI uploads: 20 MB. */
export const MAX_TRACE_UPLOAD_BYTES = 20 * 1024 * 1024;

/** At most this many traces are listed (the most recent). */
const MAX_LISTED_TRACES = 200;

/** A saved trace file's name: no path, no leading dot, ending in `.jsonl`. */
const TRACE_NAME = /^[A-Za-z0-9_][A-Za-z0-9_.:-]{0,199}\.jsonl$/;

/** Longest JSON of a divergence's `expected` / `actual` sent to the browser. */
const MAX_DIVERGENCE_CHARS = 4_000;

/** A trace as the dev UI shows it: what it started from, its events and whether its hash chain holds. */
export interface DevTraceView {
  name: string;
  model: string;
  input: string;
  tools: string[];
  startedAt: number;
  records: number;
  verified: { ok: true } | { ok: false; brokenAt: number; reason: string };
  /** The recorded events without deltas (their timestamps place the waterfall's bars). */
  events: AgentEvent[];
}

/** What a replay of a trace found. */
export interface DevReplayOutcome {
  name: string;
  /** Which agent replayed: the loaded one, or one rebuilt from the trace. */
  agent: "loaded" | "rebuilt";
  divergence: { call: number; path: string; expected: string; actual: string } | null;
  result: RunResultSummary;
  events: AgentEvent[];
}

/** Options of {@link DevTraces}. */
export interface DevTracesOptions {
  /** The directory of the trace files. */
  dir: string;
  /** Relative paths of the replayed agent's file tools (they are not run: replay answers from the trace). */
  cwd: string;
}

/** Whether `name` may name a trace file in the traces directory. */
export function isTraceName(name: string): boolean {
  return TRACE_NAME.test(name) && !name.includes("..");
}

function clip(value: unknown): string {
  const text = value === undefined ? "undefined" : (JSON.stringify(value) ?? String(value));
  return text.length > MAX_DIVERGENCE_CHARS
    ? `${text.slice(0, MAX_DIVERGENCE_CHARS)}… (${text.length} chars)`
    : text;
}

const kept = (event: AgentEvent): boolean => !event.type.endsWith("_delta");

/**
 * The saved traces of `agentloop dev` (docs/traces.md): listed from one directory, opened by name (never by a
 * path the browser chooses), uploaded from the browser into the directory, and replayed offline like
 * `agentloop replay` does (each model call answered with the recorded response, each tool call with the
 * recorded result), through the approvals the recording went through.
 */
export class DevTraces {
  private readonly dir: string;
  private readonly cwd: string;

  constructor({ dir, cwd }: DevTracesOptions) {
    this.dir = dir;
    this.cwd = cwd;
  }

  /** The trace files, most recently written first. */
  async list(): Promise<Array<{ name: string; size: number; modifiedAt: number }>> {
    const names = (await readdir(this.dir).catch(() => [] as string[])).filter(isTraceName);
    const files = await Promise.all(
      names.map(async (name) => {
        const info = await stat(join(this.dir, name)).catch(() => undefined);
        return info?.isFile() ? { name, size: info.size, modifiedAt: info.mtimeMs } : undefined;
      }),
    );
    return files
      .filter((file) => file !== undefined)
      .sort((a, b) => b.modifiedAt - a.modifiedAt)
      .slice(0, MAX_LISTED_TRACES);
  }

  /** Loads a trace by name (rejects with `TraceError` for a file that is not a trace, ENOENT for none). */
  async load(name: string): Promise<Trace> {
    if (!isTraceName(name)) throw Object.assign(new Error(`not a trace name: ${name}`), { code: "ENOENT" });
    return loadTrace(join(this.dir, name));
  }

  /** The view of the trace `name`. */
  async view(name: string): Promise<DevTraceView> {
    const trace = await this.load(name);
    const first = trace.records[0];
    const meta = first?.kind === "meta" ? first.data : undefined;
    return {
      name,
      model: meta?.model ?? "",
      input: meta === undefined ? "" : contentText(meta.input),
      tools: meta?.tools ?? [],
      startedAt: meta?.startedAt ?? 0,
      records: trace.records.length,
      verified: verifyTrace(trace),
      events: trace.records.flatMap((record) =>
        record.kind === "event" && kept(record.data) ? [record.data] : [],
      ),
    };
  }

  /** Saves an uploaded trace under a new name and returns its view; a text that is no trace is not kept. */
  async upload({ text, filename }: { text: string; filename: string }): Promise<DevTraceView> {
    const base =
      filename
        .replace(/\.jsonl$/i, "")
        .replace(/[^A-Za-z0-9_.-]+/g, "-")
        .slice(0, 60) || "trace";
    const name = `upload-${Date.now().toString(36)}-${base.replace(/^[.-]+/, "")}.jsonl`;
    const path = join(this.dir, name);
    await writeFile(path, text, { encoding: "utf8", flag: "wx" });
    try {
      return await this.view(name);
    } catch (error) {
      await rm(path, { force: true });
      throw error;
    }
  }

  /**
   * Replays the trace `name` offline and reports the first divergence (or none). With `agent` (the loaded
   * agent) whose tools have the recorded names, the replay uses it (its approval gates, system prompt and
   * limits: what the dev UI is working on); otherwise the agent is rebuilt from the trace like
   * `agentloop replay` does (a tool it does not know gets a stand-in without an approval gate).
   */
  async replay({ name, agent }: { name: string; agent?: Agent | undefined }): Promise<DevReplayOutcome> {
    const trace = await this.load(name);
    const recorded = traceMeta(trace).tools;
    const names = agent?.tools.list().map((tool) => tool.name) ?? [];
    const same =
      agent !== undefined && names.length === recorded.length && recorded.every((n) => names.includes(n));
    const replayed = same ? agent : agentFromTrace({ trace, cwd: this.cwd });
    const { result, divergence } = await replayThroughPauses({ trace, agent: replayed });
    return {
      name,
      agent: same ? "loaded" : "rebuilt",
      divergence:
        divergence === null
          ? null
          : {
              call: divergence.call,
              path: divergence.path,
              expected: clip(divergence.expected),
              actual: clip(divergence.actual),
            },
      result: summarizeRunResult({ result }),
      events: result.events.filter(kept),
    };
  }
}
