/** The budget algorithm on exact character counts (docs/prompt.md): marker and separators count. */
import { describe, expect, it } from 'vitest';
import {
  MIN_KEPT_CHARS,
  PROMPT_SEPARATOR,
  PromptBudgetError,
  TRUNCATION_MARKER,
  assemblePrompt,
  type PromptPart,
} from '../../../runtime/index.js';

const part = (id: string, content: string, extra: Partial<PromptPart> = {}): PromptPart => ({
  kind: 'section',
  id,
  owner: '',
  retention: 'preferred',
  order: 50,
  content,
  ...extra,
});

const A = 'a'.repeat(100);
const B = 'b'.repeat(200);
const C = 'c'.repeat(300);
// required 100 | "## Rules\n\n" (10) + 200 = 210 | "## Extra\n\n" (10) + 300 = 310 | 2 separators of 2 → 624.
const three = (): PromptPart[] => [
  part('agents', A, { kind: 'agents-md', retention: 'required' }),
  part(':rules', B, { heading: 'Rules', order: 50 }),
  part(':extra', C, { heading: 'Extra', retention: 'opportunistic', order: 10 }),
];

function caught(run: () => unknown): PromptBudgetError {
  try {
    run();
  } catch (error) {
    expect(error).toBeInstanceOf(PromptBudgetError);
    return error as PromptBudgetError;
  }
  throw new Error('expected a PromptBudgetError');
}

describe('assemblePrompt: constants', () => {
  it('uses the documented marker, separator and threshold', () => {
    expect(PROMPT_SEPARATOR).toBe('\n\n');
    expect(TRUNCATION_MARKER).toBe('\n[truncated]');
    expect(TRUNCATION_MARKER.length).toBe(12);
    expect(MIN_KEPT_CHARS).toBe(64);
  });
});

describe('assemblePrompt: the total budget', () => {
  it('renders everything when it fits exactly', () => {
    const result = assemblePrompt(three(), 624);
    expect(result.chars).toBe(624);
    expect(result.text).toBe(`${A}\n\n## Rules\n\n${B}\n\n## Extra\n\n${C}`);
    expect(result.parts.map((p) => [p.id, p.status, p.chars])).toEqual([
      ['agents', 'full', 100],
      [':rules', 'full', 210],
      [':extra', 'full', 310],
    ]);
  });

  it('truncates the opportunistic section to fit the budget exactly, marker included', () => {
    const result = assemblePrompt(three(), 500);
    // excess 124: the 310-char block becomes 186 = 10 heading + 164 kept + 12 marker.
    expect(result.chars).toBe(500);
    expect(result.text).toBe(`${A}\n\n## Rules\n\n${B}\n\n## Extra\n\n${'c'.repeat(164)}\n[truncated]`);
    expect(result.parts[2]).toEqual({
      kind: 'section',
      id: ':extra',
      owner: '',
      retention: 'opportunistic',
      status: 'truncated',
      reason: 'budget',
      chars: 186,
      contentChars: 300,
      keptChars: 164,
    });
  });

  it('drops a section when fewer than MIN_KEPT_CHARS would remain, and stops there', () => {
    // excess 274 would leave 310 - 274 - 10 - 12 = 14 characters: dropped; 100 + 2 + 210 = 312 fits.
    const result = assemblePrompt(three(), 350);
    expect(result.chars).toBe(312);
    expect(result.text).toBe(`${A}\n\n## Rules\n\n${B}`);
    expect(result.parts.map((p) => [p.status, p.reason, p.chars, p.keptChars])).toEqual([
      ['full', undefined, 100, 100],
      ['full', undefined, 210, 200],
      ['dropped', 'budget', 0, 0],
    ]);
  });

  it('keeps exactly MIN_KEPT_CHARS but not one fewer', () => {
    // Without the opportunistic part: 100 + 2 + 210 = 312. Keeping 64 → block 10 + 64 + 12 = 86 → 188.
    const parts = three().slice(0, 2);
    expect(assemblePrompt(parts, 188).parts[1]).toMatchObject({ status: 'truncated', keptChars: 64, chars: 86 });
    expect(assemblePrompt(parts, 188).chars).toBe(188);
    expect(assemblePrompt(parts, 187).parts[1]).toMatchObject({ status: 'dropped', chars: 0 });
    expect(assemblePrompt(parts, 187).text).toBe(A);
  });

  it('then the preferred section yields, truncated to the exact budget', () => {
    const result = assemblePrompt(three(), 250);
    // :extra dropped (312 left), excess 62: 210 → 148 = 10 + 126 + 12.
    expect(result.chars).toBe(250);
    expect(result.text).toBe(`${A}\n\n## Rules\n\n${'b'.repeat(126)}${TRUNCATION_MARKER}`);
    expect(result.parts.map((p) => p.status)).toEqual(['full', 'truncated', 'dropped']);
  });

  it('required content alone may use the whole budget', () => {
    const result = assemblePrompt(three(), 100);
    expect(result.text).toBe(A);
    expect(result.parts.map((p) => p.status)).toEqual(['full', 'dropped', 'dropped']);
  });

  it('fails when required content (separators included) cannot fit — never a silent cut', () => {
    const error = caught(() => assemblePrompt(three(), 99));
    expect(error.code).toBe('over-budget');
    expect(error.limit).toBe(99);
    expect(error.requiredChars).toBe(100);
    expect(error.message).toBe(
      'system prompt over budget: required content needs 100 characters (separators included) but systemPromptMaxChars is 99; required parts: AGENTS.md of root plugin 100',
    );
    // Two required parts of 50 need 50 + 2 + 50 = 102.
    const two = [
      part('x', 'x'.repeat(50), { retention: 'required', heading: undefined }),
      part('y', 'y'.repeat(50), { retention: 'required' }),
    ];
    expect(assemblePrompt(two, 102).chars).toBe(102);
    const overflow = caught(() => assemblePrompt(two, 101));
    expect(overflow.requiredChars).toBe(102);
    expect(overflow.parts.map((p) => [p.id, p.chars])).toEqual([
      ['x', 50],
      ['y', 50],
    ]);
  });

  it('rejects a budget that is not a positive safe integer', () => {
    expect(() => assemblePrompt([], 0)).toThrow(TypeError);
    expect(() => assemblePrompt([], 1.5)).toThrow(/positive safe integer/);
    expect(assemblePrompt([], 1)).toMatchObject({ text: '', chars: 0, parts: [] });
  });
});

