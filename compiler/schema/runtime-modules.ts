/** Module names aliased to zhin-gen's runtime when a tool module is bundled for the fallback. */
export const DEFAULT_RUNTIME_MODULES: readonly string[] = [
  '@zhin.js/tool',
  '@zhin.js/prompt-section',
  '@zhin.js/agent',
  '@zhin-gen/runtime',
  'zhin-gen/runtime',
];
