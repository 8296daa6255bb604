import { describe, expect, it } from 'vitest';
import { loadCatalogue } from '../../harness/catalogue.js';
import { parseShard, selectShard } from '../../harness/run/shard.js';

const scenarios = loadCatalogue();

describe('shards', () => {
  it('parses i/n and refuses anything else', () => {
    expect(parseShard('2/3')).toEqual({ index: 2, count: 3 });
    for (const bad of ['0/2', '3/2', '1/0', '1', 'a/b', '1/2/3', ' 1/2']) expect(() => parseShard(bad), bad).toThrow(/--shard/);
  });

  it('splits the selection into disjoint parts that cover it, each attack with its control', () => {
    for (const count of [1, 2, 3, 7]) {
      const parts = Array.from({ length: count }, (_, i) => selectShard(scenarios, { index: i + 1, count }));
      const ids = parts.flatMap((part) => part.map((s) => s.id));
      expect(new Set(ids).size).toBe(ids.length);
      expect(ids.sort()).toEqual(scenarios.map((s) => s.id).sort());
      for (const part of parts) {
        const mine = new Set(part.map((s) => s.id));
        for (const s of part) if (s.control !== undefined) expect(mine.has(s.control), `${s.id} without ${s.control}`).toBe(true);
      }
      // Balanced to within the largest group (an attack family with its control).
      const sizes = parts.map((part) => part.length);
      expect(Math.max(...sizes) - Math.min(...sizes)).toBeLessThanOrEqual(40);
    }
  });

  it('is the same split every time for the same selection, in catalogue order', () => {
    const again = scenarios.map((s) => ({ ...s }));
    expect(selectShard(again, { index: 2, count: 3 }).map((s) => s.id)).toEqual(selectShard(scenarios, { index: 2, count: 3 }).map((s) => s.id));
    const part = selectShard(scenarios, { index: 1, count: 2 }).map((s) => s.id);
    const order = scenarios.map((s) => s.id);
    expect(part).toEqual(order.filter((id) => part.includes(id)));
  });
});
