import { CLI_TOOL_NAMES } from "./cli-tool-names.js";

/** The exit code table shown in every help text. */
const EXIT_CODES_HELP = `Exit codes:
  0    completed (run), no divergence (replay), trace verified (trace show)
  1    the run ended with an error or a limit; the replay diverged; the trace is broken
  2    usage error (unknown command or option, missing or invalid argument)
  3    configuration error (e.g. missing API key: set OPENAI_API_KEY or ANTHROPIC_API_KEY)
  130  aborted with Ctrl-C`;

/** `agentloop --help`. */
export const MAIN_HELP = `agentloop — run LLM agents from the command line

Usage:
  agentloop run "task" [options]      run an agent on a task
  agentloop replay <trace.jsonl>      replay a recorded run offline and report where it diverges
  agentloop trace show <trace.jsonl>  print a recorded run as a timeline and verify its hash chain
  agentloop dev [agent-file]          a local web UI: chat with an agent, watch its runs, approve calls,
                                      open traces (no key needed without a file: a demo agent)
  agentloop <command> --help          help for a command
  agentloop --version                 print the version

Environment:
  OPENAI_API_KEY      key for openai: models
  OPENAI_BASE_URL     an OpenAI-compatible server (e.g. http://localhost:11434/v1); no key needed for
                      servers other than api.openai.com; name its model with --model openai:<id>
                      or AGENTLOOP_MODEL (required: there is no default model for such a server)
  AGENTLOOP_MODEL     the model when --model is not given (e.g. openai:llama3.2)
  ANTHROPIC_API_KEY   key for anthropic: models
  AWS_REGION          region of bedrock: models, signed with AWS_ACCESS_KEY_ID / AWS_SECRET_ACCESS_KEY
                      (AWS_SESSION_TOKEN) or AWS_BEARER_TOKEN_BEDROCK; AWS_ENDPOINT_URL_BEDROCK_RUNTIME
                      for another endpoint
  GEMINI_API_KEY      key for google: models (or GOOGLE_GENERATIVE_AI_API_KEY); GOOGLE_BASE_URL
                      for another Gemini API endpoint
  NO_COLOR            no colours (FORCE_COLOR=1 forces them)

Try it without a key:
  agentloop run --demo

${EXIT_CODES_HELP}
`;

/** `agentloop run --help`. */
export const RUN_HELP = `Usage: agentloop run "task" [options]

Runs an agent on the task and prints what it does: model calls (latency, tokens, cost), tool calls and
results, and the answer, streamed as it arrives.

Options:
  -m, --model <provider:id>  the model (default: AGENTLOOP_MODEL, else openai:gpt-4o-mini; e.g.
                             anthropic:claude-haiku-4-5); required with a custom OPENAI_BASE_URL
  -s, --system <text>        the system prompt
  -t, --tools <names>        comma-separated built-in tools, or "none" (default: calculator,current_time)
                             available: TOOL_NAMES
                             the file tools work inside the current directory and refuse secrets
                             (.env, .npmrc, .git/, private keys) and hard-linked files; write_file
                             and http_get ask for approval; ask_user asks you on stderr and reads the
                             answer from stdin
      --allow-net <hosts>    comma-separated hosts http_get may fetch without asking (e.g.
                             "example.com,*.github.com"); no other host can be fetched. Private,
                             loopback and link-local addresses are refused unless named exactly
  -y, --yes                  approve every tool call that needs approval without asking
      --session <id>         continue (or start) a stored session
      --store-dir <dir>      where sessions are stored (default .agentloop)
      --stream               stream the answer as it is written (default, except with --json)
      --no-stream            print the answer when it is complete
      --json                 print the result as one JSON object; with --stream, every event as one
                             JSON object per line, ending with loop_end
  -q, --quiet                print only the final answer (when the run ends)
      --trace <file.jsonl>   record the run as a trace (replay it with agentloop replay)
      --max-turns <n>        stop after n model calls (default 20)
      --max-cost <usd>       stop before a model call that could take the run past this many USD
                             (needs a model with a known price)
      --demo                 use the bundled mock OpenAI server instead of a real model (no key needed);
                             without a task it runs a demo task
      --no-color             no colours
  -h, --help                 this help

Approval: write_file (and http_get without --allow-net) need approval; the CLI shows the whole call on
stderr, then asks "Allow write_file? [y/N/v]" and reads the answer from stdin (no answer, e.g. stdin at
end of file, means no; v shows folded long values in full). --yes approves without asking.

Ctrl-C aborts the run (what was printed stays; stop reason "aborted", exit code 130); a second Ctrl-C
exits at once.

Examples:
  agentloop run --demo
  OPENAI_BASE_URL=http://localhost:8080/v1 agentloop run -m openai:qwen2.5 "Hello"
  agentloop run -m anthropic:claude-haiku-4-5 --tools read_file,list_dir "Summarise README.md"
  agentloop run --json "Name three primes" | jq .text
  agentloop run --trace run.jsonl "What is 2^10?" && agentloop replay run.jsonl

${EXIT_CODES_HELP}
`;

