// The builder's situation: the document the API takes (adjudicator/API.md) plus the selection
// (attacker, target, cards, flags, title), and its compact encoding in the URL.
//
// Share-link format (version 1). The fragment is either
//   #z=<base64url(deflate-raw(JSON))>   (when the browser has CompressionStream), or
//   #s=<base64url(UTF-8 JSON)>
// where JSON is a compact form of the situation:
//   {"v": 1,
//    "b": board            (omitted: "standard"),
//    "e": board face       (omitted: none given, the default face is drawn),
//    "s": bottom side      (omitted: "allies"),
//    "r": [rule ids],
//    "h": [[row, col, terrain, obstacle, owner]]                     trailing "" trimmed,
//    "u": [[id, side, type, row, col, figures, start, badges, nation, moved, path, turn]]
//         start 0 = the type's standard count, badges joined with "+", path (the hexes moved
//         through this turn, start first) as "row.col" joined with "_", turn: "o" ordered this
//         turn, "n" not ordered, then "b" when it battled ("ob"), "" / 0 trimmed at the end,
//    "a": attacker id, "t": target id, "c": command card, "k": combat card, "f": retreat flags,
//    "o": 1 when the battle is an armor overrun, "n": title,
//    "x": {"scenario", "casualties", "exited"} as the API takes them, when the situation has any
//    "p": the card played ("Play a card"): {"d": side, "x": section, "c": [copied card, its section],
//         "r": {face: dice rolled}}}
// Everything is decoded defensively: a damaged link gives a clear message, never a broken page.

export const EMPTY = Object.freeze({
  board: 'standard', face: null, bottom_side: 'allies', rules: [], hexes: [], units: [],
  attacker: null, target: null, card: null, combat_card: null, overrun_battle: false, flags: 1, title: '',
  play: null,
});

export const key = (row, col) => `${row},${col}`;

/** A fresh, mutable state. Hexes live in a Map keyed "row,col". */
export function newState(from = EMPTY) {
  const state = {
    board: from.board || 'standard',
    // The printed face of the board (core rule `board_faces`): only a look, so it is kept and drawn but
    // changes no ruling. null: none given (the default face is drawn).
    face: typeof from.face === 'string' && from.face ? from.face : null,
    bottom_side: from.bottom_side || 'allies',
    rules: [...(from.rules || [])],
    hexes: new Map(),
    units: [],
    attacker: from.attacker ?? null,
    target: from.target ?? null,
    card: from.card ?? null,
    combat_card: from.combat_card ?? null,
    overrun_battle: from.overrun_battle === true,
    flags: from.flags || 1,
    title: from.title || '',
    // The scenario and what the game has cost so far (builder-score.js): kept as the API takes them.
    scenario: from.scenario && typeof from.scenario === 'object' ? structuredClone(from.scenario) : null,
    casualties: Array.isArray(from.casualties) ? structuredClone(from.casualties) : [],
    exited: Array.isArray(from.exited) ? structuredClone(from.exited) : [],
    // How the card was played (builder-orders.js): the side ordering, its section, the card a
    // Counter-Attack copies, the dice Their Finest Hour rolled; null: no card played for a side.
    play: cleanPlay(from.play),
  };
  for (const item of from.hexes || []) {
    if (!item || typeof item !== 'object') continue;
    const cell = {terrain: item.terrain || null, obstacle: item.obstacle || null, owner: item.owner || null};
    if (cell.terrain || cell.obstacle) state.hexes.set(key(item.row, item.col), cell);
  }
  for (const u of from.units || []) {
    if (!u || typeof u !== 'object') continue;
    state.units.push({
      id: String(u.id), side: u.side, type: u.type, row: u.row, col: u.col,
      figures: u.figures, start_figures: u.start_figures ?? null,
      badges: Array.isArray(u.badges) ? [...u.badges] : [], nation: u.nation || null, moved: u.moved || 0,
      path: cleanPath(u.path),
      // turn state: ordered this turn (null: not said), battled this turn
      ordered: typeof u.ordered === 'boolean' ? u.ordered : null, battled: u.battled === true,
    });
  }
  return state;
}

/** A unit's path (start first, ending on its hex) as fresh {row, col} objects; null when it
 * did not move. */
