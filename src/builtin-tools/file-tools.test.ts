import { chmod, mkdir, mkdtemp, readdir, readFile, rm, stat, writeFile } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { InvalidArgumentError } from "../errors/invalid-argument-error.js";
import type { Tool, ToolContext } from "../tools/tool.js";
import { fileTools } from "./file-tools.js";
import { listDirTool } from "./list-dir-tool.js";
import { readFileTool } from "./read-file-tool.js";
import { writeFileTool } from "./write-file-tool.js";

const ctx: ToolContext = { signal: new AbortController().signal, toolCallId: "call", turn: 1 };
let root: string;

function run(target: Tool, args: Record<string, unknown>): Promise<unknown> {
  return Promise.resolve(target.execute(args as never, ctx));
}

beforeEach(async () => {
  root = await mkdtemp(path.join(os.tmpdir(), "agentloop-files-"));
});

afterEach(async () => {
  await rm(root, { recursive: true, force: true });
});

describe("fileTools", () => {
  it("returns read_file, write_file and list_dir; allowWrite: false leaves write_file out", () => {
    expect(fileTools({ root }).map((t) => t.name)).toEqual(["read_file", "write_file", "list_dir"]);
    expect(fileTools({ root, allowWrite: false }).map((t) => t.name)).toEqual(["read_file", "list_dir"]);
  });

  it("marks writes as needing approval when asked", async () => {
    const write = writeFileTool({ root, needsApprovalForWrite: true });
    expect(await write.requiresApproval({ path: "a", content: "b" })).toBe(true);
    expect(await writeFileTool({ root }).requiresApproval({ path: "a", content: "b" })).toBe(false);
  });

  it.each([
    [{ maxReadBytes: 0 }, /maxReadBytes/],
    [{ maxWriteBytes: 1.5 }, /maxWriteBytes/],
    [{ root: "" }, /root/],
    [{ allowWrite: "yes" }, /allowWrite/],
  ])("refuses invalid options %j", (options, message) => {
    expect(() => fileTools(options as never)).toThrow(InvalidArgumentError);
    expect(() => fileTools(options as never)).toThrow(message);
  });

  it("defaults the root to the working directory", async () => {
    const list = listDirTool();
    const text = String(await run(list, {}));
    expect(text).toContain("package.json");
  });
});

describe("read_file", () => {
  it("reads a UTF-8 file, and a byte range with offset and length", async () => {
    await writeFile(path.join(root, "a.txt"), "héllo world");
    const read = readFileTool({ root });
    expect(await run(read, { path: "a.txt" })).toBe("héllo world");
    const part = String(await run(read, { path: "a.txt", offset: 7, length: 5 }));
    expect(part).toBe("world");
    const head = String(await run(read, { path: "a.txt", length: 3 }));
    expect(head).toMatch(
      /^hé\n\n\[read_file: showed bytes 0-3 of 12; call read_file with offset 3 to read more\]$/,
    );
  });

  it("cuts a file larger than maxReadBytes with a note giving the offset to continue at", async () => {
    await writeFile(path.join(root, "big.txt"), "0123456789".repeat(10));
    const read = readFileTool({ root, maxReadBytes: 30 });
    const first = String(await run(read, { path: "big.txt" }));
    expect(first).toContain("012345678901234567890123456789\n\n[read_file: showed bytes 0-30 of 100");
    expect(first).toContain("at most 30 bytes per call");
    expect(first).toContain("offset 30");
    expect(String(await run(read, { path: "big.txt", offset: 90, length: 1000 }))).toBe("0123456789");
    expect(read.maxResultChars).toBeGreaterThan(30);
  });

  it("never cuts a multi-byte character in two", async () => {
    await writeFile(path.join(root, "emoji.txt"), "ab😀cd");
    const read = readFileTool({ root, maxReadBytes: 4 });
    const text = String(await run(read, { path: "emoji.txt" }));
    expect(text.startsWith("ab\n\n[read_file: showed bytes 0-2 of 8")).toBe(true);
    expect(String(await run(read, { path: "emoji.txt", offset: 2 }))).toMatch(/^😀\n\n/);
  });

  it("refuses binary files, directories, missing files and offsets past the end", async () => {
    await writeFile(path.join(root, "image.png"), Buffer.from([0x89, 0x50, 0x4e, 0x47, 0, 1, 2]));
    await mkdir(path.join(root, "dir"));
    await writeFile(path.join(root, "short.txt"), "abc");
    const read = readFileTool({ root });
    await expect(run(read, { path: "image.png" })).rejects.toThrow(/"image.png" looks like a binary file/);
    await expect(run(read, { path: "dir" })).rejects.toThrow(/"dir" is a directory; use list_dir/);
    await expect(run(read, { path: "nope.txt" })).rejects.toThrow(/ENOENT: "nope.txt": no such file/);
    await expect(run(read, { path: "short.txt/x" })).rejects.toThrow(/ENOTDIR: "short.txt\/x"/);
    await expect(run(read, { path: "short.txt", offset: 4 })).rejects.toThrow(/offset 4 is past the end/);
    expect(await run(read, { path: "short.txt", offset: 3 })).toBe("");
  });

  it("does not reveal the absolute root in errors", async () => {
    const read = readFileTool({ root });
    const error = await Promise.resolve(run(read, { path: "missing/file.txt" })).catch((e: unknown) => e);
    expect(String(error)).not.toContain(root);
  });
});

