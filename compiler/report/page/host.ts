/**
 * The report's runtime: a real capability host over a manifest, with the same bare
 * PermissionHost `zhin-gen catalog` uses, and the turns the report begins on it.
 */
import {
  createCapabilityHost,
  createMemorySessionStore,
  PermissionHost,
  type CapabilityHost,
  type CapabilityManifest,
  type ChannelScope,
  type ImMessage,
  type Turn,
  type TurnInput,
} from '@zhin-gen/runtime';

/** One column of the access matrix: who is asking, where. */
export interface Principal {
  readonly platform: string;
  readonly scope: ChannelScope;
  readonly role: string;
}

export function messageOf(principal: Principal): ImMessage {
  return {
    $adapter: principal.platform,
    $channel: { id: 'report', type: principal.scope },
    $sender: { id: 'report-user', role: [principal.role] },
  };
}

export async function reportHost(manifest: CapabilityManifest): Promise<CapabilityHost> {
  const host = createCapabilityHost({ permissions: new PermissionHost(), sessions: createMemorySessionStore() });
  await host.load(manifest);
  return host;
}

let sessions = 0;
// An attended turn, like an interactive IM turn (so `ask_user` is listed); nothing is ever asked.
const question = { ask: () => Promise.reject(new Error('the report never asks')) };

/** A turn of the host, each in its own session so no stage sees another's loads. */
export function beginTurn(host: CapabilityHost, input: Omit<TurnInput, 'sessionKey'>): Promise<Turn> {
  return host.beginTurn({ sessionKey: `zhin-gen-report-${++sessions}`, question, ...input });
}
