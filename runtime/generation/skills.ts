/**
 * The generation's skill table: every skill of one generation, whatever its source — compiled
 * `SKILL.md` features (from the manifest) and Capability Seam catalogs. It only answers "which
 * skills exist" (`catalog()`: names and summaries) and "what do they say" (`describe()`: the
 * instructions); disclosure, access and prompt assembly decide what a turn shows (docs/catalog.md).
 * Like the tool table, it is filled while the candidate is prepared and frozen at commit.
 */
import type { SeamOrigin } from './capability.js';
import type { ManifestSkill } from '../contract/manifest.js';
import { foldName } from '../contract/names.js';
import { skillPlacement, type TurnScope } from '../access/scope.js';

export type SkillSourceKind = 'feature' | 'seam';

/**
 * A skill of a generation: the manifest's skill metadata (for seam skills: name = the provider's
 * own name, no associated tools) plus where it comes from. Instructions are read on demand.
 */
export interface SkillEntry extends Omit<ManifestSkill, 'instructions' | 'source' | 'hash'> {
  readonly source: SkillSourceKind;
  /** POSIX path of the SKILL.md (feature skills). */
  readonly file?: string;
  /** Provider provenance (seam skills). */
  readonly seam?: SeamOrigin;
  /** Agent qualifiedNames whose turns do not see this skill (replaced by a scoped provider). */
  readonly exceptAgents?: readonly string[];
  /** The full instructions; a seam skill asks its provider, and only while its generation lives. */
  instructions(): Promise<string>;
  /**
   * Whether `instructions()` can still answer (a seam skill: its provider not released, its
   * generation not disposed); absent: always. Instructions kept from an earlier answer are used
   * only while it holds.
   */
  available?(): boolean;
}

/** What a listing shows before a skill is loaded. */
export interface SkillSummary {
  readonly name: string;
  readonly description: string;
  readonly source: SkillSourceKind;
}

export function featureSkillEntry(skill: ManifestSkill): SkillEntry {
  return Object.freeze({
    qualifiedName: skill.qualifiedName,
    name: skill.name,
    owner: skill.owner,
    ...(skill.agent !== undefined ? { agent: skill.agent } : {}),
    description: skill.description,
    tools: skill.tools,
    platforms: skill.platforms,
    scopes: skill.scopes,
    permissions: skill.permissions,
    keywords: skill.keywords,
    tags: skill.tags,
    always: skill.always,
    source: 'feature' as const,
    file: skill.source,
    instructions: () => Promise.resolve(skill.instructions),
  });
}

function describeSkill(entry: SkillEntry): string {
  if (entry.seam) {
    const { name, provider, scope, source } = entry.seam;
    return `seam skill "${name}" of provider "${provider}" (scope ${scope}${source ? `, ${source}` : ''})`;
  }
  return `${entry.source} skill "${entry.name}"${entry.file ? ` (${entry.file})` : ''}`;
}

/** Same visibility rule as tool placement: root skills always, agent-private ones for that agent. */
export function isSkillInScope(entry: Pick<SkillEntry, 'owner' | 'agent' | 'exceptAgents'>, scope: TurnScope): boolean {
  return skillPlacement(entry).decide(scope).admitted;
}

export class SkillTable {
  readonly #entries: ReadonlyMap<string, SkillEntry>;

  constructor(entries: Iterable<SkillEntry>) {
    this.#entries = new Map([...entries].map((entry) => [entry.qualifiedName, entry]));
    Object.freeze(this);
  }

  static fromManifest(skills: readonly ManifestSkill[]): SkillTable {
    return new SkillTable(skills.map(featureSkillEntry));
  }

  get size(): number {
    return this.#entries.size;
  }

  has(name: string): boolean {
    return this.#entries.has(name);
  }

  get(name: string): SkillEntry | undefined {
    return this.#entries.get(name);
  }

  values(): IterableIterator<SkillEntry> {
    return this.#entries.values();
  }

  /** Every skill's name and summary, unfiltered: callers apply scope and access per turn. */
  catalog(): readonly SkillSummary[] {
    return [...this.#entries.values()].map((entry) =>
      Object.freeze({ name: entry.qualifiedName, description: entry.description, source: entry.source }),
    );
  }

  /** The instructions of one skill; rejects for a name this generation does not have. */
  async describe(name: string): Promise<string> {
    const entry = this.#entries.get(name);
    if (!entry) throw new Error(`skill "${name}" is not available`);
    return entry.instructions();
  }
}

/** The candidate's skill table; manifest skills first, then seam catalogs (clash-checked). */
export class SkillTableBuilder {
  readonly #entries = new Map<string, SkillEntry>();
  readonly #folded = new Map<string, string>();

  constructor(skills: readonly ManifestSkill[]) {
    // The compiler already rejects duplicate feature skills; a hand-made manifest keeps the
    // previous behaviour (last one wins), as `Generation.skills` does.
    for (const skill of skills) {
      this.#entries.set(skill.qualifiedName, featureSkillEntry(skill));
      this.#folded.set(foldName(skill.qualifiedName), skill.qualifiedName);
    }
  }

  has(name: string): boolean {
    return this.#folded.has(foldName(name));
  }

  /** Throws on a duplicate, including names equal after case folding (never a silent override). */
  add(entry: SkillEntry): void {
    const name = entry.qualifiedName;
    const clash = this.#folded.get(foldName(name));
    if (clash !== undefined) {
      const other = this.#entries.get(clash)!;
      const how = clash === name ? 'duplicate skill name' : `skill name "${name}" equals "${clash}" after case folding`;
      throw new Error(`${how} "${clash}": ${describeSkill(other)} and ${describeSkill(entry)}`);
    }
    this.#entries.set(name, entry);
    this.#folded.set(foldName(name), name);
  }

  build(): SkillTable {
    return new SkillTable(this.#entries.values());
  }
}
