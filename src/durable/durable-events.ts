import type { BudgetCharges } from "../cost/budget.js";
import { InvalidArgumentError } from "../errors/invalid-argument-error.js";
import { StoreError } from "../errors/store-error.js";
import type { AgentEvent } from "../loop/agent-event.js";
import type { AgentLoopOutcome } from "../loop/agent-loop.js";
import { AgentResultBuilder } from "../loop/agent-result.js";
import type { SteeringFeed } from "../loop/policies/steering.js";
import type { SteeringInbox } from "../loop/steering-inbox.js";
import type { ApprovalDecisions } from "../loop/tool-step.js";
import { isEmptyInput, type MessageContent } from "../models/content-part.js";
import type { Message } from "../models/message.js";
import type { Model } from "../models/model.js";
import type { Tool } from "../tools/tool.js";
import type { ToolRegistry } from "../tools/tool-registry.js";
import { followSignal } from "../util/follow-signal.js";
import {
  approvalDecision,
  decisionsForOpenRequest,
  journaledApprovals,
  openApprovalRequest,
} from "./approval-records.js";
import { JOURNAL_RECORD_VERSION, type JournalRecord, type StartRecord } from "./journal-record.js";
import { JournalWriter } from "./journal-writer.js";
import { JournaledModel } from "./journaled-model.js";
import { journaledSteering } from "./journaled-steering.js";
import { journaledToolRegistry } from "./journaled-tool-registry.js";
import { replayAwareBudget } from "./replay-aware-budget.js";
import { replayFinishedRun } from "./replay-finished-run.js";
import type { RunJournal } from "./run-journal.js";
import { acquireRunLock, type RunLock } from "./run-lock.js";
import { toRunSummary } from "./run-summary.js";
import { toJournalError } from "./to-journal-error.js";

/** What one attempt of a durable run runs the loop with (journaled model and tools, the journal's decisions). */
export interface DurableAttempt {
  /** The run's task (the journaled one when resuming). */
  input: MessageContent;
  /** The conversation the run started from (journaled; a session's history as the run found it). */
  messages: readonly Message[];
  /** The session the run continues (undefined when replaying a finished run: the session is not touched). */
  sessionId: string | undefined;
  /** Whether the journal had the run already (a resumed attempt). */
  resumed: boolean;
  model: Model;
  /** The journaled tools (see `journaledToolRegistry`). */
  tools: ToolRegistry;
  /** Approval decisions journaled so far, by turn. */
  approvals: ReadonlyMap<number, ApprovalDecisions>;
  budget: BudgetCharges | undefined;
  /** Aborts with the caller's signal, a lost run lock, or a failed journal write. */
  signal: AbortSignal;
  /** The journal's steering messages, then the inbox's (journaled); undefined when there are none. */
  steering?: SteeringFeed | undefined;
}

/** Options of {@link durableEvents}. */
export interface DurableEventsOptions {
  journal: RunJournal;
  runId: string;
  /**
   * The task: needed to start a run; checked against the journaled one when resuming (a reused id), unless
   * empty (`resume`, or the same call again without it).
   */
  input: MessageContent | undefined;
  /**
   * The conversation a new run starts from (called once, only when the journal does not have the run): the
   * caller's `messages`, or the session's history.
   */
  history: () => Promise<readonly Message[]>;
  sessionId: string | undefined;
  /** Decisions for the run's open approval request (`agent.resume(runId, decisions)`). */
  decisions: ApprovalDecisions | undefined;
  /**
   * The decisions are the caller's, for a whole turn (a sub-agent's run resumed by its caller): only those
   * naming this run's pending calls count, and none are journaled when the run has no open request.
   */
  callerDecisions?: boolean | undefined;
  decidedBy?: string | undefined;
  signal: AbortSignal | undefined;
  model: Model;
  tools: readonly Tool[];
  budget: BudgetCharges | undefined;
  /** The run's steering inbox (`stream.send`), if any: its messages are journaled before they are added. */
  steering?: SteeringInbox | undefined;
  /**
   * Called before a decision is journaled, with the ids of the pending calls; may throw to refuse it (a
   * session that moved on). Nothing is written then.
   */
  beforeDecision?: ((pending: readonly string[]) => void) | undefined;
  /** Runs the agent loop for an attempt (the Agent's plain or session path). */
  run: (attempt: DurableAttempt) => AsyncGenerator<AgentEvent, AgentLoopOutcome>;
}

/** Stop reasons after which a run is not finished: another attempt (or decision) continues it. */
const UNFINISHED = new Set(["aborted", "error", "awaiting_approval"]);

/**
 * A durable run as a stream of events: the run's log (its journal) is replayed and continued. Takes the run
 * lock; a finished run is replayed from its log without calling anything; otherwise the `start` record is
 * written (or read), decisions are journaled, and the loop runs with journaled model and tools: recorded
 * responses and tool results answer without a call, so the run goes on where its log ends. Events of the
 * replayed part are marked `replayed: true`. An `approval_requested` record is written when the run pauses,
 * an `end` record when it finishes. Rejects with `StoreError` when the journal fails, `LockLostError` when the
 * lock is lost, `DurableRunBusyError` while another attempt runs, `InvalidArgumentError` for a reused id.
 */
