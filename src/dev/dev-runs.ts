import { randomBytes } from "node:crypto";
import { access } from "node:fs/promises";
import { join } from "node:path";
import type { Agent } from "../agent.js";
import type { AgentStream } from "../agent-stream.js";
import type { JournalRecord } from "../durable/journal-record.js";
import type { RunJournal } from "../durable/run-journal.js";
import type { AgentEvent } from "../loop/agent-event.js";
import type { PendingApproval } from "../loop/tool-step.js";
import { contentText } from "../models/content-part.js";
import type { Message } from "../models/message.js";
import type { SessionStore } from "../stores/session-store.js";
import { saveTrace } from "../trace/trace-file.js";
import type { DevWorkspace } from "./dev-workspace.js";
import { resumeStream } from "./resume-stream.js";

/** At most this many runs are listed (the most recently updated). */
export const MAX_LISTED_RUNS = 100;

/** A run of the runs list. */
export interface DevRunInfo {
  runId: string;
  finished: boolean;
  updatedAt: number;
  sessionId?: string;
  /** The input's text. */
  input: string;
  /** The stop reason of a finished run; `awaiting_approval` for a run paused now. */
  stopReason?: string;
  costUsd?: number;
  turns?: number;
  /** The calls a paused run waits on. */
  pending?: PendingApproval[];
}

/** A message of a session as the chat shows it (text only: media parts are described, never sent). */
export interface DevMessage {
  role: Message["role"];
  text: string;
  toolCalls?: Array<{ id: string; name: string; arguments: unknown }>;
  toolName?: string;
}

/** Options of {@link DevRuns}. */
export interface DevRunsOptions {
  workspace: DevWorkspace;
}

/** A session id or run id the UI may send: letters, digits, `_.:-`, at most 100. */
const ID = /^[A-Za-z0-9_.:-]{1,100}$/;

/** Whether `value` is a usable session or run id. */
export function isDevId(value: unknown): value is string {
  return typeof value === "string" && ID.test(value);
}

/** Events worth keeping when a finished run is shown again (deltas are folded into the turns' events). */
function kept(event: AgentEvent): boolean {
  return !event.type.endsWith("_delta");
}

/**
 * The runs of `agentloop dev`: every chat message is a durable run (a `runId`) of a session, recorded as a
 * trace; a run paused for approval is resumed by its id. An agent that brings its own `store` or `journal`
 * keeps them; otherwise the workspace's are used. The traces are saved to the workspace's traces directory
 * as `<runId>.jsonl` (a resumed part as `<runId>.2.jsonl`, `<runId>.3.jsonl`…).
 */
export class DevRuns {
  private readonly workspace: DevWorkspace;
  private readonly prepared = new WeakMap<Agent, Agent>();

  constructor({ workspace }: DevRunsOptions) {
    this.workspace = workspace;
  }

  /** `agent` with the workspace's store and journal where it has none. */
  prepare(agent: Agent): Agent {
    let ready = this.prepared.get(agent);
    if (ready === undefined) {
      const { store, journal } = agent.options;
      ready =
        store !== undefined && journal !== undefined
          ? agent
          : agent.with({ store: store ?? this.workspace.store, journal: journal ?? this.workspace.journal });
      this.prepared.set(agent, ready);
    }
    return ready;
  }

  /** Starts a run of `input` in `sessionId`. */
  start({ agent, input, sessionId }: { agent: Agent; input: string; sessionId: string }): {
    runId: string;
    stream: AgentStream;
  } {
    const runId = `run-${Date.now().toString(36)}-${randomBytes(3).toString("hex")}`;
    const stream = this.prepare(agent).stream(input, { runId, sessionId, trace: true });
    return { runId, stream: this.savingTrace({ stream, runId }) };
  }

  /**
   * Resumes the paused run `runId` with the decisions, streamed (`agent.resumeStream`; an agent from an older
   * agentloop without it is resumed through an `onEvent` hook, without text deltas).
   */
  resume({
    agent,
    runId,
    approve,
    deny,
  }: {
    agent: Agent;
    runId: string;
    approve: string[];
    deny: string[];
  }) {
    const decisions = { approve, deny, decidedBy: "agentloop dev" };
    const traced = this.prepare(agent).with({ trace: true });
    const stream =
      typeof traced.resumeStream === "function"
        ? traced.resumeStream(runId, decisions)
        : resumeStream({ agent: this.prepare(agent), runId, decisions, trace: true });
    return this.savingTrace({ stream, runId });
  }

