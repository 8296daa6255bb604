// Module resolve hook of node20-glob-shim.mjs (runs on Node's loader thread). Only the
// conformance suite's own modules are redirected: every other module, the facade itself and the
// glob library under it included, keeps the real `fs`, so nothing else sees a changed builtin and
// the facade cannot import itself.
const FACADE = new URL('./node20-fs-facade.mjs', import.meta.url).href;
const SUITE = '/node_modules/@modelcontextprotocol/conformance/';

export async function resolve(specifier, context, nextResolve) {
  const fromSuite = context.parentURL !== undefined && context.parentURL.includes(SUITE);
  if (fromSuite && (specifier === 'fs' || specifier === 'node:fs')) return { url: FACADE, shortCircuit: true };
  return nextResolve(specifier, context);
}
