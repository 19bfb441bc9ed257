// The MCP Inspector's CLI mode against toolgate_test_server, over stdio or Streamable HTTP,
// in one protocol era (legacy = 2025-11-25 with initialize, modern = 2026-07-28 stateless,
// auto = probe server/discover and fall back).
//
//   run.sh inspector_test_server.mjs --bin PATH --transport stdio|http --era legacy|modern|auto
import { check, checkEqual, checkToolShapes, deadline, inspector, main, parseArgs, runInfo,
         startHttpServer } from './lib.mjs';

const args = parseArgs();
const bin = args.bin;
const transport = args.transport ?? 'stdio';
const era = args.era ?? 'legacy';
if (!bin || !['stdio', 'http'].includes(transport) || !['legacy', 'modern', 'auto'].includes(era)) {
  console.error('usage: inspector_test_server.mjs --bin PATH --transport stdio|http ' +
                '--era legacy|modern|auto');
  process.exit(2);
}
deadline(150000);

const TEST_TOOLS = ['Test_Array', 'Test_Ask', 'Test_Echo', 'Test_Fail', 'Test_Log', 'Test_Slow', 'Test_Throw'];
const SERVER_INFO = 'io.modelcontextprotocol/serverInfo';
const label = `inspector ${transport} ${era}`;

await main(async () => {
  let server;
  let target;
  if (transport === 'http') {
    server = await startHttpServer(bin);
    target = [server.url];
    console.log(`# ${bin} listening at ${server.url}`);
  } else {
    target = [bin, '--transport', 'stdio'];
  }
  const common = ['-q', '--format', 'json', '--protocol-era', era];

  // tools/list: the test tools, each with a description and an object inputSchema.
  const list = inspector([...common, '--method', 'tools/list', ...target]);
  if (check(list.status === 0 && list.json?.result?.tools, `${label}: tools/list exits 0 with tools`,
            runInfo(list))) {
    const tools = list.json.result.tools;
    const names = tools.map((t) => t.name).sort();
    checkEqual(names.filter((n) => n.startsWith('Test_')), TEST_TOOLS,
               `${label}: tools/list lists the Test_ tools`);
    checkToolShapes(tools, `${label}: tools/list`);
    const slow = tools.find((t) => t.name === 'Test_Slow');
    checkEqual(slow?.inputSchema?.properties && Object.keys(slow.inputSchema.properties).sort(),
               ['ms', 'steps'], `${label}: Test_Slow's inputSchema declares ms and steps`);
  }

  // tools/call Test_Echo: the arguments come back verbatim as structuredContent.
  const echoArgs = { text: 'héllo ✓ "quoted" \\ back', n: 42, f: -2.5, yes: true, none: null,
                     nested: { list: [1, 'two', { three: 3 }, []], empty: {} } };
  const echo = inspector([...common, '--method', 'tools/call', '--tool-name', 'Test_Echo',
                          '--tool-args-json', JSON.stringify(echoArgs), ...target]);
  if (check(echo.status === 0 && echo.json?.result, `${label}: tools/call Test_Echo exits 0`,
            runInfo(echo))) {
    const result = echo.json.result;
    checkEqual(result.structuredContent, echoArgs,
               `${label}: Test_Echo returns its arguments as structuredContent`);
    check(result.isError !== true, `${label}: Test_Echo is not an error`, result);
    check(Array.isArray(result.content) && result.content.length > 0 &&
          result.content[0].type === 'text',
          `${label}: Test_Echo also has a text content block`, result.content);
    // Only 2026-07-28 results carry the server's identity in _meta: this tells which era the
    // Inspector actually spoke (auto must have found the modern one).
    const info = result._meta?.[SERVER_INFO];
    if (era === 'legacy') {
      check(info === undefined, `${label}: a 2025 result has no _meta serverInfo`, result._meta);
    } else {
      check(info?.name === 'toolgate' && typeof info.version === 'string',
            `${label}: a 2026-07-28 result carries _meta serverInfo of toolgate`, result._meta);
    }
  }

  // tools/call Test_Fail: a tool error is a result with isError, and the CLI exits with 5.
  const fail = inspector([...common, '--method', 'tools/call', '--tool-name', 'Test_Fail', ...target]);
  check(fail.status === 5, `${label}: tools/call Test_Fail exits with status 5 (isError)`,
        runInfo(fail));
  check(fail.json?.result?.isError === true,
        `${label}: Test_Fail's result has isError: true`, runInfo(fail));

  // tools/call of a tool the server does not have: not a success.
  const unknown = inspector([...common, '--method', 'tools/call', '--tool-name', 'Test_NoSuchTool',
                             ...target]);
  check(unknown.status !== 0, `${label}: tools/call of an unknown tool does not exit 0`,
        runInfo(unknown));

  // The schema portability lint finds no error-severity problem.
  const strict = inspector([...common, '--strict', '--method', 'tools/list', ...target]);
  check(strict.status === 0, `${label}: tools/list --strict exits 0`, runInfo(strict));

  if (server) {
    const exited = await server.stop();
    check(exited.signal !== 'SIGKILL', `${label}: the server stops on SIGTERM`,
          { exited, log: server.log().slice(-2000) });
  }
});
