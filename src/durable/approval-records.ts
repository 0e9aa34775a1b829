import { InvalidArgumentError } from "../errors/invalid-argument-error.js";
import type { ApprovalDecisions } from "../loop/tool-step.js";
import {
  type ApprovalDecidedRecord,
  type ApprovalRequestedRecord,
  JOURNAL_RECORD_VERSION,
  type JournalRecord,
} from "./journal-record.js";

/** The journal's open approval request: the last `approval_requested` with no decision after it. */
export function openApprovalRequest(records: readonly JournalRecord[]): ApprovalRequestedRecord | undefined {
  for (let i = records.length - 1; i >= 0; i--) {
    const record = records[i];
    if (record?.kind === "approval_decided") return undefined;
    if (record?.kind === "approval_requested") return record;
  }
  return undefined;
}

/** Options of {@link approvalDecision}. */
export interface ApprovalDecisionOptions {
  runId: string;
  records: readonly JournalRecord[];
  /** The human's decisions (`approve`; `deny` and every pending call in neither list are refused). */
  decisions: ApprovalDecisions;
  decidedBy?: string | undefined;
}

/**
 * The `approval_decided` record for a run's open approval request. Throws {@link InvalidArgumentError} when
 * the run is not awaiting approval or a decision names a call that is not pending (nothing is written).
 */
export function approvalDecision(options: ApprovalDecisionOptions): ApprovalDecidedRecord {
  const { runId, records, decisions } = options;
  const request = openApprovalRequest(records);
  if (request === undefined) {
    throw new InvalidArgumentError({
      argument: "paused",
      message: `durable run "${runId}" is not awaiting approval`,
    });
  }
  const pending = new Set(request.calls.map((call) => call.toolCallId));
  for (const id of [...decisions.approve, ...decisions.deny]) {
    if (!pending.has(id)) {
      throw new InvalidArgumentError({
        argument: "decisions",
        message: `tool call "${id}" is not pending in run "${runId}" (pending: ${[...pending].join(", ")})`,
      });
    }
  }
  const approve = [...pending].filter((id) => decisions.approve.has(id) && !decisions.deny.has(id));
  const record: ApprovalDecidedRecord = {
    v: JOURNAL_RECORD_VERSION,
    kind: "approval_decided",
    turn: request.turn,
    approve,
    deny: [...pending].filter((id) => !approve.includes(id)),
    at: Date.now(),
  };
  if (options.decidedBy !== undefined) record.decidedBy = options.decidedBy;
  return record;
}

/**
 * Every decision the journal holds, by the turn whose calls it decided (what the replayed loop applies). A turn
 * decided more than once (it paused again inside a sub-agent) has the decisions of every pause.
 */
export function journaledApprovals(records: readonly JournalRecord[]): Map<number, ApprovalDecisions> {
  const approvals = new Map<number, { approve: Set<string>; deny: Set<string> }>();
  for (const record of records) {
    if (record.kind !== "approval_decided") continue;
    const decided = approvals.get(record.turn);
    if (decided === undefined) {
      approvals.set(record.turn, { approve: new Set(record.approve), deny: new Set(record.deny) });
      continue;
    }
    for (const id of record.approve) decided.approve.add(id);
    for (const id of record.deny) decided.deny.add(id);
  }
  return approvals;
}

/**
 * The part of `decisions` (a caller's, for a whole turn) that answers this run's open approval request: what a
 * sub-agent's run log journals when its caller resumes. Undefined when the run has no open request.
 */
export function decisionsForOpenRequest(
  decisions: ApprovalDecisions,
  records: readonly JournalRecord[],
): ApprovalDecisions | undefined {
  const request = openApprovalRequest(records);
  if (request === undefined) return undefined;
  const ids = request.calls.map((call) => call.toolCallId);
  return {
    approve: new Set(ids.filter((id) => decisions.approve.has(id))),
    deny: new Set(ids.filter((id) => decisions.deny.has(id))),
  };
}
