/**
 * The Lua scripts of the Redis store. Each runs atomically on the server, so several bot
 * instances sharing one Redis never interleave inside a read-modify-write. The session merge is
 * `mergeSnapshot` (runtime/deferred/session-store.ts) step for step: drop the names the writer's
 * generation lacks, newest touch wins (`ZADD GT`), skills as an ordered union; nothing is evicted
 * for a bound (each turn bounds its own loaded set: runtime/deferred/loaded-tools.ts). A
 * differential test runs both on the same updates and compares the results.
 *
 * A key holding the wrong type (written by something else) is corrupt: session and approval
 * keys are replaced, journal keys renamed aside to `<key>:corrupt`, and the script returns a
 * note saying so; read scripts return the type instead of failing.
 */

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
 * skill… → notes (mergeSnapshot's steps).
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

/** KEYS: the session's approvals (hash). ARGV: tool, expiry ('never' or ms), ttlMs (0: none) → notes. */
export const APPROVAL_REMEMBER = `${KIND}
expect(KEYS[1], 'hash')
redis.call('HSET', KEYS[1], ARGV[1], ARGV[2])
if tonumber(ARGV[3]) > 0 then redis.call('PEXPIRE', KEYS[1], ARGV[3]) end
return notes
`;

/** KEYS: the session's approvals (hash). ARGV: tool → { type, value | false }. */
export const APPROVAL_GET = `local t = redis.call('TYPE', KEYS[1])['ok']
if t ~= 'hash' then return { t, false } end
return { t, redis.call('HGET', KEYS[1], ARGV[1]) }
`;

/** Fields per journal entry in JOURNAL_APPEND's ARGV. */
export const APPEND_FIELDS = 9;

/**
 * KEYS: (session stream, turn hash) per entry. ARGV: maxLen (0: none), ttlMs (0: none), then
 * per entry: seq, session, turn, trace, principal, tool, type, at, entry → { written, notes }.
 * Idempotent: an entry whose (turn, seq) is in the turn hash is not added again, so a batch
 * retried after a timeout never duplicates what already landed.
 */
export const JOURNAL_APPEND = `local notes = {}
local function kind(key) return redis.call('TYPE', key)['ok'] end
local function aside(key, want)
  local t = kind(key)
  if t ~= 'none' and t ~= want then
    redis.call('RENAME', key, key .. ':corrupt')
    notes[#notes + 1] = key .. ' held a ' .. t .. ', not a ' .. want .. ' (renamed to ' .. key .. ':corrupt)'
  end
end
local maxlen, ttl = tonumber(ARGV[1]), tonumber(ARGV[2])
local written = 0
for e = 0, #KEYS / 2 - 1 do
  local sk, tk = KEYS[e * 2 + 1], KEYS[e * 2 + 2]
  aside(sk, 'stream')
  aside(tk, 'hash')
  local b = 2 + e * ${APPEND_FIELDS}
  local seq = ARGV[b + 1]
  if redis.call('HEXISTS', tk, seq) == 0 then
    local fields = { 'turn', ARGV[b + 3], 'seq', seq, 'trace', ARGV[b + 4], 'principal', ARGV[b + 5],
      'tool', ARGV[b + 6], 'type', ARGV[b + 7], 'at', ARGV[b + 8], 'entry', ARGV[b + 9] }
    local id
    if maxlen > 0 then id = redis.call('XADD', sk, 'MAXLEN', '~', maxlen, '*', unpack(fields))
    else id = redis.call('XADD', sk, '*', unpack(fields)) end
    redis.call('HSET', tk, seq, id, '_session', ARGV[b + 2])
    written = written + 1
  end
  if ttl > 0 then
    redis.call('PEXPIRE', sk, ttl)
    redis.call('PEXPIRE', tk, ttl)
  end
end
return { written, notes }
`;

/** KEYS: turn hash, session stream → { type, { seq, id, fields | false }… }. */
export const JOURNAL_TURN = `local t = redis.call('TYPE', KEYS[1])['ok']
if t ~= 'hash' then return { t, {} } end
local st = redis.call('TYPE', KEYS[2])['ok']
if st ~= 'stream' then return { 'stream:' .. st, {} } end
local all = redis.call('HGETALL', KEYS[1])
local out = {}
for i = 1, #all, 2 do
  if all[i] ~= '_session' then
    local rows = redis.call('XRANGE', KEYS[2], all[i + 1], all[i + 1])
    out[#out + 1] = { all[i], all[i + 1], rows[1] and rows[1][2] or false }
  end
end
return { t, out }
`;

/** KEYS: session stream. ARGV: limit → { type, { id, fields }… newest first }. */
export const JOURNAL_SESSION = `local t = redis.call('TYPE', KEYS[1])['ok']
if t ~= 'stream' then return { t, {} } end
return { t, redis.call('XREVRANGE', KEYS[1], '+', '-', 'COUNT', ARGV[1]) }
`;
