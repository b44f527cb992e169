/**
 * The reporting layer: how diagnostics, code frames and the run summary are written out. The CLI
 * (compiler/cli/) and the bundler plugins (vite-plugin/) both import it, so a diagnostic reads the
 * same in a terminal, in CI and in a bundler's error.
 */
export { palette, type Palette } from './palette.js';
export { formatPretty, relatedText, type PrettyOptions } from './pretty.js';
export {
  formatGithub,
  formatSarif,
  toJsonDiagnostics,
  type MachineOptions,
  type OutputFormat,
  type StaleFinding,
} from './machine.js';
export { codeFrame, frameOf, readSource, sourceLine, type FrameOptions } from './code-frame.js';
export { formatDuration, plural, runJson, summary } from './summary.js';
export { shortDiff } from './diff.js';
export { shellArg } from './shell.js';
export { printable } from './printable.js';
// The CommonJS-package note every printing command may add (util/package-type.ts says why here).
export { esmNote } from '../util/package-type.js';
