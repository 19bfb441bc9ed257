// Shared helpers for toolgate's end-to-end tests with real MCP clients.
//
// Every script is started by run.sh, which checks that the clients are installed, puts Node 22
// first on PATH and sets E2E_DIR (the build's e2e folder holding node_modules). Servers started
// here listen on 127.0.0.1 only and are always killed: on success, on a failed check, on an
// uncaught error, on SIGTERM/SIGINT and when the overall deadline passes.
import { spawn, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { isDeepStrictEqual, inspect } from 'node:util';

export const E2E_DIR = process.env.E2E_DIR;
if (!E2E_DIR) {
  console.error('E2E_DIR is not set: start this script through test/e2e/run.sh');
  process.exit(2);
}
export const INSPECTOR = path.join(E2E_DIR, 'node_modules', '.bin', 'mcp-inspector');

// Imports an ES module entry point of a package installed in E2E_DIR/node_modules (the scripts
// live in the source tree, so a bare `import '@scope/pkg'` would not find it), following the
// package's `exports` map: importInstalled('@modelcontextprotocol/client', './stdio').
export async function importInstalled(pkg, subpath = '.') {
  const dir = path.join(E2E_DIR, 'node_modules', ...pkg.split('/'));
  const manifest = JSON.parse(fs.readFileSync(path.join(dir, 'package.json'), 'utf8'));
  let entry = manifest.exports?.[subpath] ?? (subpath === '.' ? manifest.exports : undefined);
  while (entry && typeof entry === 'object') entry = entry.import ?? entry.default ?? entry.node;
  if (typeof entry !== 'string') {
    if (subpath !== '.' || !manifest.module) throw new Error(`${pkg}: no ES module entry for ${subpath}`);
    entry = manifest.module;
  }
  return import(pathToFileURL(path.join(dir, entry)).href);
}

// Parses `--name value` pairs (and bare `--flag`) from argv.
export function parseArgs(argv = process.argv.slice(2)) {
  const out = {};
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i];
    if (!a.startsWith('--')) throw new Error(`unexpected argument ${a}`);
    const key = a.slice(2);
    if (i + 1 < argv.length && !argv[i + 1].startsWith('--')) out[key] = argv[++i];
    else out[key] = true;
  }
  return out;
}

// ---- scratch space, process bookkeeping, deadline -------------------------------------------

export const scratch = fs.mkdtempSync(path.join(os.tmpdir(), 'toolgate-e2e-'));
// The Inspector keeps a catalog and client config under $HOME; keep them out of the real one.
const inspectorHome = path.join(scratch, 'home');
fs.mkdirSync(inspectorHome);

const children = new Set();
// Servers run in a process group of their own (see startHttpServer): kill the whole group.
function killGroup(child, signal) {
  try { process.kill(-child.pid, signal); } catch {
    try { child.kill(signal); } catch { /* already gone */ }
  }
}
function killAll() {
  for (const child of children) killGroup(child, 'SIGKILL');
  children.clear();
}
function removeScratch() {
  if (process.env.TOOLGATE_E2E_KEEP) { console.error(`kept ${scratch}`); return; }
  try { fs.rmSync(scratch, { recursive: true, force: true }); } catch { /* best effort */ }
}
process.on('exit', () => { killAll(); removeScratch(); });
for (const sig of ['SIGINT', 'SIGTERM', 'SIGHUP']) {
  process.on(sig, () => { console.error(`\nstopped by ${sig}`); killAll(); process.exit(1); });
}

// The whole script must end well within ctest's TIMEOUT; past this it fails and cleans up.
let deadlineMs = 270000;
export function deadline(ms) {
  deadlineMs = ms;
  const t = setTimeout(() => {
    console.error(`FAIL: the test did not finish within ${ms} ms`);
    killAll();
    process.exit(1);
  }, ms);
  t.unref();
}

// ---- checks ---------------------------------------------------------------------------------

let passed = 0;
let failed = 0;
const show = (v) => inspect(v, { depth: 6, breakLength: 120, maxStringLength: 2000 });

export function check(cond, what, detail) {
  if (cond) { passed++; console.log(`ok - ${what}`); return true; }
  failed++;
  console.log(`FAIL - ${what}${detail === undefined ? '' : `\n    ${show(detail)}`}`);
  return false;
}

