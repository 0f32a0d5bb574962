// app.js — the page: routing, rendering and forms. All API calls go through
// api.js. Entry text is untrusted (an agent may have written it): it is only
// ever inserted as text nodes, never as HTML.
import * as api from './api.js';

const $ = (sel) => document.querySelector(sel);

// el builds an element: el('a', {href: '#'}, 'text', child, ...).
function el(tag, attrs, ...kids) {
  const e = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs || {})) {
    if (v === undefined || v === null || v === false) continue;
    if (k === 'class') e.className = v;
    else if (k.startsWith('on')) e.addEventListener(k.slice(2), v);
    else e.setAttribute(k, v === true ? '' : v);
  }
  for (const k of kids.flat()) {
    if (k === undefined || k === null || k === false) continue;
    e.append(k instanceof Node ? k : String(k));
  }
  return e;
}

const SVG = 'http://www.w3.org/2000/svg';
function svg(tag, attrs, ...kids) {
  const e = document.createElementNS(SVG, tag);
  for (const [k, v] of Object.entries(attrs || {})) if (v !== undefined && v !== null) e.setAttribute(k, v);
  for (const k of kids) if (k) e.append(k instanceof Node ? k : String(k));
  return e;
}

const ref = (c, n) => c + ':' + n;
// asWritten is a name, a category or a "category:name" as written: the
// identity of a note whose file name SPEC §1 refuses for new entries
// ("What is it%3F") decoded, as store.UnescapeName decodes it (only the
// %HH escapes store.EscapeName writes: the characters a name may not
// hold, '%', '.', ' ' and a device name's first letter); any other text
// is itself. shown is ref as written: what the page shows of an entry.
const ESCAPED = new Set([...'\\:[]|#^<>"?*%. CPANLcpanl'].map((ch) => ch.charCodeAt(0)).concat([...Array(31).keys()].map((i) => i + 1), [0x7f]));
const asWritten = (s) => s.indexOf('%') < 0 ? s : s.replace(/%([0-9A-F]{2})/g, (m, h) => ESCAPED.has(parseInt(h, 16)) ? String.fromCharCode(parseInt(h, 16)) : m);
const shown = (c, n) => asWritten(c) + ':' + asWritten(n);
// splitRef is ref undone: a category never holds ':'.
const splitRef = (k) => { const i = k.indexOf(':'); return [k.slice(0, i), k.slice(i + 1)]; };
const entryHref = (c, n) => '#/entry?' + new URLSearchParams({ c, n });
const browseHref = (c, cursor) => '#/browse' + (c || cursor ? '?' + new URLSearchParams(Object.fromEntries(Object.entries({ c, cursor }).filter(([, v]) => v))) : '');
const fmt = (x) => (x === undefined || x === null) ? '—' : x.toFixed(3);

// ---- status line ---------------------------------------------------------

function status(msg, kind) {
  const s = $('#status');
  s.replaceChildren(...(Array.isArray(msg) ? msg : [msg || '']));
  s.className = kind || '';
}

function showError(e) {
  status(e instanceof api.APIError ? `${e.message} (HTTP ${e.status})` : String(e.message || e), 'error');
}

// ---- token ---------------------------------------------------------------

api.onToken((why) => new Promise((resolve) => {
  const d = $('#token-dialog'), f = $('#token-form'), input = $('#token');
  $('#token-error').textContent = why || '';
  input.value = '';
  const done = (v) => { f.removeEventListener('submit', submit); d.removeEventListener('cancel', cancel); if (d.open) d.close(); resolve(v); };
  const submit = (ev) => { ev.preventDefault(); done(input.value.trim() || null); };
  const cancel = () => done(null);
  f.addEventListener('submit', submit);
  d.addEventListener('cancel', cancel);
  d.showModal();
  input.focus();
}));

// ---- routing -------------------------------------------------------------

function route() {
  const h = location.hash.slice(1) || '/';
  const [path, qs] = h.split('?');
  return { path, q: new URLSearchParams(qs || '') };
}

const views = ['query', 'browse', 'entry', 'edit'];
function show(view, path) {
  for (const v of views) $('#view-' + v).hidden = v !== view;
  for (const [id, on] of [['#nav-query', view === 'query'], ['#nav-browse', view === 'browse'], ['#nav-new', path === '/new']]) {
    if (on) $(id).setAttribute('aria-current', 'page'); else $(id).removeAttribute('aria-current');
  }
}

