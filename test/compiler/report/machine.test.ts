/**
 * The machine formats' paths: rebased onto the directory CI resolves them from, and in SARIF a
 * URI reference (each segment percent-encoded), which a file name with `,`, `%` or a space is not.
 */
import { describe, expect, it } from 'vitest';
import { diag } from '../../../compiler/diagnostics.js';
import { formatGithub, formatSarif } from '../../../compiler/report/index.js';

const odd = diag('ZG2004', { file: 'tools/a,b c%/index.ts', line: 3, column: 5, message: 'no description' });

describe('machine formats', () => {
  it('SARIF locations are URI references of the path from the base', () => {
    const sarif = formatSarif([odd], '0.0.0', { base: 'bots/one' }) as {
      runs: { results: { locations: { physicalLocation: { artifactLocation: { uri: string } } }[] }[] }[];
    };
    expect(sarif.runs[0]!.results[0]!.locations[0]!.physicalLocation.artifactLocation.uri).toBe(
      'bots/one/tools/a%2Cb%20c%25/index.ts',
    );
  });

  it('GitHub annotations name the file from the base, escaped as workflow command properties', () => {
    expect(formatGithub([odd], { base: 'bots/one' })).toBe(
      '::error file=bots/one/tools/a%2Cb c%25/index.ts,line=3,col=5,title=ZG2004::no description%0Ahint: ' +
        formatGithub([odd]).split('%0Ahint: ')[1],
    );
    expect(formatGithub([odd])).toContain('::error file=tools/a%2Cb c%25/index.ts,line=3,col=5');
  });
});
