/**
 * The interactive API reference's browser bundle (Scalar), served from the installed npm package:
 * the version the lockfile pins, from this server, so the reference works without internet and
 * runs no script a CDN chose ([ADR 013](../../docs/decisions/013-security-headers-and-offline-reference.md)).
 *
 * The package does not export its browser build, so it is found beside the package's entry point.
 * A missing or moved file fails at start-up, not on the first visit of the docs page.
 */
import { existsSync, readFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";

const PACKAGE = "@scalar/api-reference";

function packageDir(): string {
  // The entry point is <package>/dist/index.js; walk up to the package.json that names the package.
  let dir = dirname(fileURLToPath(import.meta.resolve(PACKAGE)));
  for (;;) {
    const manifest = join(dir, "package.json");
    if (existsSync(manifest) && JSON.parse(readFileSync(manifest, "utf8")).name === PACKAGE) return dir;
    const parent = dirname(dir);
    if (parent === dir) throw new Error(`Cannot find the package directory of ${PACKAGE}`);
    dir = parent;
  }
}

const dir = packageDir();
const file = join(dir, "dist/browser/standalone.js");
if (!existsSync(file)) throw new Error(`${PACKAGE} has no browser bundle at ${file}`);

/** The installed version: part of the bundle's URL, so a year of caching is safe across upgrades. */
export const SCALAR_VERSION: string = JSON.parse(readFileSync(join(dir, "package.json"), "utf8")).version;

let raw: Promise<Uint8Array<ArrayBuffer>> | undefined;
let gzipped: Promise<Uint8Array<ArrayBuffer>> | undefined;

/**
 * The bundle's bytes, gzipped when the client accepts it (4.3 MB becomes 1.3 MB). Both are
 * read and compressed on first use and kept: every visitor gets the same bytes.
 */
export function scalarBundle(gzip: boolean): Promise<Uint8Array<ArrayBuffer>> {
  raw ??= Bun.file(file).bytes();
  if (!gzip) return raw;
  gzipped ??= raw.then((bytes) => Bun.gzipSync(bytes));
  return gzipped;
}
