// The rules engine on this device: a Web Worker running adjudicator/engine/ in Pyodide. A classic
// worker script, since Pyodide is loaded with importScripts().
//
// Started by offline-engine.js, whose first message is {index: <Pyodide folder>, bundle: <engine
// zip URL>, budget: <the server's work budget per request>} (not URL parameters: the service
// worker may answer with the precached script, whose URL then becomes this worker's location).
// It loads Pyodide from our own static files (no CDN; the service worker serves them from the
// cache the player filled by opting in), unpacks the engine bundle (the engine package + the
// compiled rulebook) and answers messages {id, name, body} — name is the API endpoint ("battle"),
// body the request JSON text — with {id, status, body}, body being the JSON text the server would
// send. The Python side is adjudicator.engine.api.answer, the function the Flask views call.
/* global loadPyodide */

const PYTHON_SETUP = `
import json, sys
sys.path.insert(0, "/home/pyodide/engine")
from adjudicator.engine.api import answer
from adjudicator.engine.compiled import rulebook_from_json
with open("/home/pyodide/engine/rulebook.json", encoding="utf-8") as f:
    RULEBOOK = rulebook_from_json(f.read())

def rule(name, body, work_budget=None):
    try:
        data = json.loads(body)
    except ValueError as exc:
        return 400, json.dumps({"error": {"code": "invalid_json", "message": f"the body is not valid JSON: {exc}",
          "field": "(body)"}})
    status, out = answer(name, data, RULEBOOK, work_budget)
    return status, json.dumps(out)
`;

let workBudget = null;

async function start({index, bundle, budget}) {
  workBudget = budget ?? null;
  importScripts(`${index}pyodide.js`);
  const pyodide = await loadPyodide({indexURL: index, packages: []});
  const response = await fetch(bundle);
  if (!response.ok) throw new Error(`engine bundle: HTTP ${response.status}`);
  pyodide.unpackArchive(await response.arrayBuffer(), 'zip', {extractDir: '/home/pyodide/engine'});
  pyodide.runPython(PYTHON_SETUP);
  return pyodide.globals.get('rule');
}

let ready = null;

self.addEventListener('message', async (event) => {
  if (!ready) {
    ready = start(event.data);
    ready.catch(() => {});
    return;
  }
  const {id, name, body} = event.data;
  try {
    const rule = await ready;
    const result = rule(name, body, workBudget);
    const [status, text] = result.toJs();
    result.destroy();
    self.postMessage({id, status, body: text});
  } catch (err) {
    self.postMessage({id, status: 0, error: String(err && err.message || err)});
  }
});
