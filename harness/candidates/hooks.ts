import type { Hook } from '../expect/types.js';
import type { Candidate, Feature } from './types.js';

/** The hooks a candidate offers: its optional methods, and what its info says it can reach and write. */
export function hooksOf(candidate: Candidate): Set<Hook> {
  const hooks = new Set<Hook>();
  if (candidate.approve) hooks.add('approve');
  if (candidate.audit) hooks.add('audit');
  if (candidate.auditLines) hooks.add('audit-lines');
  if (candidate.loadReport) hooks.add('load-report');
  if (candidate.startRefusal) hooks.add('start-refusal');
  if (candidate.info.configFlaws) hooks.add('config-flaws');
  if (candidate.info.servers === 'many') hooks.add('multi-server');
  for (const upstream of candidate.info.upstreams ?? ['command']) hooks.add(upstream === 'url' ? 'url-upstream' : 'command-upstream');
  if (candidate.info.agentTransports?.includes('http')) hooks.add('http-agent');
  if (candidate.info.oauthClient === true) hooks.add('oauth-client');
  return hooks;
}

/** The hook a claim cannot be judged without: claiming the protection and offering no way to see it is refused. */
export const HOOK_OF_CLAIM: Partial<Record<Feature, Hook>> = {
  approvals: 'approve',
  audit: 'audit',
  'audit-chain': 'audit-lines',
  'load-report': 'load-report',
  'config-checks': 'config-flaws',
  'config-file-modes': 'config-flaws',
  'http-upstreams': 'url-upstream',
  'multi-server': 'multi-server',
  'http-front-door': 'http-agent',
};
