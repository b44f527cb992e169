/** An agent entry as the compiler emits it, with a step limit. */
import type { ManifestAgent } from '../../../runtime/index.js';

export function agentFixture(name: string, maxSteps: number): ManifestAgent {
  return {
    qualifiedName: name,
    name,
    owner: '',
    description: `agent ${name}`,
    platforms: [],
    tools: [],
    maxSteps,
    system: 'Plan carefully.',
    boundaries: '',
    conventions: '',
    workflows: [],
    knowledge: [],
    source: `agents/${name}/agent.json`,
  };
}