/** `agentloop replay --help`. */
export const REPLAY_HELP = `Usage: agentloop replay <trace.jsonl> [options]

Replays a recorded run (agentloop run --trace) without calling a model: each model call is answered with
the recorded response and each tool call with the recorded result. The agent is rebuilt from the trace
(model, tool names, system prompt). Prints "no divergence", or the first place where the replay went a
different way than the recording (exit code 1).

Options:
      --json      print the outcome as one JSON object
  -h, --help      this help

${EXIT_CODES_HELP}
`;

/** `agentloop trace --help`. */
export const TRACE_HELP = `Usage: agentloop trace show <trace.jsonl>

Subcommands:
  show <trace.jsonl>   print the recorded run as a timeline (records, steps, events, model calls with
                       tokens, tool calls and results) and verify its hash chain: "verified: ok" or the
                       first broken record (exit code 1)

Options:
      --no-color  no colours
  -h, --help      this help

${EXIT_CODES_HELP}
`;

/** `agentloop dev --help`. */
export const DEV_HELP = `Usage: agentloop dev [agent-file] [options]

Starts a local web app to develop an agent: chat with it (streamed), watch each run as a timeline (model
calls with tokens and cost, tool calls with arguments and results, retries, compaction, guardrails,
sub-agents), approve or deny gated tool calls, browse sessions and past runs, and open a saved trace as a
waterfall and replay it. Prints the page's URL (with a per-launch token) and serves it until Ctrl-C.

agent-file is an ES module (.mjs/.js; .ts where Node strips types) exporting an Agent as default or
as "agent" (or a function returning one). It reloads when the file changes: a broken edit shows its
error in the page and the last good agent stays. Without a file: a demo agent answered by agentloop's
bundled mock OpenAI server (no key; try "What is 17 * 23?" or "Save a note: buy milk").

Each message is a durable run of a session, recorded as a trace. An agent without its own store and
journal gets files under --dir: sessions/, runs/ and traces/.

Options:
  -p, --port <n>     the port (default: a free one)
      --host <addr>  the address to listen on (default 127.0.0.1; anything else is reachable from
                     other machines: only the token guards it)
      --dir <dir>    where sessions, runs and traces are kept (default .agentloop/dev)
      --memory       keep sessions and runs in memory (traces in a temporary directory)
      --no-watch     do not reload the agent file when it changes
  -h, --help         this help

Examples:
  agentloop dev
  agentloop dev agents/support.mjs --port 4310

${EXIT_CODES_HELP}
`;

/** The help text of `command` (`undefined` for unknown commands). */
export function helpFor(command: string | undefined): string | undefined {
  switch (command) {
    case undefined:
      return MAIN_HELP;
    case "run":
      return RUN_HELP.replace("TOOL_NAMES", CLI_TOOL_NAMES.join(", "));
    case "replay":
      return REPLAY_HELP;
    case "trace":
      return TRACE_HELP;
    case "dev":
      return DEV_HELP;
    default:
      return undefined;
  }
}
