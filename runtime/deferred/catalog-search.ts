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
import { readSearchHeader, ShippedSegment, sampledChecksum } from './search-data.js';
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

/**
 * Which catalog tool reads which entry of the manifest's table, found while the catalog was
 * made (catalog.ts): `manifestDocs[i]` is the catalog document of `manifest.tools[i]` for the
 * table's leading entries matched in order, `otherDocs` every other tool's document.
 */
export interface ManifestLayout {
  readonly manifestDocs: Int32Array;
  readonly otherDocs: readonly number[];
  /** `nameChars[i]`: the total length of the first i matched entries' names. */
  readonly nameChars: Int32Array;
}

/** Catalog document ids of the data's documents, or undefined when the data does not describe them. */
function matchDocuments(
  manifest: CapabilityManifest,
  skills: readonly CatalogSkill[],
  layout: ManifestLayout,
  counts: { readonly tools: number; readonly skills: number; readonly checksum: number },
): Int32Array | undefined {
  // Every tool of the data must be a catalog tool reading that very manifest entry (same object,
  // so the same texts): the catalog matched the table's leading entries in order.
  if (counts.tools > layout.manifestDocs.length || counts.skills > manifest.skills.length) return undefined;
  const nameAt = (doc: number) =>
    doc < counts.tools ? manifest.tools[doc]!.qualifiedName : manifest.skills[doc - counts.tools]!.qualifiedName;
  let names = layout.nameChars[counts.tools]!;
  for (let i = 0; i < counts.skills; i += 1) names += manifest.skills[i]!.qualifiedName.length;
  // Data of another table (a tool added, removed or renamed since) changes the checksum.
  if (sampledChecksum(counts.tools + counts.skills, nameAt, names) !== counts.checksum) return undefined;
  const ids = new Int32Array(counts.tools + counts.skills);
  ids.set(layout.manifestDocs.subarray(0, counts.tools));
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

/** The shipped index's text (importing its module), or undefined when there is none to use. */
export async function shippedText(manifest: CapabilityManifest): Promise<string | undefined> {
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
  tools: readonly CatalogTool[],
  skills: readonly CatalogSkill[],
  layout: ManifestLayout,
): SearchIndex | undefined {
  const header = readSearchHeader(text);
  if (header === undefined) return undefined;
  const ids = matchDocuments(manifest, skills, layout, header);
  if (ids === undefined) return undefined;
  // The rest: tools the data does not hold (listed by the catalog, no walk here) and skills.
  const extra: (CatalogTool | CatalogSkill)[] = [];
  for (const doc of layout.otherDocs) extra.push(tools[doc]!);
  for (let i = header.tools; i < layout.manifestDocs.length; i += 1) extra.push(tools[layout.manifestDocs[i]!]!);
  const coveredSkills = new Set<number>();
  for (let k = 0; k < header.skills; k += 1) coveredSkills.add(ids[header.tools + k]!);
  for (const entry of skills) if (!coveredSkills.has(entry.doc)) extra.push(entry);
  const built = new BuiltSegment(
    extra.map(documentOf),
    extra.map((entry) => entry.doc),
  );
  // Exact names: a lower-case name is found by name; the few others are listed by the data.
  const upper = new Map<string, number[]>();
  const note = (entry: CatalogTool | CatalogSkill) => {
    const name = entry.name.toLowerCase();
    if (name === entry.name) return;
    const same = upper.get(name);
    if (same) same.push(entry.doc);
    else upper.set(name, [entry.doc]);
  };
  const entryOf = (doc: number) => (doc < tools.length ? tools[doc]! : skills[doc - tools.length]!);
  for (const doc of header.upper) note(entryOf(ids[doc]!));
  for (const entry of extra) note(entry);
  return new SearchIndex({
    segments: [new ShippedSegment(text, header, ids), built],
    size: tools.length + skills.length,
    totalLength: header.totalLength + built.totalLength,
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
  shippedData: Promise<string | undefined>,
  manifest: CapabilityManifest,
  tools: readonly CatalogTool[],
  skills: readonly CatalogSkill[],
  layout: ManifestLayout,
): Promise<CatalogSearch> {
  const text = await shippedData;
  const shipped = text === undefined ? undefined : fromShipped(text, manifest, tools, skills, layout);
  if (shipped) return { index: shipped, source: 'shipped' };
  return { index: SearchIndex.build([...tools, ...skills].map(documentOf)), source: 'built' };
}
