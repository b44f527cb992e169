/**
 * A seam skill's description obeys the limit a SKILL.md description does, counted the same way
 * (Unicode code points, runtime/contract/names.ts): a host never rejects what the compiler would
 * accept, nor the reverse.
 */
import { describe, expect, it } from 'vitest';
import { createCapabilityHost } from '../../../runtime/index.js';
import { MAX_DESCRIPTION_CHARS } from '../../../runtime/contract/names.js';
import { agent, manifest } from '../fixture.js';
import { RecordingSkillService, seamRoot } from './helpers.js';

async function load(description: string) {
  const host = createCapabilityHost();
  const root = seamRoot((seams) =>
    seams.registerSkillService('global', new RecordingSkillService('acme', [{ name: 'howto', description }])),
  );
  await host.load(manifest({ agents: [agent('reviewer')] }), { plugins: { '': root.plugin } });
  return host;
}

describe('seam skill descriptions', () => {
  it('accept 1024 characters that are 2048 UTF-16 units, as SKILL.md does', async () => {
    const host = await load('😀'.repeat(MAX_DESCRIPTION_CHARS));
    const [entry] = host.current!.skillTable.catalog();
    expect(entry).toMatchObject({ name: 'howto', source: 'seam' });
    expect(entry!.description.length).toBe(2 * MAX_DESCRIPTION_CHARS);
  });

  it('reject 1025 characters and a blank description', async () => {
    await expect(load('短'.repeat(MAX_DESCRIPTION_CHARS + 1))).rejects.toThrow(
      'skill provider "acme", skill "howto": `description` must be 1–1024 characters',
    );
    await expect(load('  ')).rejects.toThrow('`description` must be 1–1024 characters');
  });
});
