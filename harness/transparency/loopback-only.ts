import { Server } from 'node:net';

/**
 * Loaded with `node --import` into an official server started over HTTP: server-everything's
 * streamableHttp mode calls `app.listen(PORT)`, which binds every interface, and takes no host.
 * The harness keeps everything it runs on loopback (docs/network.md), so a listen given a port and
 * no host is given 127.0.0.1; one that names its host is left alone.
 */
const listen = Server.prototype.listen;
Server.prototype.listen = function listenOnLoopback(this: Server, ...args: unknown[]) {
  const [port, host] = args;
  const portOnly = typeof port === 'number' || (typeof port === 'string' && /^\d+$/.test(port));
  if (portOnly && typeof host !== 'string') args.splice(1, 0, '127.0.0.1');
  return (listen as (...given: unknown[]) => Server).apply(this, args);
} as typeof Server.prototype.listen;
