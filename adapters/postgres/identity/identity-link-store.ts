import type { IdentityLink } from "../../../core/identity/model.ts";
import type { IdentityLinkStore } from "../../../core/identity/ports.ts";
import type { SqlDriver } from "../driver.ts";
import type { Row } from "../row-values.ts";
import { toLink } from "./rows.ts";

const COLUMNS = "issuer, subject, identity_id, email, created_at, deactivated_at";

export class PostgresIdentityLinkStore implements IdentityLinkStore {
  constructor(private readonly db: SqlDriver) {}

  async get(issuer: string, subject: string): Promise<IdentityLink | null> {
    const [row] = await this.db.query<Row>(`select ${COLUMNS} from identity_links where issuer = $1 and subject = $2`, [issuer, subject]);
    return row ? toLink(row) : null;
  }

  async insert(l: IdentityLink): Promise<"ok" | "taken"> {
    // Either unique key ((issuer, subject), (issuer, identity_id)) refuses: no conflict target.
    const rows = await this.db.query(
      `insert into identity_links (${COLUMNS}) values ($1, $2, $3, $4, $5, $6) on conflict do nothing returning issuer`,
      [l.issuer, l.subject, l.identity_id, l.email, l.created_at, l.deactivated_at],
    );
    return rows.length === 1 ? "ok" : "taken";
  }

  async deactivate(issuer: string, subject: string, at: string): Promise<IdentityLink | null> {
    const [row] = await this.db.query<Row>(
      `update identity_links set deactivated_at = coalesce(deactivated_at, $3) where issuer = $1 and subject = $2 returning ${COLUMNS}`,
      [issuer, subject, at],
    );
    return row ? toLink(row) : null;
  }
}
