// Runs the real CLI (the same code as bin/zhin-gen.mjs) and reports the process's peak RSS.
import { main } from '../../dist/compiler/cli/main.js';

const io = { out: () => {}, err: () => {}, isTTY: false };
const code = await main(process.argv.slice(2), io);
if (code !== 0) process.exitCode = code;
console.log(JSON.stringify({ code, rssKb: process.resourceUsage().maxRSS }));
