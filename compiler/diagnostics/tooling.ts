/** The catalog's ZG6xxx (zhin-gen migrate) and ZG9xxx (internal). */
import type { CatalogEntry } from './entry.js';

export const TOOLING = {
  // ── ZG6001–ZG6049 zhin-gen migrate ──────────────────────────────────────────
  ZG6001: {
    severity: 'error',
    title: 'migrate cannot convert this construct',
    hint: 'Convert it by hand (docs/authoring.md#coming-from-the-earlier-zhinjs-layout says what each construct becomes); migrate left this part exactly as it was.',
  },
  ZG6002: {
    severity: 'warning',
    title: 'migrate created a stub',
    hint: 'The earlier layout had no source for this required file: migrate wrote a marked placeholder. Replace its text before shipping the bot.',
  },
  ZG6003: {
    severity: 'warning',
    title: 'migrate changed a runtime name',
    hint: 'The earlier name is not valid in zhin-gen; migrate renamed it and rewrote every skills/agent `tools:` reference it found. Check callers outside the tree (prompts, other bots).',
  },

  // ── ZG9xxx internal ─────────────────────────────────────────────────────────
  ZG9001: {
    severity: 'error',
    title: 'Internal error',
    hint: 'zhin-gen hit an unexpected error while processing this file. Please report it with the file that triggers it.',
  },
} as const satisfies Record<string, CatalogEntry>;
