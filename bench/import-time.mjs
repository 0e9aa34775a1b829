// Cold import cost of a built entry: the minimum over N fresh Node processes of the wall time of
// `await import(entry)`, measured in the same minute against an empty module (the floor of one dynamic import
// on this machine), interleaved so that machine load affects both alike. Also prints how many files and bytes
// of JavaScript the entry's static import graph loads (what the cost mostly follows).
//
//   node bench/import-time.mjs                      # dist/index.js, 15 runs each
//   node bench/import-time.mjs --runs 25 dist/web/index.js dist/agents/index.js
//
// Build first (`npm run build`). Minimum, not mean: on a shared machine the noise is one-sided (load only adds).
import { execFileSync } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join, resolve } from "node:path";
import { pathToFileURL } from "node:url";

const args = process.argv.slice(2);
let runs = 15;
const entries = [];
for (let i = 0; i < args.length; i++) {
  if (args[i] === "--runs") runs = Number(args[++i]);
  else entries.push(args[i]);
}
if (entries.length === 0) entries.push(new URL("../dist/index.js", import.meta.url).pathname);

/** The relative static imports of a built module (`import … from "./x.js"`, `export … from "./x.js"`). */
function staticImports(file) {
  const source = readFileSync(file, "utf8");
  const found = [];
  for (const match of source.matchAll(/(?:^|\n)\s*(?:import|export)\s*(?:[^"';]*?\sfrom\s*)?["'](\.{1,2}\/[^"']+)["']/g)) {
    found.push(resolve(dirname(file), match[1]));
  }
  return found;
}

/** Every file of the entry's static graph (relative imports only: packages are external) and their bytes. */
function graph(entry) {
  const seen = new Set();
  const stack = [resolve(entry)];
  let bytes = 0;
  while (stack.length > 0) {
    const file = stack.pop();
    if (seen.has(file)) continue;
    seen.add(file);
    bytes += readFileSync(file).length;
    stack.push(...staticImports(file));
  }
  return { files: seen.size, bytes };
}

function once(url) {
  const code = `const t=performance.now();import(${JSON.stringify(url)}).then(()=>process.stdout.write(String(performance.now()-t)))`;
  return Number(execFileSync(process.execPath, ["-e", code], { encoding: "utf8", timeout: 30_000 }));
}

const scratch = mkdtempSync(join(tmpdir(), "import-time-"));
const empty = join(scratch, "empty.mjs");
writeFileSync(empty, "export {};\n");
try {
  const urls = entries.map((entry) => pathToFileURL(resolve(entry)).href);
  const emptyUrl = pathToFileURL(empty).href;
  for (const url of urls) once(url); // warm the file cache
  // Round-robin: every round imports each entry and the empty module once, so load drifts hit all alike.
  const times = urls.map(() => []);
  const floor = [];
  for (let i = 0; i < runs; i++) {
    urls.forEach((url, index) => times[index].push(once(url)));
    floor.push(once(emptyUrl));
  }
  const min = (list) => Math.min(...list).toFixed(1);
  const median = (list) => [...list].sort((a, b) => a - b)[Math.floor(list.length / 2)].toFixed(1);
  console.log(`empty module: min ${min(floor)} ms (median ${median(floor)}); ${runs} runs each`);
  entries.forEach((entry, index) => {
    const { files, bytes } = graph(entry);
    console.log(
      `${entry}: min ${min(times[index])} ms (median ${median(times[index])}); ${files} files, ${(bytes / 1024).toFixed(0)} KB`,
    );
  });
} finally {
  rmSync(scratch, { recursive: true, force: true });
}
