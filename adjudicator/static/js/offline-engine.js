// Offline rulings: the builder asks the rules engine on this device when the server cannot be
// reached. The engine is the server's own Python package, run in a Web Worker with Pyodide
// (engine-worker.js); nothing is downloaded until the player accepts the offer, and then the
// files go into their own cache (CACHE), which the service worker serves from.
//
// builder-api.js calls localRequest() after a network failure or a 5xx; it answers in the same
// {ok, status, data | error} shape as the server path, plus `local: true`.

const CHOICE_KEY = 'adjudicator.offline-rulings'; // 'on' | 'off' (declined or turned off)
export const CACHE = 'offline-engine';
const INFO_URL = '/api/v1/offline-engine';
const WORKER_URL = new URL('./engine-worker.js', import.meta.url).pathname;
const ANSWER_TIMEOUT = 60000; // the first answer includes starting Python

let infoPromise = null;
let worker = null;
let nextId = 1;
const waiting = new Map();

/** What the server says about offline rulings: file URLs, bytes, endpoints (or null). */
export function engineInfo() {
  infoPromise ??= fetch(INFO_URL, {headers: {Accept: 'application/json'}})
    .then((r) => (r.ok ? r.json() : null))
    .then((info) => (info && info.available ? info : null))
    .catch(() => null)
    .then((info) => {
      if (!info) infoPromise = null; // ask again next time rather than remember a failure
      return info;
    });
  return infoPromise;
}

export function choice() {
  try {
    return localStorage.getItem(CHOICE_KEY);
  } catch {
    return null;
  }
}

function setChoice(value) {
  try {
    localStorage.setItem(CHOICE_KEY, value);
  } catch { /* private mode: the offer comes back next visit */ }
}

const supported = () => 'caches' in self && 'serviceWorker' in navigator && typeof Worker === 'function';

/** Fill the engine cache with exactly this version's files (Pyodide + bundle), dropping others. */
export async function installEngine(onProgress) {
  const info = await engineInfo();
  if (!info) throw new Error('Offline rulings are not available on this server.');
  const cache = await caches.open(CACHE);
  const wanted = [...info.files, info.bundle];
  for (const request of await cache.keys()) {
    if (!wanted.includes(new URL(request.url).pathname)) await cache.delete(request);
  }
  let done = 0;
  for (const url of wanted) {
    if (!(await cache.match(url))) {
      const response = await fetch(url);
      if (!response.ok) throw new Error(`${url}: HTTP ${response.status}`);
      await cache.put(url, response);
    }
    onProgress?.(++done, wanted.length);
  }
  return info;
}

export async function enable(onProgress) {
  const info = await installEngine(onProgress);
  setChoice('on');
  warm();
  return info;
}

/** Start Python in the worker ahead of the first offline ruling (it takes a few seconds): right
 * after the download, and when the connection drops. Online it is never started otherwise. */
export async function warm() {
  if (worker || choice() !== 'on' || !supported()) return;
  const info = await engineInfo();
  if (info && (await installed(info)) && !worker) startWorker(info);
}

export async function disable() {
  setChoice('off');
  worker?.terminate();
  worker = null;
  await caches.delete(CACHE);
}

async function installed(info) {
  if (!supported()) return false;
  const cache = await caches.open(CACHE);
  for (const url of [...info.files, info.bundle]) {
    if (!(await cache.match(url))) return false;
  }
  return true;
}

function startWorker(info) {
  worker = new Worker(WORKER_URL);
  worker.postMessage({index: info.index_url, bundle: info.bundle, budget: info.work_budget});
  worker.addEventListener('message', (event) => {
    const pending = waiting.get(event.data.id);
    if (!pending) return;
    waiting.delete(event.data.id);
    pending(event.data);
  });
  worker.addEventListener('error', () => {
    for (const [id, pending] of waiting) pending({id, status: 0, error: 'the offline engine did not start'});
    waiting.clear();
    worker = null;
  });
  return worker;
}

/** Ask the local engine: {status, body (JSON text)} or {status: 0, error}. */
export function askEngine(info, name, body) {
  const w = worker || startWorker(info);
  const id = nextId++;
  return new Promise((resolve) => {
    const timer = setTimeout(() => {
      waiting.delete(id);
      resolve({id, status: 0, error: 'the offline engine took too long'});
    }, ANSWER_TIMEOUT);
    waiting.set(id, (reply) => {
      clearTimeout(timer);
      resolve(reply);
    });
    w.postMessage({id, name, body});
  });
}

