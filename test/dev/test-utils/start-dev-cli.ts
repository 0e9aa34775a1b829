import { type RunningCli, startCli } from "../../../src/cli/test-utils/run-cli.js";

/** A running `agentloop dev` process and the URL it printed. */
export interface DevCli {
  cli: RunningCli;
  /** The page URL with the token (`http://127.0.0.1:<port>/#token=…`). */
  url: string;
  origin: string;
  token: string;
  /** Stops it with Ctrl-C (SIGINT) and waits for the exit. */
  stop(): Promise<void>;
}

/** Starts `node dist/cli/main.js dev ...args` in `cwd` and waits for the URL it prints. */
export async function startDevCli({ args, cwd }: { args: readonly string[]; cwd: string }): Promise<DevCli> {
  const cli = startCli({ args: ["dev", ...args], cwd, env: { NO_COLOR: "1" } });
  await cli.waitFor(/open http:\/\/\S+#token=\S+/, 20_000);
  const match = /open (http:\/\/\S+)#token=(\S+)/.exec(cli.stdout());
  if (match === null) throw new Error(`no URL in ${cli.stdout()}`);
  const [, origin, token] = match as unknown as [string, string, string];
  return {
    cli,
    url: `${origin}#token=${token}`,
    origin: origin.replace(/\/$/, ""),
    token,
    async stop() {
      if (cli.child.exitCode === null) cli.child.kill("SIGINT");
      await cli.done;
    },
  };
}
