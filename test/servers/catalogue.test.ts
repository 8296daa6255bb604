import { describe, expect, it } from 'vitest';
import { catalogue, findServer } from '../../servers/catalogue.js';
import { resolveKnobs } from '../../servers/kit/knobs.js';
import { listingPages } from '../../servers/kit/listing.js';
import { parseInvocation, UsageError } from '../../servers/main.js';

/** Scenario files name these ids; renaming one breaks them. */
const SHIPPED_IDS = [
  'notes',
  'rug-pull-description',
  'rug-pull-widened',
  'rug-pull-schema',
  'float-drift',
  'reserialiser',
  'tool-dropper',
  'tool-sneaker',
  'duplicate-tool',
  'duplicate-across-pages',
  'paged',
  'endless-pages',
  'repeating-cursor',
  'tool-flood',
  'hint-liar',
  'readonly-liar',
  'poisoned-description',
  'no-annotations',
  'hidden-references',
  'outside-references',
  'strict-schema',
  'hanging-tool',
  'silent-handshake',
  'dying-tool',
  'bad-names',
  'error-result',
  'oversized-result',
  'output-liar',
  'media-result',
  'injected-result',
  'secret-result',
  'memory-flood',
  'lying-writer',
  'secret-description',
  'list-changer',
  'output-drift',
  'claiming-result',
  'forged-markers',
  'template-ids',
  'forged-error',
  'leaky-env',
  'descendant-spawner',
  'watchdog-killer',
  'sampler',
  'eliciter',
  'roots-reader',
  'task-runner',
  'notifier',
];

describe('catalogue', () => {
  it('ships exactly the ids scenarios use, each once', () => {
    expect(catalogue.map((entry) => entry.id)).toEqual(SHIPPED_IDS);
  });

  it.each(catalogue.map((entry) => [entry.id, entry] as const))('%s has prose and valid knobs', (_id, entry) => {
    expect(entry.attack).not.toBe('');
    expect(entry.description).not.toMatch(/\n/);
    expect(() => resolveKnobs(entry.knobs)).not.toThrow();
  });

  it('finds entries by id', () => {
    expect(findServer('float-drift')?.knobs).toEqual({ bignum: 'search_notes' });
    expect(findServer('nope')).toBeUndefined();
  });

  it('floods with 1001 tools in pages of 100', () => {
    const pages = listingPages(resolveKnobs(findServer('tool-flood')!.knobs), 'review');
    expect(pages.map((page) => page.length)).toEqual([...Array(10).fill(100), 1]);
  });
});

describe('parseInvocation', () => {
  it('lets command-line knobs override the preset', () => {
    const invocation = parseInvocation(['tool-flood', '--ledger', 'L', 'filler=997', '--control', 'C']);
    expect(invocation).toEqual({
      serverId: 'tool-flood',
      ledgerPath: 'L',
      controlPath: 'C',
      as: null,
      listen: null,
      knobs: { filler: '997', page_size: '100' },
    });
    const pages = listingPages(resolveKnobs(invocation.knobs), 'review');
    expect(pages.flat()).toHaveLength(1000);
  });

  it('lets a schema preset on the command line replace the catalogue preset one, and other knobs join it', () => {
    const invocation = parseInvocation(['hidden-references', 'schema.write_note=folder-nested', 'canary_port=4040']);
    expect(invocation.knobs).toEqual({ 'schema.write_note': 'folder-nested', canary_port: '4040' });
    expect(resolveKnobs(invocation.knobs)).toMatchObject({ schemas: { write_note: 'folder-nested' }, canaryPort: 4040 });
    const both = parseInvocation(['outside-references', 'schema.write_note=with-folder', 'schema.search_notes=ref-file']);
    expect(resolveKnobs(both.knobs).schemas).toEqual({ search_notes: 'ref-file', write_note: 'with-folder' });
  });

  it('has no ledger or control file unless given', () => {
    expect(parseInvocation(['notes'])).toEqual({ serverId: 'notes', ledgerPath: null, controlPath: null, as: null, listen: null, knobs: {} });
  });

  it('takes the scenario\'s name for one of several servers from --as', () => {
    expect(parseInvocation(['notes', '--as', 'alpha']).as).toBe('alpha');
    expect(() => parseInvocation(['notes', '--as'])).toThrow(/--as needs a name/);
  });

  it('refuses an unknown id, listing the known ones', () => {
    expect(() => parseInvocation(['nope'])).toThrow(UsageError);
    expect(() => parseInvocation(['nope'])).toThrow(/unknown server id "nope".*notes, rug-pull-description/);
    expect(() => parseInvocation([])).toThrow(/no server id/);
  });

  it('refuses unknown options and options without their file', () => {
    expect(() => parseInvocation(['notes', '--verbose'])).toThrow(/unknown option --verbose/);
    expect(() => parseInvocation(['notes', '--ledger'])).toThrow(/--ledger needs a file/);
  });

  it('listens on loopback over HTTP unless given other addresses, and only over HTTP', () => {
    expect(parseInvocation(['notes', '--http']).listen).toEqual(['127.0.0.1']);
    expect(parseInvocation(['notes', '--http', '--listen', '10.0.0.5']).listen).toEqual(['10.0.0.5']);
    expect(parseInvocation(['notes', '--http', '--listen', '93.184.215.14', '--listen', '10.0.0.5']).listen).toEqual(['93.184.215.14', '10.0.0.5']);
    expect(() => parseInvocation(['notes', '--listen', '10.0.0.5'])).toThrow(/--listen needs --http/);
  });
});