let lastView = '';
async function render() {
  const { path, q } = route();
  const view = { '/': 'query', '/browse': 'browse', '/entry': 'entry', '/edit': 'edit', '/new': 'edit' }[path] || 'query';
  const moved = view !== lastView;
  lastView = view;
  show(view, path);
  try {
    if (view === 'query') await renderQuery(q);
    else if (view === 'browse') await renderBrowse(q);
    else if (view === 'entry') await renderEntry(q.get('c'), q.get('n'));
    else await renderEdit(path === '/new' ? null : { c: q.get('c'), n: q.get('n') }, q.get('c'));
  } catch (e) {
    showError(e);
  }
  if (moved && view !== 'query') $('#main').focus({ preventScroll: true });
}

window.addEventListener('hashchange', render);

// ---- query ---------------------------------------------------------------

const engineInfo = () => {
  const emb = document.querySelector('meta[name="recall-embedder"]').content;
  const alpha = document.querySelector('meta[name="recall-alpha"]').content;
  return emb ? `Embedder ${emb}, α = ${alpha || 'its default'} (BM25 weight). Each result says whether the embedding ran.`
    : 'No embedder configured: scores are BM25.';
};

// also maps each "Also show" checkbox (and its key in the page URL) to
// the retrieve option it turns on.
const also = { superseded: 'include_superseded', expired: 'include_expired', duplicates: 'keep_duplicates', whole: 'whole_entries' };

function queryHash() {
  const p = new URLSearchParams({ q: $('#q').value });
  if ($('#limit').value !== '10') p.set('limit', $('#limit').value);
  if ($('#budget').value !== '800') p.set('budget', $('#budget').value);
  if (!$('#links').checked) p.set('links', '0');
  for (const id of Object.keys(also)) if ($('#' + id).checked) p.set(id, '1');
  return '#/?' + p;
}

function submitQuery(ev) {
  if (ev) ev.preventDefault();
  if (!$('#q').value.trim()) { $('#q').focus(); return; }
  const h = queryHash();
  if (location.hash === h) render(); else location.hash = h;
}

let seq = 0;
async function renderQuery(q) {
  $('#engine').textContent = engineInfo();
  const query = q.get('q') || '';
  $('#q').value = query;
  $('#limit').value = q.get('limit') || '10';
  $('#budget').value = q.get('budget') || '800';
  $('#links').checked = q.get('links') !== '0';
  for (const id of Object.keys(also)) $('#' + id).checked = q.get(id) === '1';
  document.title = query ? query + ' — recall' : 'recall';
  const out = $('#result');
  if (!query.trim()) {
    out.replaceChildren(el('p', { class: 'muted' }, 'Type what the agent would ask. The answer shows, in the order they would enter the prompt, each entry with why it is there, and where the token budget cut.'));
    out.dataset.seq = String(++seq);
    return;
  }
  const my = ++seq;
  const t0 = performance.now();
  out.setAttribute('aria-busy', 'true');
  let res;
  try {
    const on = Object.fromEntries(Object.entries(also).map(([id, opt]) => [opt, $('#' + id).checked]));
    res = await api.retrieve({ query, limit: $('#limit').value, budget: $('#budget').value, links: $('#links').checked, explain: true, also: on });
  } catch (e) {
    out.removeAttribute('aria-busy');
    if (my !== seq) return;
    out.replaceChildren();
    out.dataset.seq = String(my);
    if (e.field) {
      const input = { query: '#q', limit: '#limit', budget_tokens: '#budget' }[e.field];
      if (input) $(input).setAttribute('aria-invalid', 'true');
    }
    throw e;
  }
  if (my !== seq) return; // a newer query is on its way
  const t1 = performance.now();
  for (const i of ['#q', '#limit', '#budget']) $(i).removeAttribute('aria-invalid');
  const budget = Number($('#budget').value);
  out.replaceChildren(...resultView(res, budget > 0 ? budget : 0));
  out.removeAttribute('aria-busy');
  const ms = performance.now() - t0;
  out.dataset.seq = String(my);
  out.dataset.ms = ms.toFixed(1);
  out.dataset.fetchMs = (t1 - t0).toFixed(1);
  $('#took').textContent = `answered in ${ms.toFixed(0)} ms`;
  const d = (res.dropped || []).length;
  $('#announce').textContent = `${res.items.length} items, ${res.budget_used} tokens${budget > 0 ? ' of ' + budget : ''}` +
    (d ? `, ${d} dropped by the budget` : '') + (res.embedding_used ? ', embedding used' : '');
  status('');
}

