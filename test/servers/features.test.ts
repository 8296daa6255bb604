import { describe, expect, it } from 'vitest';
import { completeResult } from '../../servers/kit/completion.js';
import { KnobError, resolveKnobs } from '../../servers/kit/knobs.js';
import { CANARY } from '../../servers/kit/payloads.js';
import { getPromptResult, promptsPage } from '../../servers/kit/prompts.js';
import { readResult, resourcesPage, templatesPage } from '../../servers/kit/resources.js';

// The kit's resources, prompts and completion: honest by default, hostile by knob, and every read
// answered with content, so a broker that forwards what it should have refused is seen.

const parsed = (page: { result: string } | { error: string }) => JSON.parse('result' in page ? page.result : 'null');

describe('resources', () => {
  it('lists the notes and the key file, paged like the tools, and the note template', () => {
    const knobs = resolveKnobs({ page_size: '2' });
    expect(parsed(resourcesPage(knobs, 'review', undefined))).toMatchObject({ resources: [{ uri: 'file:///notes/1.txt' }, { uri: 'file:///notes/2.txt' }], nextCursor: 'page-2' });
    expect(parsed(resourcesPage(knobs, 'review', 'page-2'))).toEqual({ resources: [{ uri: 'file:///private/keys.txt', name: 'keys', description: 'The deployment keys.', mimeType: 'text/plain' }] });
    expect(resourcesPage(knobs, 'review', 'page-9')).toHaveProperty('error');
    expect(parsed(templatesPage(knobs, undefined)).resourceTemplates[0].uriTemplate).toBe('file:///notes/{id}.txt');
  });

  it('answers every read with content: a note, a template expansion, and the canary from anywhere else', () => {
    const knobs = resolveKnobs({});
    expect(JSON.parse(readResult(knobs, 'file:///notes/1.txt')).contents[0].text).toBe('Buy milk and eggs.');
    expect(JSON.parse(readResult(knobs, 'file:///notes/7.txt')).contents[0].text).toBe('Note 7.');
    for (const uri of ['file:///etc/passwd', 'file:///notes/..%2Fprivate%2Fkeys.txt', 'https://attacker.example/x']) {
      expect(JSON.parse(readResult(knobs, uri)).contents[0].text).toContain(CANARY);
    }
  });

  it('changes what it serves and lists by knob, the run-time ones in phase run only', () => {
    const knobs = resolveKnobs({ 'resource.note-1': 'blob', 'resource_description.note-2': 'poisoned', 'run.resource_description': 'note-1', 'run.resource_add': '1' });
    expect(JSON.parse(readResult(knobs, 'file:///notes/1.txt')).contents[0]).toMatchObject({ mimeType: 'image/png', blob: expect.any(String) });
    const review = parsed(resourcesPage(knobs, 'review', undefined)).resources;
    const run = parsed(resourcesPage(knobs, 'run', undefined)).resources;
    expect(review[1].description).toContain('<IMPORTANT>');
    expect([review[0].description === run[0].description, review.length, run.length]).toEqual([false, 3, 4]);
  });

  it('lists a sibling of the notes folder and a template of adjacent variables by knob', () => {
    const knobs = resolveKnobs({ sibling_resource: '1', backtracking_template: '1' });
    const listed = parsed(resourcesPage(knobs, 'review', undefined)).resources;
    expect(listed.at(-1)).toMatchObject({ uri: 'file:///notes-private/secret.txt', name: 'notes-private' });
    expect(JSON.parse(readResult(knobs, 'file:///notes-private/secret.txt')).contents[0].text).toContain(CANARY);
    const templates = parsed(templatesPage(knobs, undefined)).resourceTemplates.map((t: { uriTemplate: string }) => t.uriTemplate);
    expect(templates).toEqual(['file:///notes/{id}.txt', `file:///notes/${Array.from({ length: 24 }, (_, i) => `{p${i}}`).join('')}.txt`]);
    // A read the templates do not expand to is answered as from outside the notes.
    expect(JSON.parse(readResult(knobs, `file:///notes/${'a'.repeat(48)}!`)).contents[0].text).toContain(CANARY);
    expect(parsed(resourcesPage(resolveKnobs({}), 'review', undefined)).resources).toHaveLength(3);
  });
});

describe('prompts and completion', () => {
  it('gets a prompt whatever its arguments, with the messages its knob adds', () => {
    const knobs = resolveKnobs({ 'prompt.summarise_notes': 'embedded-resource', 'run.prompt_description': 'summarise_notes' });
    const got = JSON.parse(getPromptResult(knobs, 'summarise_notes', {})!);
    expect(got.messages[1].content).toMatchObject({ type: 'resource', resource: { uri: 'file:///private/keys.txt' } });
    expect(getPromptResult(knobs, 'nowhere', {})).toBeNull();
    expect(parsed(promptsPage(knobs, 'review', undefined)).prompts.map((p: { name: string }) => p.name)).toEqual(['summarise_notes', 'export_everything']);
    expect(parsed(promptsPage(knobs, 'run', undefined)).prompts[0].description).toContain('It also returns');
  });

  it('completes any reference, leaking hidden names or flooding by knob', () => {
    const params = { ref: { type: 'ref/prompt', name: 'anything' }, argument: { name: 'topic', value: 'bu' } };
    expect(JSON.parse(completeResult(resolveKnobs({}), params)).completion.values).toEqual(['budget']);
    expect(JSON.parse(completeResult(resolveKnobs({ completion: 'leak' }), params)).completion.values).toContain('export_everything');
    expect(JSON.parse(completeResult(resolveKnobs({ completion: 'oversized' }), params)).completion.values).toHaveLength(1000);
  });

  it.each<Record<string, string>>([{ 'resource.nowhere': 'blob' }, { 'resource.note-1': 'nothing' }, { 'prompt.summarise_notes': 'x' }, { completion: 'yes' }, { 'run.resource_add': '2' }])('refuses %j', (assigned) => {
    expect(() => resolveKnobs(assigned)).toThrow(KnobError);
  });
});

describe('resource_icons and prompt_icons', () => {
  it('list the resource or prompt with the preset icons, and nothing else with any', () => {
    const knobs = resolveKnobs({ 'resource_icons.note-2': 'javascript', 'prompt_icons.summarise_notes': 'data-png' });
    const resources = parsed(resourcesPage(knobs, 'review', undefined)).resources as { name: string; icons?: { src: string }[] }[];
    expect(resources.map((resource) => resource.icons?.[0]?.src.slice(0, 11) ?? null)).toEqual([null, 'javascript:', null]);
    const prompts = parsed(promptsPage(knobs, 'review', undefined)).prompts as { icons?: { src: string; mimeType: string }[] }[];
    expect(prompts.map((prompt) => prompt.icons?.map((icon) => icon.mimeType) ?? null)).toEqual([['image/png'], null]);
  });

  it('take the icon presets only, for a resource or prompt the kit offers', () => {
    expect(() => resolveKnobs({ 'resource_icons.note-9': 'data-png' })).toThrow(KnobError);
    expect(() => resolveKnobs({ 'prompt_icons.summarise_notes': 'bmp' })).toThrow(KnobError);
  });
});
