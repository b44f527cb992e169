/**
 * zhin-gen compiler API. One orchestrating context (`createCompiler`) that the CLI and every
 * bundler plugin share; the stages under scan/ parse/ schema/ validate/ resolve/ emit/ are
 * internal.
 */
export { createCompiler, Compiler } from './context.js';
export { CONVENTION_FOLDERS } from './scan/walk.js';
export type { CompileResult, CompilerOptions, FileEvent, RunOptions, RunStats } from './context.js';
export { defineConfig, loadConfig, DEFAULT_OPTIONS } from './config/load.js';
export { configSchema } from './config/schema.js';
export type { ResolvedOptions, UserConfig } from './config/load.js';
export { CATALOG, compareDiagnostics } from './diagnostics.js';
export type { Diagnostic, DiagnosticCode, RelatedLocation, Severity, SourceLocation } from './diagnostics.js';
export type {
  CapabilityModel,
  ToolModel,
  SkillModel,
  AgentModel,
  PromptSectionModel,
  HookModel,
  PluginModel,
} from './model.js';
export { watchTree, type TreeWatcher, type TreeWatcherOptions } from './watch/tree.js';
export { WatchLoop, type WatchLoopOptions } from './watch/loop.js';
export { verifyLoad, parseDuration, DEFAULT_LOAD_TIMEOUT_MS } from './verify/index.js';
export type { VerifyLoadOptions, VerifyLoadResult } from './verify/index.js';
export { inspectJson } from './cli/inspect.js';
export { formatPretty, palette } from './report/index.js';
