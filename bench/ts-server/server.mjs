// The benchmark's comparison server: the official TypeScript SDK (@modelcontextprotocol/sdk)
// serving the same 1150 tools, read from toolkits/<Toolkit>/catalogue.json with the same input
// schemas as toolgate, and proxying each tools/call as one HTTPS request (keep-alive agent,
// the bench CA) to the fake platform. Written as the SDK's README and examples recommend:
// the low-level `Server` (our schemas are JSON Schema, not zod), `createMcpExpressApp`, and
// `StreamableHTTPServerTransport` in session mode (simpleStreamableHttp.ts) or stateless mode
// (simpleStatelessStreamableHttp.ts), JSON responses (jsonResponseStreamableHttp.ts).
//
//   node server.mjs --catalogue DIR [--transport http|stdio] [--port N]
//                   [--mode session|stateless|stateless-sse]
//                   [--base-url Toolkit=URL ...] [--ca-file PEM]
import { randomUUID } from 'node:crypto';
import fs from 'node:fs';
import https from 'node:https';
import http from 'node:http';
import path from 'node:path';

import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import { createMcpExpressApp } from '@modelcontextprotocol/sdk/server/express.js';
import { AjvJsonSchemaValidator } from '@modelcontextprotocol/sdk/validation/ajv-provider.js';
import {
    CallToolRequestSchema,
    ErrorCode,
    isInitializeRequest,
    ListToolsRequestSchema,
    McpError
} from '@modelcontextprotocol/sdk/types.js';

// ---- options ----
const options = { transport: 'http', port: 0, mode: 'session', baseUrls: {}, caFile: null, catalogue: null };
for (let i = 2; i < process.argv.length; ++i) {
    const arg = process.argv[i];
    const value = () => process.argv[++i];
    if (arg === '--transport') options.transport = value();
    else if (arg === '--port') options.port = Number(value());
    else if (arg === '--mode') options.mode = value();
    else if (arg === '--ca-file') options.caFile = value();
    else if (arg === '--catalogue') options.catalogue = value();
    else if (arg === '--base-url') {
        const [toolkit, url] = value().split(/=(.*)/s);
        options.baseUrls[toolkit] = url.replace(/\/$/, '');
    } else {
        console.error(`ts-server: unknown argument ${arg}`);
        process.exit(2);
    }
}

// ---- the catalogue: the same tools and input schemas as toolgate (toolkits/gen/input_schema.cpp) ----
// The toolkits, in order, from their one list: TOOLGATE_TOOLKIT_NAMES in toolkits/CMakeLists.txt.
const TOOLKIT_ORDER = (() => {
    const cmake = fs.readFileSync(path.join(options.catalogue, 'CMakeLists.txt'), 'utf8');
    const found = cmake.match(/^\s*set\(\s*TOOLGATE_TOOLKIT_NAMES\b([^)]*)\)/m);
    if (!found) throw new Error('no set(TOOLGATE_TOOLKIT_NAMES ...) in toolkits/CMakeLists.txt');
    return found[1].replace(/#[^\n]*/g, '').split(/\s+/).filter(Boolean);
})();

// The words, merged as the build merges them (toolkits/gen/text_check.cpp): catalogue.json holds
// the facts, <Toolkit>/descriptions.json the words, m_tool_descriptions.json those every M-tool
// shares. Only what the listing shows is merged (titles, descriptions, parameter texts).
const M_TOOL_WORDS = JSON.parse(fs.readFileSync(path.join(options.catalogue, 'm_tool_descriptions.json'), 'utf8'));

function withWords(toolkit, written) {
    for (const spec of toolkit.tools) {
        const text = written[spec.name];
        spec.title = text.title;
        spec.description = spec.m_tool ? `${text.description} ${M_TOOL_WORDS.description_note}` : text.description;
        for (const p of spec.params) {
            p.description = p.in === 'mode' || p.in === 'request_body' ? M_TOOL_WORDS.params[p.in] : text.params[p.name];
        }
    }
    return toolkit;
}

function addFormat(prop, format) {
    if (format === 'date') {
        prop.format = 'date';
        prop.pattern = '^[0-9]{4}-[0-9]{2}-[0-9]{2}$';
    } else if (format === 'year') prop.pattern = '^[0-9]{4}$';
    else if (format === 'utc_date_time') prop.pattern = '^[0-9]{4}-[0-9]{2}-[0-9]{2}T[0-9]{2}:[0-9]{2}:[0-9]{2}Z$';
    else if (format === 'date_time') prop.pattern = '^[0-9]{4}-[0-9]{2}-[0-9]{2}';
    else if (format === 'http_url') {
        prop.format = 'uri';
        prop.pattern = '^https?://';
    } else if (format === 'backup_id') prop.pattern = '^[a-z0-9_-]+$';
    else if (format === 'trimmed') prop.pattern = '^\\S(.*\\S)?$';
}

