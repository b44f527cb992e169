/**
 * `discover`'s index, shipped or built, against the index as it was (search-reference.ts): the
 * same hits with the same scores in the same order for hundreds of seeded random queries over
 * a catalog that mixes manifest tools and skills (covered by the shipped data) with seam tools
 * and skills and `ask_user` (built at run time), upper-case names, CJK and camelCase text.
 */
import { describe, expect, it } from 'vitest';
import { createCapabilityHost, type ManifestSkill, type ManifestTool } from '../../../runtime/index.js';
import { generationCatalog } from '../../../runtime/deferred/catalog.js';
import { encodeSearchData } from '../../../runtime/deferred/search-data.js';
import { searchDocument, tokenize } from '../../../runtime/deferred/search.js';
import { manifest, skill } from '../fixture.js';
import { catalogTool, preparer, seamSkill, seamTool } from './fixture.js';
import { acceptedReference, ReferenceIndex, referenceTokenize } from './search-reference.js';

function random(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const WORDS = [
  'weather',
  'weathers',
  'ticket',
  'tickets',
  'music',
  'lottery',
  'search',
  'searching',
  'order',
  'member',
  'channel',
  'reminder',
  'poll',
  'quote',
  'image',
  'translate',
  'translation',
  'stock',
  'news',
  'map',
  'maps',
  'rank',
  'badge',
  'note',
  'timer',
  'time',
  'getWeather',
  'listOrders',
  'HTTPServer',
  'a',
  'of',
  'the',
  'class',
  '天气',
  '查询天气',
  '翻译',
  'カタカナ',
  '한국어',
  'mixed天气text',
  'v2',
  '2024',
  'ünïcödé',
  'Straße',
];

function corpus(seed: number) {
  const next = random(seed);
  const pick = <T>(list: readonly T[]) => list[Math.floor(next() * list.length)]!;
  const sentence = (n: number) => Array.from({ length: n }, () => pick(WORDS)).join(next() < 0.5 ? ' ' : ', ');
  const slug = () => pick(WORDS.filter((w) => /^[a-z]+$/.test(w)));
  const names = new Set<string>();
  while (names.size < 400) {
    const base = `${slug()}-${slug()}-${Math.floor(next() * 50)}`;
    names.add(next() < 0.15 ? `${slug()}__${base}` : base);
  }
  const tools: ManifestTool[] = [...names].sort().map((name) =>
    catalogTool(name, {
      description: `${sentence(3 + Math.floor(next() * 12))}.${next() < 0.3 ? ` ${sentence(4)}` : ''}`,
      keywords: next() < 0.6 ? [slug(), slug()] : [],
      ...(next() < 0.3 ? { tags: [pick(WORDS)] } : {}),
    }),
  );
  const skills: ManifestSkill[] = Array.from({ length: 30 }, (_, i) => `${slug()}-skill-${i}`)
    .sort()
    .map((name) => skill(name, { description: sentence(6), keywords: [slug()], tags: next() < 0.5 ? [slug()] : [] }));
  // Seam tools and skills the manifest does not hold, some with upper-case names, interleaved by name.
  const seams = Array.from({ length: 40 }, (_, i) =>
    seamTool(`${next() < 0.3 ? 'Seam' : 'seam'}-${slug()}-${i}`, 'mcp:github', {
      description: sentence(5),
      keywords: [slug()],
    }),
  );
  const seamSkills = Array.from({ length: 6 }, (_, i) =>
    seamSkill(`${slug()}-Seam-${i}`, 'x', { description: sentence(4) }),
  );
  const queries: string[] = ['', '   ', '!!!', 'zzzz', 'tools'];
  for (const tool of [...tools.slice(0, 20), ...seams.slice(0, 10)])
    queries.push(tool.qualifiedName, tool.qualifiedName.toUpperCase());
  for (const entry of seamSkills) queries.push(entry.qualifiedName.toLowerCase());
  for (let i = 0; i < 300; i++) {
    const roll = next();
    if (roll < 0.3) queries.push(pick(WORDS));
    else if (roll < 0.5) queries.push(pick(WORDS).slice(0, 3 + Math.floor(next() * 3)));
    else if (roll < 0.8) queries.push(sentence(2 + Math.floor(next() * 3)));
    else queries.push(` ${pick(WORDS)} ${pick(WORDS).slice(0, 4)}XYZ `);
  }
  return { tools, skills, seams, seamSkills, queries };
}

function shippedSearch(tools: readonly ManifestTool[], skills: readonly ManifestSkill[]) {
  const data = encodeSearchData(
    tools.map((t) => searchDocument(t.qualifiedName, t.keywords, t.tags, t.description)),
    skills.map((s) => searchDocument(s.qualifiedName, s.keywords, s.tags, s.description)),
  );
  return () => Promise.resolve({ default: data });
}

async function compare(seed: number, search: 'shipped' | 'none' | 'stale') {
  const { tools, skills, seams, seamSkills, queries } = corpus(seed);
  // Data of the table before a tool was renamed: same count, other names.
  const stale = tools.map((t, i) => (i === 7 ? { ...t, qualifiedName: `${t.qualifiedName}-old` } : t));
  const host = createCapabilityHost({ preparers: [preparer(seams, seamSkills)] });
  await host.load({
    ...manifest({ tools, skills }),
    ...(search === 'shipped' ? { search: shippedSearch(tools, skills) } : {}),
    ...(search === 'stale' ? { search: shippedSearch(stale, skills) } : {}),
  });
  const catalog = generationCatalog(host.current!);
  const { index, source } = await catalog.search();
  expect(source).toBe(search === 'shipped' ? 'shipped' : 'built');
  const entries = [...catalog.tools, ...catalog.skills];
  expect(catalog.tools.length).toBe(tools.length + seams.length + 1);
  const documents = entries.map((entry) =>
    entry.kind === 'tool'
      ? searchDocument(entry.name, entry.binding.keywords, entry.binding.tags, entry.binding.description)
      : searchDocument(entry.name, entry.skill.keywords, entry.skill.tags, entry.skill.description),
  );
  const reference = new ReferenceIndex(documents);
  // A turn's listed documents (discover's `accept`): the ranking of an index over those alone.
  const draw = random(seed + 100);
  const accept = new Uint8Array(entries.length).map(() => (draw() < 0.6 ? 1 : 0));
  const acceptedOnly = acceptedReference(documents, accept);
  let matched = 0;
  for (const query of queries) {
    const want = reference.search(query);
    const got = [...index.search(query)];
    expect(got, query).toEqual(want);
    const accepted = acceptedOnly.search(query);
    expect([...index.search(query, accept)], query).toEqual(accepted);
    // The best few come from one selection pass, the rest from a second scoring: the same order.
    for (const first of [1, 3, 40]) {
      expect([...index.search(query, accept, first)], `${query} / ${first}`).toEqual(accepted);
      const some = index.search(query, undefined, first)[Symbol.iterator]();
      expect(Array.from({ length: Math.min(first, want.length) }, () => some.next().value)).toEqual(
        want.slice(0, first),
      );
    }
    if (want.length > 0) matched += 1;
  }
  // The queries exercise the index, not only its misses.
  expect(matched).toBeGreaterThan(queries.length * 0.8);
  await host.close();
}

describe('discover index', () => {
  it('the tokenizer gives the tokens of the regex tokenizer (ASCII fast path, and everything else)', () => {
    const next = random(9);
    const alphabet = 'aAbBzZ09sS _-.,:;!?\t\n\r\'"()[]{}/\\xXé天气カ한';
    for (let n = 0; n < 20000; n++) {
      let text = '';
      const length = Math.floor(next() * 24);
      for (let i = 0; i < length; i++) text += alphabet[Math.floor(next() * alphabet.length)];
      expect(tokenize(text), JSON.stringify(text)).toEqual(referenceTokenize(text));
    }
    for (const word of WORDS) expect(tokenize(word)).toEqual(referenceTokenize(word));
  });

  it('shipped data plus a runtime segment ranks exactly as one index over every document', async () => {
    for (const seed of [1, 2, 3]) await compare(seed, 'shipped');
  });

  it('without shipped data, or with data of another table, the runtime builds the same index', async () => {
    await compare(4, 'none');
    await compare(5, 'stale');
  });

  it('a turn that offers discover starts importing the shipped index when it lists its tools; one without discover does not', async () => {
    const { tools, skills } = corpus(7);
    const imports: string[] = [];
    const load = async (alwaysLoadedTools?: string[]) => {
      const host = createCapabilityHost(alwaysLoadedTools ? { config: { deferredTools: { alwaysLoadedTools } } } : {});
      const data = shippedSearch(tools, skills);
      await host.load({
        ...manifest({ tools, skills }),
        search: () => {
          imports.push(alwaysLoadedTools ? 'without discover' : 'with discover');
          return data();
        },
      });
      return host;
    };
    const host = await load();
    const turn = await host.beginTurn({ sessionKey: 's' });
    expect(imports).toEqual([]);
    await turn.modelTools({ provider: 'openai' });
    expect(imports).toEqual(['with discover']);
    // The first discover finds the import under way (or done): the module is imported once.
    const outcome = await turn.execute('discover', { query: tools[3]!.qualifiedName });
    expect(outcome.status).toBe('completed');
    expect((await generationCatalog(host.current!).search()).source).toBe('shipped');
    expect(imports).toEqual(['with discover']);
    await turn.end();
    await host.close();
    const quiet = await load(['load_tool']);
    const other = await quiet.beginTurn({ sessionKey: 's' });
    await other.modelTools({ provider: 'anthropic' });
    expect(imports).toEqual(['with discover']);
    await other.end();
    await quiet.close();
  });

  it('a shipped index that cannot be imported falls back to building, and discover still answers', async () => {
    const { tools, skills } = corpus(6);
    const host = createCapabilityHost();
    await host.load({ ...manifest({ tools, skills }), search: () => Promise.reject(new Error('moved')) });
    const { source } = await generationCatalog(host.current!).search();
    expect(source).toBe('built');
    const turn = await host.beginTurn({ sessionKey: 's' });
    const outcome = await turn.execute('discover', { query: tools[3]!.qualifiedName });
    expect(outcome.status).toBe('completed');
    await turn.end();
    await host.close();
  });
});
