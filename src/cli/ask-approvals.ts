import type { PendingApproval } from "../loop/tool-step.js";
import { escapeTerminalText } from "../render/escape-terminal-text.js";
import type { CliWritable } from "./cli-io.js";
import { formatPendingCall, formatPendingCallInFull } from "./format-pending-call.js";
import type { LineReader } from "./line-reader.js";

/** Options of {@link askApprovals}. */
export interface AskApprovalsOptions {
  /** The calls waiting for approval. */
  calls: readonly PendingApproval[];
  /** Reads the answers. Not read with `yes`. */
  reader: LineReader;
  /** Where the questions go. */
  stderr: CliWritable;
  /** Approve everything without asking (`--yes`). */
  yes: boolean;
  /** Write the answer after the question (when stdin is not a terminal, which echoes it already). */
  echo: boolean;
  /** Stops asking: the calls not answered yet are denied. */
  signal?: AbortSignal;
}

/** The human's decisions, by tool call id. */
export interface ApprovalAnswers {
  approve: string[];
  deny: string[];
}

/** At most this many `v` answers per call (then the next answer decides; the input may be a pipe of v's). */
const MAX_VIEWS = 3;

/**
 * For each call, shows the whole call on stderr before asking (see {@link formatPendingCall}: where it acts
 * first, short fields, then long values folded), then asks `Allow <tool>? [y/N/v]` and reads the answer from
 * stdin: `y` or `yes` (any case) approves, `v` or `view` prints every argument in full and asks again,
 * anything else, the end of the input or an abort denies. Everything the model wrote is escaped for the
 * terminal.
 */
export async function askApprovals({
  calls,
  reader,
  stderr,
  yes,
  echo,
  signal,
}: AskApprovalsOptions): Promise<ApprovalAnswers> {
  const answers: ApprovalAnswers = { approve: [], deny: [] };
  for (const call of calls) {
    const summary = formatPendingCall({ call });
    stderr.write(summary.text);
    const question = `Allow ${escapeTerminalText(call.toolName)}? [y/N${summary.folded ? "/v" : ""}] `;
    if (yes) {
      stderr.write(`${question}y (--yes)\n`);
      answers.approve.push(call.toolCallId);
      continue;
    }
    let approved = false;
    for (let views = 0; ; views++) {
      stderr.write(question);
      const line = await reader.readLine(signal === undefined ? {} : { signal });
      if (line === undefined) stderr.write(signal?.aborted ? "(aborted)\n" : "(no answer: denied)\n");
      else if (echo) stderr.write(`${escapeTerminalText(line)}\n`);
      if (line !== undefined && /^\s*v(iew)?\s*$/i.test(line) && views < MAX_VIEWS) {
        stderr.write(formatPendingCallInFull({ call }));
        continue;
      }
      approved = line !== undefined && /^\s*y(es)?\s*$/i.test(line);
      break;
    }
    (approved ? answers.approve : answers.deny).push(call.toolCallId);
  }
  return answers;
}