describe('assemblePrompt: yield order', () => {
  const fill = (ch: string) => ch.repeat(100);
  it('opportunistic before preferred regardless of order; then lower order first; ties: later first', () => {
    const parts = [
      part('p-high', fill('h'), { order: 90 }),
      part('p-low', fill('l'), { order: 10 }),
      part('o-high', fill('o'), { retention: 'opportunistic', order: 99 }),
      part('tie-1', fill('1'), { order: 10 }),
    ];
    // Total 4 × 100 + 3 × 2 = 406. Budget 200 → three blocks must go or shrink.
    const result = assemblePrompt(parts, 200);
    const status = Object.fromEntries(result.parts.map((p) => [p.id, p.status]));
    // o-high goes first (opportunistic), then tie-1 (order 10, rendered after p-low), then p-low.
    expect(status).toEqual({ 'p-high': 'full', 'p-low': 'truncated', 'o-high': 'dropped', 'tie-1': 'dropped' });
    // 406 - 102 (o-high) - 102 (tie-1) = 202; p-low 100 → 98 = 86 kept + 12 marker.
    expect(result.parts[1]).toMatchObject({ keptChars: 86, chars: 98 });
    expect(result.chars).toBe(200);
  });

  it('loaded skill instructions yield after every preferred section, oldest skill first', () => {
    const parts = [
      part('skill-old', fill('s'), { kind: 'skill', order: 0 }),
      part('skill-new', fill('t'), { kind: 'skill', order: 1 }),
      part('section', fill('p'), { order: 99 }),
    ];
    const result = assemblePrompt(parts, 202);
    expect(result.parts.map((p) => [p.id, p.status])).toEqual([
      ['skill-old', 'full'],
      ['skill-new', 'full'],
      ['section', 'dropped'],
    ]);
    const tighter = assemblePrompt(parts, 100);
    expect(tighter.parts.map((p) => p.status)).toEqual(['dropped', 'full', 'dropped']);
  });
});

