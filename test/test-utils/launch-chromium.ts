// Debian's Chromium for the browser tests (playwright-core drives it; nothing is downloaded): the path, whether
// it is installed, and a launch with the flags this machine needs (no sandbox as root; no background network,
// which the closed network refuses).
import { existsSync } from "node:fs";
import { type Browser, chromium } from "playwright-core";

/** Where Debian's `chromium` package installs the browser (`.ci/run` installs it when missing). */
export const CHROMIUM = "/usr/bin/chromium";

/** Whether {@link CHROMIUM} is installed (browser tests skip with a printed reason when it is not). */
export const HAVE_CHROMIUM = existsSync(CHROMIUM);

/** Launches headless Chromium with the flags the browser tests use. */
export function launchChromium(): Promise<Browser> {
  return chromium.launch({
    executablePath: CHROMIUM,
    args: [
      "--headless",
      "--no-sandbox",
      "--disable-gpu",
      "--disable-quic",
      "--no-first-run",
      "--disable-background-networking",
      "--disable-component-update",
      "--disable-sync",
    ],
  });
}
