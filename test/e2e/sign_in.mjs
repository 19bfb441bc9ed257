// Sign-in from the conversation (issue 26) with real clients against the real `toolgate`
// binary, over stdio or Streamable HTTP. A fake OAuth authorization server written here (code
// + PKCE S256, on 127.0.0.1) is also the storage platform's API; the browser's part (open the
// link, press the button, follow the redirects) is done with fetch.
//
//   run.sh sign_in.mjs --bin PATH --transport stdio|http
//
// The Inspector CLI declares no elicitation: it shows the tool error holding the link (over
// HTTP the link is then followed and the same CLI call succeeds). The TypeScript SDK v2 client
// declares URL elicitation: in a 2025-11-25 session its callTool rejects with
// UrlElicitationRequiredError (-32042), the session receives notifications/elicitation/complete
// once the link was followed, and the retry succeeds; pinned to 2026-07-28 its elicitation
// handler gets the URL elicitation of the input_required result, and the client's automatic
// retry (inputResponses + requestState) succeeds.
import { spawn } from 'node:child_process';
import crypto from 'node:crypto';
import fs from 'node:fs';
import http from 'node:http';
import path from 'node:path';
import { INSPECTOR, check, checkEqual, deadline, importInstalled, main, parseArgs, runInfo,
         scratch, startHttpServer } from './lib.mjs';

const { Client, StreamableHTTPClientTransport, UrlElicitationRequiredError } =
  await importInstalled('@modelcontextprotocol/client');
const { StdioClientTransport } = await importInstalled('@modelcontextprotocol/client', './stdio');

const args = parseArgs();
const bin = args.bin;
const transport = args.transport ?? 'stdio';
if (!bin || !['stdio', 'http'].includes(transport)) {
  console.error('usage: sign_in.mjs --bin PATH --transport stdio|http');
  process.exit(2);
}
deadline(170000);

const CLIENT_ID = 'e2eClientId';
const CLIENT_SECRET = 'e2eClientSecret-S3CR3T';
const TOOL = 'StoreApi_CheckUserInviteStatus';
const TOOL_ARGS = { invite_id: 'i1' };
const MODERN = '2026-07-28';
const STEP_MS = 30000;
const clientTokens = { alice: 'e2eClientAlice-0123456789', bob: 'e2eClientBob-0123456789',
                       carol: 'e2eClientCarol-0123456789' };

function within(promise, what, ms = STEP_MS) {
  let t;
  return Promise.race([
    promise,
    new Promise((_, rej) => { t = setTimeout(() => rej(new Error(`${what}: no answer in ${ms} ms`)), ms); }),
  ]).finally(() => clearTimeout(t));
}

// The fake authorization server and platform API. Everything it issued is kept, so the test
// can check that no token or code ever shows in what the clients saw or toolgate logged.
async function startFakeOAuth() {
  const codes = new Map();
  const issued = [];
  const secrets = [CLIENT_SECRET];
  const api = [];
  const server = http.createServer(async (req, res) => {
    const url = new URL(req.url, 'http://127.0.0.1');
    let body = '';
    for await (const chunk of req) body += chunk;
    const json = (status, value) => {
      res.writeHead(status, { 'Content-Type': 'application/json' });
      res.end(JSON.stringify(value));
    };
    if (req.method === 'GET' && url.pathname === '/authorize') {
      const q = url.searchParams;
      const ok = q.get('client_id') === CLIENT_ID && q.get('response_type') === 'code' &&
                 q.get('code_challenge_method') === 'S256' && q.get('code_challenge');
      const code = `e2eCode-${crypto.randomBytes(12).toString('hex')}`;
      secrets.push(code);
      codes.set(code, { challenge: q.get('code_challenge'), redirect: q.get('redirect_uri') });
      const answer = ok ? `code=${code}` : 'error=unauthorized_client';
      res.writeHead(302, { Location: `${q.get('redirect_uri')}?${answer}&state=${encodeURIComponent(q.get('state'))}` });
      res.end();
      return;
    }
    if (req.method === 'POST' && url.pathname === '/token') {
      const f = new URLSearchParams(body);
      const c = codes.get(f.get('code'));
      codes.delete(f.get('code'));
      const pkce = c && crypto.createHash('sha256').update(f.get('code_verifier') ?? '')
        .digest('base64url') === c.challenge;
      if (!pkce || f.get('redirect_uri') !== c.redirect || f.get('client_id') !== CLIENT_ID ||
          f.get('client_secret') !== CLIENT_SECRET) {
        json(400, { error: 'invalid_grant' });
        return;
      }
      const access = `e2eAccess-${crypto.randomBytes(12).toString('hex')}`;
      const refresh = `e2eRefresh-${crypto.randomBytes(12).toString('hex')}`;
      issued.push(access);
      secrets.push(access, refresh);
      json(200, { access_token: access, refresh_token: refresh, token_type: 'Bearer', expires_in: 3600 });
      return;
    }
    const bearer = (req.headers.authorization ?? '').replace(/^Bearer /, '');
    api.push(bearer);
    if (issued.includes(bearer)) json(200, { ok: true, invite: 'i1' });
    else json(401, { error: 'unauthorized' });
  });
  await new Promise((res) => server.listen(0, '127.0.0.1', res));
  const base = `http://127.0.0.1:${server.address().port}`;
  return { base, issued, api, secrets, close: () => server.close() };
}

