/** The catalog's ZG5xxx: provider profiles and MCP servers. */
import type { CatalogEntry } from './entry.js';

export const PROVIDERS = {
  // ── ZG5xxx provider profiles ────────────────────────────────────────────────
  ZG5001: {
    severity: 'warning',
    title: 'Description exceeds a provider limit',
    hint: 'Shorten the description; the provider may truncate or reject it.',
  },
  ZG5002: {
    severity: 'warning',
    title: 'Too many tools for a provider',
    hint: 'The provider rejects requests with more tools than its limit; rely on the deferred catalog or split plugins.',
  },
  ZG5003: {
    severity: 'warning',
    title: 'Schema keyword unsupported by a provider',
    hint: 'Some providers reject or ignore this keyword in tool schemas; prefer plain types, enums and descriptions.',
  },
  ZG5004: {
    severity: 'error',
    title: 'Name exceeds a provider limit',
    hint: 'Shorten the directory names or the child-plugin keys so the qualifiedName fits the provider limit. (Both profiles of today allow 64 characters, the length ZG3004 allows every name, so ZG3004 is what a long name meets first; this check stays for a profile with a shorter limit.)',
  },

  // ── ZG5050–ZG5069 MCP servers (config `mcpServers`, docs/mcp.md) ────────────
  ZG5050: {
    severity: 'error',
    title: 'MCP server list is not an object',
    hint: 'Write `mcpServers` as an object of server name → { "command": "...", "args": [...], "env": {...} } (stdio) or { "url": "https://..." } (Streamable HTTP).',
  },
  ZG5051: {
    severity: 'error',
    title: 'Invalid MCP server name',
    hint: 'Server names are 1–32 letters, digits, "_" or "-", starting with a letter or digit: they become the tools\' source `mcp:<name>` and the `discover` filter.',
  },
  ZG5052: {
    severity: 'error',
    title: 'MCP server without exactly one transport',
    hint: 'Give each server either `command` (started as a child process, spoken to over stdio) or `url` (a Streamable HTTP endpoint), not both.',
  },
  ZG5053: {
    severity: 'error',
    title: 'Invalid MCP server option value',
    hint: '`args`, `include`, `exclude` are arrays of strings; `env`, `headers` objects of strings; `timeoutMs` a positive integer; `approval` one of never, on-risk, once, always; `url` http(s). See docs/mcp.md#configuration.',
  },
  ZG5054: {
    severity: 'error',
    title: 'Unknown MCP server option',
    hint: 'Remove the option or fix its spelling; docs/mcp.md#configuration lists the options of stdio and HTTP servers.',
  },
} as const satisfies Record<string, CatalogEntry>;
