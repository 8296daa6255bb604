// The input-schema checks on their own: self-containment, local references landing on schemas, sound hiding of parameters, the
// restricted schema the agent sees, and the 2020-12 validator compiled from it.

import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import type ajv2020 from 'ajv/dist/2020.js';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { hidingProblem, injectFixed, restrictSchema } from '../../src/load/hidden.js';
import { readJson } from '../../src/json/reader.js';
import { writeJson } from '../../src/json/writer.js';
import { compileSchema, toJs } from '../../src/schema/compile.js';
import validateAgainstMeta from '../../src/schema/meta-2020.generated.js';
import { unresolvedReference } from '../../src/schema/local-references.js';
import { externalReference } from '../../src/schema/references.js';
import { json } from './builders.js';

const { default: Ajv2020 } = createRequire(import.meta.url)('ajv/dist/2020.js') as { default: typeof ajv2020.default };

describe('externalReference (the self-contained walker)', () => {
  it.each([
    ['{"type":"object","properties":{"a":{"$ref":"http://127.0.0.1:9/a.json"}}}', '$ref "http://127.0.0.1:9/a.json" points outside the schema at /properties/a/$ref'],
    ['{"$ref":"file:///etc/passwd"}', '$ref "file:///etc/passwd" points outside the schema at /$ref'],
    ['{"$ref":"other.json#/x"}', 'points outside the schema'],
    ['{"$ref":"../x"}', 'points outside the schema'],
    ['{"$ref":""}', 'points outside the schema'],
    ['{"$defs":{"x":{"$dynamicRef":"https://evil.example/s#meta"}}}', '$dynamicRef "https://evil.example/s#meta" points outside the schema at /$defs/x/$dynamicRef'],
    ['{"items":{"$recursiveRef":"s.json"}}', '$recursiveRef "s.json" points outside the schema'],
    ['{"properties":{"a":{"default":{"$ref":"http://x/y"}}}}', 'at /properties/a/default/$ref'],
    ['{"properties":{"a":{"examples":[{"$ref":"http://x/y"}]}}}', 'at /properties/a/examples/0/$ref'],
    ['{"properties":{"a":{"const":{"$ref":"http://x/y"}}}}', 'at /properties/a/const/$ref'],
    ['{"properties":{"a":{"enum":[1,{"$ref":"http://x/y"}]}}}', 'at /properties/a/enum/1/$ref'],
    ['{"$id":"http://127.0.0.1:9/schema.json"}', '$id "http://127.0.0.1:9/schema.json" is not a fragment at /$id'],
    ['{"properties":{"a":{"$id":"sub.json"}}}', '$id "sub.json" is not a fragment'],
    ['{"$schema":"http://127.0.0.1:9/meta"}', '$schema "http://127.0.0.1:9/meta" is not a well-known dialect'],
    ['{"$schema":"http://json-schema.org/draft/2020-12/schema"}', 'is not a well-known dialect'],
    ['{"$schema":"https://json-schema.org/draft-07/schema#"}', 'is not a well-known dialect'],
    ['{"$schema":"http://json-schema.org/draft-04/schema#","id":"http://127.0.0.1:9/s"}', 'draft-04 id "http://127.0.0.1:9/s" names a scheme or a host at /id'],
    ['{"$schema":"http://json-schema.org/draft-04/schema","properties":{"a":{"id":"//evil.example/x"}}}', 'names a scheme or a host'],
    ['{"$schema":"http://json-schema.org/draft-04/schema#","id":"urn:x:y"}', 'names a scheme or a host'],
  ])('refuses %s', (schema, problem) => {
    expect(externalReference(json(schema))).toContain(problem);
  });

  it.each([
    '{"type":"object"}',
    '{"$ref":"#/$defs/a","$defs":{"a":{"type":"string"}}}',
    '{"$dynamicRef":"#meta","$dynamicAnchor":"meta"}',
    '{"$id":"#top","properties":{"$ref":{"type":"string"},"id":{"type":"string"}}}',
    '{"properties":{"url":{"default":"http://x/y","examples":["http://x/y"]}}}',
    // Outside draft-04, `id` is an ordinary word.
    '{"properties":{"a":{"const":{"id":"http://x/y"}}}}',
    '{"$schema":"http://json-schema.org/draft-04/schema#","id":"#frag"}',
    ...[
      'https://json-schema.org/draft/2020-12/schema',
      'https://json-schema.org/draft/2019-09/schema',
      'http://json-schema.org/draft-07/schema',
      'http://json-schema.org/draft-06/schema',
      'http://json-schema.org/draft-04/schema',
    ].flatMap((uri) => [`{"$schema":"${uri}"}`, `{"$schema":"${uri}#"}`, `{"$id":"${uri}#"}`]),
  ])('accepts %s', (schema) => {
    expect(externalReference(json(schema))).toBeNull();
  });
});

