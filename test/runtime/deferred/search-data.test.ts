/**
 * The shipped `discover` index's encoding (runtime/deferred/search-data.ts, search-encoder.ts):
 * on a generated catalog with plugins whose tools sit side by side (runs of one word), weights
 * from 0 to 100, long gaps, CJK and upper-case names, every token's postings read back exactly
 * as the documents give them (documents, weights, lengths), words that are not tokens are not
 * found, prefix expansion lists what the vocabulary holds, and every query ranks exactly as the
 * index as it was (search-reference.ts) and the runtime-built index. Runs keep a word shared by
 * a whole plugin to a few digits, data that does not fit the table is not read past it, and
 * running the query code ahead of the first query (`warm`) changes no answer.
 */
import { describe, expect, it } from 'vitest';
import { BuiltSegment, type SearchDocument, SearchIndex, termWeights } from '../../../runtime/deferred/search.js';
import {
  encodeSearchData,
  readSearchHeader,
  ShippedSegment,
  searchDocument,
} from '../../../runtime/deferred/search-data.js';
import { LINE } from '../../../runtime/deferred/search-format.js';
import { acceptedReference, ReferenceIndex } from './search-reference.js';
import { seededRandom as random } from '../../helpers.js';

const WORDS = ['weather', 'ticket', 'music', 'order', 'member', 'reminder', 'poll', 'image', 'note', '天气', 'city'];

/** 3,000 tools in 40 plugins (table order), two skills, and documents of unusual weights. */
function catalog(): { readonly tools: SearchDocument[]; readonly skills: SearchDocument[] } {
  const next = random(7);
  const pick = () => WORDS[Math.floor(next() * WORDS.length)]!;
  const tools: SearchDocument[] = [];
  for (let i = 0; i < 3000; i += 1) {
    const plugin = `plugin${Math.floor(i / 75)}`;
    const name = `${plugin}__${i % 97 === 0 ? 'Echo' : 'tool'}-${i}`;
    // Every tool says "returns"; a block in the middle says it twice (a run of another weight).
    const description = [
      i >= 1200 && i < 1300 ? 'returns returns' : 'returns',
      ...Array.from({ length: 1 + Math.floor(next() * 5) }, pick),
      i === 2999 ? 'zyzzyva' : '',
    ].join(' ');
    tools.push(searchDocument(name, i % 5 === 0 ? [pick()] : [], i % 11 === 0 ? ['tag'] : [], description));
  }
  // A word only the first and the last have (one gap across the whole table).
  tools[0] = searchDocument(tools[0]!.name, ['bookend'], [], 'first');
  tools[2998] = searchDocument(tools[2998]!.name, ['bookend'], [], 'last');
  // Weights the usual codes do not cover: 0 and 100 (a field of that weight), 9 (a name word thrice).
  tools[10] = { name: 'plugin0__weightless', fields: [{ text: 'weightless weather', weight: 0 }] };
  tools[11] = { name: 'plugin0__heavy', fields: [{ text: 'heavy weather', weight: 100 }] };
  tools[12] = searchDocument('plugin0__echo_echo_echo', [], [], 'echo weather');
  const skills = [
    searchDocument('trip', ['travel'], [], 'Plan a trip with weather and tickets'),
    searchDocument('Journal', ['diary', '天气'], ['tag'], 'Keep a diary'),
  ];
  return { tools, skills };
}

/** Every token's documents and weights, from the documents themselves. */
function expectedPostings(documents: readonly SearchDocument[]) {
  const postings = new Map<string, { docs: number[]; weights: number[]; lengths: number[] }>();
  documents.forEach((document, doc) => {
    const { weights, length } = termWeights(document);
    for (const [token, weight] of weights) {
      let posting = postings.get(token);
      if (!posting) postings.set(token, (posting = { docs: [], weights: [], lengths: [] }));
      posting.docs.push(doc);
      posting.weights.push(weight);
      posting.lengths.push(length);
    }
  });
  return postings;
}

function shippedSegment(data: string, count: number): ShippedSegment {
  return new ShippedSegment(
    data,
    readSearchHeader(data)!,
    Int32Array.from({ length: count }, (_, i) => i),
  );
}

