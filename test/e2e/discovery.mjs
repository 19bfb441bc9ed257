// Discovery end to end (issue 12 item 8): the TypeScript SDK v2 client and the Inspector CLI,
// each in both protocol generations, against the real catalogue in its default tool mode:
// tools/list shows the meta-tools; search -> describe -> call finds and calls a catalogue tool;
// the meta-call's result equals a direct call's.
//
//   run.sh discovery.mjs --bin PATH --transport stdio|http
//
// Every toolkit's platform is a closed loopback port, so each catalogue call ends in the same
// isError result (the platform cannot be reached) whichever way it is made.
import { check, checkEqual, closedLoopbackPort, deadline, importInstalled, inspector, listToolsJson,
         main, parseArgs, runInfo, startHttpServer } from './lib.mjs';

const { Client, StreamableHTTPClientTransport } = await importInstalled('@modelcontextprotocol/client');
const { StdioClientTransport } = await importInstalled('@modelcontextprotocol/client', './stdio');

const args = parseArgs();
const bin = args.bin;
const transportKind = args.transport ?? 'stdio';
if (!bin || !['stdio', 'http'].includes(transportKind)) {
  console.error('usage: discovery.mjs --bin PATH --transport stdio|http');
  process.exit(2);
}
deadline(170000);

const META = ['toolgate_search_tools', 'toolgate_describe_tools', 'toolgate_call_tool'];
const QUERY = 'check the health of the tool engine';
const STEP_MS = 30000;

function within(promise, what, ms = STEP_MS) {
  let t;
  return Promise.race([
    promise,
    new Promise((_, rej) => { t = setTimeout(() => rej(new Error(`${what}: no answer in ${ms} ms`)), ms); }),
  ]).finally(() => clearTimeout(t));
}

const catalogue = listToolsJson(bin) ?? [];
const port = await closedLoopbackPort();
const toolkits = [...new Set(catalogue.map((t) => String(t.name).split(/[._]/)[0]))];
const serverArgs = toolkits.flatMap((tk) => ['--base-url', `${tk}=http://127.0.0.1:${port}`]);

// The first tool a search names, its definition, and the same call made both ways.
function checkFlow(label, searched, described, viaMeta, direct) {
  const hits = searched?.structuredContent?.tools ?? [];
  check(hits.length > 0 && hits.every((h) => typeof h.name === 'string' && 'summary' in h &&
                                             Array.isArray(h.required)),
        `${label}: toolgate_search_tools returns ranked tools with summaries and required arguments`,
        searched);
  const defs = described?.structuredContent?.tools ?? [];
  check(defs.length === 1 && defs[0].inputSchema?.type === 'object' && defs[0].description,
        `${label}: toolgate_describe_tools returns the tool's full definition`, described);
  check(viaMeta?.isError === direct?.isError && viaMeta?.isError === true,
        `${label}: toolgate_call_tool and a direct call both end in the platform's error`,
        { viaMeta, direct });
  checkEqual(viaMeta?.content, direct?.content,
             `${label}: the meta-call answers exactly as the direct call`);
}

async function sdkSession(mode, label, url) {
  const transport = transportKind === 'http'
    ? new StreamableHTTPClientTransport(new URL(url))
    : new StdioClientTransport({ command: bin, args: ['--transport', 'stdio', ...serverArgs],
                                 stderr: 'ignore' });
  const client = new Client({ name: 'toolgate-e2e-discovery', version: '1.0.0' },
                            mode === 'legacy' ? {} : { versionNegotiation: { mode } });
  try {
    await within(client.connect(transport), `${label}: connect`);
    const listed = await within(client.listTools(), `${label}: tools/list`);
    checkEqual(listed.tools.map((t) => t.name), META, `${label}: tools/list shows the three meta-tools`);
    const call = (name, args) => within(client.callTool({ name, arguments: args }, { timeout: STEP_MS }),
                                        `${label}: ${name}`, STEP_MS + 5000);
    const searched = await call('toolgate_search_tools', { query: QUERY, limit: 5 });
    const first = searched?.structuredContent?.tools?.[0]?.name;
    check(first === 'CoreEngineApi_CheckEngineHealth',
          `${label}: the search ranks CoreEngineApi_CheckEngineHealth first`, searched?.structuredContent);
    const described = await call('toolgate_describe_tools', { names: [first] });
    const viaMeta = await call('toolgate_call_tool', { name: first, arguments: {} });
    const direct = await call(first, {});
    checkFlow(label, searched, described, viaMeta, direct);
    sdkDirect ??= direct;
  } finally {
    await within(client.close(), `${label}: close`, 10000).catch((e) => check(false, `${label}: close`, String(e)));
  }
}

function inspectorFlow(era, target) {
  const label = `inspector ${transportKind} ${era}`;
  const common = ['-q', '--format', 'json', '--protocol-era', era];
  const list = inspector([...common, '--method', 'tools/list', ...target]);
  checkEqual(list.json?.result?.tools?.map((t) => t.name), META,
             `${label}: tools/list shows the three meta-tools`);
  const call = (name, argsJson) => inspector([...common, '--method', 'tools/call', '--tool-name', name,
                                              '--tool-args-json', JSON.stringify(argsJson), ...target]);
  const searched = call('toolgate_search_tools', { query: QUERY, limit: 5 });
  check(searched.status === 0, `${label}: search exits 0`, runInfo(searched));
  const first = searched.json?.result?.structuredContent?.tools?.[0]?.name;
  const described = call('toolgate_describe_tools', { names: [first] });
  const viaMeta = call('toolgate_call_tool', { name: first, arguments: {} });
  // The Inspector CLI looks a tool up in the listing before calling it, so an unlisted tool is
  // refused on the client side: compared with the SDK client's direct call instead.
  checkFlow(label, searched.json?.result, described.json?.result, viaMeta.json?.result,
            sdkDirect);
}

let sdkDirect; // the direct call's result as the SDK client got it

await main(async () => {
  check(catalogue.length > 40, `the catalogue serves ${catalogue.length} tools (more than 40: discovery mode)`);
  let server;
  if (transportKind === 'http') {
    server = await startHttpServer(bin, serverArgs);
    console.log(`# ${bin} listening at ${server.url}`);
  }
  try {
    await sdkSession({ pin: '2026-07-28' }, `sdk ${transportKind} 2026-07-28`, server?.url);
    await sdkSession('legacy', `sdk ${transportKind} 2025`, server?.url);
    const target = transportKind === 'http'
      ? [server.url] : [bin, '--transport', 'stdio', ...serverArgs];
    for (const era of ['legacy', 'modern']) inspectorFlow(era, target);
  } finally {
    if (server) {
      const exited = await server.stop();
      check(exited.signal !== 'SIGKILL', `discovery ${transportKind}: the server stops on SIGTERM`,
            { exited, log: server.log().slice(-2000) });
    }
  }
});
