// api.js — every request the page makes to recall's JSON API, and nothing
// else. Paths, bodies and response shapes live here only; the rest of the
// page calls these functions.
//
// Endpoints (SPEC §9; the server's --help lists them):
//   POST   /v1/retrieve                          {query, limit, budget_tokens, expand_links, explain,
//                                                 include_superseded?, include_expired?, keep_duplicates?, whole_entries?}
//   GET    /v1/categories                        → [{category, count}]
//   GET    /v1/entries?category=&limit=&cursor=  → [...], the next page's cursor in X-Next-Cursor
//   GET    /v1/entries/{category}/{name}         → {category, name, content, meta}
//   PUT    /v1/entries/{category}/{name}         {content, tags?} → 201 added / 200 updated
//   POST   /v1/entries/{category}/{name}/edit    {old_text, new_text} → the entry
//   DELETE /v1/entries/{category}/{name}         → 204
//   GET    /v1/links/{category}/{name}           → {links: [...], backlinks: [...]} (package web)
//
// A category with "/" is one path segment, percent-encoded (projects%2Fharbor).
// Errors are {error, field?} with a 4xx/5xx status; they are thrown as APIError.

const TOKEN_KEY = 'recall-token';

// ALSO are the retrieve options of the page's "Also show" group.
export const ALSO = ['include_superseded', 'include_expired', 'keep_duplicates', 'whole_entries'];

export class APIError extends Error {
  constructor(status, message, field) {
    super(message);
    this.status = status;
    this.field = field || '';
  }
}

let askToken = async () => null;

// onToken sets the function called when the server answers 401; it
// resolves to a token to try, or null to give up.
export function onToken(fn) { askToken = fn; }

export function forgetToken() { sessionStorage.removeItem(TOKEN_KEY); }

// call sends one request and resolves to the decoded JSON answer (null
// for 204); with withHeaders, to {data, headers}.
async function call(method, path, body, withHeaders) {
  for (let attempt = 0; ; attempt++) {
    const headers = { 'Accept': 'application/json' };
    const token = sessionStorage.getItem(TOKEN_KEY);
    if (token) headers['Authorization'] = 'Bearer ' + token;
    const init = { method, headers, cache: 'no-store', credentials: 'omit' };
    if (body !== undefined) {
      headers['Content-Type'] = 'application/json';
      init.body = JSON.stringify(body);
    }
    const res = await fetch(path, init);
    if (res.status === 401 && attempt < 3) {
      const t = await askToken(token ? 'That token was refused.' : '');
      if (t) { sessionStorage.setItem(TOKEN_KEY, t); continue; }
    }
    if (res.status === 204) return null;
    let data = null;
    const text = await res.text();
    if (text) {
      try { data = JSON.parse(text); } catch { data = { error: text.trim() }; }
    }
    if (!res.ok) {
      throw new APIError(res.status, (data && data.error) || res.status + ' ' + res.statusText, data && data.field);
    }
    return withHeaders ? { data, headers: res.headers } : data;
  }
}

export function entryPath(category, name) {
  return '/v1/entries/' + encodeURIComponent(category) + '/' + encodeURIComponent(name);
}

// retrieve runs a query; the answer is the object `recall retrieve --json` prints.
// now is the browser's clock with its UTC offset, so that a time phrase
// ("last week", "昨天") means the reader's week and day.
// also holds the retrieve options that are off by default (docs/validity.md,
// docs/duplicates.md); each is sent only when on.
export function retrieve({ query, limit, budget, links, explain, also = {} }) {
  const body = { query, expand_links: !!links, explain: !!explain, now: localNow() };
  for (const k of ALSO) if (also[k]) body[k] = true;
  if (limit !== undefined && limit !== '') body.limit = Number(limit);
  if (budget !== undefined && budget !== '') body.budget_tokens = Number(budget);
  return call('POST', '/v1/retrieve', body);
}

// localNow is the current time in RFC 3339 with the browser's offset.
export function localNow(d = new Date()) {
  const pad = (n) => String(Math.floor(Math.abs(n))).padStart(2, '0');
  const off = -d.getTimezoneOffset();
  return `${d.getFullYear()}-${pad(d.getMonth() + 1)}-${pad(d.getDate())}T${pad(d.getHours())}:${pad(d.getMinutes())}:${pad(d.getSeconds())}` +
    `${off >= 0 ? '+' : '-'}${pad(off / 60)}:${pad(off % 60)}`;
}

// categories resolves to [{category, count}], sorted by category.
export function categories() {
  return call('GET', '/v1/categories');
}

// list resolves to {entries: [{category, name, tokens_est, meta}], next_cursor}.
export async function list({ category, limit, cursor }) {
  const q = new URLSearchParams();
  if (category) q.set('category', category);
  if (limit) q.set('limit', String(limit));
  if (cursor) q.set('cursor', cursor);
  const { data, headers } = await call('GET', '/v1/entries?' + q, undefined, true);
  return { entries: data || [], next_cursor: headers.get('X-Next-Cursor') || '' };
}

export function get(category, name) {
  return call('GET', entryPath(category, name));
}

// put writes an entry (an upsert); tags undefined keeps the entry's tags.
export function put(category, name, content, tags) {
  const body = { content };
  if (tags !== undefined) body.tags = tags;
  return call('PUT', entryPath(category, name), body);
}

// edit replaces the one exact occurrence of old by new, atomically; the
// server refuses when old is absent or ambiguous.
export function edit(category, name, oldText, newText) {
  return call('POST', entryPath(category, name) + '/edit', { old_text: oldText, new_text: newText });
}

export function remove(category, name) {
  return call('DELETE', entryPath(category, name));
}

// links resolves to {category, name, links: [{raw, category, name, label, resolved}], backlinks: [{category, name}]}.
export function links(category, name) {
  return call('GET', '/v1/links/' + encodeURIComponent(category) + '/' + encodeURIComponent(name));
}
