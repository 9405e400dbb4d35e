/**
 * Word lists of the synthetic topics dataset (`topics.ts`), most frequent first: a word's place
 * in its list is its Zipf rank. Lowercase ASCII letters only, so each word is exactly one search
 * term for core's tokenizer (core/topics/search-terms.ts), whatever punctuation surrounds it.
 */

/** The glue of English prose: the head of the distribution, in nearly every topic. */
export const FUNCTION_WORDS = words(`
  the of and to a in is for that on with as it be this by are or from at an not we if when
  can you should will all each but which has have into only then more one use per so also after
  before no new any our its than how what where them they there these those other some most
  may must while was were been being do does done out up over under between through about
  because until both same such very just still every first last next
`);

/**
 * Content words of an engineering team's knowledge base, roughly most used first. The benchmark
 * picks its "common" search term among these (one in 10-20% of the topics).
 */
export const CONTENT_WORDS = words(`
  service data request time user system file version server config team error test change
  build release code process support value table query cache queue event message client
  update access issue support document policy step check default option key account token
  page list index record field type name path limit rate job task worker cluster node
  instance region database schema migration backup restore deploy deployment pipeline branch
  commit review merge owner incident alert metric dashboard log trace latency throughput
  timeout retry failure recovery outage customer product feature flag experiment rollout
  rollback staging production environment secret credential permission role group project
  workspace api endpoint route handler middleware session cookie header body response status
  payload format json yaml schema contract interface module package library dependency
  upgrade patch security audit compliance review approval owner oncall runbook playbook
  escalation severity priority ticket backlog sprint roadmap milestone estimate decision
  proposal design architecture diagram component boundary layer adapter store repository
  storage bucket object blob volume disk memory cpu thread process container image registry
  network proxy gateway balancer certificate domain dns address port socket connection pool
  transaction lock replica shard partition consistency availability durability snapshot
  stream batch window offset cursor page sort filter search ranking score relevance
  notification email webhook callback subscriber publisher topic channel broker consumer
  producer scheduler cron interval deadline budget quota usage billing invoice payment
  refund subscription plan pricing tier trial signup login logout password identity
  authentication authorization scope grant consent provider tenant organization member admin
  invite onboarding offboarding handbook guide tutorial reference overview summary context
  background motivation goal requirement constraint assumption risk tradeoff alternative
  option outcome result impact followup action item lesson timeline root cause detection
  mitigation resolution verification monitoring observability tracing profiling sampling
  benchmark performance capacity scaling autoscaling load traffic peak spike baseline
  regression improvement optimization bottleneck hotspot contention saturation utilization
  threshold target objective indicator sli slo sla uptime downtime maintenance window
  upgrade compatibility deprecation removal sunset legacy rewrite refactor cleanup debt
  ownership responsibility handoff review approval signoff checklist template standard
  convention guideline style naming lint format formatter compiler runtime interpreter
  framework toolchain script command flag argument parameter variable constant function
  method class struct enum trait generic closure callback promise future async await
  channel mutex semaphore atomic barrier signal exception panic stack heap garbage collector
  allocation leak profile flamegraph histogram percentile quantile counter gauge sample
  label dimension cardinality retention compaction rotation archive export import sync
  replication failover election leader follower quorum consensus heartbeat lease gossip
  membership discovery registry catalog inventory asset license vendor contract renewal
  procurement hiring interview candidate offer onboarding feedback mentor career growth
  planning quarter okr kpi report analysis insight trend forecast model training inference
  feature vector embedding dataset label annotation evaluation accuracy precision recall
  pipeline etl warehouse lake dashboard notebook spreadsheet chart visualization widget
  frontend backend mobile desktop browser extension plugin theme layout component state
  store reducer selector render hydration bundle chunk asset font icon color spacing grid
  accessibility localization translation locale timezone currency calendar date duration
  encoding unicode charset compression encryption hashing signature verification rotation
  vault kms hsm firewall vpn bastion tunnel ingress egress subnet vpc peering routing
  terraform ansible kubernetes helm chart manifest operator controller reconcile sidecar
  mesh envoy nginx postgres mysql redis kafka rabbitmq elasticsearch mongodb sqlite s3
  lambda function serverless edge cdn origin purge invalidation header ttl etag conditional
  idempotency deduplication ordering delivery guarantee exactly once least most backpressure
  throttling debounce jitter exponential circuit breaker bulkhead fallback degradation
  health probe readiness liveness startup shutdown graceful drain signal supervisor restart
  crash loop oom eviction preemption affinity toleration taint quota namespace context
  cluster federation multi region zone failover disaster drill exercise simulation chaos
  postmortem blameless retro wiki note draft proposal reviewed archived stale drift anchor
`);

/**
 * Words tag names are made of (teams, systems, kinds of page). Kept apart from the search terms
 * the benchmark queries, so a tag never decides whether a topic matches them.
 */
export const TAG_WORDS = words(`
  backend frontend infra platform payments billing auth identity search growth mobile web
  data ml analytics security sre oncall runbook howto faq adr rfc postmortem incident onboarding
  api sdk cli ui ux design docs internal external legacy beta ga deprecated experimental
  kubernetes terraform aws gcp azure postgres mongo redis kafka elastic grafana prometheus
  ios android react vue node go rust python java typescript ruby php kotlin swift
  checkout cart catalog orders inventory shipping fulfilment returns pricing promotions ads
  marketing sales support success finance legal hr people recruiting ops it helpdesk
  network storage compute edge cdn dns email sms push notifications chat video audio
  reporting warehouse etl streaming batch realtime cache queue scheduler cron workers
  gateway proxy mesh tracing logging metrics alerting dashboards slo capacity cost
  compliance gdpr soc2 pci hipaa privacy audit risk vendor procurement q1 q2 q3 q4
  emea apac amer team alpha bravo charlie delta echo foxtrot orion vega atlas apollo
`);

function words(text: string): string[] {
  const out: string[] = [];
  const seen = new Set<string>();
  for (const w of text.split(/\s+/)) {
    if (w === "" || seen.has(w)) continue;
    if (!/^[a-z0-9]+$/.test(w)) throw new Error(`vocabulary: not one search term: ${w}`);
    seen.add(w);
    out.push(w);
  }
  return out;
}
