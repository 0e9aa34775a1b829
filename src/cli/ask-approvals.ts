import type { PendingApproval } from "../loop/tool-step.js";
import { formatArgs, truncateText } from "../render/format-values.js";
import type { CliWritable } from "./cli-io.js";
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

/**
 * Asks `Allow <tool>(<args>)? [y/N]` on stderr for each call and reads the answer from stdin: `y` or `yes`
 * (any case) approves, anything else, the end of the input or an abort denies.
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
    const question = `Allow ${call.tool}(${truncateText({ text: formatArgs(call.args), maxChars: 500 })})? [y/N] `;
    if (yes) {
      stderr.write(`${question}y (--yes)\n`);
      answers.approve.push(call.toolCallId);
      continue;
    }
    stderr.write(question);
    const line = await reader.readLine(signal === undefined ? {} : { signal });
    if (line === undefined) stderr.write(signal?.aborted ? "(aborted)\n" : "(no answer: denied)\n");
    else if (echo) stderr.write(`${line}\n`);
    const approved = line !== undefined && /^\s*y(es)?\s*$/i.test(line);
    (approved ? answers.approve : answers.deny).push(call.toolCallId);
  }
  return answers;
}
