/**
 * Which of a server's lines the line-dropper fixture (dropper.ts) keeps from the agent, silently:
 * `non-ascii`, every line with a byte past ASCII (as a broker that cannot handle UTF-8 might);
 * `notifications`, every message with a method and no id (as a broker that forwards only answers).
 */
export type DropKind = 'non-ascii' | 'notifications';

export const DROP_KINDS: readonly DropKind[] = ['non-ascii', 'notifications'];

export function dropsLine(kind: DropKind, line: Buffer): boolean {
  if (kind === 'non-ascii') return line.some((byte) => byte > 0x7f);
  try {
    const message = JSON.parse(line.toString('utf8')) as { id?: unknown; method?: unknown };
    return typeof message.method === 'string' && message.id === undefined;
  } catch {
    return false;
  }
}