/** The local engine's answer to a POST to /api/v1/<endpoint>, or null when it cannot answer
 * (not opted in, not downloaded, an endpoint it does not have, or it failed to start). */
export async function localRequest(url, init) {
  if (choice() !== 'on' || !supported() || (init?.method || 'GET') !== 'POST') return null;
  const match = new URL(url, self.location.href).pathname.match(/^\/api\/v1\/([a-z-]+)$/);
  const info = match && (await engineInfo());
  if (!info || !info.endpoints.includes(match[1]) || !(await installed(info))) return null;
  const body = typeof init.body === 'string' ? init.body : JSON.stringify(init.body ?? {});
  const reply = await askEngine(info, match[1], body);
  if (init.signal?.aborted) return {ok: false, aborted: true};
  if (!reply.status) return null;
  const data = JSON.parse(reply.body);
  showNote(true);
  if (reply.status === 200) return {ok: true, status: 200, data, local: true};
  const error = data.error || {};
  return {ok: false, status: reply.status, local: true,
    error: {code: error.code || 'error', message: error.message || 'The offline engine could not rule.',
      field: error.field || null}};
}

/** "Ruled on this device" above the ruling while answers come from the local engine. */
export function showNote(local) {
  // above the one-line ruling, which stays on screen (the full ruling below it may be folded away)
  const bar = document.querySelector('#ruling-box .b-ruling-bar') || document.getElementById('ruling');
  if (!bar) return;
  let note = document.getElementById('ruled-locally');
  if (!note && !local) return;
  if (!note) {
    note = document.createElement('p');
    note.id = 'ruled-locally';
    note.className = 'b-local muted small';
    note.setAttribute('role', 'status');
    note.textContent = 'Ruled on this device: the server cannot be reached, '
      + 'so the rules engine saved on this phone answered.';
    bar.before(note);
  }
  note.hidden = !local;
  // the plain 'rulings need the network' banner is wrong while this device rules
  const banner = document.getElementById('b-offline');
  if (banner && local) banner.hidden = true;
}

/** Keep the builder's "rulings need the network" banner true to the connection (hidden while the
 * engine on this device answers instead); `onBack()` runs when the connection returns. */
export function watchConnection(onBack) {
  const banner = () => { document.getElementById('b-offline').hidden = navigator.onLine || choice() === 'on'; };
  window.addEventListener('online', () => { banner(); onBack(); });
  window.addEventListener('offline', banner);
  banner();
}

// -- the offer in the builder ----------------------------------------------------------------
function button(text, cls, onClick) {
  const b = document.createElement('button');
  b.type = 'button';
  b.className = cls;
  b.textContent = text;
  b.addEventListener('click', onClick);
  return b;
}

const megabytes = (bytes) => (bytes / 1e6).toFixed(1);

async function renderOffer(box) {
  const info = await engineInfo();
  if (!info || !supported()) {
    box.hidden = true;
    return;
  }
  const size = megabytes(info.bytes);
  const text = document.createElement('span');
  box.replaceChildren(text);
  box.hidden = false;
  const state = choice();
  if (state === 'on') {
    text.textContent = `Rulings work offline on this device (${size} MB saved). `;
    box.append(button('Turn off', 'button secondary small', async () => {
      await disable();
      renderOffer(box);
    }));
    return;
  }
  const accept = button(`Make rulings work offline (about ${size} MB)`, 'button small', async () => {
    accept.disabled = true;
    text.textContent = 'Downloading the rules engine… ';
    try {
      await enable((done, total) => { text.textContent = `Downloading the rules engine… ${done}/${total} `; });
      renderOffer(box);
    } catch (err) {
      text.textContent = `The download failed (${err.message}); try again with a connection. `;
      accept.disabled = false;
    }
  });
  if (state === 'off') {
    box.append(accept);
    return;
  }
  text.textContent = 'No signal at the table? ';
  box.append(accept, ' ', button('No thanks', 'button secondary small', () => {
    setChoice('off');
    renderOffer(box);
  }));
}

/** Show the offer (or the on/off state) in #offline-offer, and keep an opted-in cache current:
 * a new engine or content version downloads its bundle and drops the old one. */
export function setupOffer() {
  const box = document.getElementById('offline-offer');
  if (box) renderOffer(box);
  if (choice() !== 'on') return;
  if (navigator.onLine) installEngine().catch(() => {});
  else warm();
  self.addEventListener('offline', () => warm());
}