function resultView(res, budget) {
  const items = res.items || [], dropped = res.dropped || [], unresolved = res.unresolved_links || [];
  const droppedTokens = dropped.reduce((s, it) => s + it.tokens_est, 0);
  const summary = el('p', { class: 'summary', id: 'summary' },
    el('strong', {}, `${items.length} item${items.length === 1 ? '' : 's'}`), ' · ',
    `${res.budget_used}${budget ? ' / ' + budget : ''} tokens`, ' · ',
    res.embedding_used ? el('span', { class: 'emb on' }, 'embedding used (scores are fused)') : el('span', { class: 'emb' }, 'embedding not used (scores are BM25)'),
    dropped.length ? ` · ${dropped.length} dropped by the budget` : '',
    ` · ${unresolved.length} unresolved link${unresolved.length === 1 ? '' : 's'}`, ' · ',
    el('span', { id: 'took', class: 'muted' }));
  const out = [summary];
  if (res.time_range) out.push(timeRangeView(res.time_range));
  if (items.length || dropped.length) out.push(budgetBar(items, dropped, res.budget_used, budget));
  if (!items.length) {
    out.push(el('p', { class: 'muted' }, 'No entry matches. (With an embedder, unrelated entries may still rank; here nothing scored above 0.)'));
  }
  const list = el('ol', { class: 'items', id: 'items' });
  items.forEach((it, i) => list.append(itemView(it, i + 1, res.embedding_used, false)));
  out.push(list);
  if (dropped.length) {
    const next = dropped[0];
    out.push(el('p', { class: 'cut', id: 'cut', role: 'note' },
      el('strong', {}, 'Budget cut here. '),
      `Item ${items.length + 1} (${next.tokens_est} tokens) would bring the total to ${res.budget_used + next.tokens_est}, over the budget of ${budget}; it and the ${dropped.length - 1} after it are not sent (${droppedTokens} tokens).`));
    const dl = el('ol', { class: 'items dropped', id: 'dropped', start: items.length + 1, 'aria-label': 'Dropped by the budget' });
    dropped.forEach((it, i) => dl.append(itemView(it, items.length + i + 1, res.embedding_used, true)));
    out.push(dl);
  }
  if (unresolved.length) {
    out.push(el('section', { class: 'unresolved-list', id: 'unresolved', 'aria-labelledby': 'unres-h' },
      el('h3', { id: 'unres-h' }, 'Unresolved links'),
      el('p', { class: 'muted' }, 'Hits link to these, but no entry has that category and name, so nothing was injected for them.'),
      el('ul', {}, unresolved.map((l) => el('li', {}, el('code', {}, l))))));
  }
  return out;
}

// timeRangeView says what range of dates the query was understood as, and
// from which of its words.
function timeRangeView(tr) {
  const span = tr.from && tr.to ? `from ${tr.from} up to ${tr.to}` : tr.from ? `from ${tr.from} on` : tr.to ? `before ${tr.to}` : 'any time';
  return el('p', { class: 'time-range', id: 'time-range', role: 'note' },
    el('strong', {}, 'Time: '), tr.text ? [el('q', {}, tr.text), ' = '] : '', span,
    el('span', { class: 'muted' }, ' (only entries dated in this range are hits; the phrase is not searched as words)'));
}

function budgetBar(items, dropped, used, budget) {
  const total = used + dropped.reduce((s, it) => s + it.tokens_est, 0);
  const scale = Math.max(budget || 0, total, 1);
  const pct = (x) => (100 * x / scale).toFixed(3) + '%';
  const bar = el('div', { class: 'bar', 'aria-hidden': 'true' });
  let n = 0;
  for (const [list, cls] of [[items, ''], [dropped, ' dropped']]) {
    for (const it of list) {
      n++;
      bar.append(el('span', { class: 'seg ' + it.source + cls, style: null, title: `${n}. ${it.source} ${shown(it.category, it.name)}: ${it.tokens_est} tokens${cls ? ' (dropped)' : ''}`, 'data-w': pct(it.tokens_est) }));
    }
  }
  if (budget) bar.append(el('span', { class: 'limit', 'data-left': pct(budget), title: `budget ${budget} tokens` }));
  // CSP forbids inline style attributes; CSSOM assignments are allowed.
  for (const s of bar.querySelectorAll('[data-w]')) s.style.width = s.dataset.w;
  for (const s of bar.querySelectorAll('[data-left]')) s.style.left = s.dataset.left;
  const label = budget
    ? `${used} of ${budget} tokens used (${Math.floor(100 * used / budget)}%)` + (dropped.length ? `; ${total - used} more tokens cut` : '')
    : `${used} tokens, no budget`;
  return el('figure', { class: 'budget', id: 'budget-bar' },
    bar,
    el('figcaption', {}, label, el('span', { class: 'legend' },
      el('span', { class: 'key hit' }), 'hit ', el('span', { class: 'key link' }), 'link ',
      dropped.length ? [el('span', { class: 'key dropped' }), 'dropped '] : '',
      budget ? [el('span', { class: 'key limit' }), 'budget'] : '')));
}

