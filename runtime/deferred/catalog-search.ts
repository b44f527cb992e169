/**
 * The generation's `discover` index (docs/catalog.md#the-search-index). The compiler ships one
 * over the manifest's own tools and skills (search-data.ts), imported on the generation's first
 * `discover`; the tools and skills the manifest does not hold (`ask_user`, `setup()`, seams,
 * installed packages, whose names are rewritten under their key) get a small segment built here.
 * The shipped data is used only when its documents are the manifest's table (the checksum of
 * sampled names) and each is a catalog entry reading that manifest entry's texts; the texts
 * themselves are the compiler's to keep in step (it writes both from one table, and `check`
 * reports a search index of another catalog). Anything else (no data, another format, data of
 * another table)
 * builds the whole index here, as before. Either way the ranking is the same.
 */
import type { CapabilityManifest } from '../contract/manifest.js';
import type { CatalogSkill, CatalogTool } from './catalog.js';
import { manifestToolOf } from '../generation/capability.js';
import { readSearchHeader, ShippedSegment, sampledChecksum, shippedLength } from './search-data.js';
import { BuiltSegment, type SearchDocument, SearchIndex, searchDocument } from './search.js';

/** Where a generation's index came from (for benches and operators). */
export type SearchSource = 'shipped' | 'built';

export interface CatalogSearch {
  readonly index: SearchIndex;
  readonly source: SearchSource;
}

function documentOf(entry: CatalogTool | CatalogSkill): SearchDocument {
  return entry.kind === 'tool'
    ? searchDocument(entry.name, entry.binding.keywords, entry.binding.tags, entry.binding.description)
    : searchDocument(entry.name, entry.skill.keywords, entry.skill.tags, entry.skill.description);
}

function sameWords(a: readonly string[] | undefined, b: readonly string[] | undefined): boolean {
  if (a === b) return true;
  const left = a ?? [];
  const right = b ?? [];
  return left.length === right.length && left.every((word, i) => word === right[i]);
}

/** Catalog document ids of the data's documents, or undefined when the data does not describe them. */
function matchDocuments(
  manifest: CapabilityManifest,
  tools: readonly CatalogTool[],
  skills: readonly CatalogSkill[],
  counts: { readonly tools: number; readonly skills: number; readonly checksum: number },
): Int32Array | undefined {
  if (counts.tools > manifest.tools.length || counts.skills > manifest.skills.length) return undefined;
  const nameAt = (doc: number) =>
    doc < counts.tools ? manifest.tools[doc]!.qualifiedName : manifest.skills[doc - counts.tools]!.qualifiedName;
  let names = 0;
  for (let i = 0; i < counts.tools; i += 1) names += manifest.tools[i]!.qualifiedName.length;
  for (let i = 0; i < counts.skills; i += 1) names += manifest.skills[i]!.qualifiedName.length;
  // Data of another table (a tool added, removed or renamed since) changes the checksum.
  if (sampledChecksum(counts.tools + counts.skills, nameAt, names) !== counts.checksum) return undefined;
  const ids = new Int32Array(counts.tools + counts.skills);
  // The catalog's tools are sorted by name and so is the manifest's table: one walk, matching
  // each data document to the catalog entry whose binding reads through to that very manifest
  // entry (same object, so the same texts), without comparing a string.
  let i = 0;
  for (let j = 0; j < tools.length && i < counts.tools; j += 1) {
    if (manifestToolOf(tools[j]!.binding) === manifest.tools[i]) ids[i++] = tools[j]!.doc;
  }
  if (i < counts.tools) return undefined;
  // Skills (few) are copied into their entries: compared by value.
  let j = 0;
  for (let k = 0; k < counts.skills; k += 1) {
    const source = manifest.skills[k]!;
    while (j < skills.length && skills[j]!.name < source.qualifiedName) j += 1;
    const entry = skills[j];
    if (entry === undefined || entry.name !== source.qualifiedName) return undefined;
    const skill = entry.skill;
    if (
      skill.description !== source.description ||
      !sameWords(skill.keywords, source.keywords) ||
      !sameWords(skill.tags, source.tags)
    )
      return undefined;
    ids[counts.tools + k] = entry.doc;
    j += 1;
  }
  return ids;
}

async function shippedText(manifest: CapabilityManifest): Promise<string | undefined> {
  if (typeof manifest.search !== 'function') return undefined;
  try {
    const module = await manifest.search();
    return typeof module?.default === 'string' ? module.default : undefined;
  } catch {
    // A manifest evaluated away from its files (zhin-gen catalog) cannot import it: build instead.
    return undefined;
  }
}

function fromShipped(
  text: string,
  manifest: CapabilityManifest,
  entries: readonly (CatalogTool | CatalogSkill)[],
  tools: readonly CatalogTool[],
  skills: readonly CatalogSkill[],
): SearchIndex | undefined {
  const header = readSearchHeader(text);
  if (header === undefined) return undefined;
  const ids = matchDocuments(manifest, tools, skills, header);
  if (ids === undefined) return undefined;
  const lengths = new Float64Array(entries.length);
  const covered = new Uint8Array(entries.length);
  for (let i = 0; i < ids.length; i += 1) {
    lengths[ids[i]!] = shippedLength(text, header, i);
    covered[ids[i]!] = 1;
  }
  const extra: (CatalogTool | CatalogSkill)[] = [];
  for (const entry of entries) if (covered[entry.doc] === 0) extra.push(entry);
  const built = new BuiltSegment(
    extra.map(documentOf),
    extra.map((entry) => entry.doc),
  );
  extra.forEach((entry, index) => {
    lengths[entry.doc] = built.lengths[index]!;
  });
  // Exact names: a lower-case name is found by name; the few others are listed by the data.
  const upper = new Map<string, number[]>();
  const note = (entry: CatalogTool | CatalogSkill) => {
    const name = entry.name.toLowerCase();
    if (name === entry.name) return;
    const same = upper.get(name);
    if (same) same.push(entry.doc);
    else upper.set(name, [entry.doc]);
  };
  for (const doc of header.upper) note(entries[ids[doc]!]!);
  for (const entry of extra) note(entry);
  return new SearchIndex({
    segments: [new ShippedSegment(text, header, ids), built],
    lengths,
    named: (name) => {
      const out = [...(upper.get(name) ?? [])];
      const tool = findByName(tools, name);
      if (tool) out.push(tool.doc);
      const skill = findByName(skills, name);
      if (skill) out.push(skill.doc);
      return out;
    },
  });
}

/** Binary search in a list sorted by name. */
function findByName<T extends { readonly name: string }>(list: readonly T[], name: string): T | undefined {
  let low = 0;
  let high = list.length;
  while (low < high) {
    const mid = (low + high) >> 1;
    if (list[mid]!.name < name) low = mid + 1;
    else high = mid;
  }
  return list[low]?.name === name ? list[low] : undefined;
}

/** The index of one generation's catalog: the shipped data where it fits, else built here. */
export async function catalogSearch(
  manifest: CapabilityManifest,
  tools: readonly CatalogTool[],
  skills: readonly CatalogSkill[],
): Promise<CatalogSearch> {
  const entries = [...tools, ...skills];
  const text = await shippedText(manifest);
  const shipped = text === undefined ? undefined : fromShipped(text, manifest, entries, tools, skills);
  if (shipped) return { index: shipped, source: 'shipped' };
  return { index: SearchIndex.build(entries.map(documentOf)), source: 'built' };
}
