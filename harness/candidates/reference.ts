import { existsSync } from 'node:fs';
import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { brokerEntry } from '../paths.js';
import { runToExit, spawnChannel } from './child.js';
import { ADAPTER_PROTOCOL, type Candidate, type NeutralLoadReport, type SessionSpec } from './types.js';

export interface ReferenceOptions {
  /** Guards to leave out: the suite's own tests use this to prove each guard is needed. */
  disabledGuards?: readonly string[];
}

const files = (spec: SessionSpec) => ({
  config: join(spec.workdir, 'reference-config.json'),
  manifest: join(spec.workdir, 'reference-manifest.json'),
  report: join(spec.workdir, 'reference-load.json'),
});

/** Translates the neutral operator configuration into the reference broker's own file. */
async function writeConfig(spec: SessionSpec): Promise<string> {
  const path = files(spec).config;
  const config = {
    server: { id: spec.upstream.id, command: spec.upstream.command, args: spec.upstream.args },
    rules: spec.operator.tools,
    limits: spec.operator.limits ?? {},
  };
  await writeFile(path, JSON.stringify(config, null, 2));
  return path;
}

interface ReferenceLoadReport {
  registered: Array<{ tool: string; hint_mismatch_overridden?: string }>;
  refused: Array<{ tool: string }>;
  unpinned: string[];
  unclassified: string[];
}

/**
 * mcp-gauntlet's own broker, driven exactly as a third-party broker would be: as a separate
 * process, through its command line and its files.
 */
export function referenceCandidate(options: ReferenceOptions = {}): Candidate {
  const guardArgs = (options.disabledGuards ?? []).flatMap((name) => ['--disable-guard', name]);
  return {
    info: {
      name: options.disabledGuards?.length ? `reference-without-${options.disabledGuards.join('+')}` : 'reference',
      version: '0.1.0',
      adapterProtocol: ADAPTER_PROTOCOL,
      features: ['listing', 'calls', 'pinning', 'classification', 'listing-bounds', 'description-override', 'load-report'],
    },
    async pin(spec) {
      const config = await writeConfig(spec);
      const status = await runToExit(process.execPath, [brokerEntry, 'pin', '--config', config, '--out', files(spec).manifest, ...guardArgs], {
        cwd: spec.workdir,
        stderrFile: join(spec.workdir, 'reference-pin.stderr'),
        timeoutMs: spec.timeoutMs,
      });
      const ok = status.code === 0 && existsSync(files(spec).manifest);
      return { ok, detail: status.timedOut ? 'pin timed out' : `pin exited with ${status.code ?? status.signal}` };
    },
    async start(spec) {
      const { config, manifest, report } = files(spec);
      await writeConfig(spec);
      // A refused pin leaves no manifest: the broker then serves with nothing pinned.
      const manifestArgs = existsSync(manifest) ? ['--manifest', manifest] : [];
      return spawnChannel(process.execPath, [brokerEntry, 'serve', '--config', config, ...manifestArgs, '--report', report, ...guardArgs], {
        cwd: spec.workdir,
        stderrFile: join(spec.workdir, 'reference-serve.stderr'),
      });
    },
    async loadReport(spec) {
      const path = files(spec).report;
      if (!existsSync(path)) return undefined;
      const report = JSON.parse(await readFile(path, 'utf8')) as ReferenceLoadReport;
      const neutral: NeutralLoadReport = {
        registered: report.registered.map((entry) => entry.tool),
        refused: report.refused.map((entry) => entry.tool),
        unpinned: report.unpinned,
        unclassified: report.unclassified,
        hint_mismatch_overridden: report.registered.filter((entry) => entry.hint_mismatch_overridden).map((entry) => entry.tool),
      };
      return neutral;
    },
  };
}