function cleanPath(path) {
  if (!Array.isArray(path) || path.length < 2) return null;
  const out = path.filter((p) => p && Number.isInteger(p.row) && Number.isInteger(p.col)).map((p) => ({row: p.row,
    col: p.col}));
  return out.length === path.length ? out : null;
}

/** A play as the state keeps it: only the fields /api/v1/order reads, each of the right shape. */
function cleanPlay(play) {
  if (!play || typeof play !== 'object' || !['allies', 'axis'].includes(play.side)) return null;
  const out = {side: play.side};
  if (['left', 'center', 'right'].includes(play.section)) out.section = play.section;
  const copied = play.copied_card;
  if (copied && typeof copied === 'object' && typeof copied.card === 'string') {
    out.copied_card = {card: copied.card};
    if (['left', 'center', 'right'].includes(copied.section)) out.copied_card.section = copied.section;
  }
  if (play.rolled && typeof play.rolled === 'object') {
    const rolled = Object.fromEntries(Object.entries(play.rolled)
      .filter(([, n]) => Number.isInteger(n) && n > 0 && n <= 12));
    if (Object.keys(rolled).length) out.rolled = rolled;
  }
  return out;
}

/** The situation document for the API. */
export function situationDoc(state) {
  const hexes = [];
  for (const [k, cell] of state.hexes) {
    if (!cell.terrain && !cell.obstacle) continue;
    const [row, col] = k.split(',').map(Number);
    const item = {row, col};
    if (cell.terrain) item.terrain = cell.terrain;
    if (cell.obstacle) item.obstacle = cell.obstacle;
    if (cell.owner) item.owner = cell.owner;
    hexes.push(item);
  }
  hexes.sort((a, b) => a.row - b.row || a.col - b.col);
  const units = state.units.map((u) => {
    const out = {id: u.id, side: u.side, type: u.type, row: u.row, col: u.col, figures: u.figures};
    if (u.start_figures) out.start_figures = u.start_figures;
    if (u.badges.length) out.badges = [...u.badges];
    if (u.nation) out.nation = u.nation;
    // A path says how the unit moved: the engine derives `moved` from it.
    if (u.path) out.path = u.path.map((p) => ({row: p.row, col: p.col}));
    else if (u.moved) out.moved = u.moved;
    if (typeof u.ordered === 'boolean') out.ordered = u.ordered;
    if (u.battled) out.battled = true;
    return out;
  });
  const doc = {board: state.board, bottom_side: state.bottom_side, hexes, units};
  if (state.face) doc.face = state.face;
  if (state.rules.length) doc.rules = [...state.rules];
  if (state.scenario) doc.scenario = structuredClone(state.scenario);
  if (state.casualties?.length) doc.casualties = structuredClone(state.casualties);
  if (state.exited?.length) doc.exited = structuredClone(state.exited);
  return doc;
}

/** Situation plus selection: what "Save" posts and a saved situation returns. */
export function savedDoc(state) {
  const doc = situationDoc(state);
  for (const name of ['attacker', 'target', 'card', 'combat_card']) if (state[name]) doc[name] = state[name];
  if (state.overrun_battle) doc.overrun_battle = true;
  if (state.flags && state.flags !== 1) doc.flags = state.flags;
  if (state.title.trim()) doc.title = state.title.trim();
  if (state.play) doc.play = state.play;
  return doc;
}

// -- the card played (builder-orders.js) ---------------------------------------------------------

/** The /api/v1/order request for the card played, with the units ordered so far as its
 * selection; null when no card is played for a side. */
export function orderRequest(state) {
  if (!state.play || !state.card) return null;
  const selection = state.units.filter((u) => u.ordered && u.side === state.play.side).map((u) => u.id);
  return {...situationDoc(state), card: state.card, ...state.play, selection};
}

/** How the card was played, for the rulings the card drives (/battle, /move, /fire-map). */
export function playFields(state) {
  if (!state.play || !state.card) return {};
  const out = {};
  if (state.play.section) out.section = state.play.section;
  if (state.play.copied_card) out.copied_card = state.play.copied_card;
  return out;
}

/** The situation for a ruling under the card played: once the side playing it has ordered a unit,
 * its other units were not ordered this turn (core `ordering`: only ordered units act). */
