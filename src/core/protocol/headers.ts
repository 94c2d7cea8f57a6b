/**
 * The header names a client sends or reads (docs/protocol.md §3), as lowercase wire names: how
 * HTTP/2 writes them and Node.js reports them (HTTP/1.1 compares names case-insensitively). One
 * constant per name, so a bundle carries only the names it uses; `protocol.ts` re-exports them
 * beside the rest of the contract. The last two are written only by servers.
 */

/** `Agent-Protocol`: the protocol major version, on every request. */
export const PROTOCOL_HEADER = 'agent-protocol';

/** `X-Agent-Identity`: the `idn_…` identity from bootstrap, on every later request. */
export const IDENTITY_HEADER = 'x-agent-identity';

/** `Idempotency-Key`: the key of a create or an input, identical on every retry of it. */
export const IDEMPOTENCY_KEY_HEADER = 'idempotency-key';

/** `X-Request-Id`: the request's correlation id, echoed on every response. */
export const REQUEST_ID_HEADER = 'x-request-id';

/** `Retry-After`: seconds (or an HTTP date) to wait before retrying a 409, 429 or 503. */
export const RETRY_AFTER_HEADER = 'retry-after';

/** `Last-Event-ID`: the last event seq a reconnecting event stream has seen. */
export const LAST_EVENT_ID_HEADER = 'last-event-id';

/** `X-Tool-Grant`: the grant of a claimed browser tool call, on each of its receipts and reports. */
export const TOOL_GRANT_HEADER = 'x-tool-grant';

/** `Idempotent-Replayed: true` on a response the server replayed for a repeated key (server only). */
export const IDEMPOTENT_REPLAYED_HEADER = 'idempotent-replayed';

/** `X-Run-Last-Seq`: an event stream's last seq at connect time (server only). */
export const RUN_LAST_SEQ_HEADER = 'x-run-last-seq';

/** `Accept-Language`: the widget's locale, so the server's text (approvals, tool titles, errors) follows it. */
export const ACCEPT_LANGUAGE_HEADER = 'accept-language';

/** The file's name on `POST /attachments`, percent-encoded UTF-8 (docs/protocol.md §5.8). */
export const ATTACHMENT_NAME_HEADER = 'x-attachment-name';
