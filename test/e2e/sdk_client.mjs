// The TypeScript SDK v2 client (@modelcontextprotocol/client) against a toolgate binary, over
// stdio or Streamable HTTP, in three sessions: pinned to 2026-07-28 (server/discover, no
// handshake), 'auto' (probe, must land on 2026-07-28) and the default 2025 handshake.
//
//   run.sh sdk_client.mjs --bin PATH --transport stdio|http --server test|toolgate
//
// --server test: the binary is toolgate_test_server; exact assertions on Test_Echo/Test_Fail.
// --server toolgate: the real catalogue (any size, 0 included); its count must match
//   `toolgate --list-tools --json`, and calls are answered with errors (unknown tool; a
//   catalogue tool whose platform, pointed at a closed loopback port, cannot be reached).
import { check, checkEqual, checkToolShapes, closedLoopbackPort, deadline, importInstalled,
         listToolsJson, main, parseArgs, startHttpServer, wireName } from './lib.mjs';

const { Client, StreamableHTTPClientTransport } = await importInstalled('@modelcontextprotocol/client');
const { StdioClientTransport } = await importInstalled('@modelcontextprotocol/client', './stdio');

const args = parseArgs();
const bin = args.bin;
const transportKind = args.transport ?? 'stdio';
const serverKind = args.server ?? 'test';
if (!bin || !['stdio', 'http'].includes(transportKind) || !['test', 'toolgate'].includes(serverKind)) {
  console.error('usage: sdk_client.mjs --bin PATH --transport stdio|http --server test|toolgate');
  process.exit(2);
}
deadline(150000);

const MODERN = '2026-07-28';
const LEGACY = ['2025-11-25', '2025-06-18', '2025-03-26'];
const VERSION_KEY = 'io.modelcontextprotocol/protocolVersion';
const SERVER_INFO = 'io.modelcontextprotocol/serverInfo';
const TEST_TOOLS = ['Test_Array', 'Test_Ask', 'Test_Echo', 'Test_Fail', 'Test_Log', 'Test_Slow', 'Test_Throw'];
const STEP_MS = 30000;

// Bounds one client step: a hung server fails the test instead of stalling it.
function within(promise, what, ms = STEP_MS) {
  let t;
  return Promise.race([
    promise,
    new Promise((_, rej) => { t = setTimeout(() => rej(new Error(`${what}: no answer in ${ms} ms`)), ms); }),
  ]).finally(() => clearTimeout(t));
}

// Every page of tools/list.
async function listAllTools(client) {
  const tools = [];
  let cursor;
  for (let page = 0; page < 1000; page++) {
    const r = await within(client.listTools(cursor ? { cursor } : {}), 'tools/list');
    tools.push(...r.tools);
    cursor = r.nextCursor;
    if (!cursor) return tools;
  }
  throw new Error('tools/list: more than 1000 pages');
}

// The server's extra arguments. For the real catalogue every toolkit's platform is pointed at a
// closed loopback port, so a tools/call never leaves this machine.
let serverArgs = [];
let catalogue;
if (serverKind === 'toolgate') {
  catalogue = listToolsJson(bin);
  const port = await closedLoopbackPort();
  const toolkits = [...new Set((catalogue ?? []).map((t) => String(t.name).split(/[._]/)[0]))];
  serverArgs.push('--tool-mode', 'full'); // the whole catalogue, as this test compares it
  for (const tk of toolkits) serverArgs.push('--base-url', `${tk}=http://127.0.0.1:${port}`);
}

