/**
 * A manifest prompt section's content, when its module computes it (`content: RULES.join('\n')`):
 * the manifest then holds the section's loader instead (runtime/contract/manifest.ts), and
 * `host.load` reads the content from the module once per generation, before the candidate is
 * built, so every turn assembles from text as it does for a literal. A module that fails to load,
 * or whose default export is not a `defineAgentPromptSection(...)` with string content, rejects
 * the candidate naming the section: a prompt is never assembled without a section it declares.
 */
import { isDefinitionOf } from '../contract/definition-shape.js';
import type { AgentPromptSection } from '../contract/define.js';
import type { ManifestPromptSection } from '../contract/manifest.js';
import { describeError } from '../generation/capability.js';

/** A manifest section with its content in hand. */
export type LoadedPromptSection = Omit<ManifestPromptSection, 'content' | 'load'> & { readonly content: string };

function isPromptSection(value: unknown): value is AgentPromptSection {
  return isDefinitionOf(value, 'prompt-section', 'content', 'string');
}

async function contentOf(section: ManifestPromptSection): Promise<string> {
  if (typeof section.content === 'string') return section.content;
  if (typeof section.load !== 'function')
    throw new TypeError(`prompt section "${section.id}" (${section.source}) has neither content nor a loader`);
  let module: unknown;
  try {
    module = await section.load();
  } catch (error) {
    throw new Error(`prompt section "${section.id}" (${section.source}) failed to load: ${describeError(error)}`, {
      cause: error,
    });
  }
  const definition = (module as { default?: unknown } | null)?.default;
  if (!isPromptSection(definition))
    throw new TypeError(
      `prompt section "${section.id}" (${section.source}): the module's default export is not a defineAgentPromptSection(...) with string content`,
    );
  return definition.content;
}

/** Every section with its content: literal ones as they are, the others loaded together. */
export async function loadPromptSections(
  sections: readonly ManifestPromptSection[],
): Promise<readonly LoadedPromptSection[]> {
  return Promise.all(
    sections.map(async (section) => {
      if (typeof section.content === 'string' && section.load === undefined) return section as LoadedPromptSection;
      const { load: _load, ...rest } = section;
      return Object.freeze({ ...rest, content: await contentOf(section) });
    }),
  );
}