// What a browser does with a sign-in link: open it, press the button, follow the platform's
// redirect back to toolgate. Returns the pages it saw.
async function browse(link, label) {
  const page = await fetch(link);
  const html = await page.text();
  check(page.status === 200 && html.includes('StoreApi') && html.includes('method="post"') &&
        !html.includes('<script'),
        `${label}: the link's page names StoreApi and has one POST form`, { status: page.status, html });
  check((page.headers.get('content-security-policy') ?? '').includes("frame-ancestors 'none'"),
        `${label}: the page forbids framing`, page.headers.get('content-security-policy'));
  const form = await fetch(link, { method: 'POST', redirect: 'manual',
                                   headers: { Origin: new URL(link).origin } });
  const authorize = form.headers.get('location') ?? '';
  check(form.status === 302 && authorize.includes('code_challenge_method=S256'),
        `${label}: the button redirects to the platform with PKCE S256`, { status: form.status, authorize });
  const back = await fetch(authorize, { redirect: 'manual' });
  const callback = back.headers.get('location') ?? '';
  const done = await fetch(callback);
  const doneHtml = await done.text();
  check(done.status === 200 && doneHtml.includes('connected'),
        `${label}: the callback stores the sign-in and says to return to the client`,
        { status: done.status, doneHtml });
  return html + doneHtml;
}

// lib.mjs's inspector() blocks this process until the CLI exits, and with it the fake platform
// served here: run it as a child this process keeps serving beside.
async function inspectorAsync(cliArgs) {
  const env = { ...process.env, HOME: path.join(scratch, 'home'), NO_COLOR: '1',
                MCP_CATALOG_PATH: path.join(scratch, 'home', 'mcp.json'),
                MCP_CLIENT_CONFIG_PATH: path.join(scratch, 'home', 'client.json') };
  const child = spawn(INSPECTOR, ['--cli', ...cliArgs], { env, stdio: ['ignore', 'pipe', 'pipe'] });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (c) => { stdout += c; });
  child.stderr.on('data', (c) => { stderr += c; });
  const status = await within(new Promise((res) => child.on('exit', (code) => res(code))),
                              'mcp-inspector --cli', 60000);
  let json;
  try { json = JSON.parse(stdout); } catch { json = undefined; }
  return { status, stdout, stderr, json, args: ['--cli', ...cliArgs] };
}

function textOf(result) {
  return (result?.content ?? []).map((c) => c.text ?? '').join('\n');
}

