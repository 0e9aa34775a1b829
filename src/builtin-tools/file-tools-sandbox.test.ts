import { existsSync } from "node:fs";
import { mkdir, mkdtemp, readFile, realpath, rm, symlink, writeFile } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { SandboxError } from "../errors/sandbox-error.js";
import type { Tool, ToolContext } from "../tools/tool.js";
import { fileTools } from "./file-tools.js";
import { isInsideRoot, splitSandboxPath } from "./resolve-sandbox-path.js";

const ctx: ToolContext = { signal: new AbortController().signal, toolCallId: "call", turn: 1 };

let base: string;
let root: string;
let outside: string;
let evil: string;
let read: Tool;
let write: Tool;
let list: Tool;

function run(target: Tool, args: Record<string, unknown>): Promise<unknown> {
  return Promise.resolve(target.execute(args as never, ctx));
}

async function refused(promise: Promise<unknown>, path: string, reason: RegExp): Promise<void> {
  const error = await promise.then(
    () => undefined,
    (thrown: unknown) => thrown,
  );
  expect(SandboxError.isInstance(error), `expected a SandboxError, got ${String(error)}`).toBe(true);
  expect((error as SandboxError).path).toBe(path);
  expect((error as SandboxError).message).toContain(JSON.stringify(path));
  expect((error as SandboxError).message).toMatch(reason);
}

beforeAll(async () => {
  base = await realpath(await mkdtemp(path.join(os.tmpdir(), "agentloop-sandbox-")));
  root = path.join(base, "root");
  outside = path.join(base, "outside");
  evil = `${root}-evil`;
  await mkdir(path.join(root, "sub", "deeper"), { recursive: true });
  await mkdir(outside);
  await mkdir(evil);
  await writeFile(path.join(root, "sub", "a.txt"), "inside a");
  await writeFile(path.join(root, "sub", "deeper", "b.txt"), "inside b");
  await writeFile(path.join(root, "..dots"), "a name starting with two dots");
  await writeFile(path.join(outside, "secret.txt"), "outside secret");
  await writeFile(path.join(evil, "secret.txt"), "evil secret");
  await symlink("/etc", path.join(root, "etc-link"));
  await symlink(outside, path.join(root, "out-dir"));
  await symlink(path.join(outside, "secret.txt"), path.join(root, "out-file"));
  await symlink(evil, path.join(root, "evil-link"));
  await symlink(path.join(outside, "not-yet.txt"), path.join(root, "dangling"));
  await symlink(path.join(root, "sub"), path.join(root, "in-dir"));
  await symlink("sub/a.txt", path.join(root, "in-file"));
  [read, write, list] = fileTools({ root }) as [Tool, Tool, Tool];
});

afterAll(async () => {
  await rm(base, { recursive: true, force: true });
});

