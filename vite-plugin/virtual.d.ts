/**
 * Types of `virtual:zhin-capabilities` (the generated manifest, re-exported by the build plugin).
 * Add `/// <reference types="zhin-gen/virtual" />` (or `"types": ["zhin-gen/virtual"]`) once.
 * Names and inputs are typed by name through the generated module's augmentation of
 * `@zhin-gen/runtime` (`ToolName`, `ToolInput<N>`), as soon as the manifest is part of the program.
 */
declare module 'virtual:zhin-capabilities' {
  import type { CapabilityManifest, ToolName as RuntimeToolName } from '@zhin-gen/runtime';

  /** The capability manifest of the project (tools, skills, agents, prompt sections, hooks). */
  export const manifest: CapabilityManifest;
  /** Literal union of every tool qualifiedName (plain `string` until a manifest is generated). */
  export type ToolName = RuntimeToolName;
  export type SkillName = string;
  export type AgentName = string;
}