await main(async () => {
  const oauth = await startFakeOAuth();
  console.log(`# fake authorization server and platform at ${oauth.base}`);
  const seen = [];  // everything the clients were shown
  let sessionNo = 0;
  // A fresh token store per session: each starts signed out.
  function setup() {
    const dir = path.join(scratch, `session-${sessionNo++}`);
    fs.mkdirSync(dir, { mode: 0o700 });
    fs.writeFileSync(path.join(dir, 'secrets.env'),
                     `STORE_CLIENT_ID=${CLIENT_ID}\nSTORE_CLIENT_SECRET=${CLIENT_SECRET}\n`, { mode: 0o600 });
    fs.writeFileSync(path.join(dir, 'clients.tokens'),
                     Object.entries(clientTokens).map(([n, t]) => `${n} ${t}`).join('\n') + '\n',
                     { mode: 0o600 });
    const env = { TOOLGATE_OAUTH_AUTHORIZE_URL_STOREAPI: `${oauth.base}/authorize`,
                  TOOLGATE_OAUTH_TOKEN_URL_STOREAPI: `${oauth.base}/token`,
                  STORE_ACCESS_TOKEN: '', STORE_CLIENT_ID: '', STORE_CLIENT_SECRET: '' };
    const serverArgs = ['--toolkits', 'StoreApi', '--tool-mode', 'full', '--token-store',
                        path.join(dir, 'tokens.json'), '--secrets-file', path.join(dir, 'secrets.env'),
                        '--base-url', `StoreApi=${oauth.base}`];
    return { dir, env, serverArgs, clientsFile: path.join(dir, 'clients.tokens') };
  }
  const servers = [];
  async function httpServer(s) {
    const server = await startHttpServer(bin, [...s.serverArgs, '--auth-token-file', s.clientsFile],
                                         { env: s.env });
    servers.push(server);
    return server;
  }

  // --- the Inspector CLI: no elicitation declared, so the link comes in the tool error -------
  {
    const s = setup();
    const label = `inspector cli ${transport}`;
    let target;
    let headers = [];
    let server;
    if (transport === 'stdio') {
      // The CLI's -e takes no empty value; the server's environment holds only what it gives.
      target = [...Object.entries(s.env).filter(([, v]) => v !== '').flatMap(([k, v]) => ['-e', `${k}=${v}`]), bin,
                '--transport', 'stdio', ...s.serverArgs];
    } else {
      server = await httpServer(s);
      target = [server.url];
      headers = ['--header', `Authorization: Bearer ${clientTokens.carol}`];
    }
    // The target first: --header and --tool-arg take every value that follows them.
    const call = () => inspectorAsync(['-q', '--format', 'json', '--method', 'tools/call',
                                       '--tool-name', TOOL, ...target, ...headers, '--tool-arg',
                                       'invite_id=i1']);
    const first = await call();
    const text = textOf(first.json?.result);
    seen.push(first.stdout, first.stderr);
    const link = /http:\/\/127\.0\.0\.1:\d+\/signin\?state=[A-Za-z0-9_-]+/.exec(text)?.[0];
    check(first.status === 5 && first.json?.result?.isError === true && link !== undefined &&
          text.includes('call this tool again'),
          `${label}: the CLI shows a tool error holding the sign-in link (exit status 5)`, runInfo(first));
    console.log(`# ${label} showed: ${text}`);
    check(oauth.api.length === 0, `${label}: nothing reached the platform before the sign-in`, oauth.api);
    if (server && link) {
      seen.push(await browse(link, label));
      const again = await call();
      seen.push(again.stdout);
      check(again.status === 0 && !again.json?.result?.isError && textOf(again.json?.result).includes('"ok":true'),
            `${label}: after the sign-in the same call reaches the platform`, runInfo(again));
      checkEqual(oauth.api.at(-1), oauth.issued.at(-1), `${label}: with the token the sign-in obtained`);
    }
  }

  // --- the TypeScript SDK v2 client: URL elicitation in both eras ---------------------------
  async function sdkSession(mode, who) {
    const s = setup();
    const label = `sdk ${transport} ${mode === 'legacy' ? '2025-11-25' : MODERN}`;
    let t;
    if (transport === 'http') {
      const server = await httpServer(s);
      t = new StreamableHTTPClientTransport(new URL(server.url),
        { requestInit: { headers: { Authorization: `Bearer ${clientTokens[who]}` } } });
    } else {
      t = new StdioClientTransport({ command: bin, args: ['--transport', 'stdio', ...s.serverArgs],
                                     env: { ...process.env, ...s.env }, stderr: 'pipe' });
      t.stderr?.on('data', (chunk) => seen.push(String(chunk))); // toolgate's log
    }
    const options = { capabilities: { elicitation: { url: {} } } };
    if (mode !== 'legacy') options.versionNegotiation = { mode: { pin: MODERN } };
    const client = new Client({ name: 'toolgate-e2e-sign-in', version: '1.0.0' }, options);
    const completed = [];
    let onComplete;
    const complete = new Promise((res) => { onComplete = res; });
    client.setNotificationHandler('notifications/elicitation/complete', async (n) => {
      completed.push(n.params.elicitationId);
      onComplete(n.params.elicitationId);
    });
    const asked = [];
    client.setRequestHandler('elicitation/create', async (request) => {
      asked.push(request.params);
      seen.push(JSON.stringify(request.params));
      seen.push(await browse(request.params.url, `${label}: elicitation handler`));
      return { action: 'accept' };
    });
    await within(client.connect(t), `${label}: connect`);
    try {
      if (mode === 'legacy') {
        let error;
        try {
          await within(client.callTool({ name: TOOL, arguments: TOOL_ARGS }), `${label}: first call`);
        } catch (e) { error = e; }
        seen.push(String(error?.message), JSON.stringify(error?.elicitations ?? null));
        const e = error?.elicitations?.[0];
        check(error instanceof UrlElicitationRequiredError && error.code === -32042 &&
              error.elicitations.length === 1 && e?.mode === 'url' && typeof e?.elicitationId === 'string' &&
              /^http:\/\/127\.0\.0\.1:\d+\/signin\?state=/.test(e?.url ?? ''),
              `${label}: callTool rejects with UrlElicitationRequiredError holding one URL elicitation`,
              { error: String(error), elicitations: error?.elicitations });
        console.log(`# ${label} showed: ${String(error?.message)} ${JSON.stringify(e)}`);
        if (e?.url) {
          seen.push(await browse(e.url, label));
          const id = await within(complete, `${label}: notifications/elicitation/complete`, 10000)
            .catch(() => undefined);
          checkEqual(id, e.elicitationId,
                     `${label}: the session is told with notifications/elicitation/complete`);
          const result = await within(client.callTool({ name: TOOL, arguments: TOOL_ARGS }), `${label}: retry`);
          seen.push(JSON.stringify(result));
          check(!result.isError && textOf(result).includes('"ok":true'),
                `${label}: the retry reaches the platform`, result);
          checkEqual(oauth.api.at(-1), oauth.issued.at(-1), `${label}: with the token just obtained`);
        }
      } else {
        const result = await within(client.callTool({ name: TOOL, arguments: TOOL_ARGS }),
                                    `${label}: call`, 60000);
        seen.push(JSON.stringify(result));
        check(asked.length === 1 && asked[0].mode === 'url' && asked[0].elicitationId === undefined &&
              asked[0].message.includes('StoreApi'),
              `${label}: the client's elicitation handler got the URL elicitation of input_required`, asked);
        console.log(`# ${label} showed the elicitation handler: ${JSON.stringify(asked[0])}`);
        check(!result.isError && textOf(result).includes('"ok":true'),
              `${label}: the client's automatic retry (inputResponses + requestState) completes the call`,
              result);
        checkEqual(oauth.api.at(-1), oauth.issued.at(-1), `${label}: with the token just obtained`);
      }
      const stored = JSON.parse(fs.readFileSync(path.join(s.dir, 'tokens.json'), 'utf8'));
      const kept = transport === 'http' ? stored.principals?.[`static:${who}`] : stored.toolkits;
      check(kept?.StoreApi?.grant === 'authorization_code',
            `${label}: the tokens are kept for ${transport === 'http' ? `static:${who}` : 'the server'}`,
            Object.keys(stored));
    } finally {
      await within(client.close(), `${label}: close`, 10000).catch(() => {});
    }
  }

  try {
    await sdkSession('legacy', 'alice');
    await sdkSession('modern', 'bob');
  } finally {
    for (const server of servers) {
      const log = server.log();
      seen.push(log);
      await server.stop();
    }
    oauth.close();
  }
  const everything = seen.join('\n');
  const leaked = oauth.secrets.filter((secret) => everything.includes(secret));
  checkEqual(leaked, [], 'no token, code or client secret in anything a client showed or toolgate logged');
});
