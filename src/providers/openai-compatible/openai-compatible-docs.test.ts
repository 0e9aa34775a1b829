import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { OPENAI_COMPATIBLE_PRESET_NAMES, OPENAI_COMPATIBLE_PRESETS } from "./openai-compatible-presets.js";

// docs/models.md "Providers at a glance" is the one table of providers: each preset has its row there, with the
// base URL and variables the code uses.

const docs = readFileSync(new URL("../../../docs/models.md", import.meta.url), "utf8");
const table = docs.slice(
  docs.indexOf("## Providers at a glance"),
  docs.indexOf("\n## ", docs.indexOf("## Providers at a glance") + 3),
);
const rows = table.split("\n").filter((line) => line.startsWith("| `"));

describe("docs/models.md: Providers at a glance", () => {
  it("has one row per provider prefix: openai, anthropic, google, bedrock and every preset", () => {
    const prefixes = rows.map((row) => /^\| `([a-z]+):/.exec(row)?.[1]);
    const expected = ["openai", "anthropic", "google", "bedrock", ...OPENAI_COMPATIBLE_PRESET_NAMES];
    expect(prefixes).toEqual(expect.arrayContaining(expected));
    expect(new Set(prefixes).size).toBe(prefixes.length);
  });

  it.each(OPENAI_COMPATIBLE_PRESET_NAMES)(
    "the %s row names its base URL, key variables and base URL variable",
    (name) => {
      const preset = OPENAI_COMPATIBLE_PRESETS[name];
      const row = rows.find((line) => line.startsWith(`| \`${name}:`)) ?? "";
      if (preset.baseURL !== "") expect(row).toContain(`\`${preset.baseURL}\``);
      for (const variable of [...preset.keyVariables, preset.baseURLVariable])
        expect(row).toContain(`\`${variable}\``);
    },
  );
});