function itemView(it, n, fused, dropped) {
  const head = el('div', { class: 'item-head' },
    el('span', { class: 'num' }, n + '.'),
    el('span', { class: 'badge ' + it.source }, it.source),
    el('a', { class: 'ident', href: entryHref(it.category, it.name) }, highlight(shown(it.category, it.name), it.matched_terms)),
    it.section ? el('span', { class: 'item-section', title: 'one section of this entry (its heading path): open the entry for the whole of it' }, '§ ' + it.section) : '',
    it.via ? el('span', { class: 'via' }, 'via ', el('a', { href: entryHref(it.via.category, it.via.name) }, shown(it.via.category, it.via.name))) : '',
    it.outside_range ? el('span', { class: 'badge outside', title: 'this linked entry is dated outside the time range' }, 'outside range') : '',
    it.superseded_by ? el('span', { class: 'badge superseded', title: 'another entry replaces this one: retrieve leaves it out of hits' }, 'superseded by ',
      el('a', { href: entryHref(...splitRef(it.superseded_by)) }, asWritten(it.superseded_by))) : '',
    it.expired ? el('span', { class: 'badge expired', title: 'its expiry has passed: retrieve leaves it out of hits' }, 'expired') : '',
    it.supersedes && it.supersedes.length ? el('span', { class: 'supersedes' }, 'supersedes ',
      it.supersedes.flatMap((k, i) => [i ? ', ' : '', el('a', { href: entryHref(...splitRef(k)) }, asWritten(k))])) : '',
    it.collapsed && it.collapsed.length ? el('span', { class: 'collapsed', title: 'duplicates of this hit, left out of the answer (keep_duplicates keeps them)' }, 'collapsed ',
      it.collapsed.flatMap((k, i) => [i ? ', ' : '', el('a', { href: entryHref(...splitRef(k)) }, asWritten(k))])) : '',
    dropped ? el('span', { class: 'badge dropped' }, 'dropped') : '');
  const facts = el('dl', { class: 'facts' });
  const fact = (k, v, title) => facts.append(el('div', { title }, el('dt', {}, k), el('dd', {}, v)));
  if (it.source === 'hit' && it.bm25_score === undefined && !fused) {
    // A timeline's hit: found by its date, not scored.
  } else if (it.source === 'hit') {
    fact(fused ? 'fused' : 'score', fmt(it.score), String(it.score));
    fact('bm25', fmt(it.bm25_score), it.bm25_score === undefined ? 'no BM25 score' : String(it.bm25_score));
    if (fused) fact('cos', fmt(it.cos_score), it.cos_score === undefined ? 'this entry has no vector yet' : String(it.cos_score));
  }
  if (it.date) fact('date', it.date, 'when it happened (its date, else when it was written)');
  fact('tokens', String(it.tokens_est));
  if (it.matched_terms && it.matched_terms.length) {
    facts.append(el('div', { class: 'terms' }, el('dt', {}, 'matched'), el('dd', {}, it.matched_terms.map((t) => el('code', { class: 'term' }, t)))));
  }
  return el('li', { class: 'item ' + it.source + (dropped ? ' dropped' : ''), 'data-ident': ref(it.category, it.name), 'data-source': it.source },
    head, facts, el('p', { class: 'content' }, highlight(it.content, it.matched_terms)));
}

// ---- matched-term highlighting -------------------------------------------
// The index matched normalised terms (NFKC, lower case; CJK as bigrams).
// Map the text to that form code point by code point, find each term, and
// mark the original characters. Word terms must stand alone; CJK terms of
// two or more characters may sit anywhere inside a CJK run.

const CJK = /[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}\p{Script=Hangul}\u30fc]/u;
const WORD = /[\p{L}\p{M}\p{N}]/u;
const isWordChar = (c) => !!c && WORD.test(c) && !CJK.test(c);

function highlight(text, terms) {
  if (!terms || !terms.length || !text) return [text];
  let norm = '';
  const map = [];
  for (let i = 0; i < text.length;) {
    const ch = String.fromCodePoint(text.codePointAt(i));
    const n = ch.normalize('NFKC').toLowerCase();
    for (let k = 0; k < n.length; k++) map.push(i);
    norm += n;
    i += ch.length;
  }
  map.push(text.length);
  const ranges = [];
  for (const t of terms) {
    if (!t) continue;
    const cjk = CJK.test(t[0]);
    for (let i = norm.indexOf(t); i >= 0; i = norm.indexOf(t, i + 1)) {
      const before = norm[i - 1], after = norm[i + t.length];
      if (!cjk && (isWordChar(before) || isWordChar(after))) continue;
      if (cjk && [...t].length === 1 && ((before && CJK.test(before)) || (after && CJK.test(after)))) continue;
      ranges.push([map[i], map[i + t.length]]);
    }
  }
  if (!ranges.length) return [text];
  ranges.sort((a, b) => a[0] - b[0]);
  const merged = [ranges[0].slice()];
  for (const [s, e] of ranges.slice(1)) {
    const last = merged[merged.length - 1];
    if (s <= last[1]) last[1] = Math.max(last[1], e); else merged.push([s, e]);
  }
  const out = [];
  let at = 0;
  for (const [s, e] of merged) {
    if (s > at) out.push(text.slice(at, s));
    out.push(el('mark', {}, text.slice(s, e)));
    at = e;
  }
  if (at < text.length) out.push(text.slice(at));
  return out;
}

