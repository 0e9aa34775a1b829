// agentloop: Agent.run / Agent.stream over the OpenAI Chat Completions provider, public API only.
// Imported from the repo's own build (../../dist), so run `npm run build` first (npm run bench does).

import { z } from "zod";
import { Agent, createOpenAI, tool } from "../../dist/index.js";
import { MAX_STEPS, MODEL, SYSTEM_PROMPT } from "./common.mjs";
import { agentloopTools } from "../lib/agentloop-tools.mjs";

export const meta = { name: "agentloop", packages: [] };

const tools = agentloopTools({ tool, z });

// Agents are built once per (baseURL, apiKey), as a server would.
const agents = new Map();
function agentFor(baseURL, apiKey) {
  const key = `${baseURL}\0${apiKey}`;
  let agent = agents.get(key);
  if (!agent) {
    agent = new Agent({
      model: createOpenAI({ baseURL, apiKey })(MODEL),
      tools,
      system: SYSTEM_PROMPT,
      limits: { maxTurns: MAX_STEPS },
      // The mock model repeats the same two calls every turn by design; agentloop's default loop detection
      // would (rightly) stop that after 3 turns. The peers have no loop detection, so it is off here.
      loopDetection: false,
    });
    agents.set(key, agent);
  }
  return agent;
}

export async function runAgent({ baseURL, apiKey, prompt, stream = false }) {
  const agent = agentFor(baseURL, apiKey);
  if (!stream) {
    const r = await agent.run(prompt);
    if (r.stopReason !== "completed")
      throw new Error(`agentloop stopped: ${r.stopReason} ${r.error?.message ?? ""}`);
    return { text: r.text, turns: r.turns };
  }
  const s = agent.stream(prompt);
  let streamed = "";
  for await (const event of s) if (event.type === "text_delta") streamed += event.data.delta;
  const r = await s.result;
  if (r.stopReason !== "completed")
    throw new Error(`agentloop stopped: ${r.stopReason} ${r.error?.message ?? ""}`);
  return { text: r.text, turns: r.turns, streamed };
}
