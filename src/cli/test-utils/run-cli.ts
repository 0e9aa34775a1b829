import { type ChildProcess, spawn } from "node:child_process";
import { CLI_PATH } from "./ensure-cli-built.js";

/** What a CLI process did. */
export interface CliOutcome {
  code: number | null;
  signal: NodeJS.Signals | null;
  stdout: string;
  stderr: string;
}

/** Options of {@link startCli}. */
export interface StartCliOptions {
  args: readonly string[];
  /** The whole environment of the process (nothing is inherited but PATH). */
  env?: Record<string, string>;
  cwd?: string;
  /** Written to stdin, which is then closed. Default: stdin is closed at once. */
  stdin?: string;
}

/** A running CLI process and its output so far. */
export interface RunningCli {
  child: ChildProcess;
  stdout(): string;
  stderr(): string;
  /** Resolves when the process has exited. */
  done: Promise<CliOutcome>;
  /** Resolves once stdout or stderr matches `pattern` (rejects after `timeoutMs`). */
  waitFor(pattern: RegExp, timeoutMs?: number): Promise<void>;
}

/** Spawns `node dist/cli/main.js ...args` with a clean environment. */
export function startCli({ args, env = {}, cwd, stdin }: StartCliOptions): RunningCli {
  const child = spawn(process.execPath, [CLI_PATH, ...args], {
    cwd,
    env: { PATH: process.env.PATH ?? "", ...env },
    stdio: ["pipe", "pipe", "pipe"],
  });
  let stdout = "";
  let stderr = "";
  const listeners = new Set<() => void>();
  const notify = (): void => {
    for (const listener of listeners) listener();
  };
  child.stdout?.setEncoding("utf8").on("data", (chunk: string) => {
    stdout += chunk;
    notify();
  });
  child.stderr?.setEncoding("utf8").on("data", (chunk: string) => {
    stderr += chunk;
    notify();
  });
  if (stdin !== undefined) child.stdin?.end(stdin);
  else child.stdin?.end();
  const done = new Promise<CliOutcome>((resolve, reject) => {
    child.once("error", reject);
    child.once("close", (code, signal) => resolve({ code, signal, stdout, stderr }));
  });
  return {
    child,
    stdout: () => stdout,
    stderr: () => stderr,
    done,
    waitFor(pattern, timeoutMs = 10_000) {
      return new Promise<void>((resolve, reject) => {
        const check = (): void => {
          if (pattern.test(stdout) || pattern.test(stderr)) {
            listeners.delete(check);
            clearTimeout(timer);
            resolve();
          }
        };
        const timer = setTimeout(() => {
          listeners.delete(check);
          reject(new Error(`timed out waiting for ${pattern}; stdout: ${stdout}; stderr: ${stderr}`));
        }, timeoutMs);
        listeners.add(check);
        check();
      });
    },
  };
}

/** Runs the CLI to the end. */
export function runCli(options: StartCliOptions): Promise<CliOutcome> {
  return startCli(options).done;
}