// The published form drops toolgate's own `x-toolgate-wire` markers (tools/schema_forms.py).
function withoutMarkers(node) {
    if (Array.isArray(node)) return node.map(withoutMarkers);
    if (node === null || typeof node !== 'object') return node;
    const out = {};
    for (const [k, v] of Object.entries(node)) if (k !== 'x-toolgate-wire') out[k] = withoutMarkers(v);
    return out;
}

function propertySchema(p) {
    let prop;
    if (p.schema && typeof p.schema === 'object') prop = { ...withoutMarkers(p.schema), type: p.type };
    else prop = { type: p.type };
    if (typeof p.description === 'string') prop.description = p.description;
    if (Array.isArray(p.enum) && p.enum.length > 0) prop.enum = p.enum;
    if (p.type === 'array' && !prop.items) prop.items = { type: p.item_type };
    for (const [from, to] of [['minimum', 'minimum'], ['maximum', 'maximum'], ['min_length', 'minLength'],
        ['max_length', 'maxLength']]) {
        if (typeof p[from] === 'number') prop[to] = p[from];
    }
    if (typeof p.format === 'string') addFormat(prop, p.format);
    return prop;
}

// toolgate's reserved arguments, read from the one table that names them
// (toolkits/reserved_arguments.hpp, beside the catalogue), so the two servers cannot drift.
const RESERVED_ARGUMENTS = (() => {
    const header = fs.readFileSync(path.join(options.catalogue, 'reserved_arguments.hpp'), 'utf8');
    const entries = [...header.matchAll(/\{\s*"(_\w+)",\s*"\w+",\s*R"\((.*?)\)"\s*\}/gs)];
    if (entries.length === 0) throw new Error('no reserved arguments in reserved_arguments.hpp');
    return entries.map((m) => [m[1], JSON.parse(m[2])]);
})();

function inputSchema(tool) {
    const properties = {};
    const required = [];
    for (const p of tool.params) {
        properties[p.name] = propertySchema(p);
        if (p.required) required.push(p.name);
    }
    // toolgate's reserved arguments (toolkits/reserved_arguments.hpp), after the tool's own.
    for (const [name, property] of RESERVED_ARGUMENTS) properties[name] = property;
    const schema = { type: 'object', properties };
    if (required.length > 0) schema.required = required;
    schema.additionalProperties = false;
    return schema;
}

const tools = [];      // what tools/list answers
const byName = new Map(); // wire name and dotted name -> { listed, toolkit, spec }
for (const toolkitName of TOOLKIT_ORDER) {
    const read = (name) => JSON.parse(fs.readFileSync(path.join(options.catalogue, toolkitName, name), 'utf8'));
    const toolkit = withWords(read('catalogue.json'), read('descriptions.json').tools);
    for (const spec of toolkit.tools) {
        const listed = {
            name: `${toolkit.toolkit}_${spec.name}`,
            title: spec.title,
            description: spec.description,
            inputSchema: inputSchema(spec),
            annotations: {
                readOnlyHint: spec.hints.read_only,
                destructiveHint: spec.hints.destructive,
                idempotentHint: spec.hints.idempotent,
                openWorldHint: true
            }
        };
        tools.push(listed);
        const entry = { listed, toolkit, spec, validate: null };
        byName.set(listed.name, entry);
        byName.set(`${toolkit.toolkit}.${spec.name}`, entry);
    }
}

// ---- the outbound side: one HTTPS request per call, on a keep-alive agent ----
const ca = options.caFile ? fs.readFileSync(options.caFile) : undefined;
const httpsAgent = new https.Agent({ keepAlive: true, ca });
const httpAgent = new http.Agent({ keepAlive: true });
const validator = new AjvJsonSchemaValidator();

function buildRequest(entry, args) {
    const { toolkit, spec } = entry;
    let url = spec.http.url;
    const override = options.baseUrls[toolkit.toolkit];
    if (override) {
        const base = toolkit.base_urls.find((b) => url.startsWith(b));
        if (base) url = override + url.slice(base.length);
    }
    const query = new URLSearchParams();
    const headers = { ...spec.http.headers, Accept: 'application/json' };
    const body = {};
    let hasBody = false;
    for (const p of spec.params) {
        if (!(p.name in args)) continue;
        const value = args[p.name];
        const wire = p.wire_name || p.name;
        if (p.in === 'path') url = url.replace(`{${wire}}`, encodeURIComponent(String(value)));
        else if (p.in === 'query') query.append(wire, Array.isArray(value) ? value.join(',') : String(value));
        else if (p.in === 'header') headers[wire] = String(value);
        else {
            body[wire] = value;
            hasBody = true;
        }
    }
    for (const t of toolkit.auth.transmission) {
        const secret = process.env[t.secret];
        if (secret === undefined) continue;
        if (t.in === 'header') headers[t.name] = t.format.replace('{}', secret);
        else if (t.in === 'query') query.append(t.name, secret);
    }
    const qs = query.toString();
    if (qs) url += (url.includes('?') ? '&' : '?') + qs;
    const payload = hasBody ? JSON.stringify(body) : undefined;
    if (payload) headers['Content-Type'] = 'application/json';
    return { method: spec.http.method, url, headers, payload };
}

