import type { Collection, Db } from "mongodb";
import type { Job } from "../../../core/jobs/kind.ts";
import type { JobStores } from "../../../core/jobs/ports.ts";
import type { MongoBundle } from "../bundle.ts";
import { mongoJobTransfer } from "./transfer.ts";

/** The in-process queue's journal on MongoDB (a deployment without Redis runs its jobs in-process). */
export interface JournalDoc {
  _id: string;
  run_at: string;
  job: Job;
}

export interface JobCollections {
  jobJournal: Collection<JournalDoc>;
}

export const JOB_COLLECTION_NAMES = { jobJournal: "job_journal" } as const;

/** Global, not tenant data (the queue reads it across workspaces at start): soonest first. */
export const JOB_INDEXES = { jobJournal: [{ key: { run_at: 1, _id: 1 }, name: "run_at" }] };

export function jobCollections(db: Db): JobCollections {
  return { jobJournal: db.collection<JournalDoc>(JOB_COLLECTION_NAMES.jobJournal) };
}

export function mongoJobBundle(c: JobCollections): MongoBundle<JobStores> {
  return {
    transfer: mongoJobTransfer(c),
    stores: {
      jobJournal: {
        keep: async (e) => {
          await c.jobJournal.updateOne({ _id: e.id }, { $setOnInsert: { run_at: e.run_at, job: e.job } }, { upsert: true });
        },
        forget: async (id) => void (await c.jobJournal.deleteOne({ _id: id })),
        pending: async (limit) =>
          (await c.jobJournal.find({}).sort({ run_at: 1, _id: 1 }).limit(limit).toArray()).map((d) => ({
            id: d._id,
            run_at: d.run_at,
            job: d.job,
          })),
      },
    },
    purgeWorkspace: async () => {},
  };
}