export function rulingDoc(state) {
  const doc = situationDoc(state);
  const side = state.card ? state.play?.side : null;
  if (side && state.units.some((u) => u.side === side && u.ordered)) {
    for (const u of doc.units) if (u.side === side && u.ordered !== true) u.ordered = false;
  }
  return doc;
}

/** "Play a card": the side ordering and how the card is played (null: no card played). */
export function setPlay(state, play) {
  state.play = cleanPlay(play);
}

/** A unit ordered this turn, or its order taken back. */
export function setOrdered(state, unit, on) {
  unit.ordered = on ? true : null;
}

/** Every order taken back (a new card, a new section). */
export function clearOrders(state) {
  for (const u of state.units) u.ordered = null;
}

function trim(list, empties) {
  const out = [...list];
  while (out.length && empties.includes(out[out.length - 1])) out.pop();
  return out;
}

export function compact(state) {
  const doc = situationDoc(state);
  const c = {v: 1};
  if (doc.board !== 'standard') c.b = doc.board;
  if (doc.face) c.e = doc.face;
  if (doc.bottom_side !== 'allies') c.s = doc.bottom_side;
  if (doc.rules) c.r = doc.rules;
  if (doc.hexes.length) {
    c.h = doc.hexes.map((x) => trim([x.row, x.col, x.terrain || '', x.obstacle || '', x.owner || ''], ['']));
  }
  if (doc.units.length) {
    c.u = doc.units.map((u) => trim([u.id, u.side, u.type, u.row, u.col, u.figures, u.start_figures || 0,
      (u.badges || []).join('+'), u.nation || '', u.moved || 0,
      (u.path || []).map((p) => `${p.row}.${p.col}`).join('_'),
      `${u.ordered === true ? 'o' : u.ordered === false ? 'n' : ''}${u.battled ? 'b' : ''}`], ['', 0]));
  }
  if (state.attacker) c.a = state.attacker;
  if (state.target) c.t = state.target;
  if (state.card) c.c = state.card;
  if (state.combat_card) c.k = state.combat_card;
  if (state.overrun_battle) c.o = 1;
  if (state.flags && state.flags !== 1) c.f = state.flags;
  if (state.title.trim()) c.n = state.title.trim();
  const scored = Object.fromEntries(['scenario', 'casualties', 'exited'].filter((k) => doc[k]).map((k) => [k, doc[k]]));
  if (Object.keys(scored).length) c.x = scored;
  if (state.play) {
    const {side, section, copied_card: copied, rolled} = state.play;
    c.p = {d: side};
    if (section) c.p.x = section;
    if (copied) c.p.c = copied.section ? [copied.card, copied.section] : [copied.card];
    if (rolled) c.p.r = rolled;
  }
  return c;
}

export function expand(c) {
  if (!c || typeof c !== 'object' || c.v !== 1) throw new Error('unknown link version');
  const list = (x) => (Array.isArray(x) ? x : []);
  return {
    board: c.b || 'standard',
    face: typeof c.e === 'string' ? c.e : null,
    bottom_side: c.s || 'allies',
    rules: list(c.r).map(String),
    hexes: list(c.h).filter(Array.isArray).map(([row, col, terrain, obstacle, owner]) => ({row, col, terrain,
      obstacle, owner})),
    units: list(c.u).filter(Array.isArray).map(([id, side, type, row, col, figures, start, badges, nation, moved,
      path, turn]) => ({
      id, side, type, row, col, figures,
      start_figures: start || null,
      badges: badges ? String(badges).split('+').filter(Boolean) : [],
      nation: nation || null, moved: moved || 0,
      path: path ? String(path).split('_').map((p) => {
        const [r, c2] = p.split('.').map(Number); return {row: r,
          col: c2};
      }) : null,
      ordered: String(turn || '').includes('o') ? true : String(turn || '').includes('n') ? false : null,
      battled: String(turn || '').includes('b'),
    })),
    attacker: c.a || null, target: c.t || null, card: c.c || null, combat_card: c.k || null,
    overrun_battle: c.o === 1,
    flags: c.f || 1, title: c.n || '',
    ...(c.x && typeof c.x === 'object' ? {scenario: c.x.scenario || null, casualties: list(c.x.casualties),
      exited: list(c.x.exited)} : {}),
    play: c.p && typeof c.p === 'object' ? {side: c.p.d, section: c.p.x,
      copied_card: Array.isArray(c.p.c) ? {card: c.p.c[0], section: c.p.c[1]} : undefined, rolled: c.p.r} : null,
  };
}

