// api.js — every request the page makes to recall's JSON API, and nothing
// else. Paths, bodies and response shapes live here only; the rest of the
// page calls these functions.
//
// Endpoints (SPEC §9; the server's --help lists them):
//   POST   /v1/retrieve                          {query, limit, budget_tokens, expand_links, explain}
//   GET    /v1/categories                        → {categories: [{category, count}]}
//   GET    /v1/entries?category=&limit=&cursor=  → {entries: [...], next_cursor}
//   GET    /v1/entries/{category}/{name}         → {category, name, content, meta}
//   PUT    /v1/entries/{category}/{name}         {content, tags?} → 201 added / 200 updated
//   POST   /v1/entries/{category}/{name}/edit    {old, new} → the change
//   DELETE /v1/entries/{category}/{name}         → 204
//   GET    /v1/links/{category}/{name}           → {links: [...], backlinks: [...]} (package web)
//
// A category with "/" is one path segment, percent-encoded (projects%2Fharbor).
// Errors are {error, field?} with a 4xx/5xx status; they are thrown as APIError.
//
// FALLBACK marks code for servers that predate categories, pagination and
// edit; it can go once every server has them.

const TOKEN_KEY = 'recall-token';

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

async function call(method, path, body) {
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
    return data;
  }
}

export function entryPath(category, name) {
  return '/v1/entries/' + encodeURIComponent(category) + '/' + encodeURIComponent(name);
}

const isMissingEndpoint = (e) => e instanceof APIError && (e.status === 404 || e.status === 405) && /no such endpoint|not allowed/.test(e.message);

// retrieve runs a query; the answer is the object `recall retrieve --json` prints.
export function retrieve({ query, limit, budget, links, explain }) {
  const body = { query, expand_links: !!links, explain: !!explain };
  if (limit !== undefined && limit !== '') body.limit = Number(limit);
  if (budget !== undefined && budget !== '') body.budget_tokens = Number(budget);
  return call('POST', '/v1/retrieve', body);
}

// categories resolves to [{category, count}], sorted by category.
export async function categories() {
  try {
    const r = await call('GET', '/v1/categories');
    return r.categories;
  } catch (e) {
    if (!isMissingEndpoint(e)) throw e;
    // FALLBACK: count the full list.
    const all = await call('GET', '/v1/entries');
    const counts = new Map();
    for (const it of all) counts.set(it.category, (counts.get(it.category) || 0) + 1);
    return [...counts].sort((a, b) => a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : 0).map(([category, count]) => ({ category, count }));
  }
}

// list resolves to {entries: [{category, name, tokens_est, meta}], next_cursor}.
export async function list({ category, limit, cursor }) {
  const q = new URLSearchParams();
  if (category) q.set('category', category);
  if (limit) q.set('limit', String(limit));
  if (cursor) q.set('cursor', cursor);
  try {
    const r = await call('GET', '/v1/entries?' + q);
    if (Array.isArray(r)) return { entries: r, next_cursor: '' };
    return { entries: r.entries || [], next_cursor: r.next_cursor || '' };
  } catch (e) {
    if (!(e instanceof APIError && e.status === 400 && (e.field === 'limit' || e.field === 'cursor'))) throw e;
    // FALLBACK: the server lists everything; page here. The cursor is an offset.
    const all = await call('GET', '/v1/entries' + (category ? '?category=' + encodeURIComponent(category) : ''));
    const from = Number(cursor || 0), to = from + Number(limit || all.length);
    return { entries: all.slice(from, to), next_cursor: to < all.length ? String(to) : '' };
  }
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
export async function edit(category, name, oldText, newText) {
  try {
    return await call('POST', entryPath(category, name) + '/edit', { old: oldText, new: newText });
  } catch (e) {
    if (!isMissingEndpoint(e)) throw e;
    // FALLBACK: read, check, write (not atomic against other writers).
    const cur = await get(category, name);
    const i = cur.content.indexOf(oldText);
    if (i < 0 || cur.content.indexOf(oldText, i + 1) >= 0) {
      throw new APIError(409, 'the entry changed since it was opened; reload it and edit again', 'old');
    }
    return put(category, name, cur.content.slice(0, i) + newText + cur.content.slice(i + oldText.length));
  }
}

export function remove(category, name) {
  return call('DELETE', entryPath(category, name));
}

// links resolves to {category, name, links: [{raw, category, name, label, resolved}], backlinks: [{category, name}]}.
export function links(category, name) {
  return call('GET', '/v1/links/' + encodeURIComponent(category) + '/' + encodeURIComponent(name));
}
