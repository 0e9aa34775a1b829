import type { ModelToolSpec } from "../models/model.js";
import type { Tool } from "../tools/tool.js";
import { ToolRegistry } from "../tools/tool-registry.js";
import { type JournaledToolsOptions, journaledTools } from "./journaled-tools.js";

/**
 * The schemas of each agent tool list (`agent.tools.list()`, a cached array): the same frozen array for every
 * attempt, so what providers cache per schemas array (converted tools, their JSON) is reused run after run.
 */
const schemasOf = new WeakMap<readonly Tool[], readonly ModelToolSpec[]>();

/** A registry of stand-ins whose `schemas()` is the shared array of the tools they stand in for. */
class StandInRegistry extends ToolRegistry {
  private shared: readonly ModelToolSpec[] | undefined;

  constructor(standIns: readonly Tool[], shared: readonly ModelToolSpec[]) {
    super();
    this.registerMany(standIns);
    this.shared = shared;
  }

  override register(tool: Tool): this {
    this.shared = undefined; // no longer the same tools
    return super.register(tool);
  }

  override schemas(): readonly ModelToolSpec[] {
    return this.shared ?? super.schemas();
  }
}

/**
 * The registry of a durable attempt: the {@link journaledTools} stand-ins of `options.tools`. A stand-in has
 * its original's `spec` (the same object), so the registry's `schemas()` is one array per tool list, shared by
 * every attempt of every run of the agent (equal to what a registry of the originals returns).
 */
export function journaledToolRegistry(options: JournaledToolsOptions): ToolRegistry {
  const { tools } = options;
  let shared = schemasOf.get(tools);
  if (shared === undefined) {
    shared = Object.freeze(tools.map((tool) => tool.spec));
    if (Object.isFrozen(tools)) schemasOf.set(tools, shared); // a list that cannot change later
  }
  return new StandInRegistry(journaledTools(options), shared);
}
