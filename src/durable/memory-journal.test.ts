import { MemoryJournal } from "./memory-journal.js";
import { describeRunJournalContract } from "./run-journal-contract.js";

describeRunJournalContract({ name: "MemoryJournal", create: async () => new MemoryJournal() });
