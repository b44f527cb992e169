/**
 * Prompt-section rule family (docs/prompt.md): field values, defaults, and a required section whose
 * own content exceeds its maxChars (it could never be rendered without a silent cut).
 */
import type { PromptLayer, PromptProfile, PromptRetention } from '@zhin-gen/runtime';
import { DEFAULT_PROMPT_PROFILES, PROMPT_LAYERS, PROMPT_PROFILES, PROMPT_RETENTIONS } from '@zhin-gen/runtime/define';
import { diag, type Diagnostic, type SourceLocation } from '../diagnostics.js';
import type { Lit } from '../parse/lit.js';
import { FieldReader } from './fields.js';
import { checkEarlierSectionFields } from './earlier-fields.js';

const FIELDS = ['title', 'content', 'layer', 'order', 'retention', 'maxChars', 'profiles', 'platforms'] as const;
/** zhin.js's earlier section fields: reported by earlier-fields.ts (ZG2059), not as unknown. */
const EARLIER_FIELDS = ['id', 'priority', 'truncatable'] as const;

export interface PromptSectionFields {
  readonly title: string;
  /**
   * Absent: the module computes it (`RULES.join('\n')`), so the manifest holds the section's
   * loader and the runtime reads the content from the module at `host.load`.
   */
  readonly content?: string;
  readonly layer: PromptLayer;
  readonly order: number;
  readonly retention: PromptRetention;
  readonly maxChars?: number;
  readonly profiles: readonly PromptProfile[];
  readonly platforms: readonly { value: string; loc: SourceLocation }[];
}

/**
 * `literalText: false` for `context.addPromptSection()`: the runtime builds that section, so a
 * computed `title` / `content` is checked there. A directory section's title is compiled into the
 * manifest and must be literal; its content is too when it is one, else the manifest loads the
 * module for it (SPEC: prompt sections are metadata and a lazy loader).
 */
export function validatePromptSection(
  fields: Lit,
  what: string,
  options: { literalText?: boolean; dirName?: string } = {},
): { value?: PromptSectionFields; diagnostics: Diagnostic[] } {
  if (fields.t !== 'object') {
    return {
      diagnostics: [
        diag('ZG2030', {
          ...fields.loc,
          message: `${what}: the definition must be an object literal so its content can be compiled into the manifest`,
        }),
      ],
    };
  }
  const reader = new FieldReader(fields.props, what);
  reader.unknownKeys([...FIELDS, ...EARLIER_FIELDS], fields.keyLocs);
  const diagnostics = reader.diagnostics;
  diagnostics.push(...checkEarlierSectionFields(fields, what, options.dirName ?? what));
  const bad = (loc: SourceLocation, message: string): void => {
    diagnostics.push(diag('ZG2030', { ...loc, message: `${what}: ${message}` }));
  };
  const computed = (name: string): boolean => options.literalText === false && fields.props[name]?.t === 'unknown';
  const title = reader.string('title');
  if ((!title || title.value.trim() === '') && !computed('title'))
    bad(title?.loc ?? fields.loc, '`title` must be a non-empty string');
  // Read by hand: a content the module computes is no ZG2011 (nothing is left out for it).
  const contentLit = fields.props.content;
  const content = contentLit?.t === 'string' ? { value: contentLit.v, loc: contentLit.loc } : undefined;
  if (!contentLit) bad(fields.loc, '`content` is required');
  else if (contentLit.t !== 'string' && contentLit.t !== 'unknown') bad(contentLit.loc, '`content` must be a string');
  const layer = reader.string('layer');
  if (layer && !(PROMPT_LAYERS as readonly string[]).includes(layer.value))
    bad(layer.loc, `\`layer\` "${layer.value}" is not one of ${PROMPT_LAYERS.join(', ')}`);
  const order = reader.number('order');
  if (order && !Number.isSafeInteger(order.value)) bad(order.loc, '`order` must be a safe integer');
  const retention = reader.string('retention');
  if (retention && !(PROMPT_RETENTIONS as readonly string[]).includes(retention.value))
    bad(retention.loc, `\`retention\` "${retention.value}" is not one of ${PROMPT_RETENTIONS.join(', ')}`);
  const maxChars = reader.number('maxChars');
  if (maxChars && (!Number.isSafeInteger(maxChars.value) || maxChars.value <= 0))
    bad(maxChars.loc, '`maxChars` must be a positive safe integer');
  const profiles = reader.strings('profiles', PROMPT_PROFILES, 'ZG2030');
  if (
    profiles &&
    profiles.length === 0 &&
    fields.props.profiles?.t === 'array' &&
    fields.props.profiles.items.length === 0
  )
    bad(fields.props.profiles.loc, '`profiles` must not be empty');
  const platforms = reader.strings('platforms');
  if (
    platforms &&
    platforms.length === 0 &&
    fields.props.platforms?.t === 'array' &&
    fields.props.platforms.items.length === 0
  )
    bad(fields.props.platforms.loc, '`platforms` must not be empty when given');
  const value: PromptSectionFields = {
    title: title?.value ?? '',
    ...(content ? { content: content.value } : {}),
    layer: (layer && (PROMPT_LAYERS as readonly string[]).includes(layer.value)
      ? layer.value
      : 'context') as PromptLayer,
    order: order && Number.isSafeInteger(order.value) ? order.value : 50,
    retention: (retention && (PROMPT_RETENTIONS as readonly string[]).includes(retention.value)
      ? retention.value
      : 'preferred') as PromptRetention,
    ...(maxChars && Number.isSafeInteger(maxChars.value) && maxChars.value > 0 ? { maxChars: maxChars.value } : {}),
    profiles: profiles && profiles.length > 0 ? profiles.map((p) => p.value as PromptProfile) : DEFAULT_PROMPT_PROFILES,
    platforms: platforms ?? [],
  };
  // A computed content is measured by the runtime when it loads the section.
  if (
    value.retention === 'required' &&
    value.maxChars !== undefined &&
    value.content !== undefined &&
    value.content.length > value.maxChars
  ) {
    diagnostics.push(
      diag('ZG2031', {
        ...(maxChars?.loc ?? fields.loc),
        message: `${what}: required content is ${value.content.length} characters but maxChars is ${value.maxChars}`,
      }),
    );
  }
  return { value, diagnostics };
}
