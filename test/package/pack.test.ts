// The packed tarball holds what users need and nothing else, and a fresh clone (no dist/) packs dist/ too.
// `npm test` builds dist/ before vitest runs.
import { cpSync, mkdtempSync, rmSync, symlinkSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { type PackageJson, packedFiles, REPO_ROOT, readPackageJson } from "./package-consumer.js";

/** Every file that package.json's exports and bin point at. */
function promisedFiles(pkg: PackageJson): string[] {
  const targets = Object.values(pkg.exports).flatMap((target) =>
    typeof target === "string" ? [target] : Object.values(target),
  );
  return [...targets, ...Object.values(pkg.bin)].map((path) => path.replace(/^\.\//, ""));
}

const ALLOWED = [
  /^package\.json$/,
  /^README\.md$/,
  /^LICENSE$/,
  /^CHANGELOG\.md$/,
  /^docs\/[a-z0-9-]+\.md$/,
  /^dist\/.+\.(js|js\.map|d\.ts)$/,
  // The prebuilt `agentloop dev` browser app.
  /^dist\/dev-ui\/(index\.html|styles\.css)$/,
];

/** The files `agentloop dev` serves (scripts/build-dev-ui.mjs). */
const DEV_UI_FILES = ["dist/dev-ui/index.html", "dist/dev-ui/app.js", "dist/dev-ui/styles.css"];

describe("npm pack", () => {
  it("ships what users need and nothing else", async () => {
    const pkg = readPackageJson();
    const files = await packedFiles(REPO_ROOT, { scripts: false });
    expect(files.filter((file) => !ALLOWED.some((pattern) => pattern.test(file)))).toEqual([]);
    for (const file of promisedFiles(pkg)) expect(files).toContain(file);
    for (const file of ["README.md", "LICENSE", "CHANGELOG.md", "package.json", ...DEV_UI_FILES])
      expect(files).toContain(file);
    // No tests, test doubles' test helpers, contract suites, declaration maps pointing at unshipped src/.
    expect(files.filter((file) => /\.test\.|test-utils|-contract\.|\.d\.ts\.map$|^src\//.test(file))).toEqual(
      [],
    );
  });

  it("builds dist/ when packing a fresh clone that has none (prepack)", async () => {
    const dir = mkdtempSync(join(tmpdir(), "agentloop-clone-"));
    try {
      for (const entry of [
        "package.json",
        "src",
        "scripts",
        "tsconfig.json",
        "tsconfig.build.json",
        "README.md",
      ]) {
        cpSync(join(REPO_ROOT, entry), join(dir, entry), { recursive: true });
      }
      for (const entry of ["LICENSE", "CHANGELOG.md", "docs"]) {
        cpSync(join(REPO_ROOT, entry), join(dir, entry), { recursive: true });
      }
      symlinkSync(join(REPO_ROOT, "node_modules"), join(dir, "node_modules"), "dir");
      const files = await packedFiles(dir, { scripts: true });
      for (const file of promisedFiles(readPackageJson())) expect(files).toContain(file);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  }, 120_000);
});
