import { readFileSync } from 'node:fs';
import { scenarioSkeletonFile } from '../paths.js';
import { revisionsSchema, variantsSchema } from '../scenario/variants.js';
import { BLOCKS, expectationsOf } from './registry.js';
import type { Block } from './types.js';

type Schema = Record<string, unknown>;

/** Where each block's `expect` object sits in the skeleton. */
function expectIn(skeleton: Schema, block: Block): Schema {
  if (block === 'scenario') return (skeleton.properties as Record<string, Schema>).expect!;
  const step = ((skeleton.$defs as Record<string, Schema>).step!.properties as Record<string, Schema>)[block]!;
  return (step.properties as Record<string, Schema>).expect!;
}

/**
 * The scenario schema: the skeleton (header, server, operator, steps) with each `expect` object's
 * properties and required list filled in from the expectation modules, and `variants` and
 * `revisions` from the variant axes.
 */
export function scenarioSchema(): Schema {
  const skeleton = JSON.parse(readFileSync(scenarioSkeletonFile, 'utf8')) as Schema;
  (skeleton.properties as Record<string, Schema>).variants = variantsSchema();
  (skeleton.properties as Record<string, Schema>).revisions = revisionsSchema();
  for (const block of BLOCKS) {
    const target = expectIn(skeleton, block);
    delete target.$comment;
    const modules = expectationsOf(block);
    target.type = 'object';
    target.additionalProperties = false;
    target.properties = Object.fromEntries(modules.flatMap((module) => Object.entries(module.properties)));
    const required = modules.flatMap((module) => module.required ?? []);
    if (required.length > 0) target.required = required;
  }
  return skeleton;
}

const BLOCK_TITLE: Record<Block, string> = {
  start: '`start: { expect }`',
  list: '`list: { expect }`',
  call: '`call: { expect }`',
  request: '`request: { method, params, expect }`',
  close: '`close: { expect }`',
  kill_candidate: '`kill_candidate: { expect }`',
  http: '`http: { expect }`',
  scenario: 'the scenario\'s own `expect:` (judged at the end)',
};

const cell = (text: string) => text.replaceAll('|', '\\|').replaceAll('\n', ' ');

/** docs/expectations.md: every expectation, where it is written, and the checks it reports. */
export function expectationsDoc(): string {
  const lines = [
    '# Expectations and checks',
    '',
    '<!-- Generated from harness/expect/ by `npm run generate`; do not edit by hand. -->',
    '',
    'Each expectation is one module under `harness/expect/`: the properties it adds to an `expect`',
    'object, a pure judge over what the harness observed, and the checks it reports. Every finding in',
    'a report names its check id and class:',
    '',
    '- `harm`: an out-of-band observation of the attack\'s effect (the ledger, the canary, live',
    '  processes, what the agent received on any channel);',
    '- `benign`: the ordinary use works, or the presence that makes an absence mean something;',
    '- `record`: the broker\'s own record where it is the subject (audit trail, load report, receipt);',
    '- `contract`: the agreed shape of a refusal (codes, words, markers).',
    '',
    'A failing attack is `exposed` when a harm or record check failed, `over-blocked` when only benign',
    'checks (and contract ones) failed, `nonconformant` when only contract checks failed. A failing',
    'control is `over-blocked`, or `nonconformant` when only contract checks failed. `always`',
    'expectations hold of every step of their block.',
    '',
    'A broker that dies or stops answering makes the case an `error`, never a pass; the checks of',
    'the steps before stand. A call whose time ran out while part of an answer had arrived (a line',
    'without its newline, a body or an SSE event still open: the channel\'s `arriving`) is judged on',
    'what arrived, by its harm checks only and none that needs the broker afterwards: a harm seen',
    'fails the case `exposed`, none leaves it an `error`. A list, call or request step whose time ran',
    'out with nothing at the agent while the ledger shows the server answered it fails its',
    '`delivered` check (benign): the broker dropped an answer it had, so the case is `over-blocked`,',
    'judged by its harm checks too; with no answer from the server it stays an `error`. A case that',
    'ends in an `error` is still judged on `secrets.withheld`, which every scenario takes.',
    '',
  ];
  for (const block of BLOCKS) {
    lines.push(`## ${BLOCK_TITLE[block]}`, '', '| expectation | meaning | checks (class) |', '|---|---|---|');
    for (const module of expectationsOf(block)) {
      const name = module.always ? `*${module.name}* (always)` : Object.keys(module.properties).map((key) => `\`${key}\``).join(', ');
      const checks = Object.entries(module.checks).map(([id, check]) => `\`${id}\` (${check.class}): ${check.doc}`).join('; ');
      const hook = module.hook === undefined ? '' : ` Needs the adapter's \`${module.hook}\` hook.`;
      lines.push(`| ${name} | ${cell(module.doc)}.${hook} | ${cell(checks)} |`);
    }
    lines.push('');
  }
  return lines.join('\n');
}
