import { mkdtemp, rm, symlink, writeFile } from "node:fs/promises";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { Agent } from "../agent.js";
import { ScriptedModel } from "../testing/scripted-model.js";
import { executeToolCalls } from "../tools/execute-tool-calls.js";
import { ToolRegistry } from "../tools/tool-registry.js";
import {
  askUserTool,
  calculator,
  currentTimeTool,
  fileTools,
  httpGetTool,
  listDirTool,
  readFileTool,
  writeFileTool,
} from "./index.js";

let root: string;
let server: Server;
let origin: string;

beforeAll(async () => {
  root = await mkdtemp(path.join(os.tmpdir(), "agentloop-builtins-"));
  await writeFile(path.join(root, "hello.txt"), "hello");
  await symlink("/etc", path.join(root, "etc"));
  server = createServer((_request, response) => {
    response.writeHead(200, { "content-type": "text/plain" });
    response.end("ok");
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});

afterAll(async () => {
  await new Promise((resolve) => server.close(resolve));
  await rm(root, { recursive: true, force: true });
});

describe("built-in tools report failures to the model as tool results", () => {
  it("turns every tool's refusal into an ok:false outcome through executeToolCalls", async () => {
    const registry = new ToolRegistry({
      tools: [
        calculator,
        ...fileTools({ root }),
        httpGetTool({ allowHosts: ["127.0.0.1"] }),
        currentTimeTool(),
        askUserTool({ ask: async () => "yes" }),
      ],
    });
    const call = (id: string, name: string, args: Record<string, unknown>) => ({
      id,
      name,
      arguments: args,
      rawArguments: JSON.stringify(args),
    });
    const outcomes = await executeToolCalls({
      calls: [
        call("1", "read_file", { path: "../outside.txt" }),
        call("2", "write_file", { path: "etc/passwd", content: "x" }),
        call("3", "list_dir", { path: "/etc" }),
        call("4", "http_get", { url: "http://localhost/" }),
        call("5", "current_time", { timeZone: "Not/AZone" }),
        call("6", "ask_user", { question: "" }),
        call("7", "read_file", { path: "hello.txt" }),
        call("8", "http_get", { url: `${origin}/` }),
        call("9", "ask_user", { question: "Proceed?" }),
      ],
      registry,
      turn: 1,
    });
    expect(outcomes.map((o) => o.ok)).toEqual([false, false, false, false, false, false, true, true, true]);
    expect(outcomes[0]?.content).toMatch(
      /^Tool "read_file" failed: SandboxError: Path "..\/outside.txt" is not allowed in the sandbox: ".." leaves/,
    );
    expect(outcomes[1]?.content).toMatch(
      /^Tool "write_file" failed: SandboxError: .*"etc" is a symbolic link/,
    );
    expect(outcomes[2]?.content).toMatch(
      /^Tool "list_dir" failed: SandboxError: .*absolute paths are not allowed/,
    );
    expect(outcomes[3]?.content).toMatch(
      /^Tool "http_get" failed: HttpGetError: Refused http:\/\/localhost\//,
    );
    expect(outcomes[4]?.content).toMatch(
      /^Tool "current_time" failed: InvalidArgumentError: Invalid timeZone/,
    );
    expect(outcomes[5]?.error?.type).toBe("ToolArgumentsError");
    expect(outcomes.slice(6).map((o) => o.content)).toEqual([
      "hello",
      `Status 200 OK\nURL: ${origin}/\n\nok`,
      "yes",
    ]);
  });

  it("lets an agent run continue after a refused call", async () => {
    const model = new ScriptedModel([
      { toolCalls: [{ id: "c1", name: "read_file", arguments: { path: "etc/passwd" } }] },
      { toolCalls: [{ id: "c2", name: "write_file", arguments: { path: "notes.txt", content: "refused" } }] },
      { toolCalls: [{ id: "c3", name: "list_dir", arguments: {} }] },
      { text: "Done." },
    ]);
    const agent = new Agent({
      model,
      tools: [readFileTool({ root }), writeFileTool({ root, maxWriteBytes: 3 }), listDirTool({ root })],
    });
    const result = await agent.run("Read the password file");
    expect(result.text).toBe("Done.");
    expect(result.toolCalls.map((c) => c.ok)).toEqual([false, false, true]);
    const toolMessages = result.messages.filter((m) => m.role === "tool");
    expect(toolMessages[0]).toMatchObject({
      toolCallId: "c1",
      content: expect.stringMatching(/SandboxError/),
    });
    expect(toolMessages[1]).toMatchObject({
      content: expect.stringMatching(/more than the limit of 3 bytes/),
    });
    expect(toolMessages[2]).toMatchObject({ content: "etc@\nhello.txt" });
  });
});
