/**
 * The runnable example `fixtures/seam-bot/run.ts`, run as the README says (`node --import tsx
 * run.ts`), in a copy of the example: it writes its manifest beside itself, and tests leave
 * nothing in the source tree.
 */
import { execFile } from 'node:child_process';
import { existsSync, mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { promisify } from 'node:util';
import ts from 'typescript';
import { afterAll, describe, expect, it } from 'vitest';
import { copyFixture, removeDir, REPO as repo } from '../../helpers.js';

const example = copyFixture('seam-bot');
afterAll(() => removeDir(example));

describe('fixtures/seam-bot', () => {
  it('compiles, loads the root seam, and runs acme_search through turn.execute with a journal', async () => {
    const { stdout, stderr } = await promisify(execFile)(
      process.execPath,
      ['--import', 'tsx', join(example, 'run.ts')],
      {
        cwd: repo,
        timeout: 60_000,
      },
    );
    expect(stderr).toBe('');
    const lines = stdout.trim().split('\n');
    expect(lines).toEqual([
      'compiled 1 tool(s) into zhin-capabilities.gen.ts',
      'generation 1: 3 tools',
      '  tool ask_user source=runtime approval=never',
      '  tool echo source=feature approval=never',
      '  tool acme_search source=seam approval=never provider=acme:search remote:acme',
      '  skill acme_research source=seam: Research with Acme sources',
      'member: acme_search {"query":"seam"} -> completed [{"id":"acme-102","title":"Capability Seam for remote providers"}]',
      'member: echo {"message":"hi"} -> completed "echo: hi"',
      'member: load skill acme_research -> "# Acme research\\nUse acme_search, cite source IDs, then summarize."',
      '  journal #0 tool_call acme_search (toolu_1) source=seam input={"query":"seam"}',
      '  journal #1 tool_result acme_search (toolu_1) output=[{"id":"acme-102","title":"Capability Seam for remote providers"}]',
      '  journal #2 tool_call echo (toolu_2) source=feature input={"message":"hi"}',
      '  journal #3 tool_result echo (toolu_2) output="echo: hi"',
      'anonymous: acme_search {"query":"seam"} -> denied capability: tool "acme_search" is not available',
      '  journal #0 tool_denied acme_search (toolu_3) policy=capability reason=tool "acme_search" is not available',
      'legacy executeTool -> {"success":false,"error":"SeamIntegration.executeTool(\\"acme_search\\") is not supported: seam tools run only ' +
        'through the turn tool pipeline (generation → permission → approval → journal). Call turn.execute(\\"acme_search\\", input) on a turn from host.beginTurn()."}',
    ]);
  });

  it('type-checks under the generated manifest: seam tools typed through SeamToolInputs', () => {
    // The run above wrote zhin-capabilities.gen.ts, which narrows turn.execute names to `echo`.
    expect(existsSync(join(example, 'zhin-capabilities.gen.ts'))).toBe(true);
    const probeDir = join(repo, 'test', 'tmp', `seam-types-${process.pid}`);
    mkdirSync(probeDir, { recursive: true });
    const probe = join(probeDir, 'probe.ts');
    writeFileSync(
      probe,
      `import type { Turn } from 'zhin-gen/runtime';
declare const turn: Turn;
void turn.execute('acme_search', { query: 'ok' });
void turn.execute('echo', { message: 'ok' });
// @ts-expect-error wrong input type for a seam tool
void turn.execute('acme_search', { query: 1 });
// @ts-expect-error neither compiled nor a typed seam tool
void turn.execute('acme_nope', {});
`,
    );
    const config = ts.getParsedCommandLineOfConfigFile(
      join(repo, 'tsconfig.json'),
      {},
      { ...ts.sys, onUnRecoverableConfigFileDiagnostic: () => {} },
    )!;
    const roots = [
      'plugin.ts',
      'run.ts',
      'tools/echo/index.ts',
      'seams/search-service.ts',
      'seams/research-skills.ts',
      'zhin-capabilities.gen.ts',
    ].map((f) => join(example, f));
    const program = ts.createProgram([...roots, probe], { ...config.options, noEmit: true });
    const messages = ts
      .getPreEmitDiagnostics(program)
      .map((d) => `${d.file?.fileName ?? ''}: ${ts.flattenDiagnosticMessageText(d.messageText, '\n')}`);
    rmSync(probeDir, { recursive: true, force: true });
    expect(messages).toEqual([]);
  });
});
