/**
 * The plugins of the model: each plugin's AGENTS.md and main-agent rule, and what its entry's
 * setup() adds conditionally (addPromptSection, addTool), checked as setup() would check them.
 */
import { diag, type Diagnostic, type SourceLocation } from '../diagnostics.js';
import type { PluginModel, PromptSectionModel, ToolModel } from '../model.js';
import type { PluginEntryData, UnitResult } from '../parse/units.js';
import type { Layout } from '../scan/layout.js';
import { EMPTY_INPUT_SCHEMA } from '../schema/empty.js';
import { validateMainAgent } from '../validate/agents-md.js';
import { segmentNameProblem, toolLocalNameProblem, toolQualifiedName } from '@zhin-gen/runtime/names';

/** A platform named somewhere, checked against the configured adapters once everything is known. */
export interface PlatformRef {
  readonly name: string;
  readonly loc: SourceLocation;
  readonly what: string;
}

export interface PluginsInput {
  readonly layout: Layout;
  readonly entries: ReadonlyMap<string, UnitResult>;
  readText(path: string): string | undefined;
  hashOf(key: string): string;
  /** The sections assembled from directories (a conditional section may not clash with one). */
  readonly promptSections: readonly PromptSectionModel[];
}

/** Adds the conditional tools to `tools`, platforms to `platformRefs`, problems to `diagnostics`. */
export function assemblePlugins(
  input: PluginsInput,
  tools: ToolModel[],
  platformRefs: PlatformRef[],
  diagnostics: Diagnostic[],
): PluginModel[] {
  const { promptSections } = input;
  const plugins: PluginModel[] = [];
  for (const plugin of input.layout.plugins) {
    const agentsMdText = plugin.agentsMd ? input.readText(plugin.agentsMd) : undefined;
    // Found by the walk but not read (not UTF-8, not readable): the main agent's instructions
    // would be left out in silence, or an agent extending it told that it is missing.
    if (plugin.agentsMd && agentsMdText === undefined)
      diagnostics.push(
        diag('ZG1006', {
          file: plugin.agentsMd,
          message: `Cannot read ${plugin.agentsMd}: it is not UTF-8 text zhin-gen can read`,
        }),
      );
    const agentsMd =
      plugin.agentsMd && agentsMdText !== undefined
        ? { source: plugin.agentsMd, text: agentsMdText.replace(/\r\n?/g, '\n') }
        : undefined;
    const pluginAgents = plugin.caps.filter((c) => c.kind === 'agent').map((c) => c.name);
    diagnostics.push(
      ...validateMainAgent({
        pluginDir: plugin.dir,
        agents: pluginAgents,
        ...(agentsMd ? { agentsMd: { file: agentsMd.source, text: agentsMd.text } } : {}),
      }),
    );
    const entry = plugin.entry ? input.entries.get(plugin.dir) : undefined;
    const data = entry?.data as PluginEntryData | undefined;
    // A zhin.js plugin entry is the zhin.js host's (ZG2062): the manifest does not import it.
    const imported = plugin.entry !== undefined && data?.runsSetup !== false;
    plugins.push({
      owner: plugin.owner,
      dir: plugin.dir,
      ...(agentsMd ? { agentsMd } : {}),
      ...(imported ? { entrySource: plugin.entry } : {}),
    });
    if (!entry) continue;
    diagnostics.push(...entry.diagnostics);
    const addedSections = new Map<string, SourceLocation>();
    for (const ref of data?.conditionalSections ?? []) {
      // The check setup()'s addPromptSection() applies (runtime/contract/names.ts); clashes are still
      // reported, so one run names every problem of the call.
      // A zhin.js entry's setup() is the zhin.js host's (ZG2062): host.load() never applies its check.
      const problem = imported ? segmentNameProblem(ref.localName) : undefined;
      if (problem) {
        diagnostics.push(
          diag('ZG3011', {
            ...ref.loc,
            message: `addPromptSection("${ref.localName}") in ${plugin.entry}: the name ${problem.message}, so host.load() rejects it`,
          }),
        );
      }
      const earlier = addedSections.get(ref.localName);
      if (earlier) {
        diagnostics.push(
          diag('ZG3010', {
            ...ref.loc,
            message: `addPromptSection("${ref.localName}") is called twice in ${plugin.entry}`,
            related: [{ ...earlier, message: 'first added here' }],
          }),
        );
      }
      addedSections.set(ref.localName, ref.loc);
      for (const p of ref.platforms)
        platformRefs.push({ name: p.value, loc: p.loc, what: `prompt section "${ref.localName}"` });
      const clash = promptSections.find((s) => s.owner === plugin.owner && s.name === ref.localName);
      if (clash) {
        diagnostics.push(
          diag('ZG3010', {
            ...ref.loc,
            message: `addPromptSection("${ref.localName}") in ${plugin.entry} clashes with the prompt section directory ${clash.source} of the same plugin`,
            related: [{ ...clash.loc, message: 'prompt section directory' }],
          }),
        );
      }
    }
    for (const ref of data?.conditionalTools ?? []) {
      const enclosure = { owner: plugin.owner, placement: 'plugin' as const };
      // The checks setup()'s addTool() applies (runtime/contract/names.ts). A name with "__" cannot be
      // qualified; one that only breaks the pattern still takes part in the qualifiedName rules
      // below (reserved names, provider-safe, clashes, all case-folded), so one run names every
      // problem of the call (`Discover`: the pattern and the meta tool it would shadow).
      const problem = toolLocalNameProblem(ref.localName);
      if (problem?.rule === 'separator') {
        diagnostics.push(diag('ZG3005', { ...ref.loc, message: `addTool("${ref.localName}") ${problem.message}` }));
        continue;
      }
      if (problem && imported) {
        diagnostics.push(
          diag('ZG3011', {
            ...ref.loc,
            message: `addTool("${ref.localName}") in ${plugin.entry}: the name ${problem.message}, so host.load() rejects it`,
          }),
        );
      }
      tools.push({
        kind: 'tool',
        ...enclosure,
        localName: ref.localName,
        qualifiedName: toolQualifiedName(enclosure, ref.localName),
        source: plugin.entry!,
        related: [],
        loc: ref.loc,
        description: ref.description,
        inputSchema: EMPTY_INPUT_SCHEMA,
        schemaOrigin: 'none',
        schemaVia: 'none',
        requiresApproval: ref.requiresApproval,
        platforms: ref.platforms,
        scopes: ref.scopes,
        permissions: ref.permissions,
        hidden: ref.hidden,
        keywords: [],
        tags: [],
        conditional: true,
        typed: false,
        hash: input.hashOf(`plugin-entry:${plugin.entry}`),
      });
    }
  }
  return plugins;
}
