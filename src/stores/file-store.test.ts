import { execFile } from "node:child_process";
import { randomUUID } from "node:crypto";
import { appendFile, mkdir, mkdtemp, readdir, readFile, rm, utimes, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";
import { build } from "esbuild";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { StoreError } from "../errors/store-error.js";
import type { Message } from "../models/message.js";
import { encodeFileName } from "./encode-file-name.js";
import { FileStore } from "./file-store.js";
import { describeSessionStoreContract } from "./session-store-contract.js";

const run = promisify(execFile);
const user = (content: string): Message => ({ role: "user", content });
const fileOf = (dir: string, sessionId: string) => join(dir, `${encodeFileName(sessionId)}.jsonl`);
const newDir = () => mkdtemp(join(tmpdir(), "agentloop-file-store-"));

let contractDir = "";
describeSessionStoreContract({
  name: "FileStore",
  create: async () => {
    contractDir = await newDir();
    return new FileStore({ dir: contractDir });
  },
  cleanup: () => rm(contractDir, { recursive: true, force: true }),
  writeRawRecord: async (store, sessionId, record) => {
    await appendFile(fileOf((store as FileStore).dir, sessionId), `${JSON.stringify(record)}\n`);
  },
});

async function rejection(promise: Promise<unknown>): Promise<Error> {
  const error = await promise.then(
    () => undefined,
    (caught: unknown) => caught,
  );
  expect(StoreError.isInstance(error)).toBe(true);
  return error as Error;
}

describe("FileStore: files", () => {
  let dir = "";
  beforeAll(async () => {
    dir = await newDir();
  });
  afterAll(() => rm(dir, { recursive: true, force: true }));

  it("ignores a torn last line, and the next append removes it", async () => {
    const store = new FileStore({ dir });
    await store.append("torn", [user("a"), user("b"), user("c")]);
    await appendFile(fileOf(dir, "torn"), '{"v":1,"type":"message","at":1,"mess');
    expect((await store.load("torn"))?.messages).toEqual([user("a"), user("b"), user("c")]);
    await store.append("torn", [user("d")]);
    const lines = (await readFile(fileOf(dir, "torn"), "utf8")).split("\n");
    expect(lines.at(-1)).toBe("");
    expect(lines.slice(0, -1).map((line) => JSON.parse(line).message.content)).toEqual(["a", "b", "c", "d"]);
  });

  it("a file holding only a torn line is a session without messages, not a lost one", async () => {
    await writeFile(fileOf(dir, "only-torn"), '{"v":1,"ty');
    expect(await new FileStore({ dir }).load("only-torn")).toEqual({
      sessionId: "only-torn",
      messages: [],
      state: {},
      records: 0,
    });
  });

  it("keeps a complete last line written without its newline (hand-edited file) and appends after it", async () => {
    const store = new FileStore({ dir });
    const line = (content: string) =>
      JSON.stringify({ v: 1, type: "message", at: 1, message: user(content) });
    await writeFile(fileOf(dir, "edited"), `${line("a")}\n${line("b")}`);
    expect((await store.load("edited"))?.messages).toEqual([user("a"), user("b")]);
    await store.append("edited", [user("c")]);
    expect((await store.load("edited"))?.messages).toEqual([user("a"), user("b"), user("c")]);
  });

  it("rejects a corrupt line in the middle with the file and line number", async () => {
    const store = new FileStore({ dir });
    await store.append("corrupt", [user("a")]);
    await appendFile(fileOf(dir, "corrupt"), "{garbage\n");
    await store.append("corrupt", [user("c")]);
    const error = await rejection(store.load("corrupt"));
    expect(error.message).toContain(fileOf(dir, "corrupt"));
    expect(error.message).toContain("line 2");
  });

  it("rejects a well-formed line that is not a record", async () => {
    const store = new FileStore({ dir });
    await writeFile(fileOf(dir, "not-record"), '{"hello":"world"}\n');
    expect((await rejection(store.load("not-record"))).message).toContain("line 1");
  });

  it("keeps ids like ../../etc/passwd inside the directory", async () => {
    const base = await newDir();
    const inner = join(base, "sessions");
    const store = new FileStore({ dir: inner });
    const ids = ["../../etc/passwd", "/abs/path", "..", ".", "a\u0000b", "C:\\win", "UPPER", "upper"];
    for (const sessionId of ids) await store.append(sessionId, [user(sessionId)]);
    expect(await readdir(base)).toEqual(["sessions"]);
    const names = await readdir(inner);
    expect(names).toHaveLength(ids.length);
    for (const name of names) expect(name).toMatch(/^[a-z0-9_%-]+\.jsonl$/);
    for (const sessionId of ids) expect((await store.load(sessionId))?.messages).toEqual([user(sessionId)]);
    expect((await store.list()).map((info) => info.sessionId).sort()).toEqual([...ids].sort());
    await rm(base, { recursive: true, force: true });
  });

  it("applies writes issued without awaiting in call order", async () => {
    const store = new FileStore({ dir: join(dir, "fresh-dir-for-order") });
    const writes: Promise<void>[] = [];
    for (let index = 0; index < 20; index++) {
      writes.push(store.append("ordered", [user(`m${index}`)]));
      if (index === 10) writes.push(store.replace("ordered", [user("summary")]));
    }
    await Promise.all(writes);
    expect((await store.load("ordered"))?.messages.map((m) => m.content)).toEqual([
      "summary",
      ...Array.from({ length: 9 }, (_, index) => `m${index + 11}`),
    ]);
  });

  it("rejects ids too long for a file name", async () => {
    await rejection(new FileStore({ dir }).append("x".repeat(500), [user("a")]));
  });

  it("creates the directory on the first write only", async () => {
    const base = await newDir();
    const store = new FileStore({ dir: join(base, "a", "b") });
    expect(await store.load("s")).toBeUndefined();
    expect(await store.list()).toEqual([]);
    expect(await readdir(base)).toEqual([]);
    await store.append("s", [user("x")]);
    expect(await readdir(join(base, "a", "b"))).toEqual(["s.jsonl"]);
    await rm(base, { recursive: true, force: true });
  });

  it("appends a snapshot to a small file and compacts a large one atomically", async () => {
    const store = new FileStore({ dir, compactAboveBytes: 2_000 });
    await store.append("compact", [user("a")]);
    await store.replace("compact", [user("summary 1")]);
    expect((await readFile(fileOf(dir, "compact"), "utf8")).trim().split("\n")).toHaveLength(2);
    await store.saveState("compact", { kept: true });
    for (let index = 0; index < 30; index++)
      await store.append("compact", [user(`message ${index} ${"x".repeat(50)}`)]);
    await store.replace("compact", [user("summary 2")]);
    const lines = (await readFile(fileOf(dir, "compact"), "utf8")).trim().split("\n");
    expect(lines.map((line) => JSON.parse(line).type)).toEqual(["state", "snapshot"]);
    expect(await store.load("compact")).toEqual({
      sessionId: "compact",
      messages: [user("summary 2")],
      state: { kept: true },
      records: 2,
    });
    expect((await readdir(dir)).filter((name) => name.endsWith(".tmp"))).toEqual([]);
  });

  it("list ignores files that are not session files", async () => {
    const base = await newDir();
    await writeFile(join(base, "README.txt"), "hi");
    await writeFile(join(base, "Bad.Name.jsonl"), "");
    const store = new FileStore({ dir: base });
    await store.append("real", [user("x")]);
    await store.lock("real", { ttlMs: 10_000 });
    expect((await store.list()).map((info) => info.sessionId)).toEqual(["real"]);
    await rm(base, { recursive: true, force: true });
  });

  it("treats a fresh unparsable lock file as held and an old one as stale", async () => {
    const store = new FileStore({ dir });
    const lockFile = join(dir, "half-written.lock");
    await writeFile(lockFile, "");
    expect(await store.lock("half-written", { ttlMs: 10_000 })).toBeUndefined();
    const old = new Date(Date.now() - 60_000);
    await utimes(lockFile, old, old);
    const lock = await store.lock("half-written", { ttlMs: 10_000 });
    expect(lock).toBeDefined();
    await lock!.release();
    expect(await readdir(dir)).not.toContain("half-written.lock");
  });
});

describe("FileStore: several processes", () => {
  const here = dirname(fileURLToPath(import.meta.url));
  let work = "";
  let bundle = "";

  beforeAll(async () => {
    work = await newDir();
    bundle = join(work, "stores.mjs");
    // A child process cannot load TypeScript: bundle the store's source for it.
    await build({
      entryPoints: [join(here, "index.ts")],
      bundle: true,
      format: "esm",
      platform: "node",
      target: "node20",
      outfile: bundle,
      logLevel: "warning",
    });
  });
  afterAll(() => rm(work, { recursive: true, force: true }));

  /** Runs `body` in a new Node process with `store` (a FileStore on `dir`) and `sessionId` in scope. */
  async function child(dir: string, sessionId: string, body: string): Promise<string> {
    const script = `
      import { FileStore } from ${JSON.stringify(bundle)};
      const store = new FileStore({ dir: process.argv[1] });
      const sessionId = process.argv[2];
      ${body}
    `;
    const { stdout } = await run(process.execPath, ["--input-type=module", "-e", script, dir, sessionId]);
    return stdout.trim();
  }

  it("a session written by one process is continued by another, then seen by the first", async () => {
    const dir = join(work, "continue");
    const store = new FileStore({ dir });
    const sessionId = `shared ${randomUUID()}`;
    await store.append(sessionId, [user("from A")]);
    await store.saveState(sessionId, { step: 1 });
    const seen = await child(
      dir,
      sessionId,
      `const lock = await store.lock(sessionId, { ttlMs: 10_000 });
       if (lock === undefined) throw new Error("busy");
       const data = await store.load(sessionId);
       await store.append(sessionId, [{ role: "user", content: "from B after " + data.messages.length }]);
       await store.saveState(sessionId, { step: data.state.step + 1 });
       await lock.release();
       console.log(process.pid);`,
    );
    expect(Number(seen)).not.toBe(process.pid);
    const data = await store.load(sessionId);
    expect(data?.messages).toEqual([user("from A"), user("from B after 1")]);
    expect(data?.state).toEqual({ step: 2 });
  });

  it("a lock held by a live process is busy; one left by a dead process is taken over", async () => {
    const dir = join(work, "locks");
    await mkdir(dir, { recursive: true });
    const store = new FileStore({ dir });
    const sessionId = `locked ${randomUUID()}`;
    // The child takes the lock, reports, and waits for stdin to close; it dies holding the lock.
    const holder = execFile(process.execPath, [
      "--input-type=module",
      "-e",
      `import { FileStore } from ${JSON.stringify(bundle)};
       const store = new FileStore({ dir: process.argv[1] });
       const lock = await store.lock(process.argv[2], { ttlMs: 600_000 });
       console.log(lock === undefined ? "busy" : "held");
       process.stdin.resume();
       process.stdin.on("end", () => process.exit(0));`,
      dir,
      sessionId,
    ]);
    const first = await new Promise<string>((resolve) =>
      holder.stdout!.once("data", (chunk) => resolve(String(chunk))),
    );
    expect(first.trim()).toBe("held");
    expect(await store.lock(sessionId, { ttlMs: 10_000 })).toBeUndefined();
    const exited = new Promise((resolve) => holder.once("exit", resolve));
    holder.stdin!.end();
    await exited;
    const lock = await store.lock(sessionId, { ttlMs: 10_000 });
    expect(lock).toBeDefined();
    await lock!.release();
  });

  it("appends of two processes at once all land, line by line", async () => {
    const dir = join(work, "race");
    const sessionId = `race ${randomUUID()}`;
    const body = (name: string) =>
      `for (let i = 0; i < 50; i++) await store.append(sessionId, [{ role: "user", content: "${name}" + i + "-0" }, { role: "user", content: "${name}" + i + "-1" }]);`;
    await Promise.all([child(dir, sessionId, body("a")), child(dir, sessionId, body("b"))]);
    const contents = (await new FileStore({ dir }).load(sessionId))?.messages.map((m) => m.content) ?? [];
    expect(contents).toHaveLength(200);
    for (let index = 0; index < 200; index += 2) {
      expect(contents[index + 1]).toBe(String(contents[index]).replace(/-0$/, "-1"));
    }
  });
});
