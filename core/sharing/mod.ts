/** Sharing: public read-only share links of topics and notes shared into members' inboxes. Public surface of the module. */
export * from "./model.ts";
export * from "./dto.ts";
export * from "./ports.ts";
export * from "./policy.ts";
export * from "./share-token.ts";
export * from "./share-links.ts";
export { type InboxQuery, listInbox, markAllSharesRead, markShareRead, shareNote } from "./note-shares.ts";
export * from "./transfer.ts";