// ---- browse --------------------------------------------------------------

const PAGE = 50;
const cursorStack = new Map(); // category → cursors of the pages before

async function renderBrowse(q) {
  const cat = q.get('c') || '';
  const cursor = q.get('cursor') || '';
  document.title = (asWritten(cat) || 'All entries') + ' — recall';
  const [cats, page] = await Promise.all([api.categories(), api.list({ category: cat, limit: PAGE, cursor })]);
  $('#tree').replaceChildren(treeView(cats, cat));
  const stack = cursorStack.get(cat) || [];
  cursorStack.set(cat, stack);
  const at = stack.indexOf(cursor);
  if (!cursor) stack.length = 0; else if (at < 0) stack.push(cursor); else stack.length = at + 1;
  const prev = stack.length >= 2 ? stack[stack.length - 2] : (cursor ? '' : null);
  const count = cats.find((c) => c.category === cat);
  const rows = page.entries.map((e) => el('li', {},
    el('a', { href: entryHref(e.category, e.name) }, e.category === cat ? asWritten(e.name) : shown(e.category, e.name)),
    el('span', { class: 'muted' }, ` ${e.tokens_est} tokens`),
    e.meta && e.meta.tags ? el('span', { class: 'tags' }, e.meta.tags.map((t) => el('span', { class: 'tag' }, t))) : ''));
  $('#entries').replaceChildren(
    el('div', { class: 'entries-head' },
      el('h3', {}, asWritten(cat) || 'All entries', count ? el('span', { class: 'muted' }, ` (${count.count})`) : ''),
      el('a', { class: 'button', href: '#/new?' + new URLSearchParams({ c: cat }) }, 'New entry here')),
    rows.length ? el('ul', { class: 'entry-list', id: 'entry-list' }, rows) : el('p', { class: 'muted' }, cat ? 'No entries directly in this category.' : 'The memory is empty.'),
    el('nav', { class: 'pager', 'aria-label': 'Pages' },
      prev !== null ? el('a', { href: browseHref(cat, prev), rel: 'prev' }, '← Previous') : '',
      page.next_cursor ? el('a', { href: browseHref(cat, page.next_cursor), rel: 'next' }, 'Next →') : ''));
}

// treeView nests "a/b/c" categories; a parent shows its own count and the
// total beneath it.
function treeView(cats, current) {
  const root = { children: new Map(), count: 0, total: 0 };
  for (const { category, count } of cats) {
    let node = root;
    root.total += count;
    const parts = category.split('/');
    parts.forEach((p, i) => {
      if (!node.children.has(p)) node.children.set(p, { name: p, path: parts.slice(0, i + 1).join('/'), children: new Map(), count: 0, total: 0 });
      node = node.children.get(p);
      node.total += count;
    });
    node.count += count;
  }
  const ul = (node) => el('ul', {}, [...node.children.values()].map((c) => el('li', {},
    el('a', { href: browseHref(c.path), 'aria-current': c.path === current ? 'page' : null, title: asWritten(c.path) },
      asWritten(c.name), el('span', { class: 'count' }, c.children.size ? `${c.count} · ${c.total}` : String(c.count))),
    c.children.size ? ul(c) : '')));
  return el('div', {},
    el('a', { href: browseHref(''), 'aria-current': current ? null : 'page' }, 'All', el('span', { class: 'count' }, String(root.total))),
    ul(root));
}

// ---- entry ---------------------------------------------------------------

