/**
 * Child processes started by the benchmark and the fuzz script.
 *
 * Every child is registered so that `stopAllChildren()` can end whatever is
 * still running when a run fails or is interrupted. Output is drained
 * continuously (a full pipe would stall the child) and its tail is kept for
 * error messages.
 */
import type { Subprocess } from "bun";

const TAIL_LINES = 200;

export interface Child {
  readonly name: string;
  readonly pid: number;
  /** Resolves with the exit code once the process has ended. */
  readonly exited: Promise<number>;
  /** The last lines of stdout and stderr, for error messages. */
  tail(lines?: number): string;
  /** Resolves with the first line (past or future) matching `pattern`; rejects on exit or timeout. */
  waitForLine(pattern: RegExp, timeoutMs: number): Promise<string>;
  /** SIGTERM, then SIGKILL after `graceMs`; resolves with the exit code. */
  stop(graceMs?: number): Promise<number>;
}

export interface SpawnOptions {
  env?: Record<string, string | undefined>;
  cwd?: string;
  /** Echo the child's output to our stdout/stderr: prefixed with its name, or "raw" as is. */
  echo?: boolean | "raw";
  /** Called with every line of output (the tail keeps only the last ones). */
  onLine?: (line: string, stream: "out" | "err") => void;
}

const live = new Set<Child>();
let shuttingDown = false;

export function spawnChild(name: string, cmd: string[], options: SpawnOptions = {}): Child {
  if (shuttingDown) throw new Error(`Cannot start ${name}: shutting down`);
  const proc: Subprocess<"ignore", "pipe", "pipe"> = Bun.spawn({
    cmd,
    cwd: options.cwd,
    env: cleanEnv({ ...process.env, ...options.env }),
    stdin: "ignore",
    stdout: "pipe",
    stderr: "pipe",
  });
  const lines: string[] = [];
  const waiters: { pattern: RegExp; resolve: (line: string) => void }[] = [];
  let exitCode: number | null = null;
  const exitListeners: ((code: number) => void)[] = [];

  const onLine = (line: string, stream: "out" | "err") => {
    options.onLine?.(line, stream);
    lines.push(stream === "err" ? `[stderr] ${line}` : line);
    if (lines.length > TAIL_LINES) lines.shift();
    if (options.echo) {
      const prefix = options.echo === "raw" ? "" : `[${name}] `;
      (stream === "err" ? process.stderr : process.stdout).write(`${prefix}${line}\n`);
    }
    for (let i = waiters.length - 1; i >= 0; i--) {
      const waiter = waiters[i]!;
      if (waiter.pattern.test(line)) {
        waiters.splice(i, 1);
        waiter.resolve(line);
      }
    }
  };
  const drained = Promise.all([
    drainLines(proc.stdout, (line) => onLine(line, "out")),
    drainLines(proc.stderr, (line) => onLine(line, "err")),
  ]);
  const exited = proc.exited.then(async (code) => {
    // Let the last output arrive before telling waiters the process is gone.
    await Promise.race([drained, Bun.sleep(500)]);
    exitCode = code;
    live.delete(child);
    for (const listener of exitListeners.splice(0)) listener(code);
    return code;
  });

  const child: Child = {
    name,
    pid: proc.pid,
    exited,
    tail(count = 40) {
      return lines.slice(-count).join("\n");
    },
    waitForLine(pattern, timeoutMs) {
      const seen = lines.find((line) => pattern.test(line));
      if (seen !== undefined) return Promise.resolve(seen);
      if (exitCode !== null) {
        return Promise.reject(new Error(`${name} exited with code ${exitCode} before printing ${pattern}`));
      }
      return new Promise<string>((resolve, reject) => {
        const timer = setTimeout(() => {
          remove();
          reject(new Error(`${name} did not print ${pattern} within ${timeoutMs} ms`));
        }, timeoutMs);
        const waiter = {
          pattern,
          resolve: (line: string) => {
            clearTimeout(timer);
            resolve(line);
          },
        };
        const onExit = (code: number) => {
          clearTimeout(timer);
          remove();
          reject(new Error(`${name} exited with code ${code} before printing ${pattern}`));
        };
        const remove = () => {
          const index = waiters.indexOf(waiter);
          if (index >= 0) waiters.splice(index, 1);
          const listenerIndex = exitListeners.indexOf(onExit);
          if (listenerIndex >= 0) exitListeners.splice(listenerIndex, 1);
        };
        waiters.push(waiter);
        exitListeners.push(onExit);
      });
    },
    async stop(graceMs = 5000) {
      if (exitCode !== null) return exitCode;
      proc.kill("SIGTERM");
      const timedOut = await Promise.race([exited.then(() => false), Bun.sleep(graceMs).then(() => true)]);
      if (timedOut) {
        process.stderr.write(`${name} (pid ${proc.pid}) ignored SIGTERM for ${graceMs} ms: sending SIGKILL\n`);
        proc.kill("SIGKILL");
      }
      return exited;
    },
  };
  live.add(child);
  return child;
}

/** Stops every child that is still running, in reverse start order. */
export async function stopAllChildren(): Promise<void> {
  for (const child of [...live].reverse()) {
    await child.stop(3000).catch(() => undefined);
  }
}

/** From now on `spawnChild` refuses to start anything (an interrupted run must not leave new orphans). */
export function refuseNewChildren(): void {
  shuttingDown = true;
}

/** True once `refuseNewChildren` was called. */
export function isShuttingDown(): boolean {
  return shuttingDown;
}

async function drainLines(stream: ReadableStream<Uint8Array>, onLine: (line: string) => void): Promise<void> {
  const decoder = new TextDecoder();
  let buffered = "";
  try {
    for await (const chunk of stream) {
      buffered += decoder.decode(chunk, { stream: true });
      let newline: number;
      while ((newline = buffered.indexOf("\n")) >= 0) {
        onLine(buffered.slice(0, newline).replace(/\r$/, ""));
        buffered = buffered.slice(newline + 1);
      }
    }
  } catch {
    // The stream ends abruptly when the process is killed; what was read is kept.
  }
  buffered += decoder.decode();
  if (buffered.length > 0) onLine(buffered);
}

function cleanEnv(env: Record<string, string | undefined>): Record<string, string> {
  const result: Record<string, string> = {};
  for (const [key, value] of Object.entries(env)) if (value !== undefined) result[key] = value;
  return result;
}
