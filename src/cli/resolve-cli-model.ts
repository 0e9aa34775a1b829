import { CliError } from "../errors/cli-error.js";
import { InvalidArgumentError } from "../errors/invalid-argument-error.js";
import type { Model } from "../models/model.js";
import { createAnthropic, DEFAULT_ANTHROPIC_BASE_URL } from "../providers/anthropic/create-anthropic.js";
import { createOpenAI } from "../providers/openai/create-openai.js";
import { isOpenAICompatiblePreset } from "../providers/openai-compatible/openai-compatible-presets.js";
import { checkModelName, DEFAULT_CLI_MODEL } from "./parse-run-args.js";
import { resolveBedrockCliModel } from "./resolve-bedrock-cli-model.js";
import { resolveCompatibleCliModel } from "./resolve-compatible-cli-model.js";
import { resolveGoogleCliModel } from "./resolve-google-cli-model.js";

/** The OpenAI API's default base URL. */
const OPENAI_BASE_URL = "https://api.openai.com/v1";

/** Options of {@link chooseCliModel}. */
export interface ChooseCliModelOptions {
  /** `--model`, or the default. */
  model: string;
  /** Whether `--model` was given. */
  modelGiven: boolean;
  demo: boolean;
  env: Record<string, string | undefined>;
}

/**
 * The model of a run: `--model`, else `AGENTLOOP_MODEL`, else {@link DEFAULT_CLI_MODEL}. With a custom
 * `OPENAI_BASE_URL` (not api.openai.com) and neither, it is a usage error (exit 2): the default model id
 * would be sent to a server that serves another model, and the run priced at OpenAI's rates.
 */
export function chooseCliModel({ model, modelGiven, demo, env }: ChooseCliModelOptions): string {
  if (modelGiven) return model;
  const fromEnv = env.AGENTLOOP_MODEL?.trim();
  if (fromEnv !== undefined && fromEnv !== "") {
    checkModelName({ source: "AGENTLOOP_MODEL", model: fromEnv });
    return fromEnv;
  }
  const baseURL = env.OPENAI_BASE_URL;
  if (!demo && baseURL !== undefined && baseURL !== "" && hostOf(baseURL) !== "api.openai.com") {
    throw CliError.usage(
      `OPENAI_BASE_URL is set (${baseURL}): name the model that server serves with --model openai:<model-id> ` +
        `(or AGENTLOOP_MODEL=openai:<model-id>); the server lists its models at ${baseURL.replace(/\/+$/, "")}/models`,
    );
  }
  return DEFAULT_CLI_MODEL;
}

/** Options of {@link resolveCliModel}. */
export interface ResolveCliModelOptions {
  /** `"<provider>:<model-id>"`. */
  model: string;
  /** Use the bundled mock OpenAI server instead of a provider. */
  demo: boolean;
  /** Read for API keys and base URLs. */
  env: Record<string, string | undefined>;
}

/** The model a run uses, with what to tell the user and what to clean up afterwards. */
export interface CliModel {
  model: Model;
  /** A notice for stderr (demo mode). */
  notice?: string;
  /** Stops what the model needed (the demo server). */
  close(): Promise<void>;
}

function hostOf(url: string): string {
  try {
    return new URL(url).hostname;
  } catch {
    return "";
  }
}

/** Checks a base URL from the environment; a bad one is a configuration error naming the variable. */
function checkBaseURL(variable: string, value: string | undefined): void {
  if (value === undefined) return;
  let protocol = "";
  try {
    protocol = new URL(value).protocol;
  } catch {
    protocol = "";
  }
  if (protocol !== "http:" && protocol !== "https:") {
    throw CliError.config(
      `${variable} must be an http(s) URL such as http://localhost:11434/v1, got "${value}"`,
    );
  }
}

function split(model: string): { provider: string; modelId: string } {
  const colon = model.indexOf(":");
  return { provider: model.slice(0, colon), modelId: model.slice(colon + 1) };
}

/** Creates a provider's model, turning invalid settings (e.g. a bad base URL) into configuration errors. */
function create(make: () => Model): Model {
  try {
    return make();
  } catch (error) {
    if (InvalidArgumentError.isInstance(error)) throw CliError.config(error.message);
    throw error;
  }
}

/**
 * The model of `agentloop run`: an OpenAI or Anthropic model configured from the environment
 * (`OPENAI_API_KEY`, `OPENAI_BASE_URL`, `ANTHROPIC_API_KEY`, `ANTHROPIC_BASE_URL`), or with `demo` a model
 * served by the bundled mock OpenAI server (started here; `close` stops it). A missing key for the
 * provider's own API is a configuration error (exit code 3) naming the variable to set; an unknown provider
 * is a usage error.
 */
export async function resolveCliModel({ model, demo, env }: ResolveCliModelOptions): Promise<CliModel> {
  const { provider, modelId } = split(model);
  if (demo) {
    if (provider !== "openai") {
      throw CliError.usage(`--demo plays an OpenAI model: use --model openai:<id> (got "${model}")`);
    }
    const [{ startMockOpenAIServer }, { demoScript }] = await Promise.all([
      import("../testing/mock-openai-server.js"),
      import("./demo-script.js"),
    ]);
    const server = await startMockOpenAIServer({ script: demoScript });
    return {
      model: createOpenAI({ baseURL: server.url, apiKey: "demo" })(modelId),
      notice: `demo mode: the answers come from agentloop's bundled mock OpenAI server at ${server.url}, not from a real model`,
      close: () => server.close(),
    };
  }
  const none = async (): Promise<void> => undefined;
  if (provider === "openai") {
    checkBaseURL("OPENAI_BASE_URL", env.OPENAI_BASE_URL);
    const baseURL = env.OPENAI_BASE_URL ?? OPENAI_BASE_URL;
    const apiKey = env.OPENAI_API_KEY ?? "";
    if (apiKey === "" && hostOf(baseURL) === "api.openai.com") {
      throw CliError.config(
        "OPENAI_API_KEY is not set: export OPENAI_API_KEY=<your key> (or set OPENAI_BASE_URL to a local " +
          "OpenAI-compatible server, or try --demo)",
      );
    }
    return { model: create(() => createOpenAI({ baseURL, apiKey })(modelId)), close: none };
  }
  if (provider === "anthropic") {
    checkBaseURL("ANTHROPIC_BASE_URL", env.ANTHROPIC_BASE_URL);
    const baseURL = env.ANTHROPIC_BASE_URL ?? DEFAULT_ANTHROPIC_BASE_URL;
    const apiKey = env.ANTHROPIC_API_KEY ?? "";
    if (apiKey === "" && hostOf(baseURL) === "api.anthropic.com") {
      throw CliError.config(
        "ANTHROPIC_API_KEY is not set: export ANTHROPIC_API_KEY=<your key> (or try --demo with an openai: model)",
      );
    }
    return { model: create(() => createAnthropic({ baseURL, apiKey })(modelId)), close: none };
  }
  if (provider === "bedrock") return { model: resolveBedrockCliModel({ modelId, env }), close: none };
  if (provider === "google") return { model: resolveGoogleCliModel({ modelId, env }), close: none };
  if (isOpenAICompatiblePreset(provider)) {
    return { model: resolveCompatibleCliModel({ preset: provider, modelId, env }), close: none };
  }
  throw CliError.usage(
    `unknown provider "${provider}" in --model "${model}": use openai:<id>, anthropic:<id> or google:<id> (or an ` +
      "OpenAI-compatible preset such as deepseek:<id>, azure:<deployment>, ollama:<id>; see docs/models.md)",
  );
}
