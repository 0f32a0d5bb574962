// Drives recall with the official TypeScript MCP client and prints what
// every call returned, as one JSON object, for TestMCPWithNPMClient (stdio:
// `recall mcp` as a subprocess) and TestMCPHTTPWithNPMClient (Streamable
// HTTP: the /mcp endpoint of a running `recall serve`, with the bearer
// token in $RECALL_TOKEN).
// Usage: node client.mjs RECALL_BINARY STORE_PATH
//        node client.mjs http://127.0.0.1:7411/mcp
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { UriTemplate } from "@modelcontextprotocol/sdk/shared/uriTemplate.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";

const [target, store] = process.argv.slice(2);
const http = /^https?:\/\//.test(target);
const transport = http
  ? new StreamableHTTPClientTransport(new URL(target), {
      requestInit: { headers: process.env.RECALL_TOKEN ? { Authorization: `Bearer ${process.env.RECALL_TOKEN}` } : {} },
    })
  : new StdioClientTransport({ command: target, args: ["--store", store, "mcp"], stderr: "inherit" });
const client = new Client({ name: "recall-npm-test", version: "0" });
await client.connect(transport);

const out = { tools: {}, calls: [], server: client.getServerVersion(), instructions: client.getInstructions() ?? "" };
if (http) out.protocolVersion = transport.protocolVersion ?? "";
for (const t of (await client.listTools()).tools) {
  out.tools[t.name] = { inputSchema: t.inputSchema, hasOutputSchema: !!t.outputSchema };
}

async function call(name, args) {
  try {
    const r = await client.callTool({ name, arguments: args });
    out.calls.push({ name, args, isError: !!r.isError, text: r.content?.map((c) => c.text).join(""), structured: r.structuredContent ?? null });
    return r;
  } catch (e) {
    out.calls.push({ name, args, thrown: String(e) });
    return null;
  }
}

await call("retrieve", { query: "想去海边玩", limit: 3, budget_tokens: 0, expand_links: true, explain: false });
await call("retrieve", { query: "海边", limit: 2, budget_tokens: 300, expand_links: false, explain: true, categories: ["trips", "preferences"], tags: ["海边"], min_score: 0.2 });
await call("add", { category: "notes", name: "npm client", content: "written from node", tags: ["a", "b"] });
await call("append", { category: "notes", name: "npm client", text: "one more line" });
await call("edit", { category: "notes", name: "npm client", old_text: "from node", new_text: "by the npm client" });
await call("get", { category: "notes", name: "npm client" });
const page = await call("list", { limit: 5 });
await call("list", { limit: 5, cursor: page?.structuredContent?.next_cursor ?? "" });
await call("categories", {});
await call("delete", { category: "notes", name: "npm client" });
await call("retrieve", { query: "x", limit: 0 });
await call("edit", { category: "trips", name: "三亚之行", old_text: "no such passage", new_text: "y" });
await call("get", { category: "notes", name: "npm client" });
await call("add", { category: "notes", name: "twice", content: "first\nline two", tags: ["x"] });
await call("add", { category: "notes", name: "twice", content: "second" });
await call("add", { category: "notes", name: "twice", content: "third", if_absent: true });

// Time (issue 22): a dated add, a time phrase, a timeline, a bad date.
await call("add", { category: "diary", name: "npm beach", content: "Swam at the beach, see [[trips:三亚之行]]", date: "2025-05-28" });
await call("retrieve", { query: "beach last week", now: "2025-06-04T09:00:00+08:00" });
await call("retrieve", { query: "", after: "2025-05-26", before: "2025-06-02", now: "2025-06-04T09:00:00+08:00" });
await call("retrieve", { query: "beach", after: "May 3rd" });
await call("get", { category: "diary", name: "npm beach" });

// Context on the first turn (issue 25): the prompt, the resources, the
// instructions. URIs are expanded from the server's templates by the
// TypeScript SDK's own UriTemplate (encodeURIComponent).
await call("add", { category: "projects/harbor", name: "Q3 plan (draft)", content: "Ship the review. See [[diary:npm beach]]." });
async function attempt(fn) {
  try {
    return await fn();
  } catch (e) {
    return { thrown: String(e) };
  }
}
out.capabilities = client.getServerCapabilities();
out.prompts = (await client.listPrompts()).prompts;
out.prompt = await attempt(() => client.getPrompt({ name: "recall", arguments: { message: "想去海边玩", budget_tokens: "300" } }));
out.promptNoMessage = await attempt(() => client.getPrompt({ name: "recall", arguments: {} }));
out.templates = (await client.listResourceTemplates()).resourceTemplates;
out.resources = [];
out.resourcePages = 0;
for (let cursor; ; ) {
  const page = await client.listResources(cursor ? { cursor } : {});
  out.resourcePages++;
  out.resources.push(...page.resources);
  if (!page.nextCursor) break;
  cursor = page.nextCursor;
}
const entry = new UriTemplate(out.templates.find((t) => t.name === "entry").uriTemplate);
const category = new UriTemplate(out.templates.find((t) => t.name === "category").uriTemplate);
out.reads = {};
for (const uri of [
  "recall://",
  category.expand({ category: "trips" }),
  category.expand({ category: "projects/harbor" }),
  entry.expand({ category: "trips", name: "三亚之行" }),
  entry.expand({ category: "projects/harbor", name: "Q3 plan (draft)" }),
  out.resources[1]?.uri,
  entry.expand({ category: "trips", name: "nowhere" }),
]) {
  out.reads[uri] = await attempt(() => client.readResource({ uri }));
}

// Validity (issue 23): a supersession, an expiry, the include flags, a bad
// expires, and the keys through get.
await call("add", { category: "places", name: "npm Paris", content: "npm flat in Paris" });
await call("add", { category: "places", name: "npm Berlin", content: "npm flat in Berlin", supersedes: ["[[places:npm Paris]]"] });
await call("add", { category: "work", name: "npm sprint", content: "npm flat sprint", expires: "2020-01-01" });
await call("retrieve", { query: "npm flat" });
await call("retrieve", { query: "npm flat", include_superseded: true, include_expired: true });
await call("add", { category: "x", name: "y", content: "z", expires: "soon" });
await call("get", { category: "places", name: "npm Berlin" });

// Sections of long notes (issue 24): a long note with headings answers
// by the section that matched; whole_entries gives the whole note (calls
// 29 to 31).
const filler = "lorem ipsum dolor sit amet ".repeat(90);
await call("add", { category: "notes", name: "npm guide", content: `Intro. ${filler}\n\n## Install\n\n### On Linux\nnpm zebrafish with apt. [[trips:三亚之行]]\n${filler}\n\n## Usage\nRun it. ${filler}\n` });
await call("retrieve", { query: "zebrafish apt" });
await call("retrieve", { query: "zebrafish apt", whole_entries: true });

// Duplicates (issue 23): an add that copies another names it; a retrieve
// collapses the copy, keep_duplicates keeps it (calls 32 to 35).
await call("add", { category: "shop", name: "npm milk", content: "npm oat milk on Friday" });
await call("add", { category: "notes", name: "npm milk", content: "NPM oat milk  on friday" });
await call("retrieve", { query: "npm oat milk" });
await call("retrieve", { query: "npm oat milk", keep_duplicates: true });

if (http) await transport.terminateSession(); // a stateless server has no session: a no-op
await client.close();
process.stdout.write(JSON.stringify(out));
