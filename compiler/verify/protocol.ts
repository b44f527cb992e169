/**
 * What crosses the process boundary of load verification: tasks from the parent, reports from
 * the child. Plain JSON data only (the IPC channel serialises as JSON); the child never sends a
 * live value, so the parent compares descriptions of the real definition, not the definition.
 */
import type { Projection, JsonValue } from '../schema/project.js';

export type { JsonValue, Projection };

export type VerifyKind = 'tool' | 'hook' | 'prompt-section';

export interface VerifyTask {
  /** Caller's key (unique per module). */
  readonly id: string;
  readonly kind: VerifyKind;
  /** Absolute path of the module to import. */
  readonly file: string;
}

/** A field of the real default export: absent, a JSON value, or something JSON cannot hold. */
export type Shown =
  | { readonly t: 'absent' }
  | { readonly t: 'json'; readonly v: JsonValue }
  | { readonly t: 'other'; readonly what: string };

export interface DefinitionReport {
  /** Set when the default export is not an object: what it is instead. */
  readonly notObject?: string;
  /** Own enumerable fields of the default export. */
  readonly fields: Readonly<Record<string, Shown>>;
  /** Tools: the real `inputSchema`, projected by the same code as the compiler's schema stage. */
  readonly schema?: Projection;
}

/** How the child resolves the seed define-module names when they are not installed. */
export interface ChildSetup {
  /** Specifiers that fall back to zhin-gen's runtime when they do not resolve. */
  readonly aliases: readonly string[];
  /** File URL of zhin-gen's own runtime entry (last resort for an alias). */
  readonly runtimeUrl: string;
}

/** A package specifier a module outside `node_modules` imported while loading (alias-hooks.ts). */
export interface ImportSeen {
  /** File URL of the importing module. */
  readonly parent: string;
  readonly specifier: string;
  /** File URL it resolved to (a tsconfig `paths` alias resolves into the project, not a package). */
  readonly url?: string;
}

export type ParentMessage = { readonly type: 'task'; readonly task: VerifyTask };

export type ChildMessage =
  | { readonly type: 'ready' }
  /** Sent before a task's outcome: the packages imported since the last such message. */
  | { readonly type: 'imports'; readonly imports: readonly ImportSeen[] }
  | { readonly type: 'result'; readonly id: string; readonly report: DefinitionReport }
  /** `stalled`: the import can never settle (nothing is left in the event loop that could settle it). */
  | { readonly type: 'error'; readonly id: string; readonly message: string; readonly stalled: boolean };
