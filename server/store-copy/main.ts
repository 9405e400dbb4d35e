/**
 * `npm run store:copy -- --from <store> --to <store>`: moves a whole store (every workspace, and
 * every kind the service keeps) into another, on any backend (ADR 069, README "Moving to
 * PostgreSQL"). Exit codes: exit-codes.ts.
 */
import { parseArgs, USAGE } from "./args.ts";
import { EXIT } from "./exit-codes.ts";
import { checkSource, checkTargetUnused, markEmbedded } from "./liveness.ts";
import { openLocation } from "./open-store.ts";
import { createProgress } from "./progress.ts";
import { runStoreCopy } from "./run.ts";
import { resolveCopySecrets } from "./secrets.ts";

const args = parseArgs(process.argv.slice(2));
if (typeof args === "string") {
  process.stderr.write(`${args}\n${USAGE}\n`);
  process.exit(EXIT.usage);
}
const code = await runStoreCopy(args, {
  open: openLocation,
  checkSource,
  checkTarget: checkTargetUnused,
  secrets: (a) => resolveCopySecrets(a.from, a.to, process.env),
  mark: markEmbedded,
  progress: createProgress(process.stderr),
  out: (text) => process.stdout.write(`${text}\n`),
});
process.exit(code);
