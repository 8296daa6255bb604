import { execFile } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { promisify } from 'node:util';
import { chromium, type BrowserContext, type Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { packageRoot } from '../../harness/paths.js';
import { renderMatrixPage } from '../../harness/report/matrix-page.js';
import type { Report } from '../../harness/report/summary.js';
import type { TranscriptLine } from '../../harness/run/transcript.js';

/**
 * The index as people read it: built from two small real runs, opened in headless Chromium
 * (Debian's, driven by playwright-core), clicked through to a failing case's transcript. The
 * browser reaches nothing but file:// pages; a missing Chromium fails the test (.ci/run installs it).
 */

const CHROMIUM = '/usr/bin/chromium';
const FLAGS = ['--headless', '--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--disable-sync'];
const FILTER = 'agt.*';
/** An attack passthrough lets through, and the request that shows it in both sides of the transcript. */
const EXPOSED = 'agt.guessed-name';

const gauntlet = (...args: string[]) => promisify(execFile)(process.execPath, [join(packageRoot, 'bin', 'gauntlet.js'), ...args], { cwd: packageRoot });

let dir: string;
let context: BrowserContext;
/** Every request the pages made that was not for a file: there must be none. */
const network: string[] = [];

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'gauntlet-index-'));
  const reports = join(dir, 'reports');
  // A failing run exits 1; its report is what the index is for.
  await gauntlet('run', '--candidate', 'reference', '--filter', FILTER, '--report-dir', join(reports, 'reference'));
  await gauntlet('run', '--candidate', 'passthrough', '--filter', FILTER, '--report-dir', join(reports, 'passthrough')).catch((error: { code?: number }) => {
    if (error.code !== 1) throw error;
  });
  await gauntlet('index', '--reports', reports);
  context = await chromium.launchPersistentContext(join(dir, 'profile'), { executablePath: CHROMIUM, headless: true, args: FLAGS });
  await context.route('**/*', async (route) => {
    const url = route.request().url();
    if (url.startsWith('file:')) return route.continue();
    network.push(url);
    return route.abort();
  });
}, 120_000);

afterAll(async () => {
  await context?.close();
  rmSync(dir, { recursive: true, force: true });
});

async function open(file: string): Promise<Page> {
  const page = await context.newPage();
  await page.goto(pathToFileURL(file).href);
  return page;
}

const column = (page: Page, name: string) =>
  page.locator('table.matrix thead th').evaluateAll((cells, wanted) => cells.findIndex((cell) => (cell.textContent ?? '').startsWith(`${wanted} `)), name);

describe('reports/index.html in headless Chromium', () => {
  it('shows the matrix and drills down to a failing case and its two-sided transcript', async () => {
    const page = await open(join(dir, 'reports', 'index.html'));
    const passthrough = await column(page, 'passthrough');
    const reference = await column(page, 'reference');
    expect(passthrough).toBeGreaterThan(0);
    expect(reference).toBeGreaterThan(0);
    const row = page.locator('table.matrix tbody tr', { has: page.locator('th', { hasText: EXPOSED }) }).first();
    const exposed = row.locator('td').nth(passthrough - 1);
    expect(await exposed.getAttribute('class')).toContain('exposed');
    expect(await row.locator('td').nth(reference - 1).getAttribute('class')).toContain('pass');

    await exposed.click();
    const detail = page.locator('#detail');
    await expect.poll(() => detail.textContent()).toContain('Expected against observed');
    const shown = (await detail.textContent()) ?? '';
    const report = JSON.parse(readFileSync(join(dir, 'reports', 'passthrough', 'report.json'), 'utf8')) as Report;
    const result = report.cases.find((c) => c.id === EXPOSED)!;
    expect(shown).toContain('call.server_received');
    // The call that got through, as the agent sent it and as the server received it.
    const isLine = (entry: object): entry is TranscriptLine => 'text' in entry;
    const sent = result.transcript.agent.filter(isLine).filter((line) => line.from === 'agent' && line.text.includes('tools/call'));
    const received = result.transcript.server.filter(isLine).filter((line) => line.ev === 'recv' && line.text.includes('tools/call'));
    expect(sent.length).toBeGreaterThan(0);
    expect(received.length).toBeGreaterThan(0);
    expect(shown).toContain(sent.at(-1)!.text.slice(0, 200));
    expect(shown).toContain(received.at(-1)!.text.slice(0, 200));
    expect(network).toEqual([]);
    await page.close();
  });

  it("opens a case in its run's own report.html from the index's link", async () => {
    const index = await open(join(dir, 'reports', 'index.html'));
    const passthrough = await column(index, 'passthrough');
    const row = index.locator('table.matrix tbody tr', { has: index.locator('th', { hasText: EXPOSED }) }).first();
    await row.locator('td').nth(passthrough - 1).click();
    await index.locator('#detail a', { hasText: "run’s own report" }).click();
    await expect.poll(() => index.url()).toContain(`passthrough/report.html#case=${EXPOSED}`);
    await expect.poll(() => index.locator('#detail h2').textContent()).toBe(EXPOSED);
    expect(await index.locator('#detail').textContent()).toContain('broker ↔ server (ledger)');
    expect(network).toEqual([]);
    await index.close();
  });

  it('shows a hostile string in a transcript as text and never runs it', async () => {
    const report = JSON.parse(readFileSync(join(dir, 'reports', 'passthrough', 'report.json'), 'utf8')) as Report;
    const hostile = `</script><script>window.__gauntletRan = 1</script><img src=x onerror="window.__gauntletRan = 2">`;
    const result = report.cases.find((c) => c.id === EXPOSED)!;
    result.transcript.agent.unshift({ step: 1, from: 'broker', text: hostile });
    result.notes.push(hostile);
    report.candidate.name = `<b>${hostile}</b>`;
    const file = join(dir, 'hostile.html');
    writeFileSync(file, renderMatrixPage([{ report }], [], { title: hostile }));
    const page = await open(file);
    await page.locator('td.cell', { hasText: 'exposed' }).first().click();
    // Shown: the detail lists it verbatim, as text, once in the transcript and once in the notes.
    await expect.poll(async () => (await page.locator('#detail pre', { hasText: hostile }).count()) >= 2).toBe(true);
    expect(await page.title()).toBe(hostile);
    expect(await page.locator('thead th', { hasText: hostile }).count()).toBe(1);
    // Not run: no script of it executed and no element of it exists.
    expect(await page.evaluate(() => (globalThis as { __gauntletRan?: number }).__gauntletRan)).toBeUndefined();
    expect(await page.locator('img, b').count()).toBe(0);
    expect(network).toEqual([]);
    await page.close();
  });
});