export function checkEqual(actual, expected, what) {
  return check(isDeepStrictEqual(actual, expected), what,
               { expected, actual });
}

// Runs the test body, then prints the closing line ctest output readers look for.
export async function main(body) {
  try {
    await body();
  } catch (err) {
    failed++;
    console.log(`FAIL - unexpected error: ${err && err.stack ? err.stack : show(err)}`);
  } finally {
    killAll();
  }
  console.log(`${passed} passed, ${failed} failed`);
  // Exit now: a client library may keep a socket or timer alive.
  process.exit(failed === 0 && passed > 0 ? 0 : 1);
}

// ---- the Inspector CLI ----------------------------------------------------------------------

// Runs `mcp-inspector --cli ...args` to completion. Returns {status, stdout, stderr, json}
// where json is the parsed stdout (undefined if stdout is not JSON).
export function inspector(args, { timeoutMs = 60000 } = {}) {
  const full = ['--cli', ...args];
  const r = spawnSync(INSPECTOR, full, {
    encoding: 'utf8',
    timeout: timeoutMs,
    killSignal: 'SIGKILL',
    maxBuffer: 256 * 1024 * 1024,
    env: {
      ...process.env,
      HOME: inspectorHome,
      MCP_CATALOG_PATH: path.join(inspectorHome, 'mcp.json'),
      MCP_CLIENT_CONFIG_PATH: path.join(inspectorHome, 'client.json'),
      NO_COLOR: '1',
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  if (r.error) throw new Error(`mcp-inspector ${full.join(' ')}: ${r.error.message}`);
  if (r.status === null) {
    throw new Error(`mcp-inspector ${full.join(' ')}: killed by ${r.signal}` +
                    ` (timeout ${timeoutMs} ms)\nstderr: ${r.stderr}`);
  }
  let json;
  try { json = JSON.parse(r.stdout); } catch { json = undefined; }
  return { status: r.status, stdout: r.stdout, stderr: r.stderr, json, args: full };
}

// A short description of an Inspector run for failure messages.
export function runInfo(r) {
  return { args: r.args.join(' '), status: r.status,
           stdout: r.stdout.slice(0, 4000), stderr: r.stderr.slice(0, 4000) };
}

// ---- servers --------------------------------------------------------------------------------

// Starts `bin --transport http --host 127.0.0.1 --port 0 ...extra`, waits for the line
// `serving MCP (Streamable HTTP) at http://127.0.0.1:PORT/mcp` on stderr and returns
// {url, stop, log}. stderr goes to a file so a chatty server can never block on a full pipe.
// The server runs under coreutils `timeout` in a process group of its own, so it cannot outlive
// `lifetimeS` seconds even if this script is killed with SIGKILL; stop() sends SIGTERM (which
// `timeout` passes on) and kills the group if the server has not exited 12 s later.
export async function startHttpServer(bin, extra = [],
                                      { timeoutMs = 15000, lifetimeS = Math.ceil(deadlineMs / 1000) + 30,
                                        env = {} } = {}) {
  const logPath = path.join(scratch, `server-${children.size}-${Date.now()}.log`);
  const fd = fs.openSync(logPath, 'w');
  const child = spawn('timeout', ['--kill-after=5', String(lifetimeS), bin,
                                  '--transport', 'http', '--host', '127.0.0.1', '--port', '0', ...extra],
                      { stdio: ['ignore', 'ignore', fd], env: { ...process.env, ...env },
                        detached: true });
  fs.closeSync(fd);
  children.add(child);
  let exited = null;
  child.on('exit', (code, signal) => { exited = { code, signal }; children.delete(child); });
  const log = () => fs.readFileSync(logPath, 'utf8');
  const stop = async () => {
    if (exited) return exited;
    child.kill('SIGTERM');
    const t = setTimeout(() => killGroup(child, 'SIGKILL'), 12000);  // toolgate drains ≤ 10 s
    await new Promise((res) => (exited ? res() : child.once('exit', res)));
    clearTimeout(t);
    return exited;
  };
  const start = Date.now();
  for (;;) {
    const m = /serving MCP \(Streamable HTTP\) at (http:\/\/127\.0\.0\.1:\d+\/mcp)/.exec(log());
    if (m) return { url: m[1], stop, log, child };
    if (exited) throw new Error(`${bin} exited (${show(exited)}) before listening:\n${log()}`);
    if (Date.now() - start > timeoutMs) {
      await stop();
      throw new Error(`${bin} did not print its URL within ${timeoutMs} ms:\n${log()}`);
    }
    await new Promise((r) => setTimeout(r, 50));
  }
}

// Starts `cmd args` in the background like startHttpServer does (under `timeout`, in a process
// group of its own, output to a log file in the scratch folder, killed at exit) and waits until
// its output matches `ready`. Returns {match, stop, log, child}; throws with the log if it exits
// or does not get ready within timeoutMs.
export async function startProcess(name, cmd, args, { ready, env = {}, timeoutMs = 30000,
                                                      lifetimeS = Math.ceil(deadlineMs / 1000) + 30 } = {}) {
  const logPath = path.join(scratch, `${name}-${children.size}-${Date.now()}.log`);
  const fd = fs.openSync(logPath, 'w');
  const child = spawn('timeout', ['--kill-after=5', String(lifetimeS), cmd, ...args],
                      { stdio: ['ignore', fd, fd], env: { ...process.env, ...env }, detached: true });
  fs.closeSync(fd);
  children.add(child);
  let exited = null;
  child.on('exit', (code, signal) => { exited = { code, signal }; children.delete(child); });
  const log = () => fs.readFileSync(logPath, 'utf8');
  const stop = async () => {
    if (exited) return exited;
    killGroup(child, 'SIGTERM');
    const t = setTimeout(() => killGroup(child, 'SIGKILL'), 5000);
    await new Promise((res) => (exited ? res() : child.once('exit', res)));
    clearTimeout(t);
    return exited;
  };
  const start = Date.now();
  for (;;) {
    const m = ready.exec(log());
    if (m) return { match: m, stop, log, child, logPath };
    if (exited) {
      const err = new Error(`${name} exited (${show(exited)}) before it was ready:\n${log()}`);
      err.exited = exited;
      err.log = log();
      throw err;
    }
    if (Date.now() - start > timeoutMs) {
      await stop();
      throw new Error(`${name} was not ready within ${timeoutMs} ms:\n${log()}`);
    }
    await new Promise((r) => setTimeout(r, 50));
  }
}

// Kills a process this script did not spawn itself (a browser started by a library) with the
// others at exit; it must lead a process group of its own, or only the process is killed.
export function adoptChild(child) {
  if (!child) return;
  children.add(child);
  child.once('exit', () => children.delete(child));
}

// A loopback port with nothing listening on it (connections are refused), so that a catalogue
// tool's upstream call fails fast on this machine and never goes out to a real platform.
export async function closedLoopbackPort() {
  const srv = net.createServer();
  await new Promise((res, rej) => srv.listen(0, '127.0.0.1', res).on('error', rej));
  const { port } = srv.address();
  await new Promise((res) => srv.close(res));
  return port;
}

// `toolgate --list-tools --json`: the tools the binary serves, as it reports them itself.
// Returns undefined when the binary has no such flag.
export function listToolsJson(bin, extra = []) {
  const r = spawnSync(bin, ['--list-tools', '--json', ...extra],
                      { encoding: 'utf8', timeout: 30000, killSignal: 'SIGKILL',
                        maxBuffer: 256 * 1024 * 1024 });
  if (r.status !== 0) return undefined;
  try { return JSON.parse(r.stdout); } catch { return undefined; }
}

// The names a `--list-tools --json` entry goes by on the wire.
export function wireName(entry) {
  return entry.wire_name ?? entry.name;
}

// Checks that every tool has a non-empty description and an object inputSchema.
export function checkToolShapes(tools, label) {
  const bad = tools.filter((t) => !(typeof t.name === 'string' && t.name.length > 0 &&
                                    typeof t.description === 'string' &&
                                    t.description.trim().length > 0 &&
                                    t.inputSchema && typeof t.inputSchema === 'object' &&
                                    !Array.isArray(t.inputSchema) &&
                                    t.inputSchema.type === 'object'));
  check(bad.length === 0,
        `${label}: every one of ${tools.length} tools has a name, a description and an ` +
        'inputSchema of type object',
        bad.slice(0, 5).map((t) => ({ name: t.name, description: t.description,
                                      inputSchema: t.inputSchema })));
}
