/**
 * `turn.execute` is typed by the generated registry. Two layers:
 * - a registry passed as a type argument (checked by `tsc` over this file: the
 *   `@ts-expect-error` lines fail the typecheck if they stop being errors);
 * - the real path: a separate program that augments `@zhin-gen/runtime` the way a generated
 *   manifest does, compiled with the TypeScript API (kept out of this program so the global
 *   augmentation cannot leak into other tests).
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import ts from 'typescript';
import { afterAll, describe, expect, expectTypeOf, it } from 'vitest';
import {
  createCapabilityHost,
  type AskUserInput,
  type ToolOutcome,
  type Turn,
  type TurnToolInput,
  type TurnToolName,
} from '../../../runtime/index.js';
import { Fixture, manifest } from '../fixture.js';

interface FixtureRegistry {
  readonly toolInputs: {
    readonly 'maps__get-weather': { readonly city: string; readonly days?: number };
    readonly echo: { readonly message: string };
  };
}

describe('execute typed by a registry', () => {
  it('accepts known names with their input types and rejects others', async () => {
    expectTypeOf<TurnToolName<FixtureRegistry>>().toEqualTypeOf<
      'maps__get-weather' | 'echo' | 'ask_user' | 'discover' | 'load_tool' | 'load_skill'
    >();
    expectTypeOf<TurnToolInput<FixtureRegistry, 'echo'>>().toEqualTypeOf<{ readonly message: string }>();
    expectTypeOf<TurnToolInput<FixtureRegistry, 'ask_user'>>().toEqualTypeOf<AskUserInput>();
    // Without a registry, names are strings and inputs unknown.
    expectTypeOf<TurnToolName<object>>().toEqualTypeOf<string>();
    expectTypeOf<TurnToolInput<object, 'anything'>>().toEqualTypeOf<unknown>();

    const host = createCapabilityHost<FixtureRegistry>();
    await host.load(manifest());
    const turn = await host.beginTurn({ sessionKey: 's' });
    expectTypeOf(turn).toEqualTypeOf<Turn<FixtureRegistry>>();
    expectTypeOf(turn.execute)
      .parameter(0)
      .toEqualTypeOf<'maps__get-weather' | 'echo' | 'ask_user' | 'discover' | 'load_tool' | 'load_skill'>();
    expectTypeOf(turn.execute<'echo'>)
      .parameter(1)
      .toEqualTypeOf<{ readonly message: string }>();
    expectTypeOf(turn.execute('echo', { message: 'hi' })).resolves.toEqualTypeOf<ToolOutcome>();

    // Runtime behaviour is unaffected by the types: unknown to this manifest → denied.
    expect(await turn.execute('maps__get-weather', { city: 'Paris' })).toMatchObject({
      status: 'denied',
      policy: 'capability',
    });
    // @ts-expect-error unknown tool name
    await turn.execute('nope', {});
    // @ts-expect-error wrong input type
    await turn.execute('echo', { message: 1 });
    // @ts-expect-error missing required property
    await turn.execute('maps__get-weather', { days: 2 });
    await turn.end();
  });
});

describe('module augmentation of @zhin-gen/runtime (as generated manifests do)', () => {
  const fx = new Fixture('types');
  afterAll(() => fx.cleanup());

  /**
   * One program over the generated augmentation and every test's module: the runtime's sources
   * are type-checked once for the three tests, not once each. A test reads the diagnostics of
   * its own module and of every file that is no test's module (the runtime, gen.ts).
   */
  const generated = `export {};
declare module '@zhin-gen/runtime' {
  interface CapabilityRegistry {
    readonly toolInputs: {
      readonly 'maps__get-weather': { readonly city: string };
      readonly echo: { readonly message: string };
    };
  }
}
`;
  const MODULES: Readonly<Record<'ok.ts' | 'old.ts' | 'bad.ts', string>> = {
    'ok.ts': `import { createCapabilityHost, type ToolName } from '@zhin-gen/runtime';
import './gen.js';
export const names: ToolName[] = ['maps__get-weather', 'echo'];
export async function run(): Promise<void> {
  const turn = await createCapabilityHost().beginTurn({ sessionKey: 's' });
  await turn.execute('maps__get-weather', { city: 'Paris' });
  await turn.execute('ask_user', { question: 'ok?' });
  // @ts-expect-error unknown name
  await turn.execute('nope', {});
  // @ts-expect-error wrong input
  await turn.execute('echo', { message: 1 });
}
`,
    'old.ts': `import { createCapabilityHost, type ToolName } from 'zhin-gen/runtime';
import './gen.js';
export const names: ToolName[] = ['maps__get-weather', 'echo'];
// @ts-expect-error unknown name
export const wrong: ToolName = 'nope';
export async function run(): Promise<void> {
  const turn = await createCapabilityHost().beginTurn({ sessionKey: 's' });
  // @ts-expect-error wrong input
  await turn.execute('echo', { message: 1 });
}
`,
    'bad.ts': `import { createCapabilityHost } from '@zhin-gen/runtime';
import './gen.js';
export async function run(): Promise<void> {
  const turn = await createCapabilityHost().beginTurn({ sessionKey: 's' });
  await turn.execute('maps__get-wether', { city: 'Paris' });
  await turn.execute('echo', { message: 1 });
}
`,
  };
  type Module = keyof typeof MODULES;

  let all: readonly string[] | undefined;
  function compile(): readonly string[] {
    const names = Object.entries({ 'gen.ts': generated, ...MODULES }).map(([name, text]) => {
      const file = join(fx.dir, name);
      writeFileSync(file, text);
      return file;
    });
    const program = ts.createProgram(names, {
      target: ts.ScriptTarget.ES2022,
      module: ts.ModuleKind.NodeNext,
      moduleResolution: ts.ModuleResolutionKind.NodeNext,
      strict: true,
      noEmit: true,
      skipLibCheck: true,
      types: ['node'],
      // Against the sources, as every test here; test/package/ checks the emitted declarations.
      customConditions: ['source'],
    });
    return ts.getPreEmitDiagnostics(program).map((d) => {
      const where = d.file
        ? `${d.file.fileName.slice(fx.dir.length + 1)}:${d.file.getLineAndCharacterOfPosition(d.start ?? 0).line + 1}`
        : '';
      return `${where} ${ts.flattenDiagnosticMessageText(d.messageText, '\n')}`;
    });
  }
  function diagnosticsFor(module: Module): string[] {
    all ??= compile();
    const others = (Object.keys(MODULES) as Module[]).filter((name) => name !== module);
    return all.filter((d) => !others.some((name) => d.startsWith(`${name}:`)));
  }

  it('types names and inputs through the augmented CapabilityRegistry', () => {
    expect(diagnosticsFor('ok.ts')).toEqual([]);
  }, 60_000);

  it('types the same names through the zhin-gen/runtime re-export (one interface, augmented once)', () => {
    expect(diagnosticsFor('old.ts')).toEqual([]);
  }, 60_000);

  it('reports real errors for a wrong name and a wrong input', () => {
    const diagnostics = diagnosticsFor('bad.ts');
    expect(diagnostics).toHaveLength(2);
    expect(diagnostics[0]).toMatch(/^bad\.ts:5 .*"maps__get-wether"/);
    expect(diagnostics[1]).toMatch(/^bad\.ts:6 .*number.*string/s);
  }, 60_000);
});
