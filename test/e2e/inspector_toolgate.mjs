// The MCP Inspector's CLI mode against the real `toolgate` binary and its catalogue (any size,
// 0 included), over stdio or Streamable HTTP, in the 2025 and the 2026-07-28 eras.
//
//   run.sh inspector_toolgate.mjs --bin PATH --transport stdio|http
//
// Every toolkit's platform is pointed at a closed loopback port (--base-url), so a tools/call
// never leaves this machine: it is answered with an error result (no secret, no platform).
import { check, checkEqual, checkToolShapes, closedLoopbackPort, deadline, inspector,
         listToolsJson, main, parseArgs, runInfo, startHttpServer, wireName } from './lib.mjs';

const args = parseArgs();
const bin = args.bin;
const transport = args.transport ?? 'stdio';
if (!bin || !['stdio', 'http'].includes(transport)) {
  console.error('usage: inspector_toolgate.mjs --bin PATH --transport stdio|http');
  process.exit(2);
}
deadline(240000);

const PAGE_SIZE = '97';  // a page size that does not divide the catalogue: the last page is short

await main(async () => {
  const catalogue = listToolsJson(bin);
  check(true, `toolgate --list-tools --json: ${catalogue ? `${catalogue.length} tools` :
    'not available, counts are only checked to be >= 0'}`);
  const port = await closedLoopbackPort();
  const toolkits = [...new Set((catalogue ?? []).map((t) => String(t.name).split(/[._]/)[0]))];
  // --tool-mode full: this test checks the whole catalogue as a client lists it.
  const serverArgs = ['--tool-mode', 'full',
                      ...toolkits.flatMap((tk) => ['--base-url', `${tk}=http://127.0.0.1:${port}`])];

  const servers = [];
  async function targetFor(extra) {
    if (transport === 'stdio') return [bin, '--transport', 'stdio', ...serverArgs, ...extra];
    const server = await startHttpServer(bin, [...serverArgs, ...extra]);
    servers.push(server);
    console.log(`# ${bin} ${extra.join(' ')} listening at ${server.url}`);
    return [server.url];
  }

  try {
    const target = await targetFor([]);
    const paged = await targetFor(['--page-size', PAGE_SIZE]);
    let tools = [];

    for (const era of ['legacy', 'modern']) {
      const label = `inspector toolgate ${transport} ${era}`;
      const common = ['-q', '--format', 'json', '--protocol-era', era];

      // tools/list: the whole catalogue, every tool with a description and an object schema.
      for (const [what, tgt] of [['tools/list', target], [`tools/list in pages of ${PAGE_SIZE}`, paged]]) {
        const list = inspector([...common, '--method', 'tools/list', ...tgt], { timeoutMs: 90000 });
        if (!check(list.status === 0 && Array.isArray(list.json?.result?.tools),
                   `${label}: ${what} exits 0 with tools`, runInfo(list))) continue;
        tools = list.json.result.tools;
        const names = tools.map((t) => t.name);
        checkEqual(new Set(names).size, names.length, `${label}: ${what}: tool names are unique`);
        if (catalogue) {
          checkEqual(tools.length, catalogue.length,
                     `${label}: ${what} lists as many tools as --list-tools --json (${catalogue.length})`);
          checkEqual([...names].sort(), catalogue.map(wireName).sort(),
                     `${label}: ${what} names the tools of --list-tools --json`);
        } else {
          check(tools.length >= 0, `${label}: ${what} lists ${tools.length} tools`);
        }
        checkToolShapes(tools, `${label}: ${what}`);
      }

      // A catalogue tool: no secret and no reachable platform, so the result has isError and
      // the CLI exits with 5. Only with a known catalogue (its toolkits point at the closed port).
      if (catalogue && tools.length > 0) {
        const tool = tools.find((t) => t.name === 'CoreEngineApi_CheckEngineHealth') ?? tools[0];
        const call = inspector([...common, '--method', 'tools/call', '--tool-name', tool.name,
                                '--tool-args-json', '{}', ...target]);
        check(call.status === 5 && call.json?.result?.isError === true,
              `${label}: tools/call ${tool.name} is an isError result (exit status 5)`, runInfo(call));
      }

      // A tool that does not exist.
      const unknown = inspector([...common, '--method', 'tools/call', '--tool-name',
                                 'NoSuchToolkit_NoSuchTool', ...target]);
      check(unknown.status !== 0, `${label}: tools/call of an unknown tool does not exit 0`,
            runInfo(unknown));
    }

    // The schema portability lint: no error-severity problem in the whole catalogue.
    const help = inspector(['--help']);
    if (/--strict\b/.test(help.stdout + help.stderr)) {
      const strict = inspector(['--format', 'json', '--strict', '--method', 'tools/list', ...target],
                               { timeoutMs: 90000 });
      const summary = (strict.stderr.match(/^\d+ errors?, .*$/m) ?? [''])[0];
      check(strict.status === 0, `inspector toolgate ${transport}: tools/list --strict exits 0` +
            (summary ? ` (${summary})` : ''),
            { ...runInfo(strict), stderr: strict.stderr.split('\n').filter((l) => /error/i.test(l))
                                              .slice(0, 40).join('\n') });
    } else {
      check(true, 'this Inspector has no --strict: schema lint not run');
    }
  } finally {
    for (const server of servers) {
      const exited = await server.stop();
      check(exited.signal !== 'SIGKILL', `inspector toolgate ${transport}: the server stops on SIGTERM`,
            { exited, log: server.log().slice(-2000) });
    }
  }
});