describe('unresolvedReference (the local-reference walker)', () => {
  it.each([
    ['{"properties":{"q":{"$ref":"#/$defs/missing"}},"$defs":{"a":{}}}', '$ref "#/$defs/missing" at /properties/q resolves to nothing in the schema'],
    ['{"properties":{"q":{"$ref":"#/$defs/a/type"}},"$defs":{"a":{"type":"string"}}}', 'names a string that is not a schema'],
    ['{"properties":{"q":{"$ref":"#/properties"}}}', 'names an object that is not a schema'],
    ['{"properties":{"q":{"$ref":"#/required"}},"required":["q"]}', 'names an array that is not a schema'],
    ['{"properties":{"q":{"$ref":"#/properties/q/default"}}}', 'resolves to nothing'],
    ['{"properties":{"q":{"default":{},"$ref":"#/properties/q/default"}}}', 'names an object that is not a schema'],
    ['{"properties":{"q":{"$ref":"#/$defs/a"}},"$defs":{"a":{"$ref":"#/$defs/b"},"b":{"$ref":"#/$defs/a"}}}', 'leads back to /$defs/a through references alone'],
    ['{"$defs":{"a":{"$ref":"#/$defs/a"}}}', 'at /$defs/a leads back to /$defs/a'],
    ['{"$ref":"#"}', 'leads back to / through references alone'],
    // Ajv compiles this one, and its validator overflows the stack on every call.
    ['{"$dynamicRef":"#meta","$dynamicAnchor":"meta"}', '$dynamicRef "#meta" at / leads back to /'],
    ['{"$defs":{"o":{"$defs":{"i":{"$ref":"#/$defs/o/$defs/nowhere"}}}}}', 'at /$defs/o/$defs/i resolves to nothing'],
    ['{"properties":{"q":{"$ref":"#name"}}}', '$ref "#name" at /properties/q resolves to nothing'],
    ['{"properties":{"q":{"$dynamicRef":"#/$defs/x"}}}', '$dynamicRef "#/$defs/x"'],
    ['{"properties":{"q":{"$ref":"#/%E0"}}}', 'resolves to nothing'],
  ])('refuses %s', (schema, problem) => {
    expect(unresolvedReference(json(schema))).toContain(problem);
  });

  it.each([
    '{"type":"object"}',
    '{"properties":{"q":{"$ref":"#/$defs/a"}},"$defs":{"a":{"type":"string"}}}',
    '{"properties":{"q":{"$ref":"#/$defs/o/$defs/i"}},"$defs":{"o":{"$defs":{"i":{"type":"string"}}}}}',
    '{"properties":{"q":{"$ref":"#/$defs/a"}},"$defs":{"a":{"$ref":"#/$defs/b"},"b":{"type":"string"}}}',
    '{"properties":{"q":{"$ref":"#/$defs/a"}},"$defs":{"a":false}}',
    '{"properties":{"q":{"$ref":"#/properties/r"},"r":{"type":"string"}}}',
    '{"properties":{"q":{"$ref":"#/anyOf/1"}},"anyOf":[{},{"type":"object"}]}',
    '{"properties":{"q":{"$ref":"#/$defs/a%20b"}},"$defs":{"a b":{}}}',
    '{"properties":{"q":{"$ref":"#/$defs/a~1b"}},"$defs":{"a/b":{}}}',
    // Recursion through a keyword is a tree, not a cycle.
    '{"$defs":{"node":{"type":"object","properties":{"child":{"$ref":"#/$defs/node"}}}},"$ref":"#/$defs/node"}',
    '{"properties":{"q":{"$ref":"#name"}},"$defs":{"a":{"$anchor":"name","type":"string"}}}',
    // Data is not walked: a reference inside `default` or `examples` is a value.
    '{"properties":{"q":{"default":{"$ref":"#/nowhere"},"examples":[{"$ref":"#/x"}]}}}',
    // A property may be named `$ref`; only references leaving the document are not this walker's.
    '{"properties":{"$ref":{"type":"string"},"q":{"$ref":"http://x/y"}}}',
  ])('accepts %s', (schema) => {
    expect(unresolvedReference(json(schema))).toBeNull();
  });
});

