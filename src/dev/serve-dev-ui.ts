import { existsSync } from "node:fs";
import { readFile } from "node:fs/promises";
import type { ServerResponse } from "node:http";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";

/** The files of the built dev UI (dist/dev-ui/) and their content types. */
const FILES: Readonly<Record<string, string>> = {
  "index.html": "text/html; charset=utf-8",
  "app.js": "text/javascript; charset=utf-8",
  "styles.css": "text/css; charset=utf-8",
};

/** What the page may load: only this server's own files; no inline script, no other site, no framing. */
export const DEV_UI_CSP = [
  "default-src 'none'",
  "script-src 'self'",
  "style-src 'self'",
  "img-src 'self' data:",
  "connect-src 'self'",
  "base-uri 'none'",
  "form-action 'none'",
  "frame-ancestors 'none'",
].join("; ");

/**
 * The directory of the built dev UI: `dev-ui/` or `dist/dev-ui/` in this module's directory or one above it
 * (the bundle runs from dist/chunks/, the sources from src/dev/). `undefined` when it is not built.
 */
export function findDevUiDir(from: string = fileURLToPath(import.meta.url)): string | undefined {
  let dir = dirname(from);
  for (let depth = 0; depth < 4; depth++) {
    for (const candidate of [join(dir, "dev-ui"), join(dir, "dist", "dev-ui")]) {
      if (existsSync(join(candidate, "index.html"))) return candidate;
    }
    const parent = dirname(dir);
    if (parent === dir) break;
    dir = parent;
  }
  return undefined;
}

/** Options of {@link serveDevUi}. */
export interface ServeDevUiOptions {
  /** The request path (`/`, `/app.js`, `/styles.css`). */
  path: string;
  response: ServerResponse;
  /** The built UI's directory ({@link findDevUiDir}); `undefined` answers 503 with how to build it. */
  dir: string | undefined;
}

/** Serves a file of the built dev UI; resolves false when `path` names none (the caller answers 404). */
export async function serveDevUi({ path, response, dir }: ServeDevUiOptions): Promise<boolean> {
  const name = path === "/" ? "index.html" : path.slice(1);
  const type = FILES[name];
  if (type === undefined) return false;
  if (dir === undefined) {
    response.writeHead(503, { "content-type": "text/plain; charset=utf-8" });
    response.end("The dev UI is not built: run `npm run build` (it writes dist/dev-ui/).\n");
    return true;
  }
  const body = await readFile(join(dir, name));
  response.writeHead(200, {
    "content-type": type,
    "content-length": body.length,
    "cache-control": "no-store",
    "content-security-policy": DEV_UI_CSP,
    "x-content-type-options": "nosniff",
    "referrer-policy": "no-referrer",
    "cross-origin-resource-policy": "same-origin",
  });
  response.end(body);
  return true;
}
