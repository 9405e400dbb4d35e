import { hashRawKey } from "../../../core/access/mod.ts";
import { uuidv7 } from "../../../core/kernel/ids.ts";
import type { NoteShare, ShareLink } from "../../../core/sharing/model.ts";
import { generateShareToken } from "../../../core/sharing/share-token.ts";
import type { Stores } from "../../../core/stores.ts";
import type { Topic } from "../../../core/topics/model.ts";
import { topicEvent } from "../../../core/topics/topic-change.ts";
import type { BootstrapBundle } from "../../../core/workspaces/mod.ts";
import { stamp, topicFixture } from "../fixtures.ts";
import type { TransferSeeder } from "./seeder.ts";

interface Seeded {
  topic: Topic;
  token: string;
  link: ShareLink;
  shares: NoteShare[];
}

const seeded = new Map<string, Seeded>();
const page = { offset: 0, limit: 50 };

/**
 * Sharing: a topic's public link (its token kept by the test, only its hash by the store) and two
 * inbox entries of the owner, one read, one unread with no message. The copy must open the link
 * by the same token and show the same inbox.
 */
export const sharingSeeder: TransferSeeder = {
  module: "sharing",
  async seed(s: Stores, b: BootstrapBundle) {
    const ws = b.workspace.id;
    const topic = topicFixture(ws, { title: "Shared 📎" });
    if ((await s.topics.insert({ topic, event: topicEvent(null, topic, "topic.created", new Date(topic.updated_at)) })) !== "ok") {
      throw new Error("seed: shared topic refused");
    }
    const token = generateShareToken();
    const link: ShareLink = {
      id: uuidv7(),
      workspace_id: ws,
      topic_id: topic.id,
      token_hash: hashRawKey(token),
      created_by: b.owner.identity.id,
      created_at: stamp(),
    };
    if ((await s.shareLinks.issue(link)) !== "ok") throw new Error("seed: share link refused");
    const share = (over: Partial<NoteShare>): NoteShare => ({
      id: uuidv7(),
      workspace_id: ws,
      topic_id: topic.id,
      recipient_member_id: b.member.id,
      sender_id: b.owner.identity.id,
      message: "Lies das — 読んで",
      created_at: stamp(),
      read_at: null,
      ...over,
    });
    const shares = [share({}), share({ message: null, sender_id: null })];
    await s.noteShares.insert(shares);
    await s.noteShares.markRead(ws, b.member.id, shares[0]!.id, stamp());
    seeded.set(ws, { topic, token, link, shares });
  },
  async verify(source, target, b, expect) {
    const ws = b.workspace.id;
    const x = seeded.get(ws)!;
    const opened = await target.shareLinks.findByHash(hashRawKey(x.token));
    expect(opened?.link).toEqual(x.link);
    expect(opened?.topic).toEqual(x.topic);
    expect(opened?.workspace.id).toBe(ws);
    expect(await target.shareLinks.get(ws, x.topic.id)).toEqual(x.link);
    for (const unread of [undefined, true, false]) {
      const inbox = (s: Stores) => s.noteShares.inbox(ws, b.member.id, { unread }, page);
      expect(await inbox(target)).toEqual(await inbox(source));
    }
    expect((await target.noteShares.inbox(ws, b.member.id, {}, page)).total).toBe(2);
  },
};