describe('hidingProblem (the hidden-name walker)', () => {
  const base = (extra: string) => `{"type":"object","properties":{"text":{"type":"string"},"sidenote":{"type":"string"}}${extra}}`;

  it('accepts hiding a top-level property, with required lists naming it at the top', () => {
    expect(hidingProblem(json(base(',"required":["text","sidenote"]')), ['sidenote'])).toBeNull();
    expect(hidingProblem(json(base('')), [])).toBeNull();
  });

  it('accepts a same-named property nested deeper inside another top-level property', () => {
    const nested =
      '{"type":"object","properties":{"sidenote":{"type":"string"},"meta":{"type":"object","properties":{"sidenote":{"type":"string"}},"required":["sidenote"]}}}';
    expect(hidingProblem(json(nested), ['sidenote'])).toBeNull();
  });

  it('refuses a hidden name that is not a top-level property (a misspelling, or only nested)', () => {
    expect(hidingProblem(json(base('')), ['sidenot'])).toBe('it hides "sidenot", which is not a top-level property');
    expect(hidingProblem(json('{"type":"object"}'), ['x'])).toBe('it hides "x", which is not a top-level property');
    const nestedOnly = '{"type":"object","properties":{"meta":{"properties":{"x":{}}}}}';
    expect(hidingProblem(json(nestedOnly), ['x'])).toContain('not a top-level property');
  });

  it.each([
    ['allOf', ',"allOf":[{"required":["sidenote"]}]'],
    ['anyOf', ',"anyOf":[{"properties":{"sidenote":{"const":"x"}}}]'],
    ['oneOf', ',"oneOf":[{"required":["text"]},{"required":["sidenote"]}]'],
    ['not', ',"not":{"required":["sidenote"]}'],
    ['if', ',"if":{"properties":{"sidenote":{"const":"a"}}},"then":{}'],
    ['then', ',"if":{},"then":{"required":["sidenote"]}'],
    ['else', ',"if":{},"else":{"required":["sidenote"]}'],
    ['dependentRequired', ',"dependentRequired":{"text":["sidenote"]}'],
    ['dependentRequired', ',"dependentRequired":{"sidenote":["text"]}'],
    ['dependentSchemas', ',"dependentSchemas":{"sidenote":{}}'],
    ['dependentSchemas', ',"dependentSchemas":{"text":{"required":["sidenote"]}}'],
    ['dependencies', ',"dependencies":{"text":["sidenote"]}'],
    ['dependencies', ',"dependencies":{"sidenote":{"required":["text"]}}'],
    ['$defs', ',"$defs":{"d":{"properties":{"sidenote":{}}}}'],
    ['definitions', ',"definitions":{"d":{"required":["sidenote"]}}'],
    ['allOf', ',"allOf":[{"anyOf":[{"not":{"dependentRequired":{"sidenote":[]}}}]}]'],
  ])('refuses a mention under %s', (keyword, extra) => {
    expect(hidingProblem(json(base(extra)), ['sidenote'])).toBe(`it mentions hidden parameter "sidenote" under ${keyword}`);
  });

  it('refuses any patternProperties, at the top or under a combinator', () => {
    expect(hidingProblem(json(base(',"patternProperties":{"^x":{}}')), ['sidenote'])).toBe(
      'it has patternProperties, which may match a hidden parameter',
    );
    expect(hidingProblem(json(base(',"allOf":[{"patternProperties":{"^s":false}}]')), ['sidenote'])).toBe(
      'it has patternProperties under allOf, which may match a hidden parameter',
    );
  });

  it('ignores mentions of names that are not hidden', () => {
    expect(hidingProblem(json(base(',"allOf":[{"required":["text"]}],"dependentRequired":{"text":["other"]}')), ['sidenote'])).toBeNull();
  });
});

