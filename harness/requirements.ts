import { readFileSync } from 'node:fs';
import { requirementsFile } from './paths.js';

export interface Requirement {
  id: string;
  level: 'MUST' | 'SHOULD';
  seed: string;
  text: string;
  area: string;
}

const ROW = /^\|\s*([A-Z]+-\d+)\s*\|\s*(MUST|SHOULD)\s*\|\s*([^|]+?)\s*\|\s*(.+?)\s*\|\s*$/;
const AREA = /^##\s+(.+?)\s*$/;

/**
 * Reads docs/requirements.md: one table row per requirement under an area heading. The document
 * is for people first, so the parser is strict only about the rows it recognises, and a repeated
 * id is an error because ids are what scenarios cite.
 */
export function parseRequirements(markdown: string): Requirement[] {
  const found: Requirement[] = [];
  const seen = new Set<string>();
  let area = '';
  for (const line of markdown.split(/\r?\n/)) {
    const heading = AREA.exec(line);
    if (heading?.[1]) area = heading[1];
    const row = ROW.exec(line);
    if (!row) continue;
    const [, id, level, seed, text] = row as unknown as [string, string, 'MUST' | 'SHOULD', string, string];
    if (seen.has(id)) throw new Error(`docs/requirements.md: requirement ${id} is listed twice`);
    seen.add(id);
    found.push({ id, level, seed, text, area });
  }
  return found;
}

export function loadRequirements(file = requirementsFile): Requirement[] {
  return parseRequirements(readFileSync(file, 'utf8'));
}