async function renderEntry(c, n) {
  // Clear what an earlier visit left, so nothing stale can be clicked
  // (Delete of another entry!) while this one loads.
  $('#entry-title').replaceChildren();
  $('#entry').replaceChildren();
  const [e, l] = await Promise.all([api.get(c, n), api.links(c, n).catch((err) => ({ error: err }))]);
  document.title = shown(c, n) + ' — recall';
  $('#entry-title').replaceChildren(el('a', { href: browseHref(c), class: 'crumb' }, asWritten(c)), ' / ', el('span', {}, asWritten(n)));
  const meta = e.meta || {};
  const linksOK = !l.error;
  const byRaw = new Map(linksOK ? l.links.map((x) => [x.raw, x]) : []);
  const confirm = el('div', { class: 'confirm', id: 'confirm-delete', hidden: true, role: 'group', 'aria-label': 'Confirm delete',
    onkeydown: (ev) => { if (ev.key === 'Escape') { confirm.hidden = true; $('#delete').focus(); } } },
    el('span', {}, `Delete ${shown(c, n)}? This cannot be undone.`),
    el('button', { type: 'button', class: 'danger', id: 'delete-yes', onclick: async () => {
      try {
        await api.remove(c, n);
        status(`Deleted ${shown(c, n)}.`);
        location.hash = browseHref(c);
      } catch (err) { showError(err); }
    } }, 'Delete'),
    el('button', { type: 'button', onclick: () => { confirm.hidden = true; $('#delete').focus(); } }, 'Cancel'));
  const parts = [
    el('div', { class: 'actions' },
      el('a', { class: 'button', id: 'edit', href: '#/edit?' + new URLSearchParams({ c, n }) }, 'Edit'),
      el('button', { type: 'button', id: 'delete', class: 'danger', onclick: () => { confirm.hidden = false; $('#delete-yes').focus(); } }, 'Delete…'),
      el('a', { class: 'button', href: '#/?' + new URLSearchParams({ q: n }) }, 'Query its name')),
    confirm,
    el('dl', { class: 'meta' },
      meta.tags && meta.tags.length ? [el('dt', {}, 'tags'), el('dd', {}, meta.tags.map((t) => el('span', { class: 'tag' }, t)))] : '',
      meta.date ? [el('dt', {}, 'date'), el('dd', { id: 'entry-date' }, meta.date)] : '',
      meta.created ? [el('dt', {}, 'created'), el('dd', {}, meta.created)] : '',
      meta.updated ? [el('dt', {}, 'updated'), el('dd', {}, meta.updated)] : '',
      meta.expires ? [el('dt', {}, 'expires'), el('dd', { id: 'entry-expires' }, meta.expires)] : ''),
    el('div', { class: 'content entry-content', id: 'entry-content' }, linkify(e.content, linksOK ? l.links : [], byRaw)),
  ];
  if (!linksOK) {
    parts.push(el('p', { class: 'error' }, 'Links and backlinks are not available: ' + l.error.message));
  } else {
    const out = l.links, back = l.backlinks;
    parts.push(el('div', { class: 'linkcols' },
      el('section', { 'aria-labelledby': 'out-h' }, el('h3', { id: 'out-h' }, `Links (${out.length})`),
        out.length ? el('ul', { id: 'out-links' }, out.map((x) => el('li', {}, x.resolved
          ? el('a', { href: entryHref(x.category, x.name) }, shown(x.category, x.name))
          : el('span', { class: 'unresolved' }, shown(x.category, x.name), ' — unresolved')))) : el('p', { class: 'muted' }, 'None.')),
      el('section', { 'aria-labelledby': 'back-h' }, el('h3', { id: 'back-h' }, `Backlinks (${back.length})`),
        back.length ? el('ul', { id: 'backlinks' }, back.map((b) => el('li', {}, el('a', { href: entryHref(b.category, b.name) }, shown(b.category, b.name))))) : el('p', { class: 'muted' }, 'None.'))));
    parts.push(el('section', { 'aria-labelledby': 'graph-h', class: 'graph' }, el('h3', { id: 'graph-h' }, 'Neighbourhood'), graphView(c, n, out, back)));
    const sup = l.supersedes || [], by = l.superseded_by || [];
    if (sup.length || by.length) {
      const list = (id, xs) => el('ul', { id }, xs.map((b) => el('li', {}, el('a', { href: entryHref(b.category, b.name) }, shown(b.category, b.name)))));
      if (by.length) {
        parts.splice(1, 0, el('p', { class: 'notice superseded', id: 'superseded-notice' },
          'Superseded: retrieve leaves this entry out of its hits (it stays stored).'));
      }
      parts.push(el('div', { class: 'linkcols', id: 'validity' },
        el('section', { 'aria-labelledby': 'sup-h' }, el('h3', { id: 'sup-h' }, `Supersedes (${sup.length})`),
          sup.length ? list('supersedes', sup) : el('p', { class: 'muted' }, 'None.')),
        el('section', { 'aria-labelledby': 'supby-h' }, el('h3', { id: 'supby-h' }, `Superseded by (${by.length})`),
          by.length ? list('superseded-by', by) : el('p', { class: 'muted' }, 'None.'))));
    }
  }
  $('#entry').replaceChildren(...parts);
}

