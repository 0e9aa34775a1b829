// npm run example -- NAME: runs examples/NAME.mjs (after the build). Lists the examples when NAME is missing.
import { readdirSync } from "node:fs";
import { fileURLToPath } from "node:url";

const here = fileURLToPath(new URL(".", import.meta.url));
const names = readdirSync(here)
  .filter((f) => f.endsWith(".mjs") && f !== "run-example.mjs")
  .map((f) => f.slice(0, -4))
  .sort();
const name = process.argv[2];
if (name === undefined || !names.includes(name)) {
  console.error(
    `${name === undefined ? "Which example?" : `No example "${name}".`} Available: ${names.join(", ")}`,
  );
  console.error("Run one with: npm run example -- NAME");
  process.exit(name === undefined ? 0 : 2);
}
await import(new URL(`./${name}.mjs`, import.meta.url).href);
