// A server that speaks MCP 2026-07-28, as the broker speaks to it: no handshake, and every request
// carrying in its `_meta` the protocol version, the client capabilities the broker declares (the
// same the operator permits it to declare in an initialize, src/operator/client-capabilities.ts)
// and the broker's name, set by the broker over whatever the request held under those keys. What
// the rest of the broker asks of a server goes through here unchanged otherwise, so listing,
// calls and features speak to either revision alike. Of the methods 2026-07-28 removed, the
// session's log level is kept here and sent with every later request instead
// (`io.modelcontextprotocol/logLevel`), and `notifications/initialized` is not sent. The server
// has no requests of its own to send in this revision (its input requests come in
// `input_required` results, src/session/input-required.ts): any it sends is refused.

import { ERROR, brokerError } from '../wire/jsonrpc.js';
import { MIRRORED_NAME, LOG_LEVELS, META, PER_REQUEST_REVISION, requestMeta, TASKS_EXTENSION, withMeta } from '../wire/revision.js';
import { withMembers } from '../json/members.js';
import { member, object, plain, stringValue } from '../json/tree.js';
import { encodedHeaderValue } from '../schema/param-headers.js';
import type { Reply, Requester, ServerRequestHandler } from './connection.js';
import type { JsonObject, JsonValue } from '../types.js';

/**
 * The headers a 2026-07-28 request carries over Streamable HTTP, mirroring its body: its version,
 * its method and, for a call, a prompt or a read, the name or URI, in the Base64 sentinel form
 * when the value is not plain ASCII. None for a request of the handshake's revisions.
 */
export function mirroredHeaders(method: string, params: JsonValue | undefined): Record<string, string> {
  const meta = requestMeta(params);
  const version = meta === undefined ? undefined : stringValue(member(meta, META.protocolVersion));
  if (version !== PER_REQUEST_REVISION) return {};
  const field = MIRRORED_NAME[method];
  const name = field === undefined || params?.kind !== 'object' ? undefined : stringValue(member(params, field));
  const named: Record<string, string> = name === undefined ? {} : { 'mcp-name': encodedHeaderValue(name) };
  return { 'mcp-protocol-version': version, 'mcp-method': method, ...named };
}

/** The longest a timer can wait (about 24.8 days): the subscription is ended by the connection's close. */
const LISTEN_TIMEOUT_MS = 2 ** 31 - 1;

/** The acknowledgment a server sends first on a stream it opened. */
const ACKNOWLEDGED = 'notifications/subscriptions/acknowledged';

/** A connection the broker can close, as every upstream is. */
interface Closable extends Requester {
  close(why?: string): Promise<void>;
}

export class PerRequestUpstream implements Closable {
  /** The log level an agent of the handshake's revisions set, sent with each request that names none. */
  private logLevel: string | undefined;

  /** `capabilities` are the client capabilities the broker declares; `clientInfo` its name and version. */
  constructor(
    private readonly inner: Closable,
    private readonly capabilities: JsonObject,
    private readonly clientInfo: JsonValue,
  ) {
    inner.onRequest((method) => Promise.resolve<Reply>({ ok: false, error: brokerError(ERROR.methodNotFound, `Method not found: ${method} (a 2026-07-28 server asks for input in its results)`) }));
  }

  request(method: string, params: JsonValue | undefined, timeoutMs: number, what: string): Promise<Reply> {
    return this.requestDeclaring(this.capabilities, method, params, timeoutMs, what);
  }

  /**
   * A request declaring, besides the broker's capabilities, the tasks extension: for a call the
   * broker relays a task of (src/session/tasks.ts), made for an agent that declared it itself.
   */
  requestDeclaringTasks(method: string, params: JsonValue | undefined, timeoutMs: number, what: string): Promise<Reply> {
    const extensions = object([[TASKS_EXTENSION, object([])]]);
    return this.requestDeclaring(withMembers(this.capabilities, { extensions }), method, params, timeoutMs, what);
  }

  private requestDeclaring(capabilities: JsonObject, method: string, params: JsonValue | undefined, timeoutMs: number, what: string): Promise<Reply> {
    if (method === 'logging/setLevel') return Promise.resolve(this.setLevel(params));
    const asked = requestMeta(params) === undefined ? undefined : member(requestMeta(params)!, META.logLevel);
    return this.inner.request(
      method,
      withMeta(params, [
        [META.protocolVersion, plain(PER_REQUEST_REVISION)],
        [META.clientCapabilities, capabilities],
        [META.clientInfo, this.clientInfo],
        [META.logLevel, asked === undefined && this.logLevel !== undefined ? plain(this.logLevel) : undefined],
      ]),
      timeoutMs,
      what,
    );
  }

  notify(method: string, params: JsonValue | undefined): void {
    if (method !== 'notifications/initialized') this.inner.notify(method, params);
  }

  onNotification(method: string, listener: (params: JsonValue | undefined) => void): void {
    this.inner.onNotification(method, listener);
  }

  /** The server sends no requests in this revision: whoever would answer them is never asked. */
  onRequest(_handler: ServerRequestHandler): void {}

  close(why?: string): Promise<void> {
    return this.inner.close(why);
  }

  /**
   * Asks the server for its list-change notices (basic/patterns/subscriptions.mdx): in 2026-07-28
   * a server sends `notifications/tools/list_changed` and the others only on a
   * `subscriptions/listen` its client opened, and without them a tool that changes during the
   * session would never be decided again (the drift guards). The request stays open for as long as
   * the connection does; the connection's close ends it, and what the server answers, or whether
   * it refuses, changes nothing else. Settles once the server acknowledged the stream ("MUST NOT
   * send any notification on the subscription before it"), answered or refused it, or after
   * `timeoutMs`: the broker serves the agent only then, so a change the server makes once the
   * agent is served cannot come before the server has taken the listen in, and be missed.
   */
  listen(timeoutMs: number): Promise<void> {
    const notifications = plain({ toolsListChanged: true, promptsListChanged: true, resourcesListChanged: true });
    return new Promise((resolve) => {
      const timer = setTimeout(resolve, timeoutMs);
      const settle = () => {
        clearTimeout(timer);
        resolve();
      };
      this.inner.onNotification(ACKNOWLEDGED, settle);
      void this.request('subscriptions/listen', object([['notifications', notifications]]), LISTEN_TIMEOUT_MS, 'subscriptions/listen').then(settle, settle);
    });
  }

  private setLevel(params: JsonValue | undefined): Reply {
    const level = params?.kind === 'object' ? stringValue(member(params, 'level')) : undefined;
    if (level === undefined || !LOG_LEVELS.includes(level)) return { ok: false, error: brokerError(ERROR.invalidParams, 'Invalid params: level is not a log level') };
    this.logLevel = level;
    return { ok: true, result: object([]) };
  }
}
