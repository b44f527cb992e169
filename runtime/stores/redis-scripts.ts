/**
 * The Lua scripts of the Redis store. Each runs atomically on the server, so several bot
 * instances sharing one Redis never interleave inside a read-modify-write. The session merge is
 * `mergeSnapshot` (runtime/deferred/session-store.ts) step for step: drop the names the writer's
 * generation lacks, newest touch wins (`ZADD GT`), skills as an ordered union; nothing is evicted
 * for a bound (each turn bounds its own loaded set: runtime/deferred/loaded-tools.ts). A
 * differential test runs both on the same updates and compares the results.
 *
 * A key holding the wrong type (written by something else) is corrupt: session and approval
 * keys are replaced, journal keys moved aside under `<prefix>corrupt:` (never onto a real key,
 * never over an earlier copy), and the script returns a note saying so; read scripts return the
 * type instead of failing.
 *
 * Times are the server's (`TIME`): the one clock every instance sharing the server agrees on.
 * The journal scripts build turn / stream key names from the prefix they are given, so the store
 * needs a single Redis (not a Cluster, where a script must name every key it touches).
 */

/** `TIME` as integer microseconds, in text (a Lua number would print 16 digits in e-notation). */
const MICROS = `local function micros(t) return t[1] .. string.format('%06d', tonumber(t[2])) end
`;

/** Sorted-set and list checks shared by the scripts. */
const KIND = `local function kind(key) return redis.call('TYPE', key)['ok'] end
local notes = {}
local function expect(key, want)
  local t = kind(key)
  if t ~= 'none' and t ~= want then
    redis.call('DEL', key)
    notes[#notes + 1] = key .. ' held a ' .. t .. ', not a ' .. want .. ' (replaced)'
  end
end
`;

/** KEYS: tools (zset), skills (list) → { toolsType, skillsType, [name, score…], [skill…] }. */
export const SESSION_GET = `local function kind(key) return redis.call('TYPE', key)['ok'] end
local tk, sk = kind(KEYS[1]), kind(KEYS[2])
local tools, skills = {}, {}
if tk == 'zset' then tools = redis.call('ZRANGE', KEYS[1], 0, -1, 'WITHSCORES') end
if sk == 'list' then skills = redis.call('LRANGE', KEYS[2], 0, -1) end
return { tk, sk, tools, skills }
`;

/**
 * KEYS: tools (zset), skills (list). ARGV: ttlMs (0: none), nTools, name, at…, nDrop, name…,
 * skill… → notes (mergeSnapshot's steps). nDrop -1 drops everything stored first: a plain write
 * (`sessions.set`), one step, so no merge lands between a read and a write, whatever is stored.
 */
export const SESSION_MERGE = `${KIND}
expect(KEYS[1], 'zset')
expect(KEYS[2], 'list')
local ttl = tonumber(ARGV[1])
local i = 2
local nTools = tonumber(ARGV[i]); i = i + 1
local tools = {}
for _ = 1, nTools do tools[#tools + 1] = { ARGV[i], ARGV[i + 1] }; i = i + 2 end
local nDrop = tonumber(ARGV[i]); i = i + 1
if nDrop < 0 then redis.call('DEL', KEYS[1], KEYS[2]); nDrop = 0 end
for _ = 1, nDrop do
  redis.call('ZREM', KEYS[1], ARGV[i])
  redis.call('LREM', KEYS[2], 0, ARGV[i])
  i = i + 1
end
for _, tool in ipairs(tools) do redis.call('ZADD', KEYS[1], 'GT', tool[2], tool[1]) end
while i <= #ARGV do
  if not redis.call('LPOS', KEYS[2], ARGV[i]) then redis.call('RPUSH', KEYS[2], ARGV[i]) end
  i = i + 1
end
if ttl > 0 then
  redis.call('PEXPIRE', KEYS[1], ttl)
  redis.call('PEXPIRE', KEYS[2], ttl)
end
return notes
`;

