/** The skill-name rules and the length counting every limit shares (runtime/contract/names.ts). */
import { describe, expect, it } from 'vitest';
import {
  codePointLength,
  MAX_SKILL_NAME_CHARS,
  segmentNameProblem,
  skillNameProblem,
} from '../../../runtime/contract/names.js';

describe('skillNameProblem (Agent Skills names)', () => {
  it('accepts segment names of up to 64 characters', () => {
    for (const name of ['pdf', 'short-url', 'a1-b2-c3', '7zip', 'a'.repeat(MAX_SKILL_NAME_CHARS)])
      expect(skillNameProblem(name)).toBeUndefined();
  });

  it('refuses what the segment pattern refuses, with the pattern rule', () => {
    for (const name of ['Research', 'my_skill', '-lead', '', 'a b'])
      expect(skillNameProblem(name)).toEqual(segmentNameProblem(name));
  });

  it('adds the length, "--" and trailing "-" rules that other names do not have', () => {
    expect(skillNameProblem('a'.repeat(65))).toEqual({
      rule: 'length',
      message: 'is 65 characters long; skill names have at most 64',
    });
    expect(skillNameProblem('pdf--tools')).toMatchObject({ rule: 'hyphens', message: expect.stringContaining('"--"') });
    expect(skillNameProblem('pdf-')).toMatchObject({ rule: 'hyphens', message: expect.stringContaining('ends with') });
    // An agent or hook may still be called `pdf--tools`: the rules are the skill's.
    expect(segmentNameProblem('pdf--tools')).toBeUndefined();
  });
});

describe('codePointLength', () => {
  it('counts code points, not UTF-16 units', () => {
    expect(codePointLength('')).toBe(0);
    expect(codePointLength('abc')).toBe(3);
    expect(codePointLength('😀短𠀀')).toBe(3);
    expect('😀短𠀀'.length).toBe(5);
  });
});
