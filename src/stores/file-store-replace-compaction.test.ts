import { mkdtemp, readFile, rm, stat } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Message } from "../models/message.js";
import { encodeFileName } from "./encode-file-name.js";
import { FileStore } from "./file-store.js";

const user = (content: string): Message => ({ role: "user", content });
const assistant = (content: string): Message => ({ role: "assistant", content });
const fileOf = (dir: string, sessionId: string) => join(dir, `${encodeFileName(sessionId)}.jsonl`);
const typesOf = async (file: string) =>
  (await readFile(file, "utf8"))
    .trim()
    .split("\n")
    .map((line) => (JSON.parse(line) as { type: string }).type);

let dir = "";
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), "agentloop-file-store-replace-"));
});
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

/**
 * A long conversation under context compaction: every few runs the loop replaces the history with a window of
 * the last turns (a snapshot of about the same size every time), far below the 1 MiB default limit.
 */
async function converse(store: FileStore, sessionId: string, runs: number): Promise<Message[]> {
  let history: Message[] = [];
  for (let run = 0; run < runs; run++) {
    const turn = [user(`question ${run} ${"q".repeat(300)}`), assistant(`answer ${run} ${"a".repeat(600)}`)];
    await store.append(sessionId, turn, { appendId: `append-${run}` });
    history.push(...turn);
    if (run % 5 === 4) {
      history = history.slice(-12);
      await store.replace(sessionId, history);
      await store.saveState(sessionId, { run });
    }
  }
  return history;
}

describe("FileStore: replace compacts a file mostly made of superseded records", () => {
  it("keeps a long conversation's file proportional to its history, loading the same data", async () => {
    const store = new FileStore({ dir });
    const history = await converse(store, "long", 200);
    const { size } = await stat(fileOf(dir, "long"));
    // The history (12 messages of ~1 KB) is ~12 KB; without the proportional rule the file holds 40 snapshots.
    expect(size).toBeLessThan(60_000);
    const loaded = await store.load("long");
    expect(loaded?.messages).toEqual(history);
    expect(loaded?.state).toEqual({ run: 199 });
    // A retry of the last append is still dropped after the rewrites.
    await store.append("long", [user("question 199 retried")], { appendId: "append-199" });
    expect((await store.load("long"))?.messages).toEqual(history);
  });

  it("appends the snapshot while the superseded records are few (a rewrite costs two fsyncs)", async () => {
    const store = new FileStore({ dir });
    await store.append("short", [user("a"), assistant("b")]);
    await store.saveState("short", { kept: true });
    await store.replace("short", [assistant("b")]);
    expect(await typesOf(fileOf(dir, "short"))).toEqual(["message", "message", "state", "snapshot"]);
  });

  it("rewrites as the last state and the snapshot once the file is larger than twice the snapshot", async () => {
    const store = new FileStore({ dir });
    for (let index = 0; index < 20; index++)
      await store.append("half", [user(`${index} ${"x".repeat(500)}`)]);
    await store.saveState("half", { kept: 1 });
    await store.replace("half", [user("summary")]);
    expect(await typesOf(fileOf(dir, "half"))).toEqual(["state", "snapshot"]);
    expect(await store.load("half")).toEqual({
      sessionId: "half",
      messages: [user("summary")],
      state: { kept: 1 },
      records: 2,
    });
  });

  it("never compacts with compactAboveBytes: Infinity", async () => {
    const store = new FileStore({ dir, compactAboveBytes: Number.POSITIVE_INFINITY });
    const history = await converse(store, "never", 40);
    const types = await typesOf(fileOf(dir, "never"));
    expect(types.filter((type) => type === "snapshot")).toHaveLength(8);
    expect((await store.load("never"))?.messages).toEqual(history);
  });
});