describe('assemblePrompt: per-section maxChars', () => {
  it('truncates non-required content to maxChars, marker included, heading not counted', () => {
    const result = assemblePrompt([part(':s', 'x'.repeat(100), { heading: 'S', maxChars: 40 })], 1000);
    // "## S\n\n" (6) + 28 kept + 12 marker = 46; the content part is exactly maxChars 40.
    expect(result.text).toBe(`## S\n\n${'x'.repeat(28)}${TRUNCATION_MARKER}`);
    expect(result.parts[0]).toMatchObject({
      status: 'truncated',
      reason: 'maxChars',
      chars: 46,
      keptChars: 28,
      contentChars: 100,
    });
  });

  it('content of exactly maxChars is untouched; a maxChars that leaves no room beside the marker drops', () => {
    expect(assemblePrompt([part(':s', 'x'.repeat(40), { maxChars: 40 })], 1000).parts[0]!.status).toBe('full');
    expect(assemblePrompt([part(':s', 'x'.repeat(40), { maxChars: 12 })], 1000).parts[0]).toMatchObject({
      status: 'dropped',
      reason: 'maxChars',
    });
    expect(assemblePrompt([part(':s', 'x'.repeat(40), { maxChars: 13 })], 1000).text).toBe(`x${TRUNCATION_MARKER}`);
  });

  it('is an error for required content', () => {
    const error = caught(() =>
      assemblePrompt([part(':safety', 'x'.repeat(41), { retention: 'required', maxChars: 40 })], 1000),
    );
    expect(error.code).toBe('section-max-chars');
    expect(error.limit).toBe(40);
    expect(error.requiredChars).toBe(41);
    expect(error.message).toMatch(
      /prompt section ":safety" is required and has 41 characters of content, but its maxChars is 40/,
    );
  });

  it('a maxChars-truncated section can still yield further over the budget', () => {
    const parts = [
      part(':s', 'x'.repeat(300), { maxChars: 200 }),
      part('r', 'r'.repeat(50), { retention: 'required' }),
    ];
    // After maxChars: 188 + 12 = 200; total 200 + 2 + 50 = 252. Budget 150: excess 102 → kept 86.
    const result = assemblePrompt(parts, 150);
    expect(result.chars).toBe(150);
    expect(result.parts[0]).toMatchObject({ status: 'truncated', reason: 'budget', keptChars: 86, chars: 98 });
  });

  it('never splits a surrogate pair', () => {
    const emoji = '😀'.repeat(100);
    const result = assemblePrompt([part(':e', emoji, { maxChars: 51 })], 1000);
    // 51 - 12 = 39 would cut inside a pair → 38.
    expect(result.parts[0]).toMatchObject({ keptChars: 38, chars: 50 });
    expect(result.text).toBe(`${'😀'.repeat(19)}${TRUNCATION_MARKER}`);
    expect(/[\uD800-\uDBFF](?![\uDC00-\uDFFF])/.test(result.text)).toBe(false);
  });
});

describe('assemblePrompt: the budget arithmetic on many parts', () => {
  it('random prompts: the text is what the parts count, never over budget, and exactly the budget once a part is cut', async () => {
    const { seededRandom } = await import('../../helpers.js');
    const random = seededRandom(7);
    const retentions = ['required', 'preferred', 'opportunistic'] as const;
    for (let round = 0; round < 300; round++) {
      const parts = Array.from({ length: 1 + Math.floor(random() * 40) }, (_, i) =>
        part(`:p${i}`, 'x'.repeat(Math.floor(random() * 400)), {
          retention: retentions[Math.floor(random() * 3)]!,
          order: Math.floor(random() * 100),
          ...(random() < 0.5 ? { heading: `H${i}` } : {}),
        }),
      );
      const budget = Math.floor(random() * 8000);
      let result: ReturnType<typeof assemblePrompt>;
      try {
        result = assemblePrompt(parts, budget);
      } catch (error) {
        expect((error as PromptBudgetError).code).toBe('over-budget');
        continue;
      }
      expect(result.text.length).toBe(result.chars);
      expect(result.chars).toBeLessThanOrEqual(budget);
      const shown = result.parts.filter((p) => p.status !== 'dropped');
      expect(shown.reduce((sum, p) => sum + p.chars, 0) + Math.max(0, shown.length - 1) * PROMPT_SEPARATOR.length).toBe(
        result.chars,
      );
      if (result.parts.some((p) => p.status === 'truncated' && p.reason === 'budget'))
        expect(result.chars).toBe(budget);
    }
  });
});
