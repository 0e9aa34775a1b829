import type { JournalRecord } from "./journal-record.js";

/**
 * What compacting a run's records keeps: its first `start` record and its last `end` record. `undefined` when
 * there is nothing to do: the run has no `end` record (unfinished), or holds nothing else (compacted already).
 * Works on any record list, raw lines included, given each record's kind.
 */
export function compactRecords<T>({
  records,
  kindOf,
}: {
  records: readonly T[];
  kindOf: (record: T) => JournalRecord["kind"] | undefined;
}): T[] | undefined {
  let start: T | undefined;
  let end: T | undefined;
  for (const record of records) {
    const kind = kindOf(record);
    if (kind === "start" && start === undefined) start = record;
    else if (kind === "end") end = record;
  }
  if (end === undefined) return undefined;
  const kept = start === undefined ? [end] : [start, end];
  return kept.length === records.length ? undefined : kept;
}