  /** The stream with a `result` that resolves once the part's trace is saved. */
  private savingTrace({ stream, runId }: { stream: AgentStream; runId: string }): AgentStream {
    const result = stream.result.then(async (value) => {
      if (value.trace !== undefined) {
        await saveTrace({ trace: value.trace, path: await this.tracePath(runId) }).catch(() => undefined);
      }
      return value;
    });
    result.catch(() => undefined);
    return {
      result,
      send: (message) => stream.send(message),
      abort: (reason) => stream.abort(reason),
      [Symbol.asyncIterator]: () => stream[Symbol.asyncIterator](),
    };
  }

  private async tracePath(runId: string): Promise<string> {
    for (let part = 1; ; part++) {
      const path = join(this.workspace.tracesDir, part === 1 ? `${runId}.jsonl` : `${runId}.${part}.jsonl`);
      try {
        await access(path);
      } catch {
        return path;
      }
    }
  }

  private journalOf(agent: Agent): RunJournal {
    return this.prepare(agent).options.journal as RunJournal;
  }

  private storeOf(agent: Agent): SessionStore {
    return this.prepare(agent).options.store as SessionStore;
  }

  /** The most recent runs of the agent's journal (not its sub-agents' runs), with what their logs say. */
  async listRuns(agent: Agent): Promise<DevRunInfo[]> {
    const journal = this.journalOf(agent);
    // A sub-agent's durable run (`<caller>/<turn>/<toolCallId>`) shows inside its caller's timeline.
    const runs = (await journal.list()).filter((run) => !run.runId.includes("/")).slice(0, MAX_LISTED_RUNS);
    const infos = await Promise.all(
      runs.map(async (run) => describeRun(run, (await journal.load(run.runId).catch(() => undefined)) ?? [])),
    );
    return infos;
  }

  /** One run: what its log says, and for a finished run its events (replayed from the log, nothing called). */
  async runEvents(
    agent: Agent,
    runId: string,
  ): Promise<{ run: DevRunInfo; events: AgentEvent[] } | undefined> {
    const journal = this.journalOf(agent);
    const records = await journal.load(runId);
    if (records === undefined) return undefined;
    const info = describeRun(
      { runId, finished: records.some((r) => r.kind === "end"), updatedAt: 0 },
      records,
    );
    if (!info.finished) return { run: info, events: [] };
    const events: AgentEvent[] = [];
    const stream = this.prepare(agent).stream("", { runId });
    for await (const event of stream) if (kept(event)) events.push(event);
    return { run: info, events };
  }

  /** The sessions of the agent's store, most recent first. */
  async listSessions(agent: Agent): Promise<Array<{ sessionId: string; updatedAt: number }>> {
    const sessions = await this.storeOf(agent).list();
    return [...sessions].sort((a, b) => b.updatedAt - a.updatedAt).slice(0, MAX_LISTED_RUNS);
  }

  /** A session's messages as the chat shows them (`undefined` for an unknown session). */
  async sessionMessages(agent: Agent, sessionId: string): Promise<DevMessage[] | undefined> {
    const data = await this.storeOf(agent).load(sessionId);
    if (data === undefined) return undefined;
    return data.messages.filter((message) => message.role !== "system").map(toDevMessage);
  }
}

function toDevMessage(message: Message): DevMessage {
  if (message.role === "assistant") {
    return {
      role: "assistant",
      text: message.content,
      ...(message.toolCalls !== undefined && {
        toolCalls: message.toolCalls.map(({ id, name, arguments: args }) => ({ id, name, arguments: args })),
      }),
    };
  }
  if (message.role === "tool")
    return { role: "tool", text: describeContent(message.content), toolName: message.toolName };
  return { role: message.role, text: describeContent(message.content) };
}

/** Text content as is; media parts as `[image]` / `[file name]` (never their bytes). */
function describeContent(content: Message["content"]): string {
  if (typeof content === "string") return content;
  const media = content.filter((part) => part.type !== "text").map((part) => `[${part.type}]`);
  return [contentText(content), ...media].filter((text) => text !== "").join(" ");
}

function describeRun(
  run: { runId: string; finished: boolean; updatedAt: number },
  records: readonly JournalRecord[],
): DevRunInfo {
  const info: DevRunInfo = { runId: run.runId, finished: run.finished, updatedAt: run.updatedAt, input: "" };
  let pending: PendingApproval[] | undefined;
  for (const record of records) {
    if (record.kind === "start") {
      info.input = describeContent(record.input);
      if (record.sessionId !== undefined) info.sessionId = record.sessionId;
      if (info.updatedAt === 0) info.updatedAt = record.at;
    } else if (record.kind === "approval_requested") pending = record.calls;
    else if (record.kind === "approval_decided") pending = undefined;
    else if (record.kind === "end") {
      info.stopReason = record.result.stopReason;
      info.costUsd = record.result.costUsd;
      info.turns = record.result.turns;
    }
  }
  if (!info.finished && pending !== undefined) {
    info.stopReason = "awaiting_approval";
    info.pending = pending;
  }
  return info;
}