describe('the shipped search data', () => {
  const { tools, skills } = catalog();
  const documents = [...tools, ...skills];
  const data = encodeSearchData(tools, skills);
  const expected = expectedPostings(documents);

  it('reads back every token exactly: documents, weights and lengths', () => {
    const header = readSearchHeader(data)!;
    expect(header.tokens).toBe(expected.size);
    expect([...expected.values()].some((p) => p.weights.includes(0))).toBe(true);
    expect([...expected.values()].some((p) => p.weights.includes(100))).toBe(true);
    expect([...expected.values()].some((p) => p.weights.some((w) => w > 6 && w < 100))).toBe(true);
    const segment = shippedSegment(data, documents.length);
    for (const [token, want] of expected) {
      const got = segment.posting(token)!;
      expect(got, token).toBeDefined();
      expect(
        { docs: Array.from(got.docs), weights: Array.from(got.weights), lengths: Array.from(got.lengths) },
        token,
      ).toEqual(want);
    }
    // Not tokens: a prefix, a longer word, words before the first and after the last line.
    for (const word of ['weathe', 'weatherz', '', '0', 'zzzzzzzz', 'returns', 'plugin', '天', 'ticket ticket'])
      if (!expected.has(word)) expect(segment.posting(word), word).toBeUndefined();
  });

  it('expands prefixes to what the vocabulary holds', () => {
    const segment = shippedSegment(data, documents.length);
    const built = new BuiltSegment(documents);
    const prefixes = new Set<string>(['', 'zz', 'plugin1', '天']);
    for (const token of expected.keys()) for (let n = 1; n <= 4; n += 1) prefixes.add(token.slice(0, n));
    for (const prefix of prefixes) expect(segment.expand(prefix), prefix).toEqual(built.expand(prefix));
  });

  it('ranks every query as the index as it was and the runtime-built index', () => {
    const header = readSearchHeader(data)!;
    const names = new Map<string, number[]>();
    documents.forEach((document, doc) => {
      const name = document.name.toLowerCase();
      names.set(name, [...(names.get(name) ?? []), doc]);
    });
    const shipped = new SearchIndex({
      segments: [shippedSegment(data, documents.length)],
      size: documents.length,
      totalLength: header.totalLength,
      named: (name) => names.get(name) ?? [],
    });
    const built = SearchIndex.build(documents);
    const reference = new ReferenceIndex(documents);
    const next = random(11);
    const queries = [
      ...WORDS,
      'returns',
      'bookend',
      'zyzzyva',
      'heavy weather',
      'weightless',
      'echo',
      'plugin7',
      'plugin7__tool-530',
      'plugin0__Echo-0',
      'trip',
      'journal',
      '天气 diary',
      'wea',
      'tag ticket',
    ];
    for (let i = 0; i < 60; i += 1)
      queries.push(`${WORDS[Math.floor(next() * WORDS.length)]} plugin${Math.floor(next() * 40)}`);
    const accept = new Uint8Array(documents.length).map(() => (next() < 0.5 ? 1 : 0));
    const acceptedOnly = acceptedReference(documents, accept);
    // Running the query code ahead (SearchIndex.warm, where the index is prefetched) changes no answer.
    shipped.warm();
    for (const query of queries) {
      if (query === 'returns') shipped.warm();
      const want = reference.search(query);
      expect(want.length, query).toBeGreaterThan(0);
      expect([...shipped.search(query)], query).toEqual(want);
      expect([...built.search(query)], query).toEqual(want);
      // Under a mask: the ranking of an index over the accepted documents alone.
      expect([...shipped.search(query, accept, 3)], query).toEqual(acceptedOnly.search(query));
    }
  });

  it('keeps a word of every tool, or of a whole plugin, to a few digits', () => {
    const line = (token: string) => {
      const at = data.indexOf(`${LINE}${token} `);
      return data.slice(at + 1, data.indexOf(LINE, at + 1));
    };
    // 2,994 of 3,000 documents, in five runs (its weight changes for 100 of them).
    expect(line('return').length).toBeLessThan(40);
    // 75 tools of one plugin: one run.
    expect(line('plugin7').length).toBeLessThan(16);
    // The whole index (a number per document and an offset per token before: 82,000 characters).
    expect(data.length).toBeLessThan(50_000);
  });

  it('does not read data past the table it was made for', () => {
    // The same data read as if the table had half the documents: no document beyond it.
    const half = Math.floor(documents.length / 2);
    const segment = new ShippedSegment(
      data,
      readSearchHeader(data)!,
      Int32Array.from({ length: half }, (_, i) => i),
    );
    const posting = segment.posting('return')!;
    expect(posting.docs.length).toBeLessThanOrEqual(half);
    expect(Math.max(...Array.from(posting.docs))).toBeLessThan(half);
    // A line cut short (its last number unfinished) ends where the data ends.
    const at = data.indexOf(`${LINE}zyzzyva `) + 1;
    const end = data.indexOf(LINE, at);
    const cut = `${data.slice(0, end - 1)}${'_'}${data.slice(end)}`;
    expect(shippedSegment(cut, documents.length).posting('zyzzyva')).toEqual({
      docs: new Int32Array(0),
      weights: new Int32Array(0),
      lengths: new Int32Array(0),
    });
  });
});
