/** The TypeScript definition reader: positions survive a BOM and CRLF; literals and consts are read through. */
import { ts } from 'ts-morph';
import { describe, expect, it } from 'vitest';
import { parseCode } from '../../../compiler/parse/definition.js';
import { validateToolFields } from '../../../compiler/validate/tool.js';

const MODULES = ['zhin-gen/runtime', '@zhin.js/tool'];

function read(text: string) {
  // The compiler's reader strips the BOM before parsing (see compiler/cache/units.ts).
  return parseCode({
    ts,
    file: 'tools/x/index.ts',
    text: text.replace(/^\uFEFF/, ''),
    expected: 'defineAgentTool',
    modules: MODULES,
  });
}

describe('parseCode', () => {
  it('reports exact positions in a CRLF file with a BOM', () => {
    const text =
      "\uFEFFimport { defineAgentTool } from 'zhin-gen/runtime';\r\n\r\nexport default defineAgentTool({\r\n  description: 'x',\r\n  requiresApproval: 'maybe',\r\n  execute() {},\r\n});\r\n";
    const parsed = read(text);
    expect(parsed.diagnostics).toEqual([]);
    const { diagnostics } = validateToolFields(parsed.fields!, 'tool "x"', [], { requireExecute: true });
    expect(diagnostics.map((d) => [d.code, d.line, d.column])).toEqual([['ZG2006', 5, 21]]);
  });

  it('a define helper imported with `import type` is no helper: it binds nothing when the module runs', () => {
    for (const imports of [
      "import type { defineAgentTool } from 'zhin-gen/runtime';",
      "import { type defineAgentTool } from 'zhin-gen/runtime';",
      "import type { defineAgentTool as define } from 'zhin-gen/runtime';",
    ]) {
      const call = imports.includes(' as define') ? 'define' : 'defineAgentTool';
      const parsed = read(`${imports}\nexport default ${call}({ description: 'x', execute() {} });\n`);
      expect(
        parsed.diagnostics.map((d) => [d.code, d.line, d.column, d.message]),
        imports,
      ).toEqual([
        [
          'ZG2003',
          2,
          16,
          `${call} is imported with \`import type\`, which binds nothing when the module runs: import it as a value`,
        ],
      ]);
    }
  });

  it('follows a const default export and same-file consts, and recognises namespace imports', () => {
    const parsed = read(
      "import * as tool from '@zhin.js/tool';\nconst DESCRIPTION = 'Look ' + 'up';\nconst scopes = ['group'] as const;\nconst def = tool.defineAgentTool({ description: DESCRIPTION, scopes, hidden: true, execute: async () => 1 });\nexport default def;\n",
    );
    expect(parsed.diagnostics).toEqual([]);
    const { value, diagnostics } = validateToolFields(parsed.fields!, 'tool "x"', [], { requireExecute: true });
    expect(diagnostics).toEqual([]);
    expect(value).toMatchObject({
      description: 'Look up',
      scopes: ['group'],
      hidden: true,
      requiresApproval: 'on-risk',
    });
  });

  it('reads a chain of consts through up to its limit, and a chain of thousands as not a literal (never out of stack)', () => {
    // Declared before use (a const read before its declaration is no value at all).
    const chain = (n: number): string => {
      let text = `import { defineAgentTool } from 'zhin-gen/runtime';\nconst C${n} = 'deep';\n`;
      for (let i = n - 1; i >= 0; i--) text += `const C${i} = C${i + 1};\n`;
      return `${text}export default defineAgentTool({ description: C0, execute() {} });\n`;
    };
    const fieldOf = (n: number) =>
      validateToolFields(read(chain(n)).fields!, 'tool "x"', [], { requireExecute: true }).diagnostics;
    expect(fieldOf(200)).toEqual([]);
    for (const n of [300, 5000]) expect(fieldOf(n).map((d) => [d.code, d.line])).toEqual([['ZG2004', n + 3]]);
  });

  it('reports syntax errors with their position and never throws', () => {
    const parsed = read(
      "import { defineAgentTool } from 'zhin-gen/runtime';\nexport default defineAgentTool({ description: 'x', execute() { return ( }, });\n",
    );
    expect(parsed.diagnostics[0]).toMatchObject({ code: 'ZG2001', line: 2 });
  });

  it('reads quoted and bracketed literal keys as the fields they name, the schema included', () => {
    const schemas: string[] = [];
    const parsed = parseCode({
      ts,
      file: 'tools/x/index.ts',
      text: "import { defineAgentTool } from 'zhin-gen/runtime';\nexport default defineAgentTool({ 'description': 'Wipe', 'inputSchema': S, ['requiresApproval']: 'always', [`permissions`]: ['role(admin)'], [\"scopes\"]: ['group'], execute() {} });\n",
      expected: 'defineAgentTool',
      modules: MODULES,
      extractSchema: (sf, node) => {
        schemas.push(node.getText(sf));
        return undefined;
      },
    });
    expect(schemas).toEqual(['S']);
    const { value, diagnostics } = validateToolFields(parsed.fields!, 'tool "x"', [], { requireExecute: true });
    expect(diagnostics).toEqual([]);
    expect(value).toMatchObject({ requiresApproval: 'always', permissions: ['role(admin)'], scopes: ['group'] });
  });

  it('reads same-file values through members, enums, templates, spreads and computed keys', () => {
    const parsed = read(
      [
        "import { defineAgentTool } from 'zhin-gen/runtime';",
        "const ROLES = { admin: 'role(admin)' } as const;",
        "enum Scope { Group = 'group' }",
        "const ROLE = 'mod';",
        "const GROUP = ['group'] as const;",
        "const KEY = 'platforms';",
        'export default defineAgentTool({',
        "  description: 'x',",
        "  permissions: [ROLES.admin, ROLES['admin'].length ? `role(${ROLE})` : 'x', `role(${ROLE})`],",
        '  scopes: [Scope.Group, ...GROUP].slice(0, 1),',
        "  [KEY]: ['qq'],",
        '  hidden: undefined,',
        '  requiresApproval: void 0,',
        '  execute() {},',
        '});',
        '',
      ].join('\n'),
    );
    const { value, diagnostics } = validateToolFields(parsed.fields!, 'tool "x"', [], { requireExecute: true });
    // A conditional and a method call are not read (an error at the field), the rest is.
    expect(diagnostics.map((d) => [d.code, d.line])).toEqual([
      ['ZG2012', 10],
      ['ZG2012', 9],
    ]);
    expect(value).toMatchObject({ platforms: [{ value: 'qq' }], hidden: false, requiresApproval: 'on-risk' });
    const plain = read(
      "import { defineAgentTool } from 'zhin-gen/runtime';\nconst ROLES = { admin: 'role(admin)' } as const;\nenum Scope { Group = 'group' }\nconst ROLE = 'mod';\nconst PRIVATE = ['private'] as const;\nexport default defineAgentTool({ description: 'x', permissions: [ROLES.admin, `role(${ROLE})`], scopes: [Scope.Group, ...PRIVATE], execute() {} });\n",
    );
    const checked = validateToolFields(plain.fields!, 'tool "x"', [], { requireExecute: true });
    expect(checked.diagnostics).toEqual([]);
    expect(checked.value).toMatchObject({ permissions: ['role(admin)', 'role(mod)'], scopes: ['group', 'private'] });
  });

  it('never reads a const through that the module changes or hands away before the definition runs', () => {
    const changed = [
      "const PERMS: string[] = [];\nif (process.env.X) PERMS.push('role(admin)');",
      "const PERMS: string[] = [];\nObject.assign(PERMS, ['role(admin)']);",
      "const PERMS: string[] = [];\nPERMS[0] = 'role(admin)';",
      "const BOX = { list: [] as string[] };\nBOX.list.push('role(admin)');\nconst PERMS = BOX.list;",
      "const PERMS: string[] = [];\nconst ALIAS = PERMS;\nALIAS.push('role(admin)');",
      "const PERMS: string[] = [];\nconst BOX = { PERMS };\nBOX.PERMS.push('role(admin)');",
      "const PERMS: string[] = [];\nfunction grant() {\n  PERMS.push('role(admin)');\n}\ngrant();",
      // Through what passes the value on as it is.
      "const PERMS: string[] = [];\n(PERMS as string[]).push('role(admin)');",
      "const PERMS: string[] = [];\nPERMS!.push('role(admin)');",
      "const PERMS: string[] = [];\n(PERMS satisfies string[]).splice(0, 0, 'role(admin)');",
      "const PERMS: string[] = [];\n(0, PERMS).push('role(admin)');",
      "const PERMS: string[] = [];\nconst OTHER: string[] = [];\n(process.env.X ? PERMS : OTHER).push('role(admin)');",
      // Destructuring targets and loop variables.
      "const PERMS: string[] = ['x'];\n[PERMS[0]] = ['role(admin)'];",
      "const PERMS: string[] = ['x'];\n({ a: PERMS[0] } = { a: 'role(admin)' });",
      "const PERMS: string[] = ['x'];\nfor (PERMS[0] in { 'role(admin)': 1 });",
      // Held in a literal that goes somewhere it can be changed, returned, or looped over.
      "const PERMS: string[] = [];\n[PERMS].forEach((p) => p.push('role(admin)'));",
      "const PERMS: string[] = [];\nconst [alias] = [PERMS];\nalias!.push('role(admin)');",
      "const PERMS: string[] = [];\nfor (const p of [PERMS]) p.push('role(admin)');",
      "const PERMS: string[] = [];\nfunction get() {\n  return PERMS;\n}\nget().push('role(admin)');",
      "const PERMS: string[] = [];\nconst get = () => PERMS;\nget().push('role(admin)');",
      // Through a logical operator, or held by a name no one follows (a let, a var, a function's const).
      "const PERMS: string[] = [];\n(PERMS || []).push('role(admin)');",
      "const PERMS: string[] = [];\n(PERMS ?? []).push('role(admin)');",
      "const PERMS: string[] = [];\n(process.env.X && PERMS)!.push('role(admin)');",
      "const PERMS: string[] = [];\nlet BOX = { p: PERMS };\nBOX.p.push('role(admin)');",
      "const PERMS: string[] = [];\nvar BOX = [PERMS];\nBOX[0]!.push('role(admin)');",
      "const PERMS: string[] = [];\nfunction g() {\n  const box = { p: PERMS };\n  box.p.push('role(admin)');\n}\ng();",
      "const PERMS: string[] = [];\nfunction g(p = PERMS) {\n  p.push('role(admin)');\n}\ng();",
      "const PERMS: string[] = [];\nclass A {\n  p = PERMS;\n}\nnew A().p.push('role(admin)');",
    ];
    for (const setup of changed) {
      const parsed = read(
        `import { defineAgentTool } from 'zhin-gen/runtime';\n${setup}\nexport default defineAgentTool({ description: 'x', permissions: PERMS, execute() {} });\n`,
      );
      const { diagnostics } = validateToolFields(parsed.fields!, 'tool "x"', [], { requireExecute: true });
      expect(
        diagnostics.map((d) => d.code),
        setup,
      ).toEqual(['ZG2012']);
    }
    // Read, never changed: `.length`, `.map(...)` of another value, the define call itself.
    const parsed = read(
      "import { defineAgentTool } from 'zhin-gen/runtime';\nconst PERMS = ['role(admin)'];\nconsole.log(PERMS.length, PERMS.includes('x'), PERMS.map(String));\nconst DEF = { description: 'x', permissions: PERMS, execute() {} };\nexport default defineAgentTool(DEF);\n",
    );
    expect(validateToolFields(parsed.fields!, 'tool "x"', [], { requireExecute: true }).value.permissions).toEqual([
      'role(admin)',
    ]);
    // The message says where the module may change it.
    const pushed = read(
      "import { defineAgentTool } from 'zhin-gen/runtime';\nconst PERMS: string[] = [];\n(PERMS as string[]).push('role(admin)');\nexport default defineAgentTool({ description: 'x', permissions: PERMS, execute() {} });\n",
    );
    expect(validateToolFields(pushed.fields!, 'tool "x"', [], { requireExecute: true }).diagnostics[0]!.message).toBe(
      'tool "x": `permissions` is not a literal value (the module may change PERMS at line 3: `(PERMS as string[]).push(\'role(admin)\')`): the manifest, which the runtime enforces, cannot carry it',
    );
    // Ordinary modules: their consts looped over, members shown or returned, copies spread.
    for (const uses of [
      'for (const p of PERMS) console.debug(p);',
      'for (const k in PERMS) console.debug(k);',
      'console.log({ n: PERMS.length }, [...PERMS]);',
      'export const first = () => ({ who: PERMS[0] });',
      'export function show() {\n  return { text: PERMS[0] };\n}',
    ]) {
      const ordinary = read(
        `import { defineAgentTool } from 'zhin-gen/runtime';\nconst PERMS = ['role(admin)'];\n${uses}\nexport default defineAgentTool({ description: 'x', permissions: PERMS, execute() {} });\n`,
      );
      expect(validateToolFields(ordinary.fields!, 'tool "x"', [], { requireExecute: true }).diagnostics, uses).toEqual(
        [],
      );
    }
    // Reads of every other kind, and a string const returned (a string never changes).
    const reads = read(
      "import { defineAgentTool } from 'zhin-gen/runtime';\nconst PERMS = ['role(admin)'];\nconst HELP = 'Shows help';\nconst empty = !PERMS.length || `${PERMS.join(',')}` === '' || -PERMS.length > 0;\nexport default defineAgentTool({ description: HELP, permissions: [...(PERMS as string[])], execute() { return empty ? HELP : HELP; } });\n",
    );
    const readsChecked = validateToolFields(reads.fields!, 'tool "x"', [], { requireExecute: true });
    expect(readsChecked.diagnostics).toEqual([]);
    expect(readsChecked.value).toMatchObject({ description: 'Shows help', permissions: ['role(admin)'] });
  });

  it('a key named __proto__ in a definition is a key like any other (reported unknown)', () => {
    const parsed = read(
      "import { defineAgentTool } from 'zhin-gen/runtime';\nexport default defineAgentTool({ description: 'x', __proto__: { permissions: [] }, execute() {} });\n",
    );
    const { diagnostics } = validateToolFields(parsed.fields!, 'tool "x"', [], { requireExecute: true });
    expect(diagnostics.map((d) => [d.code, d.message])).toEqual([['ZG2010', 'tool "x": unknown field `__proto__`']]);
  });

  it('refuses a tool whose access or approval fields cannot be read (never the default in their place)', () => {
    const cases = [
      "const K = process.env.K ?? 'tags';\nexport default defineAgentTool({ description: 'x', [K]: ['role(admin)'], execute() {} });\n",
      "const base = { permissions: ['role(admin)'] };\nexport default defineAgentTool({ description: 'x', ...base, execute() {} });\n",
      "import { P } from './p.js';\nexport default defineAgentTool({ description: 'x', permissions: P, execute() {} });\n",
      "import { P } from './p.js';\nexport default defineAgentTool({ description: 'x', hidden: P, execute() {} });\n",
      "import { make } from './make.js';\nexport default defineAgentTool(make('x'));\n",
    ];
    for (const body of cases) {
      const parsed = read(`import { defineAgentTool } from 'zhin-gen/runtime';\n${body}`);
      const { diagnostics } = validateToolFields(parsed.fields!, 'tool "x"', [], { requireExecute: true });
      expect(
        diagnostics.map((d) => [d.code, d.severity]),
        body,
      ).toContainEqual(['ZG2012', 'error']);
    }
  });

  it('finds conditional tools however setup() reaches the add methods', () => {
    const parsed = parseCode({
      ts,
      file: 'plugin.ts',
      text: "import { definePlugin, defineAgentTool } from 'zhin-gen/runtime';\nexport default definePlugin({ name: 'p', setup(context) {\n  context.addTool('a1', defineAgentTool({ description: 'x', execute() {} }));\n  context['addTool']('a2', defineAgentTool({ description: 'x', execute() {} }));\n  const { addTool, addPromptSection: section } = context;\n  addTool('a3', defineAgentTool({ description: 'x', execute() {} }));\n  section('s1', {});\n  context.addTool.call(context, 'a4', defineAgentTool({ description: 'x', execute() {} }));\n  const bound = context.addTool.bind(context);\n  bound('a5', defineAgentTool({ description: 'x', execute() {} }));\n} });\n",
      expected: 'definePlugin',
      modules: MODULES,
    });
    expect(parsed.conditionalTools.map((ref) => [ref.kind, ref.localName, ref.loc.line])).toEqual([
      ['tool', 'a1', 3],
      ['tool', 'a2', 4],
      ['tool', 'a3', 6],
      ['prompt-section', 's1', 7],
      ['tool', 'a4', 8],
      ['tool', 'a5', 10],
    ]);
  });

  it('says what a default export that is no definition call is', () => {
    const message = (body: string) =>
      read(`import { defineAgentTool } from 'zhin-gen/runtime';\n${body}`).diagnostics.map((d) => [
        d.code,
        d.line,
        d.message,
      ]);
    expect(message('export default function tool() { return 1; }\n')).toEqual([
      [
        'ZG2002',
        2,
        'The default export is a function declaration, not a call; expected `export default defineAgentTool({ ... })`',
      ],
    ]);
    expect(message("export { default } from './impl.js';\n")).toEqual([
      [
        'ZG2002',
        2,
        "The default export is re-exported from './impl.js', and zhin-gen reads the definition in this file; expected `export default defineAgentTool({ ... })`",
      ],
    ]);
    expect(message('function tool() {}\nexport { tool as default };\n')[0]![2]).toContain(
      'a function declaration, not a call',
    );
    expect(message("import tool from './impl.js';\nexport { tool as default };\n")[0]![2]).toContain(
      'The default export is imported from "./impl.js", and zhin-gen reads the definition in this file',
    );
  });

  it('marks values that are not statically known instead of guessing', () => {
    const parsed = read(
      "import { defineAgentTool } from 'zhin-gen/runtime';\nimport { desc, kw } from './desc.js';\nexport default defineAgentTool({ description: desc, keywords: kw, execute() {} });\n",
    );
    const { diagnostics } = validateToolFields(parsed.fields!, 'tool "x"', [], { requireExecute: true });
    // A description the model would be sent empty is an error (ZG2004); keywords only feed the search.
    expect(diagnostics.map((d) => [d.code, d.severity, d.line, d.column]).sort()).toEqual([
      ['ZG2004', 'error', 3, 47],
      ['ZG2011', 'warning', 3, 63],
    ]);
    expect(parsed.relativeImports.map((i) => i.specifier)).toEqual(['./desc.js']);
  });
});
