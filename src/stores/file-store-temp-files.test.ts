import { spawn } from "node:child_process";
import { mkdir, mkdtemp, readdir, rm, utimes, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { FileStore } from "./file-store.js";

// Compaction rewrites a session file through `<file>.<random>.tmp` + rename: a process killed in between
// leaves the temporary file behind. The store removes the stale ones.

let root: string;
beforeAll(async () => {
  root = await mkdtemp(join(tmpdir(), "agentloop-tmp-files-"));
});
afterAll(() => rm(root, { recursive: true, force: true }));

const aMinuteAgo = () => new Date(Date.now() - 120_000);
const user = (content: string) => ({ role: "user" as const, content });

describe("FileStore temporary files", () => {
  it("removes stale .tmp files at its first write, and keeps young ones (a rewrite in progress)", async () => {
    const dir = join(root, "first-write");
    await mkdir(dir, { recursive: true });
    const stale = join(dir, "s.jsonl.0a1b2c3d4e5f.tmp");
    const young = join(dir, "s.jsonl.ffeeddccbbaa.tmp");
    await writeFile(stale, "half a compaction");
    await utimes(stale, aMinuteAgo(), aMinuteAgo());
    await writeFile(young, "in progress");
    await new FileStore({ dir }).append("s", [user("hello")]);
    expect((await readdir(dir)).sort()).toEqual(["s.jsonl", "s.jsonl.ffeeddccbbaa.tmp"]);
  });

  it("removes the .tmp file a process killed in the middle of a compaction left behind", async () => {
    const dir = join(root, "killed");
    await mkdir(dir, { recursive: true });
    // A child that opens a compaction's temporary file, writes part of it and is killed before the rename.
    const child = spawn(
      process.execPath,
      [
        "-e",
        `const fs = require("node:fs");
         const fd = fs.openSync(${JSON.stringify(join(dir, "s.jsonl.123456abcdef.tmp"))}, "wx");
         fs.writeSync(fd, '{"v":1,"type":"snapshot","at":1,"messages":[');
         process.stdout.write("writing\\n");
         setInterval(() => fs.writeSync(fd, '{"role":"user","content":"x"},'), 1);`,
      ],
      { stdio: ["ignore", "pipe", "inherit"] },
    );
    await new Promise<void>((resolve) => child.stdout.once("data", () => resolve()));
    await new Promise((resolve) => setTimeout(resolve, 30));
    child.kill("SIGKILL");
    await new Promise((resolve) => child.once("exit", resolve));
    expect(await readdir(dir)).toEqual(["s.jsonl.123456abcdef.tmp"]);
    // A minute later (the file is stale), the next compaction, or the next store's first write, removes it.
    await utimes(join(dir, "s.jsonl.123456abcdef.tmp"), aMinuteAgo(), aMinuteAgo());
    const store = new FileStore({ dir, compactAboveBytes: 0 });
    await store.append("s", [user("one")]);
    await store.replace("s", [user("summary")]);
    expect(await readdir(dir)).toEqual(["s.jsonl"]);
    expect((await store.load("s"))?.messages).toEqual([user("summary")]);
  });

  it("a compaction sweeps stale .tmp files left after the store's first write", async () => {
    const dir = join(root, "compaction");
    const store = new FileStore({ dir, compactAboveBytes: 0 });
    await store.append("s", [user("one")]);
    const stale = join(dir, "other.jsonl.abcdefabcdef.tmp");
    await writeFile(stale, "left by another process");
    await utimes(stale, aMinuteAgo(), aMinuteAgo());
    await store.replace("s", [user("summary")]);
    expect(await readdir(dir)).toEqual(["s.jsonl"]);
  });
});
