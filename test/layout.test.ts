/**
 * The four programs' import graphs: none has a cycle, and none reaches across a wall. The broker
 * (src/) imports nothing from the harness or the servers; the servers import nothing from the
 * broker or the harness (they must not share the broker's parsing); the harness imports nothing
 * from the broker, which it reaches only as a process; nor does the benchmark (bench/), which
 * reaches every broker through the harness's adapters. The build enforces the walls too (each
 * program compiles with its own tsconfig); this test also finds type-only cycles, which the build
 * does not.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';

const ROOT = resolve(import.meta.dirname, '..');
const PROGRAMS = ['src', 'harness', 'servers', 'bench'] as const;
type Program = (typeof PROGRAMS)[number];

/** What each program may import from the others. */
const MAY_IMPORT: Record<Program, readonly Program[]> = { src: [], servers: [], harness: ['servers'], bench: ['harness', 'servers'] };

function sourceFiles(dir: string): string[] {
  return readdirSync(join(ROOT, dir), { recursive: true, encoding: 'utf8' })
    .filter((file) => file.endsWith('.ts') && !file.endsWith('.d.ts'))
    .map((file) => join(dir, file));
}

/** Every relative module a file imports, type-only and dynamic imports included, as a path from the root. */
function importsOf(file: string): string[] {
  const { importedFiles } = ts.preProcessFile(readFileSync(join(ROOT, file), 'utf8'), true, true);
  return importedFiles
    .map(({ fileName }) => fileName)
    .filter((name) => name.startsWith('.'))
    .map((name) => relative(ROOT, resolve(ROOT, dirname(file), name.replace(/\.js$/, '.ts'))));
}

const graph = new Map(PROGRAMS.flatMap((program) => sourceFiles(program)).map((file) => [file, importsOf(file)] as const));

/** The strongly connected components of more than one file, or of one file importing itself (Tarjan). */
function cycles(): string[][] {
  let next = 0;
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const found: string[][] = [];
  const visit = (file: string): void => {
    index.set(file, next);
    low.set(file, next++);
    stack.push(file);
    for (const target of graph.get(file) ?? []) {
      if (!graph.has(target)) continue;
      if (!index.has(target)) {
        visit(target);
        low.set(file, Math.min(low.get(file)!, low.get(target)!));
      } else if (stack.includes(target)) {
        low.set(file, Math.min(low.get(file)!, index.get(target)!));
      }
    }
    if (low.get(file) !== index.get(file)) return;
    const component: string[] = [];
    let member: string;
    do {
      member = stack.pop()!;
      component.push(member);
    } while (member !== file);
    if (component.length > 1 || (graph.get(file) ?? []).includes(file)) found.push(component.sort());
  };
  for (const file of graph.keys()) if (!index.has(file)) visit(file);
  return found;
}

describe('the layout of the four programs', () => {
  it('finds the imports it judges by', () => {
    // A parser that saw no imports would pass both tests below.
    expect(graph.get('src/session/session.ts')).toContain('src/types.ts');
    expect(graph.get('harness/catalogue.ts')).toContain('servers/catalogue.ts');
    expect(graph.get('bench/main.ts')).toContain('harness/candidates/registry.ts');
  });

  it('has no import cycle in src/, harness/, servers/ or bench/', () => {
    expect(cycles()).toEqual([]);
  });

  it.each(PROGRAMS)('%s imports only what its wall allows', (program) => {
    const crossings = [...graph.entries()]
      .filter(([file]) => file.startsWith(`${program}/`))
      .flatMap(([file, targets]) => targets.map((target) => [file, target] as const))
      .filter(([, target]) => !target.startsWith(`${program}/`) && !MAY_IMPORT[program].some((other) => target.startsWith(`${other}/`)))
      .map(([file, target]) => `${file} -> ${target}`);
    expect(crossings).toEqual([]);
  });

  it('keeps the shared types in a leaf module of the broker', () => {
    expect(graph.get('src/types.ts')).toEqual([]);
  });
});
