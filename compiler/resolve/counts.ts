import type { RunCounts } from '../run-types.js';
import type { CapabilityModel } from '../model.js';

/** The model's sizes, as the summary line and the cache index record them. */
export function countsOf(model: CapabilityModel): RunCounts {
  return {
    tools: model.tools.length,
    skills: model.skills.length,
    agents: model.agents.length,
    promptSections: model.promptSections.length,
    hooks: model.hooks.length,
  };
}
