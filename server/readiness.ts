/**
 * Readiness (`GET /health/ready`): whether this process can serve requests now, from a check of
 * each dependency (docs/decisions/054-database-outages.md). The primary store is required: without
 * it no request can be answered, so the answer is 503 and a load balancer sends traffic elsewhere.
 * Redis and a shared job queue are reported but not required: requests keep working without
 * Redis by design, and only the requests that queue work need the queue (they are refused with
 * 503 one by one), so the answer is 200 `degraded` rather than taking every instance out at once.
 */

export type DependencyStatus = "up" | "down";
export type ReadinessStatus = "ready" | "degraded" | "unavailable" | "stopping";

export interface DependencyCheck {
  status: DependencyStatus;
  /** Whether the service is unavailable while it is down. */
  required: boolean;
  latency_ms: number;
}

export interface Readiness {
  status: ReadinessStatus;
  checks: Record<string, DependencyCheck>;
}

export interface Dependency {
  name: string;
  required: boolean;
  /** Resolves when the dependency answers; throws or resolves `false` when it does not. */
  check(): Promise<unknown>;
}

export type ReadinessProbe = () => Promise<Readiness>;

export interface ProbeOptions {
  /** A check not answering within this long counts as down. */
  timeoutMs?: number;
  /** How long an answer is reused: polls from many load balancers (or anyone: it is public) cost one check a second. */
  reuseMs?: number;
  /** True once the process is shutting down: then it is not ready, whatever its dependencies. */
  stopping?: () => boolean;
  /** Told when a dependency goes down or comes back (one log line per change, not per poll). */
  onChange?: (name: string, status: DependencyStatus, error: string | undefined) => void;
}

export function readinessProbe(dependencies: Dependency[], opts: ProbeOptions = {}): ReadinessProbe {
  const timeoutMs = opts.timeoutMs ?? 2_000;
  const reuseMs = opts.reuseMs ?? 1_000;
  const last = new Map<string, DependencyStatus>();
  let kept: { at: number; checks: Promise<Record<string, DependencyCheck>> } | null = null;

  async function checkOne(d: Dependency): Promise<DependencyCheck> {
    const started = performance.now();
    let error: string | undefined;
    let timer: ReturnType<typeof setTimeout> | undefined;
    try {
      const answer = await Promise.race([
        d.check(),
        new Promise((_, reject) => (timer = setTimeout(() => reject(new Error(`no answer within ${timeoutMs} ms`)), timeoutMs))),
      ]);
      if (answer === false) error = "not ok";
    } catch (e) {
      error = e instanceof Error ? e.message : String(e);
    } finally {
      clearTimeout(timer);
    }
    const status: DependencyStatus = error === undefined ? "up" : "down";
    if (last.get(d.name) !== status) {
      // The first check reports only a dependency that is down.
      if (last.has(d.name) || status === "down") opts.onChange?.(d.name, status, error);
      last.set(d.name, status);
    }
    return { status, required: d.required, latency_ms: Math.round((performance.now() - started) * 100) / 100 };
  }

  async function checkAll(): Promise<Record<string, DependencyCheck>> {
    const results = await Promise.all(dependencies.map(checkOne));
    return Object.fromEntries(dependencies.map((d, i) => [d.name, results[i]!]));
  }

  return async () => {
    const now = performance.now();
    if (!kept || now - kept.at > reuseMs) kept = { at: now, checks: checkAll() };
    const checks = await kept.checks;
    const values = Object.values(checks);
    const status: ReadinessStatus = opts.stopping?.()
      ? "stopping"
      : values.some((c) => c.required && c.status === "down")
      ? "unavailable"
      : values.some((c) => c.status === "down")
      ? "degraded"
      : "ready";
    return { status, checks };
  };
}

/** Whether a readiness answers 200 (ready or degraded) or 503. */
export const servesTraffic = (r: Readiness) => r.status === "ready" || r.status === "degraded";
