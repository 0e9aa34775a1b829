import { AgentloopError, errorMarker, hasMarker } from "./agentloop-error.js";

/** One problem with a tool call's arguments. */
export interface ToolArgumentIssue {
  /** Where the problem is, e.g. `"city"`, `"items[2].name"`; `""` for the arguments as a whole. */
  path: string;
  /** What was expected, e.g. `"string"`, `"one of \"c\", \"f\""`, `"number <= 7"`. */
  expected: string;
  /** What was received, e.g. `"number"`, `"nothing"`, `"\"k\""`. */
  received: string;
  /** The validator's own message. */
  message: string;
}

/** At most this many issues are spelled out in the message; the rest are counted. */
const MAX_LISTED_ISSUES = 10;

const MARK_TOOLARGUMENTSERROR = errorMarker("ToolArgumentsError");

/** Renders issues as compact text: `at "city": expected string, received number; ...`. */
function describeIssues(issues: readonly ToolArgumentIssue[]): string {
  const listed = issues.slice(0, MAX_LISTED_ISSUES).map((issue) => {
    const where = issue.path === "" ? "" : `at ${JSON.stringify(issue.path)}: `;
    return `${where}expected ${issue.expected}, received ${issue.received}`;
  });
  const rest = issues.length - listed.length;
  if (rest > 0) listed.push(`and ${rest} more issue${rest === 1 ? "" : "s"}`);
  return listed.join("; ");
}

/**
 * A tool call's arguments were not valid JSON or did not match the tool's schema. The message (sent back to
 * the model) gives, for each issue, the field path, what was expected and what was received.
 */
export class ToolArgumentsError extends AgentloopError {
  protected readonly [MARK_TOOLARGUMENTSERROR] = true;
  /** The tool that was called. */
  readonly toolName: string;
  /** The problems found (at least one). */
  readonly issues: readonly ToolArgumentIssue[];

  constructor({
    toolName,
    issues,
    cause,
  }: {
    toolName: string;
    issues: readonly ToolArgumentIssue[];
    cause?: unknown;
  }) {
    super({
      message: `Invalid arguments for tool ${JSON.stringify(toolName)}: ${describeIssues(issues)}`,
      cause,
    });
    this.name = "ToolArgumentsError";
    this.toolName = toolName;
    this.issues = issues;
  }

  static override isInstance(error: unknown): error is ToolArgumentsError {
    return hasMarker(error, MARK_TOOLARGUMENTSERROR);
  }
}