function send({ method, url, headers, payload }) {
    return new Promise((resolve, reject) => {
        const target = new URL(url);
        const secure = target.protocol === 'https:';
        const req = (secure ? https : http).request(target, {
            method, headers, agent: secure ? httpsAgent : httpAgent, timeout: 60_000
        }, (res) => {
            const chunks = [];
            res.on('data', (c) => chunks.push(c));
            res.on('end', () => resolve({ status: res.statusCode, body: Buffer.concat(chunks).toString('utf8') }));
            res.on('error', reject);
        });
        req.on('error', reject);
        req.on('timeout', () => req.destroy(new Error('timeout')));
        if (payload) req.write(payload);
        req.end();
    });
}

async function callTool(request) {
    const entry = byName.get(request.params.name);
    if (!entry) throw new McpError(ErrorCode.InvalidParams, `Unknown tool: ${request.params.name}`);
    const args = request.params.arguments ?? {};
    entry.validate ??= validator.getValidator(entry.listed.inputSchema);
    const checked = entry.validate(args);
    if (!checked.valid) return { isError: true, content: [{ type: 'text', text: checked.errorMessage }] };
    let answer;
    try {
        answer = await send(buildRequest(entry, args));
    } catch (error) {
        return { isError: true, content: [{ type: 'text', text: `${entry.listed.name}: ${error.message}` }] };
    }
    if (answer.status >= 400) {
        return { isError: true, content: [{ type: 'text', text: `HTTP ${answer.status}: ${answer.body.slice(0, 1000)}` }] };
    }
    let structured;
    try {
        structured = JSON.parse(answer.body);
    } catch {
        return { content: [{ type: 'text', text: answer.body }] };
    }
    const result = { content: [{ type: 'text', text: JSON.stringify(structured) }] };
    if (structured !== null && typeof structured === 'object' && !Array.isArray(structured)) {
        result.structuredContent = structured;
    }
    return result;
}

function createServer() {
    const server = new Server({ name: 'ts-sdk-bench', version: '1.0.0' }, { capabilities: { tools: {} } });
    server.setRequestHandler(ListToolsRequestSchema, async () => ({ tools }));
    server.setRequestHandler(CallToolRequestSchema, callTool);
    return server;
}

// ---- transports ----
if (options.transport === 'stdio') {
    await createServer().connect(new StdioServerTransport());
} else {
    const app = createMcpExpressApp();
    if (options.mode === 'stateless' || options.mode === 'stateless-sse') {
        // simpleStatelessStreamableHttp.ts: a new server and transport per request; answers as
        // JSON (`stateless`) or as an event stream (`stateless-sse`, the SDK's default).
        const enableJsonResponse = options.mode === 'stateless';
        app.post('/mcp', async (req, res) => {
            const server = createServer();
            try {
                const transport = new StreamableHTTPServerTransport({ sessionIdGenerator: undefined, enableJsonResponse });
                await server.connect(transport);
                await transport.handleRequest(req, res, req.body);
                res.on('close', () => {
                    transport.close();
                    server.close();
                });
            } catch (error) {
                if (!res.headersSent) {
                    res.status(500).json({ jsonrpc: '2.0', error: { code: -32603, message: 'Internal server error' }, id: null });
                }
            }
        });
    } else {
        // simpleStreamableHttp.ts / jsonResponseStreamableHttp.ts: one transport per session.
        const transports = {};
        app.post('/mcp', async (req, res) => {
            const sessionId = req.headers['mcp-session-id'];
            let transport;
            if (sessionId && transports[sessionId]) {
                transport = transports[sessionId];
            } else if (!sessionId && isInitializeRequest(req.body)) {
                transport = new StreamableHTTPServerTransport({
                    sessionIdGenerator: () => randomUUID(),
                    enableJsonResponse: true,
                    onsessioninitialized: (id) => {
                        transports[id] = transport;
                    }
                });
                transport.onclose = () => {
                    if (transport.sessionId) delete transports[transport.sessionId];
                };
                await createServer().connect(transport);
            } else {
                res.status(400).json({ jsonrpc: '2.0', error: { code: -32000, message: 'Bad Request: No valid session ID provided' }, id: null });
                return;
            }
            await transport.handleRequest(req, res, req.body);
        });
        app.delete('/mcp', async (req, res) => {
            const transport = transports[req.headers['mcp-session-id']];
            if (!transport) return res.status(404).end();
            await transport.handleRequest(req, res);
        });
    }
    app.get('/healthz', (req, res) => res.status(200).send('ok'));
    const listener = app.listen(options.port, '127.0.0.1', () => {
        console.error(`ts-server listening on http://127.0.0.1:${listener.address().port}/mcp`);
    });
}
