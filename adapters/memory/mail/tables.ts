/** The in-memory tables of mail (the adapter's composition shares one object of every module's tables). */
export class MailTables {
  /** `${identity_id}:${list}` → when the person left the list. Global, like identities. */
  unsubscribes = new Map<string, string>();
}
