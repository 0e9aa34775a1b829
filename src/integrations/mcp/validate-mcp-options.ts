import { InvalidArgumentError } from "../../errors/invalid-argument-error.js";
import type { McpToolsOptions } from "./mcp-options.js";

function invalid(argument: string, message: string): InvalidArgumentError {
  return new InvalidArgumentError({ argument, message });
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

function checkString(argument: string, value: unknown, { empty }: { empty: boolean }): void {
  if (value === undefined) return;
  if (typeof value !== "string" || (!empty && value === "")) {
    throw invalid(argument, `expected a${empty ? "" : " non-empty"} string, got ${JSON.stringify(value)}`);
  }
}

function checkStrings(argument: string, value: unknown): void {
  if (value === undefined) return;
  if (!Array.isArray(value) || value.some((item) => typeof item !== "string")) {
    throw invalid(argument, "expected an array of strings");
  }
}

function checkStringRecord(argument: string, value: unknown): void {
  if (value === undefined) return;
  if (!isRecord(value) || Object.values(value).some((item) => typeof item !== "string")) {
    throw invalid(argument, "expected an object of string values");
  }
}

function checkTimeout(argument: string, value: unknown): void {
  if (value === undefined) return;
  if (typeof value !== "number" || Number.isNaN(value) || value <= 0) {
    throw invalid(argument, `expected a positive number (or Infinity), got ${String(value)}`);
  }
}

function checkUrl(value: unknown): void {
  let url: URL;
  try {
    if (typeof value !== "string" && !(value instanceof URL)) throw new TypeError("not a string");
    url = new URL(value);
  } catch {
    throw invalid("url", `expected an http(s) URL, got ${JSON.stringify(String(value))}`);
  }
  if (url.protocol !== "http:" && url.protocol !== "https:") {
    throw invalid("url", `expected an http(s) URL, got ${JSON.stringify(url.href)}`);
  }
}

/**
 * Checks the options of `mcpTools` / `McpRegistry.add` before anything is started. Throws
 * {@link InvalidArgumentError} naming the first invalid option: exactly one of `command` and `url` is
 * required, `timeoutMs` and `connectTimeoutMs` must be positive numbers (`Infinity` allowed), lists must hold strings.
 */
export function validateMcpOptions(options: McpToolsOptions): void {
  if (!isRecord(options)) throw invalid("options", "expected an options object");
  const { command, url } = options;
  if ((command === undefined) === (url === undefined)) {
    throw invalid(
      "options",
      "expected either `command` (a stdio server) or `url` (a Streamable HTTP server)",
    );
  }
  if (command !== undefined) {
    checkString("command", command, { empty: false });
    checkStrings("args", options.args);
    checkStringRecord("env", options.env);
    checkString("cwd", options.cwd, { empty: false });
    const { stderr, onStderr } = options;
    if (stderr !== undefined && stderr !== "pipe" && stderr !== "inherit" && stderr !== "ignore") {
      throw invalid("stderr", `expected "pipe", "inherit" or "ignore", got ${JSON.stringify(stderr)}`);
    }
    if (onStderr !== undefined && typeof onStderr !== "function")
      throw invalid("onStderr", "expected a function");
  } else {
    checkUrl(url);
    checkStringRecord("headers", options.headers);
  }
  checkString("prefix", options.prefix, { empty: true });
  checkString("name", options.name, { empty: false });
  checkString("server", options.server, { empty: false });
  checkStrings("include", options.include);
  checkStrings("exclude", options.exclude);
  if (typeof options.needsApproval !== "boolean") checkStrings("needsApproval", options.needsApproval);
  checkTimeout("timeoutMs", options.timeoutMs);
  checkTimeout("connectTimeoutMs", options.connectTimeoutMs);
}