/** The field holding a session's latest revocation; no tool name contains `:`, so no tool is it. */
export const REVOKED_FIELD = ':revoked';

/**
 * The field prefix holding when each approval was given (server ms): a reader applies its own
 * `approvalTtlMs` to it, so a TTL shortened in a deploy shortens approvals given before it too.
 */
export const DECIDED_FIELD = ':at:';

/**
 * KEYS: the session's approvals (hash). ARGV: tool, ttlMs (0: none), decidedAt (server µs, read
 * before the write was sent), deadline (server µs) → { 'kept' | 'late' | 'revoked', notes }.
 *
 * The approval's expiry is decidedAt + ttlMs in ms (`approvalExpiry`'s rule), or `never` without
 * a TTL: a time by the server's clock, the one APPROVAL_GET compares it with, so an instance
 * whose own clock is off neither stretches nor shortens approvals for the others.
 *
 * A write that comes after its deadline is refused: the caller has stopped waiting and reported
 * it as not kept (it sat on a stalled socket or in the client's offline queue), so it must never
 * grant later. A write decided at or before the session's latest revocation is refused: a
 * revocation removes every approval given before it, including one still on its way.
 */
export const APPROVAL_REMEMBER = `${KIND}${MICROS}
expect(KEYS[1], 'hash')
local t = redis.call('TIME')
if tonumber(micros(t)) > tonumber(ARGV[4]) then return { 'late', notes } end
local revoked = redis.call('HGET', KEYS[1], '${REVOKED_FIELD}')
if revoked and not string.match(revoked, '^%d+$') then
  -- Not a time the store wrote: count it as a revocation now (fail closed) and repair it.
  redis.call('HSET', KEYS[1], '${REVOKED_FIELD}', micros(t))
  notes[#notes + 1] = KEYS[1] .. ' field ${REVOKED_FIELD} held "' .. string.sub(revoked, 1, 40) .. '", not a time (replaced)'
  return { 'revoked', notes }
end
if revoked and tonumber(ARGV[3]) <= tonumber(revoked) then return { 'revoked', notes } end
local ttl = tonumber(ARGV[2])
local expiry = 'never'
-- ms: the µs text less its last 3 digits (exact, no float division); %.0f: never e-notation.
if ttl > 0 then expiry = string.format('%.0f', tonumber(string.sub(ARGV[3], 1, -4)) + ttl) end
redis.call('HSET', KEYS[1], ARGV[1], expiry, '${DECIDED_FIELD}' .. ARGV[1], string.sub(ARGV[3], 1, -4))
-- Never shorten the key's life: it may carry a revocation that must outlive late writes.
if ttl > 0 then
  if redis.call('PTTL', KEYS[1]) < ttl then redis.call('PEXPIRE', KEYS[1], ttl) end
else
  redis.call('PERSIST', KEYS[1])
end
return { 'kept', notes }
`;

/**
 * KEYS: the session's approvals (hash). ARGV: keepMs → 1. Deletes every approval and records
 * the revocation's time, kept `keepMs`: longer than any `remember` may still land.
 */
export const APPROVAL_REVOKE = `${MICROS}
local t = redis.call('TIME')
redis.call('DEL', KEYS[1])
redis.call('HSET', KEYS[1], '${REVOKED_FIELD}', micros(t))
redis.call('PEXPIRE', KEYS[1], ARGV[1])
return 1
`;

/**
 * KEYS: the session's approvals (hash). ARGV: tool → { type, value | false, server time (ms), given at (ms) | false }:
 * the caller compares the expiry with the server's time, never its own.
 */
export const APPROVAL_GET = `local c = redis.call('TIME')
local now = c[1] .. string.format('%03d', math.floor(tonumber(c[2]) / 1000))
local t = redis.call('TYPE', KEYS[1])['ok']
if t ~= 'hash' then return { t, false, now, false } end
local v = redis.call('HMGET', KEYS[1], ARGV[1], '${DECIDED_FIELD}' .. ARGV[1])
return { t, v[1], now, v[2] }
`;

