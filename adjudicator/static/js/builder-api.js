// JSON API calls. Every outcome comes back as {ok, status, data} or {ok: false, status, error}
// with a message a player can read, so the page never breaks on a 4xx, a 5xx or no network.
// When the server cannot be reached (or fails) and the player opted in to offline rulings, the
// engine on this device answers instead (offline-engine.js), in the same shape plus `local`.
import {localRequest, showNote} from './offline-engine.js';

export async function postJSON(url, body, signal) {
  return request(url, {
    method: 'POST', signal,
    headers: {'Content-Type': 'application/json', Accept: 'application/json'},
    body: typeof body === 'string' ? body : JSON.stringify(body),
  });
}

/** The latest of a series of requests to one endpoint, for a panel that follows the situation: a
 * body like the last one asks nothing, a new one aborts the request still on its way (its answer
 * is never shown), and the request leaves once the current change is made (a microtask, no timer:
 * changes made in one task ask once, and the answer follows the tap as fast as the engine gives it). */
export class LatestRequest {
  constructor(url) {
    this.url = url;
    this.key = null;
    this.controller = null;
  }

  /** Forget the last body and drop the answer on its way, if any. */
  clear() {
    this.key = null;
    this.controller?.abort();
    this.controller = null;
  }

  /** Ask for `body` unless it was the last asked; `onAnswer` gets the answer to the latest only.
   * Returns whether a request was made. */
  ask(body, onAnswer) {
    const key = JSON.stringify(body);
    if (key === this.key) return false;
    this.key = key;
    this.controller?.abort();
    const controller = new AbortController();
    this.controller = controller;
    queueMicrotask(async () => {
      if (controller.signal.aborted) return;
      const answer = await postJSON(this.url, body, controller.signal);
      if (!controller.signal.aborted && !answer.aborted) onAnswer(answer);
    });
    return true;
  }
}

export async function getJSON(url, signal) {
  return request(url, {headers: {Accept: 'application/json'}, signal});
}

async function request(url, init) {
  let response;
  try {
    response = await fetch(url, init);
  } catch (err) {
    if (err.name === 'AbortError') return {ok: false, aborted: true};
    const local = await localRequest(url, init).catch(() => null);
    if (local) return local;
    return {ok: false, status: 0,
      error: {code: 'offline', message: 'Could not reach the server. Check the connection and try again.'}};
  }
  let data;
  try {
    data = await response.json();
  } catch {
    data = null;
  }
  if (response.status >= 500) {
    const local = await localRequest(url, init).catch(() => null);
    if (local) return local;
  } else {
    showNote(false);
  }
  if (response.ok && data) return {ok: true, status: response.status, data};
  const error = data?.error || {};
  if (response.status === 404 && !error.field) {
    return {ok: false, status: 404,
      error: {code: 'not_found', message: error.message || 'This service is not available on the server yet.'}};
  }
  if (response.status >= 500) {
    return {ok: false, status: response.status,
      error: {code: error.code || 'server_error',
        message: 'The server hit a bug working this out; it has been logged. The rest of the page still works.'}};
  }
  return {
    ok: false, status: response.status,
    error: {code: error.code || 'error', message: error.message || `The server answered ${response.status}.`,
      field: error.field || null},
  };
}
