/**
 * Provider-profile rule family (docs/catalog.md): per-provider limits on names, descriptions, tool
 * counts and schema keywords, reported as ZG5xxx. Limits are the documented ones of each API.
 */
import type { ProviderName } from '../config/load.js';
import { diag, type Diagnostic } from '../diagnostics.js';
import type { ToolModel } from '../model.js';
import { PROVIDER_SAFE_NAME } from '@zhin-gen/runtime/names';
import { keywordsOf } from '../resolve/record-tool.js';
import { schemaKeywords } from './schema-keywords.js';

interface ProviderProfile {
  readonly label: string;
  readonly maxName: number;
  readonly maxDescription: number;
  readonly maxTools: number;
  /** Schema keywords the provider rejects or ignores in tool parameters. */
  readonly unsupportedKeywords: readonly string[];
}

export const PROVIDER_PROFILES: Readonly<Record<ProviderName, ProviderProfile>> = {
  anthropic: { label: 'Anthropic', maxName: 64, maxDescription: 10_000, maxTools: 10_000, unsupportedKeywords: [] },
  openai: {
    label: 'OpenAI',
    maxName: 64,
    maxDescription: 1_024,
    maxTools: 128,
    unsupportedKeywords: ['oneOf', 'allOf', 'not', 'if', 'then', 'else', 'dependentSchemas', 'patternProperties'],
  },
};

const perTool = new WeakMap<ToolModel, { providers: string; diagnostics: Diagnostic[] }>();

/** The last list checked per providers list (by identity), with each tool's outcome by position. */
const lastLists = new WeakMap<
  readonly ProviderName[],
  { readonly tools: readonly ToolModel[]; readonly outcomes: readonly (readonly Diagnostic[])[] }
>();

/** Per-tool checks, memoised by model identity (an unchanged tool keeps its model object). */
function checkTool(tool: ToolModel, providers: readonly ProviderName[], key: string): Diagnostic[] {
  const memo = perTool.get(tool);
  if (memo && memo.providers === key) return memo.diagnostics;
  const out: Diagnostic[] = [];
  let keywords: readonly string[] | undefined;
  for (const provider of providers) {
    const profile = PROVIDER_PROFILES[provider];
    // Over 64 characters is already ZG3004 (provider-safe pattern); only stricter limits report here.
    if (tool.qualifiedName.length > profile.maxName && PROVIDER_SAFE_NAME.test(tool.qualifiedName)) {
      out.push(
        diag('ZG5004', {
          ...tool.loc,
          message: `${profile.label}: tool name "${tool.qualifiedName}" has ${tool.qualifiedName.length} characters (limit ${profile.maxName})`,
        }),
      );
    }
    if (tool.description.length > profile.maxDescription) {
      out.push(
        diag('ZG5001', {
          ...(tool.descriptionLoc ?? tool.loc),
          message: `${profile.label}: description of "${tool.qualifiedName}" has ${tool.description.length} characters (limit ${profile.maxDescription})`,
        }),
      );
    }
    if (profile.unsupportedKeywords.length > 0) {
      // A tool read from its cache record carries its keywords; its schema is not loaded for them.
      keywords ??= keywordsOf(tool) ?? schemaKeywords(tool.inputSchema);
      const found = keywords;
      const bad = profile.unsupportedKeywords.filter((k) => found.includes(k));
      if (bad.length > 0)
        out.push(
          diag('ZG5003', {
            ...(tool.schemaLoc ?? tool.loc),
            message: `${profile.label}: the input schema of "${tool.qualifiedName}" uses ${bad.join(', ')}`,
          }),
        );
    }
  }
  perTool.set(tool, { providers: key, diagnostics: out });
  return out;
}

/**
 * The provider checks of a tree's tools. Each tool's outcome is kept by its model object, so a
 * watch-mode edit checks only the tools it replaced; the rest is one lookup per tool (no
 * per-tool key or list is built: this loop runs over every tool on every edit).
 */
export function checkProviderProfiles(tools: readonly ToolModel[], providers: readonly ProviderName[]): Diagnostic[] {
  const out: Diagnostic[] = [];
  const key = providers.join(',');
  let listed = 0;
  let firstListed: ToolModel | undefined;
  // The last list checked with these providers (the same options object between watch-mode
  // runs): a tool at the same position as the same object takes its outcome from there.
  const last = lastLists.get(providers);
  const outcomes: (readonly Diagnostic[])[] = new Array(tools.length);
  for (let i = 0; i < tools.length; i++) {
    const tool = tools[i]!;
    const found = last !== undefined && last.tools[i] === tool ? last.outcomes[i]! : checkTool(tool, providers, key);
    outcomes[i] = found;
    for (const diagnostic of found) out.push(diagnostic);
    if (!tool.hidden) {
      listed++;
      firstListed ??= tool;
    }
  }
  lastLists.set(providers, { tools, outcomes });
  for (const provider of providers) {
    const profile = PROVIDER_PROFILES[provider];
    if (listed > profile.maxTools && firstListed) {
      out.push(
        diag('ZG5002', {
          file: firstListed.loc.file,
          line: 1,
          column: 1,
          message: `${profile.label}: ${listed} listed tools exceed the limit of ${profile.maxTools} per request; the deferred catalog keeps requests below it, but eager hosts will fail`,
        }),
      );
    }
  }
  return out;
}
