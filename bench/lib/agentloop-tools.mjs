// The bench agent's two tools as agentloop tools (the same as every peer's: see peers/common.mjs), made with
// the `tool` of the build being measured and zod.
import { runTool, TOOL_INFO } from "../peers/common.mjs";

/** The get_weather and calculate tools, made with `tool` (from the agentloop build under test) and `z`. */
export function agentloopTools({ tool, z }) {
  return [
    tool({
      name: "get_weather",
      description: TOOL_INFO.get_weather.description,
      parameters: z.object({ city: z.string().describe(TOOL_INFO.get_weather.paramDescription) }),
      execute: ({ city }) => runTool("get_weather", city),
    }),
    tool({
      name: "calculate",
      description: TOOL_INFO.calculate.description,
      parameters: z.object({ expression: z.string().describe(TOOL_INFO.calculate.paramDescription) }),
      execute: ({ expression }) => runTool("calculate", expression),
    }),
  ];
}
