/**
 * `zhin-gen new tool|skill|agent|section <name> [--agent A] [--skill S] [--plugin P]`: writes
 * the folder and files of one capability (compiler/scaffold/placement.ts decides where) and
 * prints the qualifiedName it will get. The tree is compiled first (not written) so the plugin
 * directories are the compiler's and a name that would clash with an existing capability — also
 * after case folding — is refused before anything is written.
 */
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { foldName } from '@zhin-gen/runtime/names';
import type { Compiler } from '../context.js';
import { promptSectionId } from '@zhin-gen/runtime/names';
import type { CapabilityModel } from '../model.js';
import { NEW_KINDS, planNew, type NewKind, type NewPlan } from '../scaffold/placement.js';
import { writeScaffold } from '../scaffold/write.js';
import type { Io } from './io.js';
import { didYouMean } from './suggest.js';

export interface NewArgs {
  readonly kind?: string;
  readonly name?: string;
  readonly agent?: string;
  readonly skill?: string;
  readonly plugin?: string;
  readonly json: boolean;
}

function describe(plan: NewPlan): string {
  switch (plan.placement) {
    case 'plugin':
      return 'plugin tool, in the deferred catalog from the turn start';
    case 'agent':
      return plan.kind === 'agent' ? 'sub-agent' : 'agent tool, when its agent is selected';
    case 'skill':
      return plan.kind === 'skill' ? 'skill' : 'skill tool, after load_skill of its skill';
    case 'agent-skill':
      return plan.kind === 'skill'
        ? 'agent-private skill'
        : 'agent-skill tool, when its agent is selected and its skill loaded';
    case 'section':
      return 'prompt section';
  }
}

/** Names of the capabilities of one kind already in the tree, with where they are defined. */
function existing(
  kind: NewKind,
  model: CapabilityModel,
): readonly { readonly name: string; readonly source: string }[] {
  switch (kind) {
    case 'tool':
      return model.tools.map((t) => ({ name: t.qualifiedName, source: t.source }));
    case 'skill':
      return model.skills.map((s) => ({ name: s.qualifiedName, source: s.source }));
    case 'agent':
      return model.agents.map((a) => ({ name: a.qualifiedName, source: a.source }));
    case 'section':
      return model.promptSections.map((p) => ({ name: promptSectionId(p), source: p.source }));
  }
}

export async function runNew(compiler: Compiler, args: NewArgs, io: Io): Promise<number> {
  const fail = (status: 1 | 64, message: string): number => {
    io.err(`zhin-gen new: ${message}${status === 64 ? '\n(zhin-gen new --help for usage)' : ''}`);
    // A refusal (exit 1) under --json: the command's document, nothing written, and why (a usage
    // error prints main's `{ "error", "usage": true }`).
    if (status === 1 && args.json)
      io.out(
        JSON.stringify(
          { kind: args.kind, name: args.name, error: message, written: [], skipped: [], failed: [] },
          null,
          2,
        ),
      );
    return status;
  };
  if (args.kind === undefined || args.name === undefined)
    return fail(64, 'give a kind and a name: zhin-gen new <tool|skill|agent|section> <name>');
  if (!(NEW_KINDS as readonly string[]).includes(args.kind))
    return fail(64, `unknown kind "${args.kind}"${didYouMean(args.kind, NEW_KINDS)}; one of ${NEW_KINDS.join(', ')}`);
  const kind = args.kind as NewKind;

  const result = await compiler.run({ write: false, model: true });
  const pluginDirs = new Map(result.model.plugins.map((p) => [p.owner, p.dir] as const));
  const planned = planNew(
    {
      kind,
      name: args.name,
      ...(args.agent !== undefined ? { agent: args.agent } : {}),
      ...(args.skill !== undefined ? { skill: args.skill } : {}),
      ...(args.plugin !== undefined ? { plugin: args.plugin } : {}),
    },
    { exists: (path) => existsSync(join(compiler.root, path)), pluginDirs },
  );
  if ('message' in planned) return fail(planned.kind === 'usage' ? 64 : 1, planned.message);
  // Names equal after case folding clash (docs/authoring.md), in the tree as at run time.
  const taken = existing(kind, result.model).find((item) => foldName(item.name) === foldName(planned.qualifiedName));
  if (taken)
    return fail(
      1,
      `${kind} ${planned.qualifiedName} would clash with ${taken.name} (${taken.source}); pick another name`,
    );

  const report = writeScaffold(compiler.root, planned.files);
  const status = report.skipped.length > 0 || report.failed.length > 0 ? 1 : 0;
  const label = kind === 'section' ? 'id' : 'qualifiedName';
  if (args.json) {
    io.out(
      JSON.stringify(
        {
          kind,
          name: args.name,
          qualifiedName: planned.qualifiedName,
          placement: planned.placement,
          owner: planned.owner,
          dir: planned.dir,
          written: report.written,
          skipped: report.skipped,
          failed: report.failed,
        },
        null,
        2,
      ),
    );
    return status;
  }
  const lines = [`zhin-gen new: ${kind} "${args.name}" → ${label} ${planned.qualifiedName} (${describe(planned)})`];
  for (const path of report.written) lines.push(`  created  ${path}`);
  for (const path of report.skipped) lines.push(`  skipped  ${path} (appeared meanwhile; kept as it is)`);
  for (const { path, reason } of report.failed) lines.push(`  failed   ${path}: ${reason}`);
  if (status === 0)
    lines.push(
      `Next: replace the "Say here …" texts in ${planned.files.length === 1 ? planned.files[0]!.path : 'the files above'} (the model reads them; check warns while one is left, ZG2065), then npx zhin-gen generate`,
    );
  io.out(lines.join('\n'));
  return status;
}
