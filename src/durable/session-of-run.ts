import type { RunJournal } from "./run-journal.js";
import { toJournalError } from "./to-journal-error.js";

/** Options of {@link sessionOfRun}. */
export interface SessionOfRunOptions {
  journal: RunJournal | undefined;
  runId: string;
}

/** The session a durable run continues, from its `start` record (undefined: none, or no such run). */
export async function sessionOfRun({ journal, runId }: SessionOfRunOptions): Promise<string | undefined> {
  if (journal === undefined || typeof runId !== "string" || runId === "") return undefined;
  let records: Awaited<ReturnType<RunJournal["load"]>>;
  try {
    records = await journal.load(runId);
  } catch (error) {
    throw toJournalError({ error, journal: "RunJournal", operation: "load", runId });
  }
  return records?.find((record) => record.kind === "start")?.sessionId;
}
