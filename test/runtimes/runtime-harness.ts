// Shared pieces of the runtime matrix (test/runtimes/*.test.ts): a consumer project holding a copy of the built
// package, the mock OpenAI server scripted for one tool call then an answer, the agent script every runtime
// runs, and a child-process runner. `npm test` builds dist/ before vitest runs.
import { execFile } from "node:child_process";
import {
  cpSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  renameSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { expect } from "vitest";
import { type MockOpenAIServer, startMockOpenAIServer } from "../../src/testing/mock-openai-server.js";
import { REPO_ROOT, readPackageJson } from "../package/package-consumer.js";

export { REPO_ROOT };

/** The answer every runtime's agent must end with: the mock model's text after the tool returned "42". */
export const EXPECTED_ANSWER = "It is 42.";

/** The path of a binary installed in this repository's node_modules/.bin, or `undefined` when it is missing. */
export function localBinary(name: string): string | undefined {
  const path = join(REPO_ROOT, "node_modules", ".bin", name);
  return existsSync(path) ? path : undefined;
}

/** Throws unless dist/ holds the built package (the matrix tests the build, not the sources). */
export function requireBuiltPackage(): void {
  if (!existsSync(join(REPO_ROOT, "dist", "index.js"))) {
    throw new Error("dist/index.js is missing: run `node scripts/build.mjs` first (npm test does)");
  }
}

/** A consumer project: node_modules/agentloop is a copy of dist/*.js and package.json, dependencies linked. */
export interface RuntimeConsumer {
  dir: string;
  /** Writes a file into the project and returns its path. */
  write(name: string, text: string): string;
  remove(): void;
}

/** Makes a consumer project (`"type": "module"`) in a fresh temporary directory. */
export function makeRuntimeConsumer(): RuntimeConsumer {
  requireBuiltPackage();
  const dir = mkdtempSync(join(tmpdir(), "agentloop-runtime-"));
  const installed = join(dir, "node_modules", "agentloop");
  mkdirSync(installed, { recursive: true });
  // The JavaScript only: declarations and source maps are not loaded by any runtime (and copying them is slow).
  cpSync(join(REPO_ROOT, "dist"), join(installed, "dist"), {
    recursive: true,
    filter: (source) => !source.endsWith(".map") && !source.endsWith(".d.ts"),
  });
  cpSync(join(REPO_ROOT, "package.json"), join(installed, "package.json"));
  const pkg = readPackageJson() as { dependencies?: Record<string, string> };
  for (const name of Object.keys(pkg.dependencies ?? {})) {
    mkdirSync(dirname(join(dir, "node_modules", name)), { recursive: true });
    symlinkSync(join(REPO_ROOT, "node_modules", name), join(dir, "node_modules", name), "dir");
  }
  writeFileSync(
    join(dir, "package.json"),
    JSON.stringify({ name: "consumer", private: true, type: "module" }),
  );
  return {
    dir,
    write(name, text) {
      const path = join(dir, name);
      mkdirSync(dirname(path), { recursive: true });
      writeFileSync(path, text);
      return path;
    },
    remove: () => rmSync(dir, { recursive: true, force: true }),
  };
}

/** Starts the mock OpenAI server: the first request gets a `multiply(6, 7)` tool call, the next the answer. */
export function startToolLoopMock(): Promise<MockOpenAIServer> {
  return startMockOpenAIServer({
    script: (body) => {
      const result = body.messages.find(
        (message): message is { role: "tool"; content: string } =>
          (message as { role?: unknown }).role === "tool",
      );
      return result === undefined
        ? { toolCalls: [{ name: "multiply", arguments: { a: 6, b: 7 } }] }
        : { text: `It is ${result.content}.` };
    },
  });
}

/** Checks the mock saw exactly the two chat requests of the loop: the question, then the tool's result. */
export function expectToolLoopRequests(server: MockOpenAIServer): void {
  const chats = server.requests.filter((request) => request.path === "/v1/chat/completions");
  expect(chats).toHaveLength(2);
  const [first, second] = chats.map((request) => request.body as { messages: { role: string }[] });
  expect(first?.messages.map((message) => message.role)).toEqual(["user"]);
  expect(second?.messages.map((message) => message.role)).toEqual(["user", "assistant", "tool"]);
  expect(second?.messages[2]).toMatchObject({ role: "tool", content: "42" });
}

/**
 * The body of the agent script every runtime runs: builds an `Agent` with the `multiply` tool against the mock
 * at `baseURL` and leaves the run in `result` (`agentloop` exports must already be in scope).
 */
export function agentRunSource(options: { baseURL: string }): string {
  return `const multiply = tool({
  name: "multiply",
  description: "Multiplies two numbers",
  parameters: { type: "object", properties: { a: { type: "number" }, b: { type: "number" } }, required: ["a", "b"] },
  execute: async ({ a, b }) => String(a * b),
});
const model = createOpenAI({ baseURL: ${JSON.stringify(options.baseURL)}, apiKey: "mock-key" })("gpt-4o-mini");
const agent = new Agent({ model, tools: [multiply] });`;
}

/** An ES module script that runs the tool loop and prints `{ stopReason, text }` as JSON. */
export function esmAgentScript(options: { baseURL: string }): string {
  return `import { Agent, createOpenAI, tool } from "agentloop";
${agentRunSource(options)}
const result = await agent.run("What is 6 times 7?");
console.log(JSON.stringify({ stopReason: result.stopReason, text: result.text }));
`;
}

/** The same script as CommonJS (`require("agentloop")`). */
export function cjsAgentScript(options: { baseURL: string }): string {
  return `const { Agent, createOpenAI, tool } = require("agentloop");
${agentRunSource(options)}
agent.run("What is 6 times 7?").then(
  (result) => console.log(JSON.stringify({ stopReason: result.stopReason, text: result.text })),
  (error) => { console.error(error); process.exitCode = 1; },
);
`;
}

/** Runs a child process in `cwd` and returns its stdout; rejects with its stderr when it fails. */
export function runChild(options: {
  command: string;
  args: string[];
  cwd: string;
  env?: Record<string, string>;
  timeoutMs?: number;
}): Promise<string> {
  return new Promise((resolve, reject) => {
    execFile(
      options.command,
      options.args,
      {
        cwd: options.cwd,
        env: { ...process.env, NO_COLOR: "1", ...options.env },
        timeout: options.timeoutMs ?? 20_000,
      },
      (error, stdout, stderr) => {
        if (error)
          reject(new Error(`${options.command} ${options.args.join(" ")} failed: ${stderr || error}`));
        else resolve(stdout);
      },
    );
  });
}

/** The last line of a script's output, parsed as the `{ stopReason, text }` it printed. */
export function parseRunOutput(stdout: string): { stopReason: string; text: string } {
  const line = stdout.trim().split("\n").at(-1) ?? "";
  return JSON.parse(line) as { stopReason: string; text: string };
}

/** Where runtimes fetched on demand are kept between runs (inside node_modules/, which git ignores). */
export const RUNTIME_CACHE = join(REPO_ROOT, "node_modules", ".cache", "agentloop-runtimes");

/** A Node binary of another major version: its path and `--version`, or why it could not be obtained. */
export type NodeBinary = { path: string; version: string } | { reason: string };

/**
 * A Node binary of major version `major`, from the npm registry's `node-<platform>-<arch>` package (the binary
 * is its `bin/node`; `npm pack` fetches the tarball without running any install script), extracted into
 * RUNTIME_CACHE/node<major> and reused from there on later runs. Never throws: a failure (offline, no package
 * for this platform, `timeoutMs` spent, 120 s by default) comes back as `{ reason }`.
 */
export async function obtainNodeBinary(options: { major: number; timeoutMs?: number }): Promise<NodeBinary> {
  const { major } = options;
  const deadline = Date.now() + (options.timeoutMs ?? 120_000);
  const remaining = () => Math.max(1, deadline - Date.now());
  const binary = join("bin", process.platform === "win32" ? "node.exe" : "node");
  const dir = join(RUNTIME_CACHE, `node${major}`);
  const versionOf = async (path: string) => {
    const version = (
      await runChild({ command: path, args: ["--version"], cwd: REPO_ROOT, timeoutMs: remaining() })
    ).trim();
    if (!version.startsWith(`v${major}.`)) throw new Error(`${path} is ${version}, not Node ${major}`);
    return version;
  };
  const cached = join(dir, binary);
  if (existsSync(cached)) {
    try {
      return { path: cached, version: await versionOf(cached) };
    } catch {
      // A broken or wrong cache entry: fetched again below.
    }
  }
  const spec = `node-${process.platform === "win32" ? "win" : process.platform}-${process.arch}@${major}`;
  mkdirSync(RUNTIME_CACHE, { recursive: true });
  const work = mkdtempSync(join(RUNTIME_CACHE, `.node${major}-`));
  try {
    const packed = await runChild({
      command: process.platform === "win32" ? "npm.cmd" : "npm",
      args: ["pack", spec, "--json", "--ignore-scripts", "--pack-destination", work],
      cwd: work,
      timeoutMs: remaining(),
    });
    const [entry] = JSON.parse(packed) as { filename?: string }[];
    if (entry?.filename === undefined) throw new Error(`npm pack ${spec} printed no file name`);
    const member = `package/${binary.replaceAll("\\", "/")}`;
    await runChild({
      command: "tar",
      args: ["-xzf", join(work, entry.filename), "-C", work, member],
      cwd: work,
      timeoutMs: remaining(),
    });
    const version = await versionOf(join(work, "package", binary));
    rmSync(dir, { recursive: true, force: true });
    renameSync(join(work, "package"), dir);
    return { path: cached, version };
  } catch (error) {
    const timedOut = Date.now() >= deadline ? `timed out after ${options.timeoutMs ?? 120_000} ms: ` : "";
    const message = timedOut + (error instanceof Error ? error.message : String(error));
    return { reason: `${spec} could not be obtained from the npm registry: ${message.split("\n")[0]}` };
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
}
