/**
 * zhin.js's earlier layout through the real CLI: `check` reports every construct of it with its
 * file, line and column, names the construct, points to `zhin-gen migrate`, and fails (exit 1):
 * a tree that still has one never passes with the capability missing from its manifest.
 */
import { afterAll, describe, expect, it } from 'vitest';
import { cli, copyFixture, removeDir } from '../../helpers.js';

interface Reported {
  readonly code: string;
  readonly severity: string;
  readonly file: string;
  readonly line: number;
  readonly column: number;
  readonly message: string;
  readonly hint?: string;
}

const roots: string[] = [];
afterAll(() => roots.forEach(removeDir));

function check(fixture: string): { status: number; diagnostics: Reported[]; pretty: string } {
  const root = copyFixture(fixture);
  roots.push(root);
  const json = cli(['check', '--root', root, '--format', 'json']);
  const pretty = cli(['check', '--root', root]);
  return {
    status: json.status,
    diagnostics: (JSON.parse(json.stdout) as { diagnostics: Reported[] }).diagnostics,
    pretty: pretty.stdout + pretty.stderr,
  };
}

const at = (d: Reported): string => `${d.file}:${d.line}:${d.column} ${d.severity} ${d.code}`;

describe('earlier zhin.js layout: nothing ignored in silence', () => {
  it('every path-level construct is an error at its file, naming it, with a migrate hint', () => {
    const { status, diagnostics, pretty } = check('invalid-earlier-layout');
    expect(status).toBe(1);
    expect(diagnostics.map(at)).toEqual([
      'agent/README.md:1:1 warning ZG1054',
      'agent/agent.ts:1:1 error ZG1052',
      'agent/hooks/deny-kick.ts:1:1 error ZG1063',
      'agent/prompt-sections/house-rules.ts:1:1 error ZG1053',
      'agent/skills/lottery.md:1:1 error ZG1051',
      'agent/skills/moderation.ts:1:1 error ZG1064',
      'agent/tools/lottery_sync.ts:1:1 error ZG1050',
      'agents/helper.agent.md:1:1 error ZG1057',
      'agents/moderator/agent.ts:1:1 error ZG1058',
      'prompt-sections/tone.ts:1:1 error ZG1053',
      'skills/greeting.md:1:1 error ZG1059',
      'tools/translate/translate.tool.md:1:1 error ZG1056',
      'tools/weather.ts:1:1 error ZG1055',
    ]);
    for (const d of diagnostics.filter((x) => x.severity === 'error')) {
      expect(d.message).toContain("zhin.js's earlier");
      expect(d.hint).toContain('zhin-gen migrate');
    }
    // The agent/ folder's helper files are one warning naming them, not one per file.
    expect(diagnostics.find((d) => d.code === 'ZG1054')!.message).toContain('holds 2 files that are no tool');
    // The agent.ts + instructions.md agent is one diagnostic, not four missing files.
    expect(diagnostics.some((d) => d.code === 'ZG4014')).toBe(false);
    expect(pretty).toMatch(
      /agent\/tools\/lottery_sync\.ts:1:1 +error +ZG1050 +"agent\/tools\/lottery_sync\.ts" is tool "lottery_sync"/,
    );
  });

  it('approval, platformPermit(), the earlier helper and prompt-section fields are errors at the value, with what to write', () => {
    const { status, diagnostics } = check('invalid-earlier-definitions');
    expect(status).toBe(1);
    expect(diagnostics.map((d) => `${at(d)} ${d.message.replace(/^[^:]*: /, '')}`)).toEqual([
      expect.stringMatching(/^prompt-sections\/rules\/index\.ts:4:3 error ZG2059 `id` \("house-rules"\)/),
      expect.stringMatching(/^prompt-sections\/rules\/index\.ts:5:3 error ZG2059 .*write `order: 80`$/),
      expect.stringMatching(/^prompt-sections\/rules\/index\.ts:6:3 error ZG2059 .*write `retention: 'required'`$/),
      expect.stringMatching(/^tools\/dept-list\/index\.ts:5:3 error ZG2060 .*did you mean `platforms: \['wecom'\]`\?$/),
      expect.stringMatching(
        /^tools\/mute-member\/index\.ts:10:3 error ZG2056 `approval: 'always'` .*did you mean `requiresApproval: 'always'`\?$/,
      ),
      expect.stringMatching(/^tools\/mute-member\/index\.ts:11:17 error ZG2057 .*'platform\(icqq,admin\)'$/),
      expect.stringMatching(/^tools\/mute-member\/index\.ts:11:50 error ZG2057 .*'platform\(icqq,owner\)'$/),
      expect.stringMatching(
        /^tools\/news\/index\.ts:3:16 error ZG2058 defineTool\(\.\.\.\) from "@zhin\.js\/agent\/tools"/,
      ),
      expect.stringMatching(
        /^tools\/news\/index\.ts:5:3 error ZG2056 `approval: 'sometimes'` .*no requiresApproval equivalent$/,
      ),
      expect.stringMatching(
        /^tools\/push-branch\/index\.ts:5:3 error ZG2056 `approval: true` .*`requiresApproval: 'always'`\? \(the definition also sets `requiresApproval`: keep one\)$/,
      ),
    ]);
    const approval = diagnostics.find((d) => d.code === 'ZG2056')!;
    expect(approval.hint).toContain("Write `requiresApproval: 'always'` (what this tool would have had)");
    // keywords and tags are fields now: no "unknown field" for them.
    expect(diagnostics.some((d) => d.code === 'ZG2010')).toBe(false);
  });
});