export async function* durableEvents(
  options: DurableEventsOptions,
): AsyncGenerator<AgentEvent, AgentLoopOutcome> {
  const { journal, runId } = options;
  const controller = new AbortController();
  const unfollow = followSignal(options.signal, controller);
  let lock: RunLock | undefined;
  try {
    lock = await acquireRunLock({ journal, runId, onLost: (error) => controller.abort(error) });
    const records = await loadRecords(journal, runId);
    const decisions =
      options.callerDecisions === true && options.decisions !== undefined
        ? decisionsForOpenRequest(options.decisions, records)
        : decisionsFor(options.decisions, records);
    const start = checkStart({ ...options, records });
    const end = records.findLast((record) => record.kind === "end");
    if (end !== undefined && start !== undefined) {
      if (decisions !== undefined) {
        throw new InvalidArgumentError({
          argument: "paused",
          message: `durable run "${runId}" has finished`,
        });
      }
      return yield* replayFinishedRun({ ...options, start, end, records, signal: controller.signal });
    }
    const begun = start ?? (await writeStart({ ...options, decisions, records }));
    if (decisions !== undefined) {
      const decided = approvalDecision({ ...options, records, decisions });
      options.beforeDecision?.([...decided.approve, ...decided.deny]);
      await append(journal, runId, [decided]);
      records.push(decided);
    }
    const outcome = yield* attempt({
      ...options,
      records,
      start: begun,
      resumed: start !== undefined,
      controller,
    });
    if (lock.lost !== undefined) throw lock.lost;
    return outcome;
  } finally {
    unfollow();
    await lock?.release();
  }
}

async function* attempt(
  args: DurableEventsOptions & {
    records: JournalRecord[];
    start: StartRecord;
    resumed: boolean;
    controller: AbortController;
  },
): AsyncGenerator<AgentEvent, AgentLoopOutcome> {
  const { journal, runId, records, start, controller } = args;
  const writer = new JournalWriter({ journal, runId, onFailure: (error) => controller.abort(error) });
  let live = !args.resumed;
  const onLive = () => {
    live = true;
  };
  const model = new JournaledModel({ model: args.model, records, writer, onLive });
  const tools = journaledToolRegistry({ tools: args.tools, runId, records, writer, onLive });
  const events = args.run({
    input: start.input,
    messages: start.messages,
    sessionId: start.sessionId,
    resumed: args.resumed,
    model,
    tools,
    approvals: journaledApprovals(records),
    budget: replayAwareBudget(args.budget, model),
    signal: controller.signal,
    steering: journaledSteering({
      records,
      writer,
      inbox: args.steering,
      replaying: () => model.replaysNext,
    }),
  });
  // A turn may pause more than once (again inside a sub-agent): a request is known by its turn and calls.
  const requested = new Set(records.flatMap((r) => (r.kind === "approval_requested" ? [requestKey(r)] : [])));
  const builder = new AgentResultBuilder();
  const replayed = new ReplayedEvents(records);
  let outcome: AgentLoopOutcome;
  try {
    while (true) {
      const next = await events.next();
      if (next.done) {
        outcome = next.value;
        break;
      }
      const event = next.value;
      if (event.agent !== undefined) {
        // A sub-agent's event: its own run log says what it replayed.
        yield event;
        continue;
      }
      // A turn starts live when its model call will be made for real (the journal has no response for it).
      const liveTurn = event.type === "turn_start" && !model.replaysNext;
      if (replayed.test(event, live || liveTurn)) event.replayed = true;
      if (event.type === "approval_requested" && !requested.has(requestKey(event.data, event.turn))) {
        requested.add(requestKey(event.data, event.turn));
        const at = Date.now();
        const calls = event.data.calls;
        await writer.append([
          { v: JOURNAL_RECORD_VERSION, kind: "approval_requested", turn: event.turn, calls, at },
        ]);
      }
      builder.add(event);
      yield event;
    }
  } finally {
    await writer.settle();
  }
  if (writer.failure !== undefined) throw writer.failure;
  if (!UNFINISHED.has(outcome.stopReason) && !controller.signal.aborted) {
    const result = toRunSummary({ runId, result: builder.build(outcome) });
    await append(journal, runId, [{ v: JOURNAL_RECORD_VERSION, kind: "end", result, at: Date.now() }]);
  }
  return outcome;
}

/** What tells one approval request of a run from another: its turn and the ids of its calls. */
function requestKey(
  request: { calls: ReadonlyArray<{ toolCallId: string }>; turn?: number },
  turn = request.turn,
): string {
  return `${turn}:${request.calls.map((call) => call.toolCallId).join(",")}`;
}

/**
 * Which events of an attempt are replays: a tool call's `action` and `observation` when the journal has its
 * result, any other event while nothing has been called or executed for real yet; never `loop_end`.
 */
