// The queue benches' one tool (queue-cost.mjs, queue-throughput.mjs): idempotent, so a resumed run may repeat it.

/** The `tally` tool, made with `tool` from the agentloop build under test. */
export function tallyTool(tool) {
  return tool({
    name: "tally",
    description: "Adds n to the tally",
    parameters: { type: "object", properties: { n: { type: "number" } }, required: ["n"] },
    idempotent: true,
    execute: ({ n }) => `tallied ${n}`,
  });
}
