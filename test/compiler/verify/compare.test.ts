/**
 * The comparison `check --load` makes between a loaded definition and the manifest
 * (compiler/verify/compare.ts), for what the end-to-end tests (load.test.ts) can no longer reach
 * through a module: a hook's `events` the static read cannot vouch for is an error at build time
 * (ZG2012), so only a definition that changed behind the compiler's back differs from it.
 */
import { describe, expect, it } from 'vitest';
import type { HookModel } from '../../../compiler/model.js';
import { compareReport, hookExpectation } from '../../../compiler/verify/compare.js';

const hook: HookModel = {
  kind: 'hook',
  name: 'audit',
  owner: '',
  placement: 'plugin',
  events: ['tool:before'],
  source: 'hooks/audit/index.ts',
  loc: { file: 'hooks/audit/index.ts', line: 3, column: 16 },
  hash: 'h',
};

const loaded = (events: unknown) => ({
  fields: {
    kind: { t: 'json', v: 'agent-hook' },
    handle: { t: 'other', what: 'a function' },
    events: { t: 'json', v: events },
  },
});

describe('check --load: a hook', () => {
  it('whose loaded events differ from the manifest is ZG2054 at the definition', () => {
    const diagnostics = compareReport(
      hookExpectation(hook),
      hook.source,
      loaded(['tool:before', 'tool:after']) as never,
    );
    expect(diagnostics.map((d) => [d.code, d.line, d.message])).toEqual([
      [
        'ZG2054',
        3,
        expect.stringContaining(
          '`events` differs: the loaded module has ["tool:before","tool:after"], the manifest has ["tool:before"]',
        ),
      ],
    ]);
  });

  it("whose loaded events are the manifest's passes", () => {
    expect(compareReport(hookExpectation(hook), hook.source, loaded(['tool:before']) as never)).toEqual([]);
  });
});
