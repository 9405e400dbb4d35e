import type { MonitorView, RunView, SearchView } from "./dto.ts";
import type { RadarMonitor, RadarRun, RadarSearch } from "./model.ts";

/** What the API shows of radar's records: the stored bookkeeping (lease, cursor, attempt) stays inside. */
export function toRunView(r: RadarRun): RunView {
  return {
    id: r.id,
    search_id: r.search_id,
    collection_id: r.collection_id,
    criterion_slug: r.criterion_slug,
    kind: r.kind,
    monitor_id: r.monitor_id,
    state: r.state,
    quote: r.quote && (({ filter: _f, ...shown }) => shown)(r.quote),
    results: r.results,
    hold_credits: r.hold_credits,
    charged_credits: r.charged_credits,
    released_credits: r.released_credits,
    error: r.error,
    created_at: r.created_at,
    updated_at: r.updated_at,
    started_at: r.started_at,
    finished_at: r.finished_at,
  };
}

export function toSearchView(s: RadarSearch): SearchView {
  return {
    id: s.id,
    name: s.name,
    criterion_slug: s.criterion_slug,
    kind: s.kind,
    collection_id: s.collection_id,
    max_results: s.max_results,
    created_at: s.created_at,
  };
}

export function toMonitorView(m: RadarMonitor): MonitorView {
  return {
    id: m.id,
    search_id: m.search_id,
    interval: m.interval,
    state: m.state,
    paused_reason: m.paused_reason,
    budget_credits: m.budget_credits,
    spent_credits: m.spent_credits,
    period_start: m.period_start,
    next_run_at: m.next_run_at,
  };
}
