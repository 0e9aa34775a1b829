import { parseArgs } from "node:util";
import { CliError } from "../errors/cli-error.js";
import { type CliToolName, DEFAULT_CLI_TOOLS, isCliToolName } from "./cli-tool-names.js";
import { DEMO_TASK } from "./demo-script.js";

/** The model of `agentloop run` without `--model`. */
export const DEFAULT_CLI_MODEL = "openai:gpt-4o-mini";

/** `agentloop run`'s command line, parsed and checked. */
export interface RunArgs {
  task: string;
  /** True when `--demo` was given no task and runs {@link DEMO_TASK}. */
  demoTask: boolean;
  /** The model: `--model`, else {@link DEFAULT_CLI_MODEL} (see `chooseCliModel` for the final choice). */
  model: string;
  /** Whether `--model` was given. */
  modelGiven: boolean;
  system: string | undefined;
  tools: CliToolName[];
  /** `--allow-net`: the hosts http_get may fetch without asking (undefined: every fetch asks). */
  allowNet: string[] | undefined;
  sessionId: string | undefined;
  storeDir: string;
  stream: boolean;
  json: boolean;
  quiet: boolean;
  yes: boolean;
  tracePath: string | undefined;
  maxTurns: number | undefined;
  maxCostUsd: number | undefined;
  demo: boolean;
  /** `false` with `--no-color`; otherwise decided from the terminal and the environment. */
  color: boolean | undefined;
  help: boolean;
}

/** Options of {@link parseRunArgs}. */
export interface ParseRunArgsOptions {
  /** The arguments after `run`. */
  args: readonly string[];
}

/** Node's `parseArgs` errors carry a code starting with `ERR_PARSE_ARGS_`. */
function isParseArgsError(error: unknown): error is Error {
  const code: unknown = error instanceof Error ? (error as Error & { code?: unknown }).code : undefined;
  return typeof code === "string" && code.startsWith("ERR_PARSE_ARGS_");
}

function parsePositive({
  flag,
  value,
  integer,
}: {
  flag: string;
  value: string | undefined;
  integer: boolean;
}): number | undefined {
  if (value === undefined) return undefined;
  const number = Number(value);
  if (
    value.trim() === "" ||
    !Number.isFinite(number) ||
    number <= 0 ||
    (integer && !Number.isInteger(number))
  ) {
    throw CliError.usage(`${flag} expects a positive ${integer ? "integer" : "number"}, got "${value}"`);
  }
  return number;
}

function parseTools(value: string | undefined): CliToolName[] {
  if (value === undefined) return [...DEFAULT_CLI_TOOLS];
  const names = value
    .split(",")
    .map((name) => name.trim())
    .filter((name) => name !== "");
  if (names.length === 1 && names[0] === "none") return [];
  const tools: CliToolName[] = [];
  for (const name of names) {
    if (!isCliToolName(name)) {
      throw CliError.usage(`unknown tool "${name}" in --tools (run "agentloop run --help" for the list)`);
    }
    if (!tools.includes(name)) tools.push(name);
  }
  return tools;
}

function parseHosts(value: string | undefined): string[] | undefined {
  if (value === undefined) return undefined;
  const hosts = value
    .split(",")
    .map((host) => host.trim())
    .filter((host) => host !== "");
  if (hosts.length === 0)
    throw CliError.usage('--allow-net expects host names, e.g. "example.com,*.github.com"');
  return hosts;
}

/** Checks a `"<provider>:<model-id>"` name; a usage error naming `source` (the flag or variable) otherwise. */
export function checkModelName({ source, model }: { source: string; model: string }): void {
  if (!/^[a-z][a-z0-9-]*:.+$/i.test(model)) {
    throw CliError.usage(
      `${source} expects "<provider>:<model-id>" (e.g. ${DEFAULT_CLI_MODEL}), got "${model}"`,
    );
  }
}

/**
 * Parses `agentloop run`'s arguments with `node:util` `parseArgs`. Throws a usage {@link CliError} (exit code
 * 2) for unknown options, a missing task (unless `--help`, or `--demo`, which then runs {@link DEMO_TASK}),
 * invalid numbers or tool names, and conflicting flags. The task is the positional arguments joined with
 * spaces.
 */
export function parseRunArgs({ args }: ParseRunArgsOptions): RunArgs {
  let parsed: ReturnType<typeof parse>;
  try {
    parsed = parse(args);
  } catch (error) {
    if (isParseArgsError(error)) throw CliError.usage(error.message);
    throw error;
  }
  const { values: v, positionals } = parsed;
  const help = v.help === true;
  const given = positionals.join(" ").trim();
  // `agentloop run --demo` alone runs the demo task: the shortest way to see agentloop work.
  const demoTask = given === "" && v.demo === true;
  const task = demoTask ? DEMO_TASK : given;
  if (task === "" && !help) {
    throw CliError.usage('missing task: agentloop run "task" [options] (see agentloop run --help)');
  }
  if (v.stream === true && v["no-stream"] === true) {
    throw CliError.usage("--stream and --no-stream cannot be used together");
  }
  if (v.json === true && v.quiet === true) throw CliError.usage("--json and --quiet cannot be used together");
  if (v.session !== undefined && v.session.trim() === "") throw CliError.usage("--session expects an id");
  if (v.trace !== undefined && v.trace.trim() === "") throw CliError.usage("--trace expects a file path");
  const json = v.json === true;
  const model = v.model ?? DEFAULT_CLI_MODEL;
  checkModelName({ source: "--model", model });
  return {
    task,
    demoTask,
    model,
    modelGiven: v.model !== undefined,
    system: v.system,
    tools: parseTools(v.tools),
    allowNet: parseHosts(v["allow-net"]),
    sessionId: v.session,
    storeDir: v["store-dir"] ?? ".agentloop",
    stream: v.stream === true ? true : v["no-stream"] === true ? false : !json,
    json,
    quiet: v.quiet === true,
    yes: v.yes === true,
    tracePath: v.trace,
    maxTurns: parsePositive({ flag: "--max-turns", value: v["max-turns"], integer: true }),
    maxCostUsd: parsePositive({ flag: "--max-cost", value: v["max-cost"], integer: false }),
    demo: v.demo === true,
    color: v["no-color"] === true ? false : undefined,
    help,
  };
}

function parse(args: readonly string[]) {
  return parseArgs({
    args: [...args],
    allowPositionals: true,
    strict: true,
    options: {
      model: { type: "string", short: "m" },
      system: { type: "string", short: "s" },
      tools: { type: "string", short: "t" },
      "allow-net": { type: "string" },
      session: { type: "string" },
      "store-dir": { type: "string" },
      stream: { type: "boolean" },
      "no-stream": { type: "boolean" },
      json: { type: "boolean" },
      quiet: { type: "boolean", short: "q" },
      yes: { type: "boolean", short: "y" },
      trace: { type: "string" },
      "max-turns": { type: "string" },
      "max-cost": { type: "string" },
      demo: { type: "boolean" },
      "no-color": { type: "boolean" },
      help: { type: "boolean", short: "h" },
    },
  });
}
