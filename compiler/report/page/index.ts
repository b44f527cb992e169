/**
 * `zhin-gen report` and the dev inspector build the page here: a compile result (the model and
 * diagnostics `inspect` prints, the manifest `generate` writes) plus the runtime's facts over that
 * manifest (./collect.ts) → the page's data (./data.ts) → one HTML document (./render.ts).
 */
import { join } from 'node:path';
import { CHANNEL_SCOPES, parsePermit, type ChannelScope } from '@zhin-gen/runtime';
import { compareStrings } from '../../diagnostics.js';
import type { CompileResult } from '../../context.js';
import type { CapabilityModel } from '../../model.js';
import { readSource } from '../code-frame.js';
import { collectRuntime, type Principal, type RuntimeFacts } from './collect.js';
import { reportData, type ReportData } from './data.js';
import { renderPage, type LiveOptions } from './render.js';

export type { ReportData } from './data.js';
export type { Principal } from './collect.js';
export type { LiveOptions } from './render.js';
export { renderPage } from './render.js';

export const SCOPES: readonly ChannelScope[] = CHANNEL_SCOPES;
export const DEFAULT_ROLES: readonly string[] = ['user', 'trusted', 'master'];
/** The adapter the matrix uses when the tree names none. */
export const FALLBACK_PLATFORM = 'console';

/** The matrix's columns the author did not choose. */
export interface PrincipalChoice {
  readonly platforms?: readonly string[];
  readonly scopes?: readonly ChannelScope[];
  readonly roles?: readonly string[];
}

/** Every platform the tree names: restrictions, platform agents and sections, `adapter()` / `platform()` permits. */
export function platformsOf(model: CapabilityModel): string[] {
  const names = new Set<string>();
  const permits = (list: readonly string[]) => {
    for (const text of list) {
      const permit = parsePermit(text);
      if (permit.kind === 'platform') names.add(permit.adapter);
      else if (permit.kind === 'adapter') for (const value of permit.values) names.add(value);
    }
  };
  for (const tool of model.tools) {
    for (const p of tool.platforms) names.add(p);
    permits(tool.permissions);
  }
  for (const skill of model.skills) {
    for (const p of skill.platforms) names.add(p);
    permits(skill.permissions);
  }
  for (const agent of model.agents) for (const p of agent.platforms) names.add(p.name);
  for (const section of model.promptSections) for (const p of section.platforms) names.add(p);
  return [...names].sort(compareStrings);
}

export function principalsOf(model: CapabilityModel, choice: PrincipalChoice = {}): Principal[] {
  const platforms = choice.platforms?.length ? choice.platforms : platformsOf(model);
  const scopes = choice.scopes?.length ? choice.scopes : SCOPES;
  const roles = choice.roles?.length ? choice.roles : DEFAULT_ROLES;
  const principals: Principal[] = [];
  for (const platform of platforms.length ? platforms : [FALLBACK_PLATFORM])
    for (const scope of scopes) for (const role of roles) principals.push({ platform, scope, role });
  return principals;
}

export interface BuiltReport {
  readonly data: ReportData;
  readonly html: string;
}

/** The page's data for a compile result. The runtime parts need a tree without errors. */
export async function buildReportData(
  result: Pick<CompileResult, 'model' | 'diagnostics' | 'errors' | 'code'>,
  root: string,
  choice: PrincipalChoice = {},
): Promise<ReportData> {
  const principals = principalsOf(result.model, choice);
  let facts: RuntimeFacts | { error: string };
  if (result.errors > 0) facts = { error: 'the tree has errors: fix them to see disclosure, access and costs' };
  else {
    try {
      facts = await collectRuntime(result.code, principals);
    } catch (error) {
      facts = { error: `the runtime refused the manifest: ${error instanceof Error ? error.message : String(error)}` };
    }
  }
  return reportData({
    root,
    model: result.model,
    diagnostics: result.diagnostics,
    principals,
    facts,
    readSource: (file) => readSource(join(root, file), root),
  });
}

export async function buildReport(
  result: Pick<CompileResult, 'model' | 'diagnostics' | 'errors' | 'code'>,
  root: string,
  choice: PrincipalChoice = {},
  live?: LiveOptions,
): Promise<BuiltReport> {
  const data = await buildReportData(result, root, choice);
  return { data, html: renderPage(data, live) };
}