// -- base64url and deflate --------------------------------------------------------------------

function toBase64url(bytes) {
  let bin = '';
  for (let i = 0; i < bytes.length; i += 0x8000) bin += String.fromCharCode(...bytes.subarray(i, i + 0x8000));
  return btoa(bin).replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '');
}

function fromBase64url(text) {
  const b64 = text.replace(/-/g, '+').replace(/_/g, '/');
  const bin = atob(b64 + '==='.slice((b64.length + 3) % 4));
  return Uint8Array.from(bin, (ch) => ch.charCodeAt(0));
}

async function pipe(bytes, stream) {
  const out = new Response(new Blob([bytes]).stream().pipeThrough(stream));
  return new Uint8Array(await out.arrayBuffer());
}

const canDeflate = typeof CompressionStream === 'function' && typeof DecompressionStream === 'function';

/** The URL fragment (without '#') that reproduces the state. */
export async function encodeFragment(state) {
  const bytes = new TextEncoder().encode(JSON.stringify(compact(state)));
  if (canDeflate) {
    try {
      return `z=${toBase64url(await pipe(bytes, new CompressionStream('deflate-raw')))}`;
    } catch { /* fall through to the plain form */ }
  }
  return `s=${toBase64url(bytes)}`;
}

/** A link that would unpack to more than `limit` bytes: refused before it is read. */
export class LinkTooLarge extends Error {
  constructor(limit) {
    super(`it unpacks to more than ${Math.round(limit / 1024)} KB, more than any board holds`);
    this.limit = limit;
  }
}

/** `bytes` inflated, reading no more than `limit` bytes of output: a 136 KB link can inflate to
 * 100 MB (a deflate stream may pack a thousand to one), which used to take the tab down. */
async function inflate(bytes, limit) {
  const reader = new Blob([bytes]).stream().pipeThrough(new DecompressionStream('deflate-raw')).getReader();
  const chunks = [];
  let size = 0;
  for (;;) {
    const {done, value} = await reader.read();
    if (done) break;
    size += value.length;
    if (size > limit) {
      await reader.cancel();
      throw new LinkTooLarge(limit);
    }
    chunks.push(value);
  }
  const out = new Uint8Array(size);
  let at = 0;
  for (const chunk of chunks) {
    out.set(chunk, at);
    at += chunk.length;
  }
  return out;
}

/** The state a fragment encodes, null when there is none; throws on a damaged link, and
 * LinkTooLarge on one that holds more than `limit` bytes of situation. */
export async function decodeFragment(fragment, limit) {
  const params = new URLSearchParams(fragment.replace(/^#/, ''));
  let bytes;
  if (params.get('z')) {
    if (!canDeflate) throw new Error('this browser cannot read compressed links');
    if (params.get('z').length > limit) throw new LinkTooLarge(limit);
    bytes = await inflate(fromBase64url(params.get('z')), limit);
  } else if (params.get('s')) {
    if (params.get('s').length * 3 / 4 > limit) throw new LinkTooLarge(limit);
    bytes = fromBase64url(params.get('s'));
  } else {
    return null;
  }
  return expand(JSON.parse(new TextDecoder().decode(bytes)));
}

// -- unit helpers -----------------------------------------------------------------------------

/** Next free unit id: u1, u2, ... */
export function nextUnitId(state) {
  let n = 0;
  for (const u of state.units) {
    const m = /^u(\d+)$/.exec(u.id);
    if (m) n = Math.max(n, Number(m[1]));
  }
  let id = `u${n + 1}`;
  while (state.units.some((u) => u.id === id)) id = `u${++n + 1}`;
  return id;
}

/** Hexes between two hexes of the board (doubled columns: a step is ±2 columns or a row). */
export function hexDistance(p, q) {
  const dr = Math.abs(p.row - q.row);
  const dc = Math.abs(p.col - q.col);
  return dr + Math.max(0, (dc - dr) / 2);
}

export function unitAt(state, row, col) {
  return state.units.find((u) => u.row === row && u.col === col) || null;
}

export function unitById(state, id) {
  return state.units.find((u) => u.id === id) || null;
}
