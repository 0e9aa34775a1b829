import { InvalidArgumentError } from "../../errors/invalid-argument-error.js";
import type { ModelToolSpec, ToolChoice } from "../../models/model.js";
import { ToolRegistry } from "../../tools/tool-registry.js";
import { showValue } from "../../util/check-option.js";

/** Options of {@link toolSubset}. */
export interface ToolSubsetOptions {
  /** The run's tools. */
  registry: ToolRegistry;
  /** The names to keep (each must be a tool of `registry`). */
  names: unknown;
  /** The option named in errors (`tools`, `prepareStep().tools`). */
  argument: string;
}

/** Some of a run's tools: a registry holding them (the same tool objects, in registration order), their names. */
export interface ToolSubset {
  registry: ToolRegistry;
  allowed: ReadonlySet<string>;
}

/**
 * The subset of `registry` named by `names` (an array of tool names): a registry of those tools, so a call of
 * any other tool is answered as an unknown tool. Throws {@link InvalidArgumentError} for a value that is not an
 * array of strings, or a name `registry` does not have (the message lists the run's tools).
 */
export function toolSubset({ registry, names, argument }: ToolSubsetOptions): ToolSubset {
  if (!Array.isArray(names)) {
    throw new InvalidArgumentError({
      argument,
      message: `expected an array of tool names, got ${showValue(names)}`,
    });
  }
  const allowed = new Set<string>();
  for (const name of names as unknown[]) {
    if (typeof name !== "string") {
      throw new InvalidArgumentError({ argument, message: `expected tool names, got ${showValue(name)}` });
    }
    if (!registry.has(name)) {
      const known = registry.names();
      throw new InvalidArgumentError({
        argument,
        message: `unknown tool "${name}" (the run's tools: ${known.length === 0 ? "none" : known.join(", ")})`,
      });
    }
    allowed.add(name);
  }
  return {
    registry: new ToolRegistry({ tools: registry.list().filter((t) => allowed.has(t.name)) }),
    allowed,
  };
}

/**
 * Checks a `toolChoice` option: `"auto"`, `"none"`, `"required"` or `{ type: "tool", name }` naming a tool that
 * is offered (`offered(name)`). Throws {@link InvalidArgumentError} otherwise.
 */
export function checkToolChoice({
  toolChoice,
  argument,
  offered,
}: {
  toolChoice: unknown;
  argument: string;
  offered: (name: string) => boolean;
}): ToolChoice {
  if (toolChoice === "auto" || toolChoice === "none" || toolChoice === "required") return toolChoice;
  const choice = toolChoice as { type?: unknown; name?: unknown } | null;
  if (
    typeof choice === "object" &&
    choice !== null &&
    choice.type === "tool" &&
    typeof choice.name === "string"
  ) {
    if (!offered(choice.name)) {
      throw new InvalidArgumentError({
        argument,
        message: `tool "${choice.name}" is not offered to the model`,
      });
    }
    return { type: "tool", name: choice.name };
  }
  throw new InvalidArgumentError({
    argument,
    message: `expected "auto", "none", "required" or { type: "tool", name }, got ${showValue(toolChoice)}`,
  });
}

/**
 * The tool specs of a request without the run's tools outside `allowed` (tools that are not the run's, such as
 * the typed answer's `final_answer` tool, stay). Undefined when nothing is left.
 */
export function offeredSpecs({
  specs,
  registry,
  allowed,
}: {
  specs: readonly ModelToolSpec[] | undefined;
  registry: ToolRegistry;
  allowed: ReadonlySet<string>;
}): ModelToolSpec[] | undefined {
  if (specs === undefined) return undefined;
  const kept = specs.filter((spec) => allowed.has(spec.name) || !registry.has(spec.name));
  return kept.length === 0 ? undefined : kept;
}
