import { randomBytes } from "node:crypto";
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { PassThrough } from "node:stream";
import { afterAll, beforeAll, expect, it } from "vitest";
import { z } from "zod";
import { Agent } from "../agent.js";
import type { CliIo } from "../cli/cli-io.js";
import { traceCommand } from "../cli/trace-command.js";
import { createJsonLinesRenderer } from "../render/json-lines-renderer.js";
import { createTerminalRenderer } from "../render/terminal-renderer.js";
import { ScriptedModel } from "../testing/scripted-model.js";
import { saveTrace } from "../trace/trace-file.js";
import { tool } from "./tool.js";
import { toolContent } from "./tool-content.js";

/** A text sink for renderers and the CLI. */
function sink(): { write(text: string): void; isTTY: boolean; text: string } {
  return {
    isTTY: false,
    text: "",
    write(chunk: string) {
      this.text += chunk;
    },
  };
}

let dir: string;
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), "agentloop-tool-content-logs-"));
});
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

it("a run with an image in the input and an image tool result prints no base64 anywhere", async () => {
  const input = randomBytes(6_000);
  const shot = randomBytes(6_000);
  const blobs = [input.toString("base64"), shot.toString("base64")];
  const screenshot = tool({
    name: "screenshot",
    description: "Takes a screenshot",
    parameters: z.object({}),
    execute: () => toolContent([{ type: "image", data: new Uint8Array(shot), mediaType: "image/png" }]),
  });
  const terminal = sink();
  const jsonLines = sink();
  const renderers = [
    createTerminalRenderer({ stream: terminal, env: {} }),
    createJsonLinesRenderer({ stream: jsonLines }),
  ];
  // One answer too few: the run ends with UnexpectedModelCallError, whose message quotes the last message.
  const model = new ScriptedModel([{ toolCalls: [{ name: "screenshot", arguments: {} }] }]);
  const agent = new Agent({
    model,
    tools: [screenshot],
    trace: true,
    onEvent: (event) => {
      for (const renderer of renderers) renderer.handle(event);
    },
  });
  const result = await agent.run([
    { type: "text", text: "Compare this photo with the screen" },
    { type: "image", data: new Uint8Array(input), mediaType: "image/jpeg" },
  ]);
  expect(result.stopReason).toBe("error");
  // The model did get both images (the check below is not vacuous).
  const sent = JSON.stringify(model.calls[1]?.request.messages);
  for (const blob of blobs) expect(sent).toContain(blob);

  const path = join(dir, "run.trace.jsonl");
  await saveTrace({ trace: result.trace ?? { version: 2, records: [] }, path });
  const cli = { stdout: sink(), stderr: sink() };
  const io = { ...cli, stdin: new PassThrough(), env: {}, cwd: dir } as unknown as CliIo;
  await traceCommand({ args: ["show", path], io });

  const printed = {
    terminal: terminal.text,
    jsonLines: jsonLines.text,
    trace: cli.stdout.text + cli.stderr.text,
    error: `${result.error?.name}: ${result.error?.message}`,
    toolCalls: JSON.stringify(result.toolCalls),
    events: JSON.stringify(result.events),
  };
  expect(printed.terminal).toContain("[image image/png, 5.9 KB]");
  expect(printed.jsonLines).toContain("[image image/png, 5.9 KB]");
  expect(printed.trace).toContain("screenshot ok");
  expect(printed.trace).toContain("[image image/png, 5.9 KB]");
  expect(printed.error).toContain("UnexpectedModelCallError");
  expect(printed.error).toContain("[image]");
  for (const [where, text] of Object.entries(printed)) {
    for (const blob of blobs) {
      // Any 32 characters of either image would do: no output holds even a slice of one.
      expect({ where, leaked: text.includes(blob.slice(1_000, 1_032)) }).toEqual({ where, leaked: false });
    }
  }
});