/** Fields per journal entry in JOURNAL_APPEND's ARGV, and fields before the first entry. */
export const APPEND_FIELDS = 9;
export const APPEND_HEADER = 3;

/** Most stream entries one append trims per session (the rest go with the next append). */
const TRIM_MAX = 1000;

/** Stream / turn key names and the server's time in ms, shared by the journal scripts. */
const JOURNAL = `${MICROS}local ttl, prefix = tonumber(ARGV[2]), ARGV[3]
local function kind(key) return redis.call('TYPE', key)['ok'] end
local clock = redis.call('TIME')
local nowMs = tonumber(clock[1]) * 1000 + math.floor(tonumber(clock[2]) / 1000)
-- Stream ids are the server's ms when added: an entry is past ttlMs when its id's ms <= cutoff.
local cutoff = string.format('%.0f', nowMs - ttl - 1)
`;

/**
 * KEYS: (session stream, turn hash) per entry. ARGV: maxLen (0: none), ttlMs (0: none), prefix,
 * then per entry: seq, session, turn, trace, principal, tool, type, at, entry → { written, notes }.
 *
 * Idempotent: an entry whose (turn, seq) is in the turn hash (as a stream id, or as `trimmed`)
 * is not added again, so a batch retried after a timeout never duplicates what already landed.
 *
 * Bounded: after the batch each session stream drops its entries beyond maxLen and those older
 * than ttlMs, and each dropped entry leaves its turn hash too (marked `trimmed`; `_live` counts
 * the turn's entries still in the stream); a turn with none left is deleted, so turn hashes are
 * never more than the stream's entries.
 */
export const JOURNAL_APPEND = `local notes = {}
${JOURNAL}
local maxlen = tonumber(ARGV[1])
local function aside(key, want)
  local t = kind(key)
  if t == 'none' or t == want then return end
  -- No real key starts with <prefix>corrupt:, and RENAMENX never replaces an earlier copy.
  local base = prefix .. 'corrupt:' .. string.sub(key, #prefix + 1) .. ':' .. micros(clock)
  local dest, n = base, 0
  while redis.call('RENAMENX', key, dest) == 0 do n = n + 1; dest = base .. '.' .. n end
  notes[#notes + 1] = key .. ' held a ' .. t .. ', not a ' .. want .. ' (moved to ' .. dest .. ')'
end
-- The turn's entries still in the stream; counted once for a hash written before _live was kept.
local function live(tk)
  local n = redis.call('HGET', tk, '_live')
  if n then return tonumber(n) or 0 end
  local all, c = redis.call('HGETALL', tk), 0
  for i = 1, #all, 2 do
    if string.sub(all[i], 1, 1) ~= '_' and all[i + 1] ~= 'trimmed' then c = c + 1 end
  end
  return c
end
local function trim(sk)
  if kind(sk) ~= 'stream' then return end
  local n = 0
  if maxlen > 0 then n = redis.call('XLEN', sk) - maxlen end
  if ttl > 0 then
    local old = #redis.call('XRANGE', sk, '-', cutoff, 'COUNT', ${TRIM_MAX})
    if old > n then n = old end
  end
  if n <= 0 then return end
  if n > ${TRIM_MAX} then n = ${TRIM_MAX} end
  local rows = redis.call('XRANGE', sk, '-', '+', 'COUNT', n)
  for _, row in ipairs(rows) do
    local f = {}
    for i = 1, #row[2], 2 do f[row[2][i]] = row[2][i + 1] end
    local tk = f['turn'] and prefix .. 'journal:turn:' .. f['turn']
    -- Only the index entry that points at this very row (a foreign row may claim any turn).
    if tk and f['seq'] and kind(tk) == 'hash' and redis.call('HGET', tk, f['seq']) == row[1] then
      local left = live(tk) - 1
      if left > 0 then redis.call('HSET', tk, f['seq'], 'trimmed', '_live', left)
      else redis.call('DEL', tk) end
    end
  end
  -- Exactly the rows just read: they are the oldest, and nothing ran in between.
  redis.call('XTRIM', sk, 'MAXLEN', redis.call('XLEN', sk) - #rows)
end
local written, streams, seen = 0, {}, {}
for e = 0, #KEYS / 2 - 1 do
  local sk, tk = KEYS[e * 2 + 1], KEYS[e * 2 + 2]
  aside(sk, 'stream')
  aside(tk, 'hash')
  local b = ${APPEND_HEADER} + e * ${APPEND_FIELDS}
  local seq = ARGV[b + 1]
  if redis.call('HEXISTS', tk, seq) == 0 then
    local id = redis.call('XADD', sk, '*', 'turn', ARGV[b + 3], 'seq', seq, 'trace', ARGV[b + 4],
      'principal', ARGV[b + 5], 'tool', ARGV[b + 6], 'type', ARGV[b + 7], 'at', ARGV[b + 8], 'entry', ARGV[b + 9])
    redis.call('HSET', tk, seq, id, '_session', ARGV[b + 2], '_live', live(tk) + 1)
    written = written + 1
  end
  -- A key lives ttlMs after its newest entry, when that entry is past ttlMs too.
  if ttl > 0 then
    redis.call('PEXPIRE', sk, ttl)
    redis.call('PEXPIRE', tk, ttl)
  end
  if not seen[sk] then seen[sk] = true; streams[#streams + 1] = sk end
end
for _, sk in ipairs(streams) do trim(sk) end
return { written, notes }
`;

