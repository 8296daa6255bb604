import { createHash } from 'node:crypto';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import Ajv2020 from 'ajv/dist/2020.js';
import { packageRoot } from './paths.js';
import { didYouMean } from './nearest.js';
import { describeSchemaErrors } from './schema-errors.js';

/** A named, versioned, frozen list of scenario ids (docs/profiles.md). */
export interface Profile {
  name: string;
  version: number;
  frozen: string;
  description: string;
  selected_by: string;
  scenarios: string[];
  digest: string;
}

/** How a run did on one profile: only the profile's own scenarios count. */
export interface ProfileScore {
  name: string;
  version: number;
  /** Attacks of the profile that pass while their control passes, of the profile's attacks judged. */
  attacks_held: number;
  attacks_run: number;
  controls_passed: number;
  controls_run: number;
  /** Scenarios of the profile this run did not include (filtered out, another shard, or gone from the catalogue). */
  missing: number;
}

export const profilesDir = join(packageRoot, 'profiles');
const schemaFile = join(profilesDir, 'profile.schema.json');

export class ProfileError extends Error {}

/** The digest a frozen list carries: editing the list without a new version is then visible. */
export function profileDigest(scenarios: readonly string[]): string {
  return `sha256:${createHash('sha256').update(scenarios.map((id) => `${id}\n`).join('')).digest('hex')}`;
}

const validate = new Ajv2020.default({ allErrors: true, strict: true, verbose: true }).compile(JSON.parse(readFileSync(schemaFile, 'utf8')) as object);

export function parseProfile(data: unknown, file: string): Profile {
  if (!validate(data)) throw new ProfileError(`${file}: not a profile (${schemaFile}): ${describeSchemaErrors(validate.errors, 'the profile')}`);
  const profile = data as Profile;
  if (profileDigest(profile.scenarios) !== profile.digest) {
    throw new ProfileError(`${file}: its scenario list does not match its digest; a frozen profile is changed only as a new version`);
  }
  return profile;
}

/** Every profile under profiles/, by name; a file that is not a sound profile stops the run. */
export function loadProfiles(dir = profilesDir): Profile[] {
  const files = readdirSync(dir).filter((name) => name.endsWith('.json') && name !== 'profile.schema.json').sort();
  const profiles = files.map((name) => parseProfile(JSON.parse(readFileSync(join(dir, name), 'utf8')), join(dir, name)));
  const seen = new Set<string>();
  for (const profile of profiles) {
    if (seen.has(profile.name)) throw new ProfileError(`two profiles are named ${profile.name}`);
    seen.add(profile.name);
  }
  return profiles;
}

export function findProfile(profiles: readonly Profile[], name: string): Profile {
  const profile = profiles.find((p) => p.name === name);
  if (profile === undefined) throw new ProfileError(`no profile named ${name}; profiles: ${profiles.map((p) => p.name).join(', ')}${didYouMean(name, profiles.map((p) => p.name))}`);
  return profile;
}