describe("write_file", () => {
  it("creates the file and its parent directories inside the root", async () => {
    const write = writeFileTool({ root });
    expect(await run(write, { path: "notes/2024/todo.md", content: "- ship" })).toBe(
      'Wrote 6 bytes to "notes/2024/todo.md" (new file)',
    );
    expect(await readFile(path.join(root, "notes", "2024", "todo.md"), "utf8")).toBe("- ship");
  });

  it("replaces atomically, keeping the mode and leaving no temporary files", async () => {
    const file = path.join(root, "config.txt");
    await writeFile(file, "old");
    await chmod(file, 0o640);
    const write = writeFileTool({ root });
    for (let index = 0; index < 5; index++) await run(write, { path: "config.txt", content: `v${index}` });
    expect(await run(write, { path: "config.txt", content: "new" })).toBe('Wrote 3 bytes to "config.txt"');
    expect(await readFile(file, "utf8")).toBe("new");
    expect((await stat(file)).mode & 0o777).toBe(0o640);
    expect(await readdir(root)).toEqual(["config.txt"]);
  });

  it("appends", async () => {
    const write = writeFileTool({ root });
    await run(write, { path: "log.txt", content: "one\n", append: true });
    expect(await run(write, { path: "log.txt", content: "two\n", append: true })).toBe(
      'Appended 4 bytes to "log.txt"',
    );
    expect(await readFile(path.join(root, "log.txt"), "utf8")).toBe("one\ntwo\n");
  });

  it("refuses content over maxWriteBytes (counted in UTF-8 bytes), directories and the root", async () => {
    await mkdir(path.join(root, "dir"));
    const write = writeFileTool({ root, maxWriteBytes: 4 });
    await expect(run(write, { path: "a.txt", content: "ééé" })).rejects.toThrow(
      /content is 6 bytes, more than the limit of 4 bytes/,
    );
    await expect(run(write, { path: "dir", content: "x" })).rejects.toThrow(/"dir" is a directory/);
    await expect(run(write, { path: ".", content: "x" })).rejects.toThrow(/workspace root itself/);
    expect(await readdir(root)).toEqual(["dir"]);
  });

  it("refuses a parent path that is a file", async () => {
    await writeFile(path.join(root, "file"), "x");
    const write = writeFileTool({ root });
    await expect(run(write, { path: "file/child.txt", content: "x" })).rejects.toThrow(/"file\/child.txt"/);
  });
});

describe("list_dir", () => {
  beforeEach(async () => {
    await mkdir(path.join(root, "src", "lib"), { recursive: true });
    await writeFile(path.join(root, "b.txt"), "");
    await writeFile(path.join(root, "a.txt"), "");
    await writeFile(path.join(root, "src", "index.ts"), "");
    await writeFile(path.join(root, "src", "lib", "util.ts"), "");
  });

  it("lists sorted names, directories with a trailing slash", async () => {
    expect(await run(listDirTool({ root }), {})).toBe("a.txt\nb.txt\nsrc/");
    expect(await run(listDirTool({ root }), { path: "src" })).toBe("index.ts\nlib/");
  });

  it("lists recursively", async () => {
    expect(await run(listDirTool({ root }), { recursive: true })).toBe(
      "a.txt\nb.txt\nsrc/\nsrc/index.ts\nsrc/lib/\nsrc/lib/util.ts",
    );
  });

  it("stops after maxEntries with a note", async () => {
    const text = String(await run(listDirTool({ root }), { recursive: true, maxEntries: 4 }));
    const lines = text.split("\n");
    expect(lines[0]).toMatch(/^\[list_dir: stopped after 4 entries/);
    expect(lines.slice(1)).toEqual(["a.txt", "b.txt", "src/", "src/index.ts"]);
  });

  it("reports an empty directory, a file and a missing path", async () => {
    await mkdir(path.join(root, "empty"));
    const list = listDirTool({ root });
    expect(await run(list, { path: "empty" })).toBe("(empty directory)");
    await expect(run(list, { path: "a.txt" })).rejects.toThrow(/"a.txt" is not a directory/);
    await expect(run(list, { path: "nope" })).rejects.toThrow(/ENOENT: "nope"/);
  });
});
