import { mkdtemp, readdir, readFile, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { StoreError } from "../errors/store-error.js";
import { FileStore } from "./file-store.js";

// Simulates a crash between the temporary file's write and its rename: `rename` fails once.
const failRename = vi.hoisted(() => ({ next: false }));
vi.mock("./node-fs.js", async (importOriginal) => {
  const original = await importOriginal<typeof import("./node-fs.js")>();
  const actual = await import("node:fs/promises");
  const fs = {
    ...actual,
    rename: async (from: string, to: string) => {
      if (failRename.next) {
        failRename.next = false;
        throw Object.assign(new Error("simulated crash before rename"), { code: "EIO" });
      }
      return actual.rename(from, to);
    },
  };
  return { ...original, nodeFs: () => fs };
});

let root: string;
beforeAll(async () => {
  root = await mkdtemp(join(tmpdir(), "agentloop-file-compact-"));
});
afterAll(() => rm(root, { recursive: true, force: true }));

const user = (content: string) => ({ role: "user" as const, content });

describe("FileStore compact", () => {
  it("interrupted between the temporary write and the rename, leaves the session unchanged and loadable", async () => {
    const dir = join(root, "interrupted");
    const store = new FileStore({ dir });
    await store.append("s", [user("a")], { appendId: "1" });
    await store.saveState("s", { k: "ü" });
    await store.append("s", [user("b")], { appendId: "2" });
    const file = join(dir, "s.jsonl");
    const bytes = await readFile(file, "utf8");
    const before = await store.load("s");

    failRename.next = true;
    const error = await store.compact("s").then(
      () => undefined,
      (caught: unknown) => caught,
    );
    expect(StoreError.isInstance(error)).toBe(true);
    expect((error as Error).message).toMatch(/simulated crash before rename/);
    expect(await readFile(file, "utf8")).toBe(bytes);
    expect(await store.load("s")).toEqual(before);
    expect(await readdir(dir)).not.toContainEqual(expect.stringMatching(/\.tmp$/));
    // The failed compaction released the session lock, and a later one succeeds.
    expect(await store.compact("s")).toBe(true);
    expect(await store.load("s")).toEqual({ ...before, records: 2 });
    expect((await readFile(file, "utf8")).trim().split("\n")).toHaveLength(2);
  });

  it("rewrites the file as a snapshot and a state line; a torn last line is dropped with the rest", async () => {
    const dir = join(root, "rewrite");
    const store = new FileStore({ dir });
    await store.append("t", [user("x"), user("y")]);
    await store.saveState("t", { n: 1 });
    const file = join(dir, "t.jsonl");
    await import("node:fs/promises").then((fs) => fs.appendFile(file, '{"v":1,"type":"mess'));
    expect(await store.compact("t")).toBe(true);
    const lines = (await readFile(file, "utf8")).split("\n");
    expect(lines.at(-1)).toBe("");
    expect(lines.slice(0, -1).map((line) => JSON.parse(line).type)).toEqual(["snapshot", "state"]);
    expect((await store.load("t"))?.messages).toEqual([user("x"), user("y")]);
  });
});