async function session(mode, label, httpUrl) {
  const sent = [];      // every JSON-RPC message the client sent
  const http = [];      // every HTTP request: method, headers, status
  let transport;
  if (transportKind === 'http') {
    const recordingFetch = async (url, init = {}) => {
      const res = await fetch(url, init);
      http.push({ method: init.method ?? 'GET', headers: new Headers(init.headers),
                  status: res.status });
      return res;
    };
    transport = new StreamableHTTPClientTransport(new URL(httpUrl), { fetch: recordingFetch });
  } else {
    transport = new StdioClientTransport({ command: bin, args: ['--transport', 'stdio', ...serverArgs],
                                           stderr: 'ignore' });
  }
  const send = transport.send.bind(transport);
  transport.send = (message, options) => { sent.push(message); return send(message, options); };

  const client = new Client({ name: 'toolgate-e2e', version: '1.0.0' },
                            mode === 'legacy' ? {} : { versionNegotiation: { mode } });
  try {
    await within(client.connect(transport), `${label}: connect`);
    check(true, `${label}: connected`);
    const requests = sent.filter((m) => m.method !== undefined && m.id !== undefined);
    const methods = sent.map((m) => m.method).filter(Boolean);

    // The era the session speaks, seen from the client and on the wire.
    if (mode === 'legacy') {
      checkEqual(client.getProtocolEra(), 'legacy', `${label}: the client reports the legacy era`);
      check(LEGACY.includes(client.getNegotiatedProtocolVersion()),
            `${label}: initialize negotiated a 2025 version`, client.getNegotiatedProtocolVersion());
      check(methods.includes('initialize') && methods.includes('notifications/initialized') &&
            !methods.includes('server/discover'),
            `${label}: the client sent initialize and notifications/initialized`, methods);
      check(client.getServerVersion()?.name === 'toolgate', `${label}: serverInfo names toolgate`,
            client.getServerVersion());
    } else {
      checkEqual(client.getProtocolEra(), 'modern', `${label}: the client reports the modern era`);
      checkEqual(client.getNegotiatedProtocolVersion(), MODERN,
                 `${label}: the negotiated version is ${MODERN}`);
      check(!methods.includes('initialize'), `${label}: no initialize was sent`, methods);
      const discover = client.getDiscoverResult();
      check(Array.isArray(discover?.supportedVersions) && discover.supportedVersions.includes(MODERN),
            `${label}: server/discover advertises ${MODERN}`, discover);
      check(client.getServerVersion()?.name === 'toolgate',
            `${label}: the server identifies as toolgate`, client.getServerVersion());
    }

    // tools/list
    const tools = await listAllTools(client);
    const names = tools.map((t) => t.name);
    if (serverKind === 'test') {
      checkEqual(names.filter((n) => n.startsWith('Test_')).sort(), TEST_TOOLS,
                 `${label}: tools/list lists the Test_ tools`);
    } else if (catalogue) {
      checkEqual(tools.length, catalogue.length,
                 `${label}: tools/list lists as many tools as toolgate --list-tools --json (${catalogue.length})`);
      checkEqual([...names].sort(), catalogue.map(wireName).sort(),
                 `${label}: tools/list names the tools of toolgate --list-tools --json`);
    } else {
      check(tools.length >= 0, `${label}: tools/list answers (${tools.length} tools)`);
    }
    checkToolShapes(tools, `${label}: tools/list`);

    // tools/call
    if (serverKind === 'test') {
      const echoArgs = { text: 'héllo ✓ "quoted"', n: 7, f: 0.5, ok: false, none: null,
                         deep: { list: [1, 'x', { y: [] }], empty: {} } };
      const echo = await within(client.callTool({ name: 'Test_Echo', arguments: echoArgs }),
                                'tools/call Test_Echo');
      checkEqual(echo.structuredContent, echoArgs,
                 `${label}: Test_Echo returns exactly its arguments as structuredContent`);
      check(echo.isError !== true, `${label}: Test_Echo is not an error`, echo);
      if (mode === 'legacy') {
        check(echo._meta?.[SERVER_INFO] === undefined,
              `${label}: a 2025 result carries no _meta serverInfo`, echo._meta);
      } else {
        check(echo._meta?.[SERVER_INFO]?.name === 'toolgate',
              `${label}: a ${MODERN} result carries _meta serverInfo of toolgate`, echo._meta);
      }
      const fail = await within(client.callTool({ name: 'Test_Fail', arguments: {} }),
                                'tools/call Test_Fail');
      check(fail.isError === true, `${label}: Test_Fail is a result with isError: true`, fail);
    } else if (tools.length > 0 && catalogue) {
      // A catalogue tool: no secret, platform unreachable; an error, never a success. (Only
      // when --base-url could point every toolkit at the closed port, i.e. the catalogue is known.)
      const tool = tools.find((t) => t.name === 'CoreEngineApi_CheckEngineHealth') ?? tools[0];
      let outcome;
      try {
        const r = await within(client.callTool({ name: tool.name, arguments: {} }, { timeout: STEP_MS }),
                               `tools/call ${tool.name}`, STEP_MS + 5000);
        outcome = { result: r };
      } catch (err) {
        outcome = { error: err };
      }
      check(outcome.error !== undefined || outcome.result.isError === true,
            `${label}: tools/call ${tool.name} without a secret or a platform is an error`,
            outcome.result ?? String(outcome.error));
    }

    // A tool that does not exist: the JSON-RPC error -32602 (invalid params), naming the tool.
    let unknown;
    try {
      unknown = { result: await within(client.callTool({ name: 'NoSuchToolkit_NoSuchTool', arguments: {} }),
                                       'tools/call of an unknown tool') };
    } catch (err) {
      unknown = { error: err };
    }
    check(unknown.error?.code === -32602 && /NoSuchToolkit_NoSuchTool/.test(String(unknown.error.message)),
          `${label}: tools/call of an unknown tool is answered with error -32602 naming it`,
          unknown.result ?? { code: unknown.error?.code, message: String(unknown.error?.message) });

    // On the wire: in a modern session every request carries the version in _meta, and over
    // HTTP in the MCP-Protocol-Version header too, without a session.
    const sentAfter = sent.filter((m) => m.method !== undefined && m.id !== undefined);
    if (mode !== 'legacy') {
      const without = sentAfter.filter((m) => m.params?._meta?.[VERSION_KEY] !== MODERN);
      check(without.length === 0 && sentAfter.length >= requests.length,
            `${label}: all ${sentAfter.length} requests carry _meta ${VERSION_KEY} = ${MODERN}`,
            without.map((m) => ({ method: m.method, _meta: m.params?._meta })));
    }
    if (transportKind === 'http') {
      const posts = http.filter((h) => h.method === 'POST');
      if (mode === 'legacy') {
        const later = posts.slice(1);
        check(later.length > 0 && later.every((h) => h.headers.get('mcp-session-id')),
              `${label}: legacy requests after initialize carry Mcp-Session-Id`,
              posts.map((h) => Object.fromEntries(h.headers)));
      } else {
        check(posts.length > 0 && posts.every((h) => h.headers.get('mcp-protocol-version') === MODERN &&
                                                 !h.headers.get('mcp-session-id')),
              `${label}: every POST has MCP-Protocol-Version ${MODERN} and no session id`,
              posts.map((h) => Object.fromEntries(h.headers)));
      }
      check(http.every((h) => h.status < 500), `${label}: no HTTP 5xx`,
            http.map((h) => `${h.method} ${h.status}`));
    }
  } finally {
    await within(client.close(), `${label}: close`, 10000).catch((e) => check(false, `${label}: close`, String(e)));
  }
}

await main(async () => {
  let server;
  if (transportKind === 'http') {
    server = await startHttpServer(bin, serverArgs);
    console.log(`# ${bin} listening at ${server.url}`);
  }
  const where = `sdk ${serverKind} ${transportKind}`;
  try {
    await session({ pin: MODERN }, `${where} pin ${MODERN}`, server?.url);
    await session('auto', `${where} auto`, server?.url);
    await session('legacy', `${where} 2025`, server?.url);
  } finally {
    if (server) {
      const exited = await server.stop();
      check(exited.signal !== 'SIGKILL', `${where}: the server stops on SIGTERM`,
            { exited, log: server.log().slice(-2000) });
    }
  }
});
