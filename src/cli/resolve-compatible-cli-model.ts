import { CliError } from "../errors/cli-error.js";
import { InvalidArgumentError } from "../errors/invalid-argument-error.js";
import type { Model } from "../models/model.js";
import { createOpenAICompatible } from "../providers/openai-compatible/create-openai-compatible.js";
import {
  OPENAI_COMPATIBLE_PRESETS,
  type OpenAICompatiblePresetName,
  presetKey,
  presetKeyRequired,
} from "../providers/openai-compatible/openai-compatible-presets.js";

/** Options of {@link resolveCompatibleCliModel}. */
export interface ResolveCompatibleCliModelOptions {
  preset: OpenAICompatiblePresetName;
  modelId: string;
  /** Read for the key, the base URL (the preset's variable) and Azure's settings. */
  env: Record<string, string | undefined>;
}

function set(value: string | undefined): string | undefined {
  return value === undefined || value === "" ? undefined : value;
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
    throw CliError.config(`${variable} must be an http(s) URL, got "${value}"`);
  }
}

/** The base URL a preset's model would call, as the environment sets it (Azure: the resource endpoint). */
function baseURLOf(preset: OpenAICompatiblePresetName, env: Record<string, string | undefined>): string {
  const { baseURL, baseURLVariable } = OPENAI_COMPATIBLE_PRESETS[preset];
  const given = set(env[baseURLVariable]);
  checkBaseURL(baseURLVariable, given);
  if (given !== undefined) return given;
  if (preset !== "azure") return baseURL;
  const resource = set(env.AZURE_OPENAI_RESOURCE_NAME);
  if (resource !== undefined) return `https://${resource}.openai.azure.com`;
  throw CliError.config(
    "AZURE_OPENAI_ENDPOINT is not set: export AZURE_OPENAI_ENDPOINT=https://<resource>.openai.azure.com " +
      "(or AZURE_OPENAI_RESOURCE_NAME=<resource>), and AZURE_OPENAI_API_KEY",
  );
}

/**
 * The model of `agentloop run --model <preset>:<model-id>` for an OpenAI-compatible preset (`deepseek:`,
 * `azure:`, `ollama:`, …), configured from `env`: the preset's base URL variable (`DEEPSEEK_BASE_URL`, Azure's
 * `AZURE_OPENAI_ENDPOINT`), its key variable (`DEEPSEEK_API_KEY`) and, for Azure, `AZURE_OPENAI_API_VERSION` and
 * `AZURE_OPENAI_AD_TOKEN`. A hosted service without its key is a configuration error (exit code 3) naming the
 * variable to set, as is a bad base URL.
 */
export function resolveCompatibleCliModel({ preset, modelId, env }: ResolveCompatibleCliModelOptions): Model {
  const settings = OPENAI_COMPATIBLE_PRESETS[preset];
  const baseURL = baseURLOf(preset, env);
  const apiKey = presetKey(settings, env);
  const token = preset === "azure" ? set(env.AZURE_OPENAI_AD_TOKEN) : undefined;
  const variable = settings.keyVariables[0] ?? "the API key";
  if (apiKey === undefined && token === undefined && presetKeyRequired({ preset, baseURL })) {
    throw CliError.config(
      `${variable} is not set: export ${variable}=<your key> (or set ${settings.baseURLVariable} to a ` +
        `${settings.label} server that needs none)`,
    );
  }
  try {
    return createOpenAICompatible({
      preset,
      baseURL,
      apiKey: apiKey ?? "",
      ...(preset === "azure" && {
        ...(set(env.AZURE_OPENAI_API_VERSION) !== undefined && { apiVersion: env.AZURE_OPENAI_API_VERSION }),
        ...(token !== undefined && { entraToken: token }),
      }),
    })(modelId);
  } catch (error) {
    if (InvalidArgumentError.isInstance(error)) throw CliError.config(error.message);
    throw error;
  }
}
