import { uuidv7 } from "../../core/kernel/ids.ts";

/** Per-request facts the whole chain needs (request id, start time), keyed by the Request itself. */
export interface RequestFacts {
  id: string;
  start: number;
}

const facts = new WeakMap<Request, RequestFacts>();
const incomingId = /^[A-Za-z0-9._-]{8,128}$/;

export function beginRequest(request: Request): RequestFacts {
  const given = request.headers.get("x-request-id");
  const f = { id: given && incomingId.test(given) ? given : uuidv7(), start: performance.now() };
  facts.set(request, f);
  return f;
}

export function requestFacts(request: Request): RequestFacts {
  return facts.get(request) ?? beginRequest(request);
}
