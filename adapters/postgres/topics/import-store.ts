import type { TopicImportBatch, TopicImportRefusal, TopicImportStore } from "../../../core/topics/ports.ts";
import { inTransaction, type SqlDriver } from "../driver.ts";
import { PostgresProposalStore } from "./proposal-store.ts";
import { PostgresRelationStore } from "./relation-store.ts";
import { PostgresTopicStore } from "./topic-store.ts";

/**
 * An import in one transaction: the topic, proposal and relation stores' own writes, run on the
 * transaction's driver (where each store's own `inTransaction` joins it), so a refusal anywhere
 * rolls every write back. A refusal that raised an error inside (a unique or foreign-key
 * violation) has left the transaction aborted; it is rolled back all the same.
 */
export class PostgresTopicImportStore implements TopicImportStore {
  constructor(private readonly db: SqlDriver) {}

  apply(b: TopicImportBatch): Promise<"ok" | TopicImportRefusal> {
    return inTransaction<"ok" | TopicImportRefusal>(this.db, async (tx, abort) => {
      const topics = new PostgresTopicStore(tx);
      for (const w of b.inserts) {
        if ((await topics.insert(w)) !== "ok") return abort({ refused: "slug_taken", slug: w.topic.slug });
      }
      for (const w of b.updates) {
        const r = await topics.update(w);
        if (r === "not_found") return abort({ refused: "topic_gone", topicId: w.topic.id });
        if (r !== "ok") return abort({ refused: r === "slug_taken" ? "slug_taken" : "version_conflict", slug: w.topic.slug });
      }
      const proposals = new PostgresProposalStore(tx);
      for (const x of b.proposals) await proposals.insert(x);
      const relations = new PostgresRelationStore(tx);
      for (const r of b.relations) {
        // "duplicate" writes nothing and raises nothing: a relation added meanwhile is the one wanted.
        if ((await relations.insert(r)) === "not_found") return abort({ refused: "topic_gone", topicId: r.from_topic_id });
      }
      return "ok";
    });
  }
}