class ReplayedEvents {
  /** Journaled results per tool call id (a provider may reuse an id in a later turn). */
  private readonly results = new Map<string, number>();
  /** Actions and observations seen so far, per event type and call id. */
  private readonly seen = new Map<string, number>();
  /** Steering messages journaled, and their `user_message` events seen so far (the journaled ones come first). */
  private messages = 0;
  private messagesSeen = 0;

  constructor(records: readonly JournalRecord[]) {
    for (const record of records) {
      if (record.kind === "user_message") this.messages++;
      if (record.kind !== "tool_result") continue;
      this.results.set(record.toolCallId, (this.results.get(record.toolCallId) ?? 0) + 1);
    }
  }

  test(event: AgentEvent, live: boolean): boolean {
    if (event.type === "loop_end") return false;
    if (event.type === "user_message") return ++this.messagesSeen <= this.messages;
    if (event.type !== "action" && event.type !== "observation") return !live;
    // The n-th action (observation) of an id is replayed when the journal has at least n results for it.
    const key = `${event.type}:${event.data.toolCallId}`;
    const n = (this.seen.get(key) ?? 0) + 1;
    this.seen.set(key, n);
    return n <= (this.results.get(event.data.toolCallId) ?? 0);
  }
}

/**
 * The decisions to journal. None when the run has no open approval request and `resume` named no call (it
 * continues an interrupted run, or answers a finished one), or named exactly what the last decision holds: the
 * same decision delivered again (a retried request or job) is applied once, and the run just goes on.
 */
function decisionsFor(
  decisions: ApprovalDecisions | undefined,
  records: readonly JournalRecord[],
): ApprovalDecisions | undefined {
  if (decisions === undefined || openApprovalRequest(records) !== undefined) return decisions;
  if (decisions.approve.size === 0 && decisions.deny.size === 0) return undefined;
  const last = records.findLast((record) => record.kind === "approval_decided");
  const repeated =
    last !== undefined &&
    [...decisions.approve].every((id) => last.approve.includes(id)) &&
    [...decisions.deny].every((id) => last.deny.includes(id));
  return repeated ? undefined : decisions;
}

async function loadRecords(journal: RunJournal, runId: string): Promise<JournalRecord[]> {
  try {
    return [...((await journal.load(runId)) ?? [])];
  } catch (error) {
    throw toJournalError({ error, journal: "RunJournal", operation: "load", runId });
  }
}

async function append(journal: RunJournal, runId: string, records: JournalRecord[]): Promise<void> {
  try {
    await journal.append(runId, records);
  } catch (error) {
    throw toJournalError({ error, journal: "RunJournal", operation: "append", runId });
  }
}

/** The journaled start of the run, checked against this call (a run id names one run). */
function checkStart(args: DurableEventsOptions & { records: JournalRecord[] }): StartRecord | undefined {
  const { runId, records } = args;
  const start = records.find((record) => record.kind === "start");
  if (start === undefined) {
    if (records.length > 0) {
      throw new StoreError({
        message: `The journal of run "${runId}" has no start record`,
        operation: "load",
      });
    }
    return undefined;
  }
  if (args.input !== undefined && args.input.length > 0 && !sameContent(args.input, start.input)) {
    throw new InvalidArgumentError({
      argument: "input",
      message: `run "${runId}" was started with another input (a run id names one run)`,
    });
  }
  if (args.sessionId !== undefined && args.sessionId !== start.sessionId) {
    throw new InvalidArgumentError({
      argument: "sessionId",
      message: `run "${runId}" was started ${start.sessionId === undefined ? "without a session" : `in session "${start.sessionId}"`}`,
    });
  }
  return start;
}

/** Writes the `start` record of a new run. */
async function writeStart(args: DurableEventsOptions & { records: JournalRecord[] }): Promise<StartRecord> {
  const { runId, input } = args;
  if (input === undefined) {
    throw new InvalidArgumentError({
      argument: "input",
      message: `run "${runId}" is not in the journal: a new run needs its input`,
    });
  }
  if (args.decisions !== undefined) {
    throw new InvalidArgumentError({
      argument: "paused",
      message: `durable run "${runId}" is not in the journal`,
    });
  }
  const messages = [...(await args.history())];
  if (isEmptyInput(input) && messages.length === 0) {
    throw new InvalidArgumentError({
      argument: "input",
      message: "the task is empty and there is no conversation to continue",
    });
  }
  const start: StartRecord = {
    v: JOURNAL_RECORD_VERSION,
    kind: "start",
    runId,
    input,
    messages,
    at: Date.now(),
  };
  if (args.sessionId !== undefined) start.sessionId = args.sessionId;
  await append(args.journal, runId, [start]);
  args.records.push(start);
  return start;
}

/** True when two inputs are the same content (parts compared by their JSON). */
function sameContent(a: MessageContent, b: MessageContent): boolean {
  if (typeof a === "string" || typeof b === "string") return a === b;
  return JSON.stringify(a) === JSON.stringify(b);
}
