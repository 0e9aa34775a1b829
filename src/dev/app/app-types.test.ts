import { execFile } from "node:child_process";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";
import { expect, it } from "vitest";

// The browser app is compiled with the DOM library (src/dev/app/tsconfig.json), apart from the Node sources
// (tsconfig.json leaves this folder out): this test is its type check.
it("the dev UI's sources type-check against the DOM library", async () => {
  const root = fileURLToPath(new URL("../../../", import.meta.url));
  const tsc = fileURLToPath(new URL("../../../node_modules/typescript/bin/tsc", import.meta.url));
  const { stdout } = await promisify(execFile)(
    process.execPath,
    [tsc, "--noEmit", "-p", "src/dev/app/tsconfig.json"],
    { cwd: root },
  ).catch((error: { stdout?: string }) => ({ stdout: error.stdout ?? String(error) }));
  expect(stdout).toBe("");
}, 60_000);
