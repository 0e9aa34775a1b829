import { mkdtemp, readdir, readFile, rm, stat, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { StoreError } from "../errors/store-error.js";
import { FileJournal } from "./file-journal.js";
import { describeRunJournalContract, journalRecords } from "./run-journal-contract.js";

const dirs: string[] = [];
async function tempDir(): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), "agentloop-journal-"));
  dirs.push(dir);
  return dir;
}

afterAll(async () => {
  await Promise.all(dirs.map((dir) => rm(dir, { recursive: true, force: true })));
});

describeRunJournalContract({
  name: "FileJournal",
  // A directory that does not exist yet: the journal creates it on the first write.
  create: async () => new FileJournal({ dir: join(await tempDir(), "journal") }),
  reopen: async (journal) => new FileJournal({ dir: (journal as FileJournal).dir }),
});

const { start, response, end } = journalRecords;

describe("FileJournal", () => {
  it("writes one JSONL file per run, v and kind first, and a marker once finished", async () => {
    const dir = await tempDir();
    const journal = new FileJournal({ dir, sync: true });
    await journal.append("Run/1", [start("Run/1"), response(0)]);
    expect(await readdir(dir)).toEqual(["%52un%2f1.jsonl"]);
    const lines = (await readFile(join(dir, "%52un%2f1.jsonl"), "utf8")).split("\n");
    expect(lines).toHaveLength(3);
    expect(lines[0]).toMatch(/^\{"v":2,"kind":"start",/);
    expect(lines[2]).toBe("");
    await journal.append("Run/1", [end("Run/1")]);
    expect((await readdir(dir)).sort()).toEqual(["%52un%2f1.done", "%52un%2f1.jsonl"]);
    await journal.delete("Run/1");
    expect(await readdir(dir)).toEqual([]);
  });

  it("ignores a torn last line, and the next append removes it", async () => {
    const dir = await tempDir();
    const journal = new FileJournal({ dir });
    await journal.append("t", [start("t"), response(0)]);
    const file = join(dir, "t.jsonl");
    await writeFile(file, `${await readFile(file, "utf8")}{"v":1,"kind":"model_resp`);
    expect(await journal.load("t")).toEqual([start("t"), response(0)]);
    await journal.append("t", [response(1)]);
    expect(await journal.load("t")).toEqual([start("t"), response(0), response(1)]);
  });

  it("rejects a corrupt line that is not the last one, naming file and line", async () => {
    const dir = await tempDir();
    const journal = new FileJournal({ dir });
    const file = join(dir, "c.jsonl");
    await writeFile(file, `${JSON.stringify(start("c"))}\n{broken\n${JSON.stringify(response(0))}\n`);
    const error = await journal.load("c").catch((e: unknown) => e);
    expect(StoreError.isInstance(error)).toBe(true);
    expect((error as Error).message).toContain(`${file} line 2 is corrupt`);
  });

  it("repairs a missing finished marker on load (a crash between the end record and its marker)", async () => {
    const dir = await tempDir();
    const journal = new FileJournal({ dir });
    await journal.append("m", [start("m"), end("m")]);
    await rm(join(dir, "m.done"));
    expect((await journal.list())[0]?.finished).toBe(false);
    expect(await journal.load("m")).toEqual([start("m"), end("m")]);
    expect((await journal.list())[0]?.finished).toBe(true);
  });

  it("keeps the file's modification time when compacting", async () => {
    const dir = await tempDir();
    const journal = new FileJournal({ dir });
    await journal.append("k", [start("k"), response(0), end("k")]);
    const before = await stat(join(dir, "k.jsonl"));
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(await journal.compact("k")).toBe(true);
    const after = await stat(join(dir, "k.jsonl"));
    expect(Math.floor(after.mtimeMs)).toBe(Math.floor(before.mtimeMs));
    expect((await readdir(dir)).sort()).toEqual(["k.done", "k.jsonl"]);
  });

  it("rejects a run id too long for a file name with StoreError", async () => {
    const journal = new FileJournal({ dir: await tempDir() });
    const id = "x".repeat(300);
    expect(StoreError.isInstance(await journal.append(id, [start(id)]).catch((e: unknown) => e))).toBe(true);
  });
});
