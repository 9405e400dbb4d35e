import { mailSendJob, runMailSend } from "../core/mail/send-job.ts";
import { handles } from "./handler.ts";

/**
 * `mail.send`: sends one message unless its person left its list; a failed send is queued again
 * with a growing delay (core/mail/send-job.ts), the last failure throws (logged by the queue).
 */
export const mailSendHandler = handles(mailSendJob, async (deps, job) => {
  await runMailSend(deps, job.workspace_id, job.payload);
});
