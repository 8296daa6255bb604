import { execFile } from 'node:child_process';
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { promisify } from 'node:util';
import { chromium, type BrowserContext, type Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { packageRoot } from '../../harness/paths.js';
import { casesByArea, tally } from '../../harness/report/areas.js';
import { renderMatrixPage } from '../../harness/report/matrix-page.js';
import { loadRequirements } from '../../harness/requirements.js';
import type { Report } from '../../harness/report/summary.js';
import type { TranscriptLine } from '../../harness/run/transcript.js';

/**
 * The report pages as people read them: report.html and the index, built from two small real runs
 * (the index also from seven more columns, copies of one run under other brokers' names, so that it
 * is as wide as the committed one), opened in headless Chromium (Debian's, driven by
 * playwright-core) at 1600x1000, read from their summary and clicked through to a failing case's
 * transcript. The browser reaches nothing but file:// pages; a missing Chromium fails the test
 * (.ci/run installs it). With GAUNTLET_SCREENS=<folder> the test saves report.png and index.png
 * there, as the pages open.
 */

const CHROMIUM = '/usr/bin/chromium';
const FLAGS = ['--headless', '--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--disable-sync'];
const FILTER = 'agt.*';
/** An attack passthrough lets through, and the request that shows it in both sides of the transcript. */
const EXPOSED = 'agt.guessed-name';
/** The longest a page may take to do what one click asks, on a machine loaded by other work. */
const PAGE_WAIT_MS = 30_000;
/** Names of the index's further columns, as long as those of the committed reports. */
const COPIES = ['civic-passthrough', 'mcp-hub', 'mcp-proxy', 'mcp-remote', 'passthrough-python', 'plain-proxy', 'supergateway'];

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
  const passthrough = readFileSync(join(reports, 'passthrough', 'report.json'), 'utf8');
  for (const name of COPIES) {
    const copy = JSON.parse(passthrough) as Report;
    copy.candidate.name = name;
    mkdirSync(join(reports, name));
    writeFileSync(join(reports, name, 'report.json'), JSON.stringify(copy));
  }
  await gauntlet('index', '--reports', reports);
  context = await chromium.launchPersistentContext(join(dir, 'profile'), {
    executablePath: CHROMIUM,
    headless: true,
    args: FLAGS,
    viewport: { width: 1600, height: 1000 },
  });
  // What a wait below bounds: a page doing what a click asked (unpacking a run, drawing a case) on
  // a loaded machine. A page that never does it fails the test when this runs out; no verdict is
  // read from how long it took.
  context.setDefaultTimeout(PAGE_WAIT_MS);
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
  page.locator('table.matrix thead th').evaluateAll((cells, wanted) => cells.findIndex((cell) => (cell.textContent ?? '').trim() === wanted), name);

const readReport = (name: string) => JSON.parse(readFileSync(join(dir, 'reports', name, 'report.json'), 'utf8')) as Report;

/** Saves what the page shows as it opens, when GAUNTLET_SCREENS names a folder. */
async function screenshot(page: Page, name: string): Promise<void> {
  const folder = process.env.GAUNTLET_SCREENS;
  if (folder === undefined || folder === '') return;
  mkdirSync(folder, { recursive: true });
  await page.screenshot({ path: join(folder, name) });
}

/** Every matrix row of a scenario that is shown, each as its cells' classes. */
const shownRows = (page: Page) =>
  page.locator('#matrix tbody tr').evaluateAll((rows) =>
    rows.filter((row) => row.querySelector('td.cell') !== null && row.getClientRects().length > 0).map((row) => [...row.querySelectorAll('td.cell')].map((cell) => cell.className)),
  );

/**
 * From the summary to a failing case: the area's cell, then the matrix row it leads to (the run's
 * column lit), then the drill-down with the case's transcript from both sides.
 */
async function summaryToTranscript(page: Page, summaryCell: string, run: string): Promise<void> {
  await page.locator(summaryCell).click();
  const area = (await page.locator(summaryCell).getAttribute('data-area'))!;
  // Scrolled to: the area's heading row in view (as near the top as the page's length lets it).
  const top = await page.locator(`#area-${area}`).evaluate((row) => row.getBoundingClientRect().top);
  expect(top).toBeGreaterThanOrEqual(0);
  expect(top).toBeLessThan(1000);
  const lit = page.locator(`#matrix tr[data-area="${area}"] td.cell.lit.exposed`).first();
  await lit.click();
  const detail = page.locator('#detail');
  await detail.locator('h4', { hasText: 'broker ↔ server (ledger)' }).waitFor();
  const id = (await detail.locator('h2').textContent())!;
  const result = readReport(run).cases.find((c) => c.id === id)!;
  expect(result.failure).toBe('exposed');
  expect(result.requirements.some((requirement) => requirement.startsWith(`${area}-`))).toBe(true);
  const sent = result.transcript.agent.find((entry): entry is TranscriptLine => 'text' in entry && entry.from === 'agent');
  expect(await detail.textContent()).toContain(sent!.text.slice(0, 120));
}

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
    await detail.locator('h3', { hasText: 'Expected against observed' }).waitFor();
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
    await index.waitForURL((url) => url.href.endsWith(`passthrough/report.html#case=${EXPOSED}`));
    await index.locator('#detail h3', { hasText: 'Transcript' }).waitFor();
    expect(await index.locator('#detail h2').textContent()).toBe(EXPOSED);
    expect(await index.locator('#detail').textContent()).toContain('broker ↔ server (ledger)');
    expect(network).toEqual([]);
    await index.close();
  });

  it('index.html opens on the summary: every candidate visible at 1600 px, totals and areas as report.json says', async () => {
    const page = await open(join(dir, 'reports', 'index.html'));
    await screenshot(page, 'index.png');
    const heads = page.locator('#summary-areas thead th.cand');
    expect(await heads.count()).toBe(COPIES.length + 2);
    for (const box of await heads.evaluateAll((cells) => cells.map((cell) => {
      const { left, right, height } = cell.getBoundingClientRect();
      return { left, right, height };
    }))) {
      expect(box.left).toBeGreaterThanOrEqual(0);
      expect(box.right).toBeLessThanOrEqual(1600);
      // A short header: the name on one line, its details on hover.
      expect(box.height).toBeLessThan(30);
    }
    expect(await heads.first().getAttribute('title')).toMatch(/claims .* held \d+\/\d+/);
    const passthrough = await column(page, 'passthrough');
    const report = readReport('passthrough');
    const held = page.locator('#summary-areas tr.total', { hasText: 'attacks held' }).locator('td').nth(passthrough - 1);
    expect(await held.textContent()).toBe(`${report.summary.attacks_held} / ${report.summary.attacks_total}`);
    const areas = casesByArea(report.cases, loadRequirements());
    expect(await page.locator('#summary-areas tr.area th').allTextContents()).toEqual(areas.map(({ area }) => `${area.name} ${area.id}`));
    const first = tally(areas[0]!.cases);
    expect(await page.locator(`#summary-areas td.sum[data-c="${passthrough - 1}"]`).first().textContent()).toBe(`${first.attacks_held} / ${first.attacks_run}`);
    expect(await page.locator('#summary-areas td.sum.exposed').count()).toBeGreaterThan(0);
    expect(await page.locator('text=Pick a cell').count()).toBe(0);
    expect(network).toEqual([]);
    await page.close();
  });

  it("index.html's filters keep only rows where a candidate is exposed, and only rows where candidates differ", async () => {
    const page = await open(join(dir, 'reports', 'index.html'));
    const all = await shownRows(page);
    await page.locator('#only-exposed').check();
    const exposed = await shownRows(page);
    expect(exposed.length).toBeGreaterThan(0);
    expect(exposed.length).toBeLessThan(all.length);
    for (const row of exposed) expect(row.some((cell) => cell.includes('exposed'))).toBe(true);
    expect(all.filter((row) => row.some((cell) => cell.includes('exposed'))).length).toBe(exposed.length);
    await page.locator('#only-exposed').uncheck();
    await page.locator('#only-differ').check();
    const differ = await shownRows(page);
    const kinds = (row: string[]) => new Set(row.map((cell) => cell.replace(/^cell | lit$| selected$/g, '')).filter((kind) => kind !== 'absent'));
    for (const row of differ) expect(kinds(row).size).toBeGreaterThan(1);
    expect(all.filter((row) => kinds(row).size > 1).length).toBe(differ.length);
    // The summary's areas are filtered alike: an area where every candidate fares the same goes.
    const areas = await page.locator('#summary-areas tr.area').evaluateAll((rows) => rows.map((row) => row.getClientRects().length > 0));
    expect(areas).toContain(true);
    await page.close();
  });

  it('index.html: a summary cell leads to its area\'s rows, and a failing cell there to its transcript', async () => {
    const page = await open(join(dir, 'reports', 'index.html'));
    const passthrough = await column(page, 'passthrough');
    await summaryToTranscript(page, `#summary-areas td.sum.exposed[data-c="${passthrough - 1}"]`, 'passthrough');
    expect(network).toEqual([]);
    await page.close();
  });

  it("report.html opens on the verdict and the areas, and leads from an area to a failing case's transcript", async () => {
    const page = await open(join(dir, 'reports', 'passthrough', 'report.html'));
    await screenshot(page, 'report.png');
    const report = readReport('passthrough');
    const score = tally(report.cases);
    expect(await page.locator('#held').textContent()).toBe(`Attacks held: ${report.summary.attacks_held} of ${report.summary.attacks_total}`);
    expect(await page.locator('#controls').textContent()).toContain(`Controls passed: ${score.controls_passed} of ${score.controls_run}`);
    expect(await page.locator('#kinds').textContent()).toContain(`${report.summary.exposed} exposed (${report.summary.exposed_claimed} claimed, ${report.summary.exposed_not_claimed} not claimed)`);
    const areas = casesByArea(report.cases, loadRequirements());
    expect(await page.locator('#summary-areas .sum strong').allTextContents()).toEqual(areas.map(({ area }) => area.name));
    // The verdict and the areas are on the first screen.
    expect(await page.locator('#summary-areas .sum').last().evaluate((tile) => tile.getBoundingClientRect().bottom)).toBeLessThan(1000);
    await summaryToTranscript(page, '#summary-areas .sum.exposed', 'passthrough');
    expect(network).toEqual([]);
    await page.close();
  });

  it('keeps the index of the committed reports small: every run compressed, under 500 bytes a case where it was 2.4 KB', async () => {
    const out = join(dir, 'brokers', 'index.html');
    await gauntlet('index', '--reports', join(packageRoot, 'reports', 'brokers'), '--out', out);
    const folders = readdirSync(join(packageRoot, 'reports', 'brokers'), { withFileTypes: true }).filter((entry) => entry.isDirectory());
    // Bounded by what it shows, since the catalogue grows (both MCP revisions doubled it): 393
    // bytes a case on 2026-12-06 with 4,181 cases in all, 10 MB in all before compression.
    const cases = folders.reduce((sum, folder) => sum + (JSON.parse(readFileSync(join(packageRoot, 'reports', 'brokers', folder.name, 'report.json'), 'utf8')) as Report).cases.length, 0);
    expect(statSync(out).size).toBeLessThan(500 * cases);
    const page = await open(out);
    expect(await page.locator('#summary-areas thead th.cand').count()).toBe(folders.length);
    // A case of the widest run still opens from its compressed data.
    await page.locator('#matrix td.cell.exposed').first().click();
    await page.locator('#detail h3', { hasText: 'Transcript' }).waitFor();
    expect(network).toEqual([]);
    await page.close();
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
    await page.locator('#detail pre', { hasText: hostile }).nth(1).waitFor();
    expect(await page.title()).toBe(hostile);
    expect(await page.locator('thead th', { hasText: hostile }).count()).toBe(1);
    // Not run: no script of it executed and no element of it exists.
    expect(await page.evaluate(() => (globalThis as { __gauntletRan?: number }).__gauntletRan)).toBeUndefined();
    expect(await page.locator('img, b').count()).toBe(0);
    expect(network).toEqual([]);
    await page.close();
  });
});
