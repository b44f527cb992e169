/**
 * Placeholder rule family: text `zhin-gen new` wrote for the author to replace (parse/manifest-values.ts
 * `NEW_PLACEHOLDER`) and still in a file whose text reaches the model — a tool's or skill's
 * description, a section's content, an agent's files and its plugin's AGENTS.md. A warning, not an error (as
 * migrate's marked placeholders are, ZG4018): a scaffolded capability runs as written, so it can
 * be tried before its texts are; but `check` says so instead of passing in silence.
 */
import { diag, type Diagnostic } from '../diagnostics.js';
import { newPlaceholderAt } from '../parse/manifest-values.js';

/** ZG2065 at the first placeholder of `text` (the file's text as read), if it holds one. */
export function checkNewPlaceholder(file: string, text: string | undefined): Diagnostic[] {
  const at = text === undefined ? undefined : newPlaceholderAt(text);
  if (!at) return [];
  return [diag('ZG2065', { file, ...at, message: `${file} still holds the placeholder text zhin-gen new wrote` })];
}
