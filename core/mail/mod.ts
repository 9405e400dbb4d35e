/** Mail: the Mailer port, lists and unsubscribes, the `mail.send` job, and the hooks that send. */
export * from "./model.ts";
export * from "./ports.ts";
export * from "./messages.ts";
export * from "./unsubscribe-token.ts";
export * from "./send-job.ts";
export * from "./unsubscribe.ts";
export * from "./hooks.ts";