// linkify renders content with each link as written: resolved links
// navigate, unresolved ones are marked.
function linkify(text, links, byRaw) {
  const out = [];
  let at = 0;
  // Links come in order of appearance, each once; find every occurrence.
  const raws = [...byRaw.keys()];
  while (raws.length) {
    let best = -1, raw = '';
    for (const r of raws) {
      const i = text.indexOf(r, at);
      if (i >= 0 && (best < 0 || i < best)) { best = i; raw = r; }
    }
    if (best < 0) break;
    if (best > at) out.push(text.slice(at, best));
    const x = byRaw.get(raw);
    out.push(x.resolved
      ? el('a', { class: 'wikilink', href: entryHref(x.category, x.name), title: shown(x.category, x.name) }, raw)
      : el('span', { class: 'wikilink unresolved', title: `unresolved: no entry ${shown(x.category, x.name)}` }, raw));
    at = best + raw.length;
  }
  out.push(text.slice(at));
  return out;
}

// graphView draws the one-hop neighbourhood: backlinks on the left, links
// on the right, the entry in the middle; an entry both linked and linking
// sits on the right with arrows both ways.
function graphView(c, n, out, back) {
  const me = ref(c, n);
  const right = [], seen = new Map();
  for (const x of out) {
    const k = ref(x.category, x.name);
    if (k === me || seen.has(k)) continue;
    const node = { k, c: x.category, n: x.name, resolved: x.resolved, out: true, in: false };
    seen.set(k, node); right.push(node);
  }
  const left = [];
  for (const b of back) {
    const k = ref(b.category, b.name);
    if (seen.has(k)) { seen.get(k).in = true; continue; }
    const node = { k, c: b.category, n: b.name, resolved: true, out: false, in: true };
    seen.set(k, node); left.push(node);
  }
  const W = Math.max(300, Math.min(($('#entry').clientWidth || 640), 760));
  const rows = Math.max(left.length, right.length, 1);
  const H = Math.max(120, rows * 30 + 44);
  const cx = W / 2, cy = H / 2;
  const lx = W * 0.28, rx = W * 0.72;
  const maxChars = Math.max(4, Math.floor((W * 0.28 - 16) / 9));
  const clip = (s) => [...s].length > maxChars ? [...s].slice(0, maxChars - 1).join('') + '…' : s;
  const g = svg('svg', { width: W, height: H, viewBox: `0 0 ${W} ${H}`, role: 'group', 'aria-label': `${shown(c, n)}: ${out.length} links, ${back.length} backlinks`, id: 'graph' });
  g.append(svg('defs', {},
    svg('marker', { id: 'arrow', viewBox: '0 0 10 10', refX: 9, refY: 5, markerWidth: 7, markerHeight: 7, orient: 'auto-start-reverse' },
      svg('path', { d: 'M0,0 L10,5 L0,10 z', class: 'arrowhead' }))));
  const place = (list, x) => list.forEach((node, i) => { node.x = x; node.y = (H + 14 - list.length * 30) / 2 + 15 + i * 30; });
  place(left, lx); place(right, rx);
  for (const node of [...left, ...right]) {
    const toRight = node.x > cx;
    const [x1, y1, x2, y2] = toRight ? [cx + 8, cy, node.x - 8, node.y] : [node.x + 8, node.y, cx - 8, cy];
    g.append(svg('line', { x1, y1, x2, y2, class: 'edge' + (node.resolved ? '' : ' unresolved'),
      'marker-end': 'url(#arrow)', 'marker-start': node.in && node.out ? 'url(#arrow)' : null }));
  }
  for (const node of [...left, ...right]) {
    const toRight = node.x > cx;
    const label = svg('text', { x: toRight ? node.x + 10 : node.x - 10, y: node.y + 4, 'text-anchor': toRight ? 'start' : 'end' }, clip(asWritten(node.n)));
    const title = svg('title', {}, asWritten(node.k) + (node.resolved ? '' : ' (unresolved)'));
    const dot = svg('circle', { cx: node.x, cy: node.y, r: 6, class: 'node' + (node.resolved ? '' : ' unresolved') });
    if (node.resolved) {
      const a = svg('a', { href: entryHref(node.c, node.n), class: 'gnode' }, title, dot, label);
      g.append(a);
    } else {
      g.append(svg('g', { class: 'gnode' }, title, dot, label));
    }
  }
  if (left.length) g.append(svg('text', { x: lx, y: 14, 'text-anchor': 'middle', class: 'col-label' }, 'links here'));
  if (right.length) g.append(svg('text', { x: rx, y: 14, 'text-anchor': 'middle', class: 'col-label' }, 'links to'));
  g.append(svg('circle', { cx, cy, r: 8, class: 'node self' }));
  g.append(svg('text', { x: cx, y: cy - 14, 'text-anchor': 'middle', class: 'self-label' }, clip(asWritten(n))));
  if (!left.length && !right.length) g.append(svg('text', { x: cx, y: cy + 26, 'text-anchor': 'middle', class: 'muted' }, 'no links either way'));
  return g;
}