/**
 * KEYS: turn hash. ARGV: (unused), ttlMs (0: none), prefix → { type, session | false,
 * streamType, { seq, id, fields | false }… }. The stream is the one `_session` names; an id is
 * `trimmed` (dropped from the stream), `expired` (older than ttlMs: readSession leaves it out
 * too) or not a stream id (corrupt), and then has no fields.
 */
export const JOURNAL_TURN = `${JOURNAL}
local t = kind(KEYS[1])
if t ~= 'hash' then return { t, false, 'none', {} } end
local session = redis.call('HGET', KEYS[1], '_session')
if not session then return { t, false, 'none', {} } end
local sk = prefix .. 'journal:session:' .. session
local st = kind(sk)
local all = redis.call('HGETALL', KEYS[1])
local out = {}
for i = 1, #all, 2 do
  local seq, id, fields = all[i], all[i + 1], false
  if string.sub(seq, 1, 1) ~= '_' then
    if st == 'stream' and string.match(id, '^%d+%-%d+$') then
      if ttl > 0 and tonumber(string.match(id, '^%d+')) <= tonumber(cutoff) then id = 'expired'
      else
        -- An id of the right shape may still be no stream id (past 64 bits): that row is left
        -- out as not one, never an error that loses the whole turn.
        local ok, rows = pcall(redis.call, 'XRANGE', sk, id, id)
        if ok then fields = rows[1] and rows[1][2] or false else id = 'invalid:' .. id end
      end
    end
    out[#out + 1] = { seq, id, fields }
  end
end
return { t, session, st, out }
`;

/**
 * KEYS: session stream. ARGV: limit, ttlMs (0: none), prefix → { type, { id, fields }… newest
 * first }, without entries older than ttlMs (the next append removes them).
 */
export const JOURNAL_SESSION = `${JOURNAL}
local t = kind(KEYS[1])
if t ~= 'stream' then return { t, {} } end
local oldest = '-'
if ttl > 0 then oldest = string.format('%.0f', nowMs - ttl) end
return { t, redis.call('XREVRANGE', KEYS[1], '+', oldest, 'COUNT', ARGV[1]) }
`;
