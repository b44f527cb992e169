/**
 * The shipped `discover` index of a catalog in Chinese (search-format.ts spellToken): every code
 * unit above ASCII is spelled `~` + four hex digits in the data, so the generated module stays
 * one-byte (ASCII). The spelling keeps code-unit order and prefixes, so the shipped index reads
 * back every token, expands every prefix and ranks every query, with and without a mask, exactly
 * as the runtime-built index over the same documents.
 */
import { describe, expect, it } from 'vitest';
import { BuiltSegment, type SearchDocument, SearchIndex, termWeights } from '../../../runtime/deferred/search.js';
import {
  encodeSearchData,
  readSearchHeader,
  ShippedSegment,
  searchDocument,
} from '../../../runtime/deferred/search-data.js';
import { readToken, spellToken } from '../../../runtime/deferred/search-format.js';
import { seededRandom as random } from '../../helpers.js';

// Chinese as the seed catalogs write it, Japanese kana, Korean, accented Latin, a letter outside
// the BMP (a surrogate pair) and plain English.
const WORDS = [
  '查询天气',
  '提醒',
  '天气预报',
  '彩票',
  '音乐',
  '订单',
  'チケット',
  '날씨',
  'café',
  '𠀀字',
  'weather',
  'ticket',
];

function catalog(): { readonly tools: SearchDocument[]; readonly skills: SearchDocument[] } {
  const next = random(5);
  const pick = () => WORDS[Math.floor(next() * WORDS.length)]!;
  const tools: SearchDocument[] = [];
  for (let i = 0; i < 600; i += 1) {
    const words = Array.from({ length: 1 + Math.floor(next() * 4) }, pick);
    tools.push(searchDocument(`plugin${Math.floor(i / 50)}__tool-${i}`, [pick()], [], `${words.join('，')}。`));
  }
  return { tools, skills: [searchDocument('trip', ['旅行'], [], '规划旅行，查询天气和车票')] };
}

describe('the shipped search data of a catalog in Chinese', () => {
  const { tools, skills } = catalog();
  const documents = [...tools, ...skills];
  const data = encodeSearchData(tools, skills);
  const segment = () =>
    new ShippedSegment(
      data,
      readSearchHeader(data)!,
      Int32Array.from({ length: documents.length }, (_, i) => i),
    );
  const tokens = new Set<string>();
  for (const document of documents) for (const token of termWeights(document).weights.keys()) tokens.add(token);

  it('is ASCII only, while the catalog has tokens above ASCII', () => {
    expect([...tokens].some((token) => /[^\x00-\x7f]/.test(token))).toBe(true);
    expect(/[^\x00-\x7f]/.test(data)).toBe(false);
    // Spelled as in the module's string literal: no escape of its own per token.
    expect(JSON.stringify(data)).toBe(`"${data}"`);
  });

  it('spells tokens in the same code-unit order and with the same prefixes', () => {
    const next = random(9);
    const units = ['a', 'z', '0', '9', '~', '\x7f', '}', 'é', '天', '气', '\ud840', '\udc00', 'ｚ', '가'];
    const words = Array.from({ length: 400 }, () =>
      Array.from({ length: 1 + Math.floor(next() * 4) }, () => units[Math.floor(next() * units.length)]).join(''),
    );
    for (const a of words) {
      expect(readToken(spellToken(a))).toBe(a);
      for (const b of words.slice(0, 40)) {
        expect(Math.sign(spellToken(a) < spellToken(b) ? -1 : spellToken(a) > spellToken(b) ? 1 : 0), `${a} ${b}`).toBe(
          a < b ? -1 : a > b ? 1 : 0,
        );
        expect(spellToken(a).startsWith(spellToken(b)), `${a} ${b}`).toBe(a.startsWith(b));
      }
    }
  });

  it('reads back every token and expands every prefix as the runtime-built segment', () => {
    const shipped = segment();
    const built = new BuiltSegment(documents);
    for (const token of tokens) {
      const got = shipped.posting(token)!;
      const want = built.posting(token)!;
      expect(got, token).toBeDefined();
      expect(Array.from(got.docs), token).toEqual(Array.from(want.docs));
      expect(Array.from(got.weights), token).toEqual(Array.from(want.weights));
      expect(Array.from(got.lengths), token).toEqual(Array.from(want.lengths));
    }
    const prefixes = new Set<string>(['', '天', '查', 'caf', '\ud840', '날']);
    for (const token of tokens) for (let n = 1; n <= 3; n += 1) prefixes.add(token.slice(0, n));
    for (const prefix of prefixes) expect(shipped.expand(prefix), prefix).toEqual(built.expand(prefix));
    for (const word of ['天气天', '~', '~5929', '天~', 'cafe', '提醒提醒'])
      expect(shipped.posting(word), word).toBeUndefined();
  });

  it('ranks every query, with and without a mask, as the runtime-built index', () => {
    const header = readSearchHeader(data)!;
    const names = new Map<string, number[]>();
    documents.forEach((document, doc) => {
      const name = document.name.toLowerCase();
      names.set(name, [...(names.get(name) ?? []), doc]);
    });
    const shipped = new SearchIndex({
      segments: [segment()],
      size: documents.length,
      totalLength: header.totalLength,
      named: (name) => names.get(name) ?? [],
    });
    const built = SearchIndex.build(documents);
    const next = random(13);
    const accept = new Uint8Array(documents.length).map(() => (next() < 0.5 ? 1 : 0));
    const queries = [...WORDS, '天气', '查询 彩票', '旅行', '天', 'caf', 'チケ', '𠀀', 'weather 提醒', 'trip'];
    shipped.warm();
    for (const query of queries) {
      const want = [...built.search(query)];
      expect(want.length, query).toBeGreaterThan(0);
      expect([...shipped.search(query)], query).toEqual(want);
      expect([...shipped.search(query, accept, 3)], query).toEqual([...built.search(query, accept, 3)]);
    }
  });
});
