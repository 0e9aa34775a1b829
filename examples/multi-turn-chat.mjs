// Multi-turn chat: each run continues the conversation. With a session store the history persists across
// runs and processes (here a FileStore in a temp dir); without one, pass result.messages to the next run.
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Agent, FileStore } from "agentloop";
import { workingMemoryTools } from "agentloop/tools";
import { exampleModel, userMessages } from "./lib/example-model.mjs";

// The mock "model" answers from what the user said earlier in the conversation.
function script(body) {
  const said = userMessages(body);
  const latest = said.at(-1) ?? "";
  const name = said.map((m) => /my name is (\w+)/i.exec(m)?.[1]).find(Boolean);
  if (/my name is/i.test(latest)) return { text: `Nice to meet you, ${name}!` };
  if (/who am i|my name\?/i.test(latest)) return { text: name ? `You are ${name}.` : "You haven't told me." };
  return { text: `You said: ${latest}` };
}

const dir = mkdtempSync(join(tmpdir(), "agentloop-chat-"));
const { model, close } = await exampleModel({ script });
const agent = new Agent({
  model,
  system: "You are a friendly assistant. Keep answers short.",
  tools: workingMemoryTools(),
  store: new FileStore({ dir }),
});

for (const line of ["Hi! My name is Ada.", "What's the weather like on Mars?", "Who am I?"]) {
  const result = await agent.run(line, { sessionId: "chat-1" });
  console.log(`you: ${line}\nbot: ${result.text}\n`);
}
const stored = await new FileStore({ dir }).load("chat-1");
console.log(`The session file holds ${stored?.messages.length} messages (in ${dir}).`);
await close();
rmSync(dir, { recursive: true, force: true });