describe('restrictSchema and injectFixed', () => {
  it('removes hidden names from top-level properties and required, keeps the rest and its order', () => {
    const schema = json('{"type":"object","properties":{"a":{"maximum":9007199254740993},"b":{},"c":{}},"required":["c","b","a"],"additionalProperties":false}');
    expect(writeJson(restrictSchema(schema, ['b']))).toBe(
      '{"type":"object","properties":{"a":{"maximum":9007199254740993},"c":{}},"required":["c","a"],"additionalProperties":false}',
    );
    expect(writeJson(restrictSchema(schema, ['a', 'b', 'c']))).toBe('{"type":"object","properties":{},"additionalProperties":false}');
    expect(restrictSchema(schema, [])).toBe(schema);
  });

  it('appends fixed values after the agent arguments, and a fixed value replaces an agent value', () => {
    const fixed = [['folder', readJson('"inbox"')], ['n', readJson('9007199254740993')]] as const;
    expect(writeJson(injectFixed(json('{"text":"hi","z":1.50}'), fixed))).toBe('{"text":"hi","z":1.50,"folder":"inbox","n":9007199254740993}');
    expect(writeJson(injectFixed(json('{"folder":"evil","text":"hi"}'), fixed))).toBe('{"text":"hi","folder":"inbox","n":9007199254740993}');
    const args = json('{"a":1}');
    expect(injectFixed(args, [])).toBe(args);
  });
});

