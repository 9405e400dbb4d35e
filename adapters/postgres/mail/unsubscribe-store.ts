import type { MailList } from "../../../core/mail/model.ts";
import type { UnsubscribeStore } from "../../../core/mail/ports.ts";
import { type SqlDriver } from "../driver.ts";

/** The primary key (identity_id, list) decides: of concurrent adds, one insert wins. */
export class PostgresUnsubscribeStore implements UnsubscribeStore {
  constructor(private readonly db: SqlDriver) {}

  async add(identityId: string, list: MailList, at: string): Promise<boolean> {
    const rows = await this.db.query(
      `insert into mail_unsubscribes (identity_id, list, unsubscribed_at) values ($1, $2, $3)
       on conflict (identity_id, list) do nothing
       returning list`,
      [identityId, list, at],
    );
    return rows.length === 1;
  }

  async has(identityId: string, list: MailList): Promise<boolean> {
    const rows = await this.db.query(`select 1 from mail_unsubscribes where identity_id = $1 and list = $2`, [identityId, list]);
    return rows.length > 0;
  }
}
