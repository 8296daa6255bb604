import { readFile, writeFile } from 'node:fs/promises';

/** The markers around the README's generated benchmark table. */
export const README_START = '<!-- bench:start (npm run bench -- --update-readme) -->';
export const README_END = '<!-- bench:end -->';

/** The README with the text between the markers replaced by `block`; it must hold both markers, in order. */
export function replaceSection(readme: string, block: string): string {
  const start = readme.indexOf(README_START);
  const end = readme.indexOf(README_END);
  if (start < 0 || end < start) throw new Error(`the README has no ${README_START} ... ${README_END} section`);
  return `${readme.slice(0, start + README_START.length)}\n${block}\n${readme.slice(end)}`;
}

export async function updateReadme(path: string, block: string): Promise<void> {
  await writeFile(path, replaceSection(await readFile(path, 'utf8'), block));
}