describe('compileSchema', () => {
  const validate = (schema: string, args: string): string[] => {
    const compiled = compileSchema(json(schema));
    if (!compiled.ok) throw new Error(compiled.error);
    return compiled.validate(readJson(args));
  };

  it('validates with 2020-12 semantics and reports every error', () => {
    const schema = '{"type":"object","properties":{"n":{"type":"integer","minimum":1},"s":{"type":"string","maxLength":2}},"required":["n"],"additionalProperties":false}';
    expect(validate(schema, '{"n":2,"s":"ab"}')).toEqual([]);
    expect(validate(schema, '{"n":0,"s":"abc","x":1}')).toEqual([
      '/ must NOT have additional properties',
      '/n must be >= 1',
      '/s must NOT have more than 2 characters',
    ]);
    expect(validate('{"type":"object","dependentRequired":{"a":["b"]}}', '{"a":1}')).toEqual(['/ must have property b when property a is present']);
  });

  it('looks only at own properties: "constructor" and "__proto__" are ordinary names', () => {
    expect(validate('{"type":"object","required":["constructor"]}', '{}')).toEqual(["/ must have required property 'constructor'"]);
    expect(validate('{"type":"object","required":["toString"]}', '{"toString":1}')).toEqual([]);
    // Ajv skips a property named "__proto__", so a schema naming one is not compiled at all.
    expect(compileSchema(json('{"type":"object","properties":{"__proto__":{"type":"string"}}}'))).toEqual({
      ok: false,
      error: 'it names "__proto__", which the validator skips',
    });
    expect(Object.getPrototypeOf(toJs(json('{"__proto__":{"polluted":true}}')))).toBe(Object.prototype);
  });

  it('uses 2020-12 whatever dialect $schema names', () => {
    expect(validate('{"$schema":"http://json-schema.org/draft-07/schema#","type":"object","required":["a"]}', '{}')).toEqual([
      "/ must have required property 'a'",
    ]);
  });

  it('refuses a schema that is not valid 2020-12', () => {
    const compiled = compileSchema(json('{"type":"object","required":"a"}'));
    expect(compiled).toEqual({ ok: false, error: expect.stringContaining('not a valid 2020-12 schema') });
    expect(compileSchema(json('{"type":"object","properties":{"a":{"$ref":"#/$defs/missing"}}}'))).toEqual({
      ok: false,
      error: expect.stringContaining("can't resolve reference #/$defs/missing"),
    });
    expect(compileSchema(json('{"type":"object","properties":{"a":{"$ref":"http://x/b.json#/deep"}}}')).ok).toBe(false);
    // A part missing from the schema's own document, under an $id of its own.
    expect(compileSchema(json('{"$id":"http://x/s.json","type":"object","properties":{"a":{"$ref":"#/$defs/missing"}}}')).ok).toBe(false);
    expect(compileSchema(json('{"$id":"http://x/s.json","type":"object","properties":{"a":{"$ref":"s.json#/$defs/nope"}}}')).ok).toBe(false);
  });

  it('keeps nothing of one schema for the next: a reference resolves only in its own document', () => {
    expect(validate('{"type":"object","$defs":{"n":{"type":"integer"}},"properties":{"a":{"$ref":"#/$defs/n"}}}', '{"a":"x"}')).toEqual(['/a must be integer']);
    // The same reference in a schema without those $defs is broken, not the first schema's.
    expect(compileSchema(json('{"type":"object","properties":{"a":{"$ref":"#/$defs/n"}}}'))).toEqual({
      ok: false,
      error: expect.stringContaining("can't resolve reference #/$defs/n"),
    });
    // Two schemas under one $id each compile, and each validates by its own text.
    expect(validate('{"$id":"http://x/same.json","type":"object","required":["a"]}', '{}')).toEqual(["/ must have required property 'a'"]);
    expect(validate('{"$id":"http://x/same.json","type":"object","required":["b"]}', '{}')).toEqual(["/ must have required property 'b'"]);
    // The same text twice is the same validator, and still judges each value on its own.
    const text = '{"type":"object","required":["c"]}';
    expect(compileSchema(json(text))).toBe(compileSchema(json(text)));
    expect(validate(text, '{}')).toEqual(["/ must have required property 'c'"]);
    expect(validate(text, '{"c":1}')).toEqual([]);
  });

  it('stands in at most 64 outside documents: a schema naming more is refused, not compiled', () => {
    const referring = (n: number) =>
      JSON.stringify({ type: 'object', properties: Object.fromEntries(Array.from({ length: n }, (_, i) => [`p${i}`, { $ref: `http://x.test/d${i}.json` }])) });
    expect(compileSchema(json(referring(64))).ok).toBe(true);
    expect(compileSchema(json(referring(65)))).toEqual({ ok: false, error: "can't resolve reference http://x.test/d64.json from id #" });
  });

  it('finds "__proto__" at any depth, arrays of subschemas included, and reads a null argument as null', () => {
    expect(compileSchema(json('{"type":"object","allOf":[{"properties":{"__proto__":{"type":"string"}}}]}'))).toEqual({
      ok: false,
      error: 'it names "__proto__", which the validator skips',
    });
    expect(validate('{"type":"object","properties":{"a":{"type":"null"}}}', '{"a":null}')).toEqual([]);
    expect(validate('{"type":"object","properties":{"a":{"type":"null"}}}', '{"a":1}')).toEqual(['/a must be null']);
  });

  it('keeps at most 4,096 compiled schemas: past that the cache starts again, so a server changing its schemas cannot grow it', () => {
    const schema = (i: number) => json(`{"type":"object","required":["k${i}"]}`);
    const probe = json('{"type":"object","required":["probe"]}');
    // The other tests here have filled it some way: new schemas until the probe is forgotten,
    // which is within 4,096 of them whatever it held.
    let kept = compileSchema(probe);
    let added = 0;
    while (compileSchema(probe) === kept && added <= 4096) compileSchema(schema(added++));
    expect(added).toBeLessThanOrEqual(4096);
    // It started again with the schema that found it full, then the probe: 4,094 more fill it.
    kept = compileSchema(probe);
    for (let i = 0; i < 4094; i++) compileSchema(schema(added + i));
    expect(compileSchema(probe)).toBe(kept);
    compileSchema(schema(added + 4094));
    expect(compileSchema(probe)).not.toBe(kept);
  });

  it('never fetches: an outside reference compiles as the empty schema', () => {
    expect(validate('{"type":"object","properties":{"a":{"$ref":"http://127.0.0.1:9/a.json"}}}', '{"a":1}')).toEqual([]);
    expect(validate('{"$id":"http://127.0.0.1:9/s.json","type":"object","properties":{"a":{"$ref":"b.json"}}}', '{"a":1}')).toEqual([]);
    expect(validate('{"$id":"https://json-schema.org/draft/2020-12/schema","type":"object"}', '{}')).toEqual([]);
  });
});

