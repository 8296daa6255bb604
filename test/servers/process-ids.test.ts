import { describe, expect, it } from 'vitest';
import { ownProcessIds, parentOfStat, parseStat } from '../../servers/kit/process-ids.js';

describe('the server process ids', () => {
  it('counts fields from the last parenthesis, since a command name may hold spaces and parentheses', () => {
    expect(parseStat('4242 (odd) name)) S 1 4240 4100 0 -1 4194304 117 0')).toEqual({ pgid: 4240, sid: 4100 });
    expect(parentOfStat('4242 (odd) name)) S 1 4240 4100 0 -1 4194304 117 0')).toBe(1);
  });

  it('reports unknown rather than guessing from a line it cannot read', () => {
    expect(parseStat('garbage')).toEqual({ pgid: null, sid: null });
    expect(parentOfStat('garbage')).toBeNull();
  });

  it('reads this process group and session on Linux', () => {
    const ids = ownProcessIds();
    if (process.platform !== 'linux') expect(ids).toEqual({ pgid: null, sid: null });
    else expect(ids.pgid).toBeGreaterThan(0);
  });
});
