/**
 * Headless Chromium for the browser tests: Debian's `chromium` package (`/usr/bin/chromium`),
 * installed with apt when missing (as root on Debian), driven by playwright-core. Playwright's
 * own browser download is never used. A machine where it can be neither found nor installed
 * fails the test that asked, with what to install.
 */
import { existsSync } from "node:fs";
import { findOrAptInstall } from "./apt.ts";

const CANDIDATES = ["/usr/bin/chromium", "/usr/bin/chromium-browser"];

function findChromium(): string | null {
  const fromEnv = process.env.CHROMIUM_PATH;
  if (fromEnv && existsSync(fromEnv)) return fromEnv;
  return CANDIDATES.find((p) => existsSync(p)) ?? Bun.which("chromium") ?? null;
}

/** The path of a Chromium binary, installing Debian's package when it is missing. */
export const chromiumExecutable = findOrAptInstall(
  findChromium,
  "chromium",
  "Cannot run the browser tests: no Chromium found; install Debian's chromium package (apt-get install chromium) or set CHROMIUM_PATH",
);