describe('the committed meta-schema check (src/schema/meta-2020.generated.ts)', () => {
  it('is what the installed Ajv generates (node scripts/generate-meta-validator.mjs)', async () => {
    // @ts-expect-error: a build script in plain JavaScript, without declarations
    const { metaValidatorSource } = (await import('../../scripts/generate-meta-validator.mjs')) as { metaValidatorSource(): string };
    const committed = readFileSync(new URL('../../src/schema/meta-2020.generated.ts', import.meta.url), 'utf8');
    expect(committed === metaValidatorSource()).toBe(true);
  });

  it("decides every schema as Ajv's own meta-schema check does, with the same errors", () => {
    const ajv = new Ajv2020({ strict: false, allErrors: true, ownProperties: true });
    // Schemas made of the keywords the meta-schema constrains, with values of every JSON type.
    const value = fc.oneof(fc.constant(null), fc.boolean(), fc.integer({ min: -3, max: 3 }), fc.constantFrom('a', 'object', 'string', '#', 'x y'), fc.constant([]), fc.constant({}));
    const keyword = fc.constantFrom('type', 'required', 'properties', 'items', 'minLength', 'enum', 'const', '$ref', '$defs', 'allOf', 'anyOf', 'not', 'pattern', 'uniqueItems', 'dependentRequired', '$anchor', 'prefixItems', 'additionalProperties', 'definitions', 'format');
    const schema = fc.letrec((tie) => ({
      node: fc.oneof({ depthSize: 'small' }, fc.boolean(), fc.dictionary(keyword, fc.oneof(value, tie('node'), fc.array(tie('node'), { maxLength: 3 })), { maxKeys: 4 })),
    })).node;
    const decided = { valid: 0, invalid: 0 };
    fc.assert(
      fc.property(schema, (candidate) => {
        const ours = validateAgainstMeta(candidate);
        decided[ours ? 'valid' : 'invalid'] += 1;
        const theirs = ajv.validateSchema(candidate as object) as boolean;
        expect(ours).toBe(theirs);
        if (!ours) expect(ajv.errorsText(validateAgainstMeta.errors)).toBe(ajv.errorsText(ajv.errors));
      }),
      { seed: 20261202, numRuns: 500 },
    );
    // Both answers were exercised, not one of them only.
    expect(decided.valid).toBeGreaterThan(50);
    expect(decided.invalid).toBeGreaterThan(50);
  });
});
