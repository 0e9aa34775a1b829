// Approval-gated file writing: write_file needs a human's yes. The run pauses with stop reason
// "awaiting_approval"; the paused result is JSON (store it anywhere) and agent.resume() continues with the
// decisions. Here the "human" approves the report and refuses a write outside the reports folder.
import { mkdtempSync, readdirSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Agent } from "agentloop";
import { fileTools } from "agentloop/tools";
import { exampleModel, toolResults } from "./lib/example-model.mjs";

const root = mkdtempSync(join(tmpdir(), "agentloop-approval-"));

function script(body) {
  const results = toolResults(body);
  if (results.length === 0) {
    return {
      text: "I'll write the report and a backup of the config.",
      toolCalls: [
        {
          id: "call_report",
          name: "write_file",
          arguments: { path: "reports/q3.md", content: "# Q3\nRevenue up 12%.\n" },
        },
        { id: "call_config", name: "write_file", arguments: { path: "config.json", content: "{}" } },
      ],
    };
  }
  return { text: `Done: ${results.join(" / ")}` };
}

const { model, close } = await exampleModel({ script });
const agent = new Agent({ model, tools: fileTools({ root, needsApprovalForWrite: true }) });

const paused = await agent.run("Write the Q3 report to reports/q3.md.");
console.log(`stop reason: ${paused.stopReason}`);
for (const p of paused.pendingApprovals ?? [])
  console.log(`  waiting: ${p.toolName}(${JSON.stringify(p.arguments)}) [${p.toolCallId}]`);

const stored = JSON.stringify(paused); // e.g. saved in a database while a human decides
const decisions = { approve: ["call_report"], deny: ["call_config"] };
console.log(`human: approve ${decisions.approve}, deny ${decisions.deny}`);
const done = await agent.resume(JSON.parse(stored), decisions);
console.log(`stop reason: ${done.stopReason}\nanswer: ${done.text}`);
console.log(`files in the sandbox: ${readdirSync(root, { recursive: true }).join(", ")}`);
console.log(`reports/q3.md: ${JSON.stringify(readFileSync(join(root, "reports/q3.md"), "utf8"))}`);
await close();
rmSync(root, { recursive: true, force: true });
