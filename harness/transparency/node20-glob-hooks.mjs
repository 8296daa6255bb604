// Module resolve hook of node20-glob-shim.mjs (runs on Node's loader thread). Only the
// conformance suite's own modules are redirected: every other module, the facade itself and the
// glob library under it included, keeps the real `fs`, so nothing else sees a changed builtin and
// the facade cannot import itself.
const FACADE = new URL('./node20-fs-facade.mjs', import.meta.url).href;
// The suite as pinned, and its next release installed beside it under another name.
const SUITES = ['/node_modules/@modelcontextprotocol/conformance/', '/node_modules/conformance-next/'];

export async function resolve(specifier, context, nextResolve) {
  const fromSuite = context.parentURL !== undefined && SUITES.some((suite) => context.parentURL.includes(suite));
  if (fromSuite && (specifier === 'fs' || specifier === 'node:fs')) return { url: FACADE, shortCircuit: true };
  return nextResolve(specifier, context);
}
