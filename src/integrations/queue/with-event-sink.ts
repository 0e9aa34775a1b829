import type { Agent } from "../../agent.js";
import type { AgentEvent } from "../../loop/agent-event.js";

/**
 * The agent with `sink` receiving every event, after its own `onEvent` hook (kept: a worker must not take
 * the application's hook away). `Agent` does not expose its options, so the hook is read from the instance;
 * the queue's tests check that it still fires.
 */
export function withEventSink({ agent, sink }: { agent: Agent; sink: (event: AgentEvent) => void }): Agent {
  const own = agent.options.onEvent;
  if (own === undefined) return agent.with({ onEvent: sink });
  return agent.with({
    onEvent: (event, run) => {
      sink(event);
      return own(event, run);
    },
  });
}
