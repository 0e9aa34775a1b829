import { chmod, mkdir, mkdtemp, readdir, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { z } from "zod";
import { Agent } from "../../src/agent.js";
import { FileJournal } from "../../src/durable/file-journal.js";
import { StoreError } from "../../src/errors/store-error.js";
import { FileStateStore } from "../../src/stores/file-state-store.js";
import { FileStore } from "../../src/stores/file-store.js";
import { ScriptedModel } from "../../src/testing/index.js";
import { tool } from "../../src/tools/tool.js";

// Bad input from storage: what `agent.run(input, { sessionId | runId })` does with damaged files.

let root: string;
beforeAll(async () => {
  root = await mkdtemp(join(tmpdir(), "agentloop-bad-storage-"));
});
afterAll(() => rm(root, { recursive: true, force: true }));

let dirs = 0;
/** A fresh store directory holding one session "s" written by a real run: user "first", assistant "one". */
async function storedSession(): Promise<{ dir: string; file: string; lines: string[] }> {
  const dir = join(root, `store-${dirs++}`);
  const agent = new Agent({ model: new ScriptedModel([{ text: "one" }]), store: new FileStore({ dir }) });
  await agent.run("first", { sessionId: "s" });
  const file = join(dir, "s.jsonl");
  const lines = (await readFile(file, "utf8")).split("\n").filter((line) => line !== "");
  expect(lines).toHaveLength(2);
  return { dir, file, lines };
}

/** Runs session "s" of `dir` with a model that must not be called; returns the rejection and the model. */
async function failingRun(dir: string): Promise<{ error: StoreError; model: ScriptedModel }> {
  const model = new ScriptedModel([]);
  const agent = new Agent({ model, store: new FileStore({ dir }) });
  const error: unknown = await agent.run("second", { sessionId: "s" }).then(
    (result) => result.error ?? new Error(`the run did not fail: ${result.stopReason}`),
    (e: unknown) => e,
  );
  expect(StoreError.isInstance(error), `expected StoreError, got ${String(error)}`).toBe(true);
  expect(model.calls).toHaveLength(0);
  return { error: error as StoreError, model };
}

async function snapshot(dir: string): Promise<Map<string, Buffer>> {
  const files = new Map<string, Buffer>();
  for (const name of await readdir(dir)) {
    files.set(name, await readFile(join(dir, name)).catch(() => Buffer.from("<dir>")));
  }
  return files;
}

describe("bad storage: damaged FileStore session files", () => {
  it("a last line torn by a crash mid-append is dropped; the earlier records load and the run goes on", async () => {
    const { dir, file, lines } = await storedSession();
    const torn = `${lines[0]}\n${lines[1]?.slice(0, 25)}`; // the assistant record, cut mid-write
    await writeFile(file, torn);
    const model = new ScriptedModel([{ text: "two" }]);
    const result = await new Agent({ model, store: new FileStore({ dir }) }).run("second", {
      sessionId: "s",
    });
    expect(result.stopReason).toBe("completed");
    expect(model.calls[0]?.request.messages.map((m) => m.content)).toEqual(["first", "second"]);
    const reloaded = await new FileStore({ dir }).load("s");
    expect(reloaded?.messages.map((m) => m.content)).toEqual(["first", "second", "two"]);
    // The torn bytes were removed before the append, so every line of the file parses.
    const text = await readFile(file, "utf8");
    expect(text.startsWith(`${lines[0]}\n`)).toBe(true);
    for (const line of text.split("\n").filter((l) => l !== "")) expect(() => JSON.parse(line)).not.toThrow();
  });

  it.each([
    [
      "invalid JSON in the middle",
      (lines: string[]) => `${lines[0]}\n{"v":1,"type":\n${lines[1]}\n`,
      "line 2 is corrupt",
    ],
    [
      "garbage bytes in the middle",
      (lines: string[]) => `${lines[0]}\n\u0000\u0001\u00ff#!\n${lines[1]}\n`,
      "line 2 is corrupt",
    ],
    [
      "garbage in the first line",
      (lines: string[]) => `not json\n${lines.join("\n")}\n`,
      "line 1 is corrupt",
    ],
    [
      "a record of a newer schema version",
      (lines: string[]) => `${lines[0]}\n${lines[1]?.replace('"v":1', '"v":2')}\n`,
      "schema version 2, written by a newer agentloop",
    ],
    [
      "a record without a version",
      (lines: string[]) => `${lines[0]}\n{"type":"message"}\n`,
      "no valid version",
    ],
    [
      "a record of an unknown type",
      (lines: string[]) => `${lines[0]}\n{"v":1,"type":"blob","at":1}\n${lines[1]}\n`,
      'unknown type "blob"',
    ],
    ["a JSON array instead of a record", (lines: string[]) => `${lines[0]}\n[1,2]\n`, "not an object"],
  ])(
    "%s: StoreError naming the file and line, no model call, the file untouched",
    async (_label, damage, says) => {
      const { dir, file, lines } = await storedSession();
      await writeFile(file, damage(lines));
      const before = await snapshot(dir);
      const { error } = await failingRun(dir);
      expect(error.message).toContain(says);
      expect(error.message).toContain(file);
      expect(error.sessionId).toBe("s");
      expect(error.operation).toBe("load");
      expect(await snapshot(dir)).toEqual(before); // same files (the lock is gone), same bytes
    },
  );

  it("an empty file is an empty session: the run starts it", async () => {
    const { dir, file } = await storedSession();
    await writeFile(file, "");
    const model = new ScriptedModel([{ text: "hello" }]);
    const result = await new Agent({ model, store: new FileStore({ dir }) }).run("hi", { sessionId: "s" });
    expect(result.stopReason).toBe("completed");
    expect(model.calls[0]?.request.messages).toEqual([{ role: "user", content: "hi" }]);
  });

  it("a directory where the session file should be: StoreError, no model call, nothing written", async () => {
    const dir = join(root, `store-${dirs++}`);
    await mkdir(join(dir, "s.jsonl"), { recursive: true });
    const before = await snapshot(dir);
    const { error } = await failingRun(dir);
    expect(error.message).toContain("s.jsonl");
    expect(error.message).toContain("EISDIR");
    expect(await snapshot(dir)).toEqual(before);
  });

  it("a store directory that cannot be created (a file is in the way): StoreError, no model call", async () => {
    const blocker = join(root, `blocker-${dirs++}`);
    await writeFile(blocker, "not a directory");
    const { error } = await failingRun(join(blocker, "sessions"));
    expect(error.message).toContain("FileStore lock");
    expect(error.message).toMatch(/ENOTDIR|EEXIST/);
    expect(await readFile(blocker, "utf8")).toBe("not a directory");
  });

  // chmod does not stop root, so this case only runs as an ordinary user.
  it.skipIf(process.getuid?.() === 0)("a read-only store directory: StoreError, no model call", async () => {
    const { dir } = await storedSession();
    const before = await snapshot(dir);
    await chmod(dir, 0o500);
    try {
      const { error } = await failingRun(dir);
      expect(error.operation).toBe("lock");
      expect(await snapshot(dir)).toEqual(before);
    } finally {
      await chmod(dir, 0o700);
    }
  });
});

describe("bad storage: damaged FileJournal files (durable runs)", () => {
  /** A finished durable run "r" (one tool call, then "done") and its journal lines. */
  async function journaledRun() {
    const dir = join(root, `journal-${dirs++}`);
    const executed: string[] = [];
    const tools = [
      tool({
        name: "charge",
        description: "charge",
        parameters: z.object({}),
        execute: async () => {
          executed.push("charge");
          return "charged";
        },
      }),
    ];
    const model = new ScriptedModel([{ toolCalls: [{ name: "charge", arguments: {} }] }, { text: "done" }]);
    const agent = new Agent({ model, tools, journal: new FileJournal({ dir }) });
    expect((await agent.run("pay", { runId: "r" })).text).toBe("done");
    const file = join(dir, "r.jsonl");
    const lines = (await readFile(file, "utf8")).split("\n").filter((line) => line !== "");
    expect(lines.at(-1)).toContain('"kind":"end"');
    return { dir, file, lines, agent, executed };
  }

  it("a torn last record (crash while writing the end record): the run resumes from the journal", async () => {
    const { dir, file, lines, agent, executed } = await journaledRun();
    await writeFile(file, `${lines.slice(0, -1).join("\n")}\n${lines.at(-1)?.slice(0, 30)}`);
    await rm(join(dir, "r.done"), { force: true });
    const model = new ScriptedModel([]);
    const result = await agent.with({ model }).run("pay", { runId: "r" });
    expect(result.stopReason).toBe("completed");
    expect(result.text).toBe("done");
    expect(model.calls).toHaveLength(0); // answered from the journaled responses
    expect(executed).toEqual(["charge"]); // the tool is not run twice
  });

  it("a corrupt record in the middle: StoreError naming file and line, no model call, the file untouched", async () => {
    const { dir, file, lines, agent } = await journaledRun();
    await writeFile(file, `${lines[0]}\n{oops\n${lines.slice(1).join("\n")}\n`);
    const before = await snapshot(dir);
    const model = new ScriptedModel([]);
    const error: unknown = await agent
      .with({ model })
      .run("pay", { runId: "r" })
      .then(
        (result) => result.error,
        (e: unknown) => e,
      );
    expect(StoreError.isInstance(error)).toBe(true);
    expect((error as Error).message).toContain(`${file} line 2 is corrupt`);
    expect(model.calls).toHaveLength(0);
    expect(await snapshot(dir)).toEqual(before);
  });

  it("a record of a newer journal version: StoreError, the file untouched", async () => {
    const { dir, file, lines, agent } = await journaledRun();
    await writeFile(file, `${[lines[0]?.replace('"v":2', '"v":99'), ...lines.slice(1)].join("\n")}\n`);
    const before = await snapshot(dir);
    const error: unknown = await agent
      .with({ model: new ScriptedModel([]) })
      .run("pay", { runId: "r" })
      .then(
        (result) => result.error,
        (e: unknown) => e,
      );
    expect(StoreError.isInstance(error)).toBe(true);
    expect((error as Error).message).toMatch(/version 99/);
    expect(await snapshot(dir)).toEqual(before);
  });
});

describe("bad storage: a damaged FileStateStore value", () => {
  it.each([
    ["truncated JSON", '{"v":1,"at":1,"value":{"a"'],
    ["a newer version", '{"v":7,"at":1,"value":1}'],
    ["an empty file", ""],
  ])(
    "%s: StoreError naming the file; the file is not overwritten by the failed load",
    async (_label, text) => {
      const dir = join(root, `state-${dirs++}`);
      const store = new FileStateStore({ dir });
      await store.save("k", { a: 1 });
      const file = join(dir, "k.json");
      await writeFile(file, text);
      const error: unknown = await store.load("k").catch((e: unknown) => e);
      expect(StoreError.isInstance(error), `expected StoreError, got ${String(error)}`).toBe(true);
      expect((error as Error).message).toContain(file);
      expect(await readFile(file, "utf8")).toBe(text);
    },
  );
});