describe("file tools sandbox: escapes are refused", () => {
  it.each([
    ["../x", /leaves the sandbox root/],
    ["a/../../x", /leaves the sandbox root/],
    ["sub/../../outside/secret.txt", /leaves the sandbox root/],
    ["..\\outside\\secret.txt", /leaves the sandbox root/],
    ["/etc/passwd", /absolute paths are not allowed/],
    ["C:\\Windows", /absolute paths are not allowed/],
    ["C:Windows", /absolute paths are not allowed/],
    ["\\\\server\\share", /absolute paths are not allowed/],
    ["//server/share", /absolute paths are not allowed/],
    ["a\u0000b", /NUL byte/],
  ])("refuses %j for read, write and list", async (attempt, reason) => {
    await refused(run(read, { path: attempt }), attempt, reason);
    await refused(run(write, { path: attempt, content: "x" }), attempt, reason);
    await refused(run(list, { path: attempt }), attempt, reason);
  });

  it("refuses reading through a symlink to /etc", async () => {
    await refused(run(read, { path: "etc-link/passwd" }), "etc-link/passwd", /"etc-link" is a symbolic link/);
  });

  it("refuses listing through a symlink to /etc", async () => {
    await refused(run(list, { path: "etc-link" }), "etc-link", /resolves outside the sandbox root/);
  });

  it("refuses writing through a symlink to /etc", async () => {
    await refused(
      run(write, { path: "etc-link/agentloop-x", content: "x" }),
      "etc-link/agentloop-x",
      /outside/,
    );
  });

  it("refuses a file behind a symlinked parent directory pointing outside", async () => {
    await refused(
      run(read, { path: "out-dir/secret.txt" }),
      "out-dir/secret.txt",
      /"out-dir" is a symbolic link/,
    );
  });

  it("refuses a symlinked file pointing outside, for reading and for writing", async () => {
    await refused(run(read, { path: "out-file" }), "out-file", /"out-file" is a symbolic link/);
    await refused(run(write, { path: "out-file", content: "pwned" }), "out-file", /outside/);
    expect(await readFile(path.join(outside, "secret.txt"), "utf8")).toBe("outside secret");
  });

  it("refuses a sibling directory sharing the root's name prefix (<root>-evil)", async () => {
    const lexical = `../${path.basename(evil)}/secret.txt`;
    await refused(run(read, { path: lexical }), lexical, /leaves the sandbox root/);
    await refused(run(read, { path: "evil-link/secret.txt" }), "evil-link/secret.txt", /outside/);
    expect(isInsideRoot({ root, target: evil })).toBe(false);
    expect(isInsideRoot({ root, target: path.join(evil, "secret.txt") })).toBe(false);
  });

  it("refuses writing a new file (and new directories) under a symlinked directory", async () => {
    await refused(
      run(write, { path: "out-dir/new/deep.txt", content: "x" }),
      "out-dir/new/deep.txt",
      /outside/,
    );
    await refused(run(write, { path: "out-dir/new.txt", content: "x" }), "out-dir/new.txt", /outside/);
    expect(existsSync(path.join(outside, "new"))).toBe(false);
    expect(existsSync(path.join(outside, "new.txt"))).toBe(false);
  });

  it("refuses a dangling symlink (its target cannot be checked) instead of creating the target", async () => {
    await refused(run(write, { path: "dangling", content: "x" }), "dangling", /target does not exist/);
    expect(existsSync(path.join(outside, "not-yet.txt"))).toBe(false);
  });

  it("does not follow symlinks while listing recursively", async () => {
    const text = String(await run(list, { recursive: true }));
    expect(text).toContain("etc-link@");
    expect(text).toContain("out-dir@");
    expect(text).not.toMatch(/passwd|secret/);
  });
});

describe("file tools sandbox: paths inside the root are allowed", () => {
  it("reads nested paths, also with .. that stays inside", async () => {
    expect(await run(read, { path: "sub/deeper/b.txt" })).toBe("inside b");
    expect(await run(read, { path: "sub/deeper/../a.txt" })).toBe("inside a");
    expect(await run(read, { path: "./sub\\a.txt" })).toBe("inside a");
  });

  it("allows a name starting with two dots", async () => {
    expect(await run(read, { path: "..dots" })).toBe("a name starting with two dots");
  });

  it("follows symlinks inside the root that point inside it", async () => {
    expect(await run(read, { path: "in-file" })).toBe("inside a");
    expect(await run(read, { path: "in-dir/deeper/b.txt" })).toBe("inside b");
    expect(await run(list, { path: "in-dir" })).toBe("a.txt\ndeeper/");
    await run(write, { path: "in-dir/via-link.txt", content: "through the link" });
    expect(await readFile(path.join(root, "sub", "via-link.txt"), "utf8")).toBe("through the link");
  });

  it("splits paths without touching the file system", () => {
    expect(splitSandboxPath({ path: "./a//b/./c/../d" })).toEqual(["a", "b", "d"]);
    expect(splitSandboxPath({ path: "." })).toEqual([]);
    expect(() => splitSandboxPath({ path: "x".repeat(5000) })).toThrow(/longer than 4096/);
  });
});
