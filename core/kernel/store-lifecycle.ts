export interface StoreStatus {
  /** e.g. `memory`, `pglite`, `postgres` */
  kind: string;
  ok: boolean;
  latency_ms: number;
}

/** What an adapter's whole set of stores answers for, beside the stores themselves. */
export interface StoreLifecycle {
  status(): Promise<StoreStatus>;
  close(): Promise<void>;
}
