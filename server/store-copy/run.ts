import type { Stores } from "../../core/mod.ts";
import { type CopyArgs, describeLocation, type StoreLocation } from "./args.ts";
import { copyKinds, kindsHolding } from "./copy-kinds.ts";
import { EXIT, Refusal } from "./exit-codes.ts";
import type { Progress } from "./progress.ts";
import { checkSourceSecret } from "./secret-check.ts";
import { type CopySecrets, writeSecretFile } from "./secrets.ts";
import { formatChecks, verifyKinds } from "./verify.ts";

/** What a copy is given: its stores' opener and the checks that need the outside world (main.ts wires the real ones). */
export interface CopyEnv {
  open(l: StoreLocation): Promise<Stores>;
  /** Refuses a source a server may be writing; returns why reading it is safe. */
  checkSource(args: CopyArgs): Promise<string>;
  checkTarget(l: StoreLocation): Promise<void>;
  secrets(args: CopyArgs): CopySecrets;
  /** Marks an embedded store as this command's while it runs; returns the unmark. */
  mark(l: StoreLocation): () => void;
  progress: Progress;
  /** The final table (stdout). */
  out(text: string): void;
}

/**
 * The copy: refusals first (secret, a live source, a non-empty target), then every kind in
 * order, then the check of every kind's count and digest on both sides. Returns the exit code
 * (exit-codes.ts); a refusal's message goes to the progress stream.
 */
export async function runStoreCopy(args: CopyArgs, env: CopyEnv): Promise<number> {
  const p = env.progress;
  const opened: Stores[] = [];
  const unmark: Array<() => void> = [];
  try {
    const secrets = env.secrets(args);
    p.say(`source: ${describeLocation(args.from)} (${await env.checkSource(args)})`);
    await env.checkTarget(args.to);
    const source = await env.open(args.from);
    opened.push(source);
    unmark.push(env.mark(args.from));
    const target = await env.open(args.to);
    opened.push(target);
    unmark.push(env.mark(args.to));
    p.say(`target: ${describeLocation(args.to)}`);

    const holding = await kindsHolding(target);
    if (holding.length > 0 && !args.resume) {
      throw new Refusal(
        EXIT.targetNotEmpty,
        `The target is not empty (${holding.slice(0, 5).join(", ")}${
          holding.length > 5 ? ", …" : ""
        }): copy into an empty store, or pass --resume to continue a copy that was cut short`,
      );
    }
    const work = async (from: Stores): Promise<number> => {
      const checked = await checkSourceSecret(from, secrets.source);
      p.say(
        checked > 0
          ? `SECRET_KEY opens the source's API keys (${checked} checked)`
          : "the source holds no API keys to check SECRET_KEY against",
      );
      if (secrets.writeTarget && secrets.source) {
        writeSecretFile(secrets.writeTarget, secrets.source);
        p.say(`wrote the source's secret to ${secrets.writeTarget}`);
      }
      const agreed = await copyKinds(from, target, { resume: args.resume }, p);
      const checks = await verifyKinds(from, target, agreed);
      env.out(formatChecks(checks));
      return checks.every((c) => c.same) ? EXIT.ok : EXIT.verifyFailed;
    };
    return args.snapshot && source.snapshot ? await source.snapshot(work) : await work(source);
  } catch (e) {
    if (e instanceof Refusal) {
      p.say(`refused: ${e.message}`);
      return e.code;
    }
    p.say(`failed: ${e instanceof Error ? e.message : String(e)}${args.resume ? "" : " (run again with --resume to continue)"}`);
    return EXIT.failed;
  } finally {
    for (const s of opened) await s.close().catch(() => {});
    for (const u of unmark) u();
  }
}
