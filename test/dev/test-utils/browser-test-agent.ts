import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { build } from "esbuild";

/** The repository root. */
export const ROOT = fileURLToPath(new URL("../../../", import.meta.url));

/**
 * Bundles the package's root and testing entries into `<dir>/lib/` (index.js, testing.js), so an agent file in
 * `dir` can import them without dist/ (which other builds may be rewriting) and without the TypeScript sources
 * (the dev CLI process imports the file with plain Node). `dir` must be inside the repository (e.g. under
 * .tmp/), so the bundle's bare imports resolve from its node_modules.
 */
export async function bundleLibrary(dir: string): Promise<void> {
  await build({
    absWorkingDir: ROOT,
    entryPoints: { index: "src/index.ts", testing: "src/testing/index.ts" },
    outdir: join(dir, "lib"),
    bundle: true,
    splitting: true,
    format: "esm",
    platform: "node",
    target: "node20",
    packages: "external",
    logLevel: "warning",
  });
}

/**
 * The agent file of the browser tests (ESM, imports ./lib/): a ScriptedModel agent, streamed word by word with
 * a delay so the page shows text arriving. "add" calls `add`; "note" calls the approval-gated `save_note`;
 * "research" calls a `researcher` sub-agent (which calls `add` itself); anything else gets a long answer.
 * `answer` prefixes the answers (hot reload changes it).
 */
export function browserTestAgent({
  answer = "echo",
  delayMs = 40,
}: {
  answer?: string;
  delayMs?: number;
} = {}): string {
  return `import { Agent, tool } from "./lib/index.js";
import { ScriptedModel } from "./lib/testing.js";
const pricing = { scripted: { inputPerMTok: 0.15, outputPerMTok: 0.6 } };
const add = tool({
  name: "add",
  description: "Adds two numbers",
  parameters: { type: "object", properties: { a: { type: "number" }, b: { type: "number" } }, required: ["a", "b"] },
  execute: async ({ a, b }) => { await new Promise((r) => setTimeout(r, 30)); return String(a + b); },
});
const saveNote = tool({
  name: "save_note",
  description: "Saves a note",
  parameters: { type: "object", properties: { text: { type: "string" } }, required: ["text"] },
  needsApproval: true,
  execute: ({ text }) => "saved " + text,
});
const researcher = new Agent({
  name: "researcher",
  model: new ScriptedModel((request) => {
    const last = request.messages.at(-1);
    if (last.role === "tool") return { text: "Found " + last.content + "." };
    return { text: "Looking it up.", toolCalls: [{ name: "add", arguments: { a: 40, b: 2 } }] };
  }, { streamDelayMs: ${delayMs} }),
  tools: [add],
  pricing,
});
const model = new ScriptedModel((request) => {
  const last = request.messages.at(-1);
  if (last.role === "tool") return { text: ${JSON.stringify(answer)} + ": " + last.content, delayMs: 50 };
  const task = typeof last.content === "string" ? last.content : "";
  if (task.includes("note")) return { text: "Saving it.", toolCalls: [{ name: "save_note", arguments: { text: "buy <b>milk</b>" } }] };
  if (task.includes("research")) return { text: "Asking the researcher.", toolCalls: [{ name: "researcher", arguments: { input: "what is 40 + 2?" } }] };
  if (task.includes("add")) return { text: "Let me add those.", toolCalls: [{ name: "add", arguments: { a: 2, b: 3 } }] };
  return { text: ${JSON.stringify(answer)} + " to " + task + ": a longer answer that streams in word by word, so the page shows it arriving." };
}, { streamDelayMs: ${delayMs} });
export default new Agent({
  name: "tester",
  model,
  tools: [add, saveNote, researcher.asTool({ name: "researcher", description: "Researches a question" })],
  pricing,
});
`;
}

/** Writes the agent file into `dir`. */
export function writeBrowserTestAgent(dir: string, text: string): string {
  const file = join(dir, "agent.mjs");
  writeFileSync(file, text);
  return file;
}
