/** Structured logs: one JSON object per line on stdout. Never pass secrets or raw keys here. */
export type LogLevel = "debug" | "info" | "warn" | "error" | "silent";
const rank: Record<LogLevel, number> = { debug: 10, info: 20, warn: 30, error: 40, silent: 99 };

export interface Logger {
  log(level: Exclude<LogLevel, "silent">, msg: string, fields?: Record<string, unknown>): void;
  enabled(level: Exclude<LogLevel, "silent">): boolean;
}

export function createLogger(min: LogLevel = "info", write: (line: string) => void = (l) => process.stdout.write(l)): Logger {
  return {
    enabled: (level) => rank[level] >= rank[min],
    log(level, msg, fields) {
      if (rank[level] < rank[min]) return;
      write(JSON.stringify({ ts: new Date().toISOString(), level, msg, ...fields }) + "\n");
    },
  };
}
