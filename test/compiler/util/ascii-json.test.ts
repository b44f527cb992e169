/** util/ascii-json.ts: JSON text with every non-ASCII character escaped reads back as the same value. */
import { describe, expect, it } from 'vitest';
import { asciiJson, stringifyAscii } from '../../../compiler/util/ascii-json.js';

describe('asciiJson', () => {
  it('escapes every character above U+007F and parses back to the same value', () => {
    const value = {
      zh: '查询天气',
      emoji: '🙂 outside the BMP',
      lone: '\ud800 lone surrogates \udfff',
      separators: 'line\u2028paragraph\u2029',
      edges: '\u007f\u0080\u00ff\u0100\uffff',
      control: '\u0000\t\n"\\',
      '键 with a wide key': [1.5, null, true, { nested: '深' }],
    };
    const text = stringifyAscii(value);
    expect(text).toMatch(/^[\x00-\x7f]*$/);
    expect(JSON.parse(text)).toEqual(value);
    expect(text).toBe(asciiJson(JSON.stringify(value)));
  });

  it('returns the text itself when it has nothing to escape, and undefined for undefined', () => {
    const text = JSON.stringify({ plain: 'ascii only', n: [1, 2] });
    expect(asciiJson(text)).toBe(text);
    expect(stringifyAscii(undefined)).toBeUndefined();
  });
});