// ---- edit ----------------------------------------------------------------

let editing = null; // {c, n, original} while editing an existing entry

async function renderEdit(which, category) {
  const f = $('#edit-form');
  for (const i of f.querySelectorAll('[aria-invalid]')) i.removeAttribute('aria-invalid');
  $('#edit-error').textContent = '';
  if (which) {
    const e = await api.get(which.c, which.n);
    editing = { c: e.category, n: e.name, original: e.content };
    $('#edit-title').textContent = `Edit ${shown(e.category, e.name)}`;
    $('#e-category').value = e.category; $('#e-category').readOnly = true;
    $('#e-name').value = e.name; $('#e-name').readOnly = true;
    $('#e-content').value = e.content;
    $('#e-tags-field').hidden = true;
    $('#e-kept').hidden = false;
    $('#edit-cancel').href = entryHref(e.category, e.name);
    document.title = 'Edit ' + shown(e.category, e.name) + ' — recall';
    $('#e-content').focus();
  } else {
    editing = null;
    $('#edit-title').textContent = 'New entry';
    $('#e-category').value = category || ''; $('#e-category').readOnly = false;
    $('#e-name').value = ''; $('#e-name').readOnly = false;
    $('#e-content').value = '';
    $('#e-tags').value = '';
    $('#e-tags-field').hidden = false;
    $('#e-kept').hidden = true;
    $('#edit-cancel').href = browseHref(category || '');
    document.title = 'New entry — recall';
    (category ? $('#e-name') : $('#e-category')).focus();
  }
}

const fieldInput = { category: '#e-category', name: '#e-name', content: '#e-content', old: '#e-content', new: '#e-content', tags: '#e-tags' };

async function save(ev) {
  ev.preventDefault();
  const f = $('#edit-form');
  for (const i of f.querySelectorAll('[aria-invalid]')) i.removeAttribute('aria-invalid');
  $('#edit-error').textContent = '';
  const c = $('#e-category').value, n = $('#e-name').value, content = $('#e-content').value;
  $('#save').disabled = true;
  try {
    if (editing) {
      if (content === editing.original) { status('No change: nothing written.'); location.hash = entryHref(c, n); return; }
      if (editing.original === '') await api.put(c, n, content);
      else await api.edit(c, n, editing.original, content);
      status([`Saved ${shown(c, n)}. `, el('a', { href: '#/?' + new URLSearchParams({ q: n }) }, 'Retrieve it')]);
    } else {
      // PUT is an upsert: refuse rather than silently replace an entry.
      const exists = await api.get(c, n).then(() => true, (e) => {
        if (e instanceof api.APIError && e.status === 404) return false;
        throw e;
      });
      if (exists) {
        throw new api.APIError(409, `${ref(c, n)} already exists; open it and edit it instead`, 'name');
      }
      const tagText = $('#e-tags').value.trim();
      const tags = tagText ? tagText.split(',').map((t) => t.trim()).filter(Boolean) : undefined;
      await api.put(c, n, content, tags);
      status([`Added ${shown(c, n)}. `, el('a', { href: '#/?' + new URLSearchParams({ q: n }) }, 'Retrieve it')]);
    }
    location.hash = entryHref(c, n);
  } catch (e) {
    const input = fieldInput[e.field];
    if (input) { $(input).setAttribute('aria-invalid', 'true'); $(input).focus(); }
    $('#edit-error').textContent = e instanceof api.APIError ? e.message : String(e.message || e);
  } finally {
    $('#save').disabled = false;
  }
}

// ---- start ---------------------------------------------------------------

$('#query-form').addEventListener('submit', submitQuery);
for (const id of ['#links', '#limit', '#budget', ...Object.keys(also).map((k) => '#' + k)]) {
  $(id).addEventListener('change', () => { if ($('#q').value.trim()) submitQuery(); });
}
$('#edit-form').addEventListener('submit', save);
// "/" jumps to the query box from anywhere but a text field.
document.addEventListener('keydown', (ev) => {
  if (ev.key !== '/' || ev.ctrlKey || ev.metaKey || ev.altKey) return;
  const t = ev.target;
  if (t instanceof HTMLInputElement || t instanceof HTMLTextAreaElement || (t && t.isContentEditable)) return;
  ev.preventDefault();
  const focus = () => { $('#q').focus(); $('#q').select(); };
  if (route().path === '/') focus();
  else {
    window.addEventListener('hashchange', focus, { once: true }); // after render shows the view
    location.hash = '#/';
  }
});
document.body.dataset.app = 'ready';
render();

// For the page's tests, which check asWritten against store.UnescapeName.
export { asWritten };
