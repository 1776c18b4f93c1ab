// The SVG hex board, drawn from the engine's geometry (the page data's `boards`).
//
// Pointy-topped hexes at (row, doubled col): a hex centre maps to x = (col + 1) * W/2,
// y = R + row * 1.5R. That is an affine image of the engine's exact centre (3·col, 3·row), so a
// straight line between two centres crosses exactly the hexes the engine says it crosses.
// Every hex is a focusable button (roving tabindex; arrow keys move, Enter or Space acts, other
// keys go to the controller's shortcuts). Zoom: the buttons beside the board, or two fingers on
// it (pinch, about the point between them); one finger pans it (the browser scrolls the board's
// frame). Semantic zoom: a board zoomed out past where its words can be read (Fit on a phone)
// leaves every word off and draws each unit as a larger mark, its side's colour and its class's
// map symbol; zooming in, or tapping the hex, gives the details back.

import {s} from './builder-dom.js';
import {key} from './builder-state.js';

const R = 30;
const W = R * Math.sqrt(3);
const BAND = 24; // baseline bands above and below the hexes
const CORNERS = [-90, -30, 30, 90, 150, 210].map((deg) => {
  const a = (deg * Math.PI) / 180;
  return [R * Math.cos(a), R * Math.sin(a)];
});
const SHAPES = new Map(); // a hex's corners at a scale, as a points attribute (the same for every hex)
const pts = (scale = 1) => {
  if (!SHAPES.has(scale)) {
    SHAPES.set(scale, CORNERS.map(([x, y]) => `${(x * scale).toFixed(2)},${(y * scale).toFixed(2)}`).join(' '));
  }
  return SHAPES.get(scale);
};
export const MIN_TAP_PX = 46;
/** The farthest a pinch zooms out (or less, to see the whole board: an Overlord board on a phone). */
const MIN_ZOOM = 0.3;
const MAX_ZOOM = 3;
/** The map symbol of each unit class on a zoomed-out board (a box with a cross, a track, a dot):
 * shapes, not words, so they read at any size. Drawn in a 30 by 20 box centred on the hex. */
const CLASS_MARKS = {
  infantry: () => [s('line', {x1: -15, y1: -10, x2: 15, y2: 10}), s('line', {x1: -15, y1: 10, x2: 15, y2: -10})],
  armor: () => [s('ellipse', {cx: 0, cy: 0, rx: 11, ry: 6})],
  artillery: () => [s('circle', {class: 'mark-dot', cx: 0, cy: 0, r: 5})],
};
/** Every word on the board is drawn at FONT board units (builder.css) or more; below this many
 * CSS px (a zoomed-out board) the words are left off rather than drawn too small to read. */
export const MIN_TEXT_PX = 11;
const FONT = 13;
const NAME_WIDTH = 47; // board units a hex name may take across the middle of a hex

export class BoardView {
  constructor(svg, wrap, content, handlers) {
    this.svg = svg;
    this.wrap = wrap;
    this.content = content;
    this.handlers = handlers;
    this.cells = new Map();
    this.zoom = null;
    this.cursor = null;
    svg.addEventListener('click', (event) => {
      const g = event.target.closest('.hex');
      if (g) this.activate(Number(g.dataset.row), Number(g.dataset.col));
    });
    svg.addEventListener('keydown', (event) => this.onKey(event));
    this.pinchZoom();
    svg.addEventListener('focusin', (event) => {
      const g = event.target.closest('.hex');
      if (g) this.setCursor(Number(g.dataset.row), Number(g.dataset.col), false);
    });
  }

  x(col) { return (col + 1) * (W / 2); }
  y(row) { return BAND + R + row * 1.5 * R; }

  /** Build the hexes of a board (data from adjudicator.engine.geometry via the page). */
  setBoard(board) {
    if (this.board && this.board.kind === board.kind) return;
    this.board = board;
    this.cells.clear();
    this.width = (board.max_col + 2) * (W / 2);
    this.height = 2 * BAND + 2 * R + (board.rows - 1) * 1.5 * R;
    this.svg.setAttribute('viewBox', `0 0 ${this.width.toFixed(1)} ${this.height.toFixed(1)}`);
    // Sized before its hexes are made: measuring the room then lays out the page without them.
    this.applyZoom();
    // Layers: the hexes (the tap and focus targets), the overlays (line of sight, retreats),
    // then the words and unit tokens so an overlay never hides them, and last the fire map's
    // tags, which no word may hide.
    const hexLayer = s('g', {class: 'hexes'});
    const topLayer = s('g', {class: 'tops', 'pointer-events': 'none'});
    for (const hx of board.hexes) {
      const transform = `translate(${this.x(hx.col).toFixed(2)} ${this.y(hx.row).toFixed(2)})`;
      const g = s('g', {
        class: 'hex', role: 'button', tabindex: -1, transform,
        dataset: {row: hx.row, col: hx.col, label: hx.label},
      });
      const top = s('g', {class: 'hex-top', transform});
      this.cells.set(key(hx.row, hx.col), {g, top, hex: hx});
      hexLayer.append(g);
      topLayer.append(top);
    }
    this.overlay = s('g', {class: 'overlay', 'pointer-events': 'none'});
    this.tagLayer = s('g', {class: 'tags', 'pointer-events': 'none'}); // tags that must stay readable: above the words
    this.svg.replaceChildren(this.defs(), this.bands(board), hexLayer, this.sectionLines(board), this.overlay,
      topLayer, this.tagLayer);
    const first = board.hexes[Math.floor(board.hexes.length / 2)];
    this.setCursor(first.row, first.col, false);
  }

  defs() {
    return s('defs', {},
      s('pattern', {id: 'hatch-blocked', width: 6, height: 6, patternUnits: 'userSpaceOnUse',
        patternTransform: 'rotate(45)'},
      s('rect', {width: 3, height: 6, class: 'hatch-stripe'})));
  }

  /** Each side's baseline, with that side's sections named from its own point of view
   * (the top player's left and right are the bottom player's right and left). */
  bands(board) {
    const [lo, left, right, hi] = board.section_bounds;
    const mid = (a, b) => (this.x(a) + this.x(b)) / 2;
    const xs = [mid(lo, left), mid(left, right), mid(right, hi)];
    const out = s('g', {class: 'bands', 'pointer-events': 'none'});
    this.bandText = [];
    for (const [where, y] of [['top', 0], ['bottom', this.height - BAND]]) {
      const band = s('rect', {class: `band band-${where}`, x: 0, y, width: this.width, height: BAND, rx: 4});
      out.append(band);
      const texts = xs.map((x) => s('text',
        {class: 'band-text', x, y: y + BAND / 2, 'text-anchor': 'middle', 'dominant-baseline': 'central'}));
      out.append(...texts);
      this.bandText.push({where, band, texts});
    }
    return out;
  }

  sectionLines(board) {
    const [, left, right] = board.section_bounds;
    const g = s('g', {class: 'sections', 'pointer-events': 'none'});
    for (const col of [left, right]) {
      g.append(s('line',
        {class: 'section-line', x1: this.x(col), x2: this.x(col), y1: BAND - 2, y2: this.height - BAND + 2}));
    }
    return g;
  }

  // -- rendering -------------------------------------------------------------------------------
  /** Draw the hexes whose content changed, at most `limit` of them (the start draws the board a
   * slice a task): true once every hex is drawn. */
  render(state, ui, limit = Infinity) {
    const c = this.content;
    // The printed face (core rule `board_faces`) is only a look: builder.css colours the countryside and
    // the baselines from [data-face]. A situation without a face is drawn in the default one.
    const face = state.face || this.defaultFace || 'country';
    if (this.svg.dataset.face !== face) this.svg.dataset.face = face;
    this.svg.setAttribute('aria-label',
      `${this.board.kind} board, ${face} face, ${this.board.rows} rows. `
      + 'Arrow keys move between hexes; Enter acts on a hex.');
    const top = state.bottom_side === 'allies' ? 'axis' : 'allies';
    const names = {bottom: ['left', 'centre', 'right'], top: ['right', 'centre', 'left']};
    for (const {where, band, texts} of this.bandText) {
      const side = where === 'top' ? top : state.bottom_side;
      band.setAttribute('class', `band band-${where} side-${side}`);
      texts.forEach((t, i) => { t.textContent = `${c.sideName(side)} ${names[where][i]}`; });
    }
    this.svg.classList.toggle('show-labels', Boolean(ui.labels));
    this.labelsShown = Boolean(ui.labels);
    this.selected = ui.selected;
    this.svg.classList.toggle('moving', Boolean(ui.moving));
    const unitsAt = new Map(state.units.map((u) => [key(u.row, u.col), u]));
    let drawn = 0;
    for (const [k, entry] of this.cells) {
      const cell = state.hexes.get(k) || {};
      const unit = unitsAt.get(k) || null;
      // A hex is drawn again only when what it shows changed: a tap redraws a few hexes, not the
      // board (a hex whose name could not be measured yet is drawn again next time).
      const selected = Boolean(ui.selected && ui.selected.row === entry.hex.row && ui.selected.col === entry.hex.col);
      const role = unit ? (unit.id === state.attacker ? 'A' : unit.id === state.target ? 'T' : '') : '';
      const sig = JSON.stringify([cell, unit, selected, role]);
      if (entry.sig === sig) continue;
      if (drawn++ >= limit) return false;
      this.unmeasured = false;
      this.renderHex(entry.g, entry.top, entry.hex, cell, unit, state, ui);
      entry.sig = this.unmeasured ? null : sig;
    }
    if (ui.labels) for (const entry of this.cells.values()) this.label(entry);
    return true;
  }

  /** A hex's coordinates ("F3") at its top, made only where they show (a ruling names the hex, or
   * "A1" shows them all; builder.css): a text less per hex on the board, a fifth of its elements. */
  label({top, hex}) {
    if (top.firstChild?.classList?.contains('hex-label')) return;
    top.prepend(s('text', {class: 'hex-label', y: -20, 'text-anchor': 'middle', 'dominant-baseline': 'central'},
      hex.label));
  }

  renderHex(g, top, hex, cell, unit, state, ui) {
    const c = this.content;
    const terrain = cell.terrain ? c.terrain.get(cell.terrain) : null;
    const obstacle = cell.obstacle ? c.obstacles.get(cell.obstacle) : null;
    const classes = ['hex', `t-${terrain?.style || (cell.terrain ? 'unknown' : 'open')}`];
    if (terrain?.winter) classes.push('snow');
    if (hex.sections.length > 1) classes.push('straddle');
    const selected = ui.selected && ui.selected.row === hex.row && ui.selected.col === hex.col;
    if (selected) classes.push('selected');
    if (unit && unit.id === state.attacker) classes.push('is-attacker');
    if (unit && unit.id === state.target) classes.push('is-target');
    g.setAttribute('class', classes.join(' '));
    g.setAttribute('aria-pressed', selected ? 'true' : 'false');

    const parts = [s('polygon', {class: 'hex-bg', points: pts()})];
    if (terrain?.winter) parts.push(s('polygon', {class: 'hex-snow', points: pts(0.96)}));
    if (obstacle || cell.obstacle) parts.push(s('polygon',
      {class: `hex-obstacle o-${obstacle?.style || 'unknown'}`, points: pts(0.8)}));
    if (selected) parts.push(s('polygon', {class: 'hex-selected', points: pts(0.9)}));
    g.replaceChildren(...parts);
    // Coordinates sit at the top (label(): where a ruling names the hex, or all with "A1"); a unit
    // takes the middle; an empty hex names its terrain and obstacle there instead, so no two
    // words ever share a spot. Under a unit, the terrain shows by its colour (see the legend).
    const words = [];
    if (!unit) {
      const both = cell.terrain && cell.obstacle;
      if (cell.terrain) words.push(this.name('hex-terrain', terrain?.short || cell.terrain, both ? -3 : 1));
      if (cell.obstacle) {
        const owner = cell.owner ? (cell.owner === 'axis' ? '⚑X' : '⚑A') : '';
        words.push(this.name('hex-obstacle-text', (obstacle?.short || cell.obstacle), both ? 12 : 1, owner));
      }
    }
    if (unit) words.push(this.token(unit, state));
    top.replaceChildren(...words);
    if (this.labelsShown || top.classList.contains('cited')) this.label({top, hex});
    g.setAttribute('aria-label', this.describe(hex, cell, unit, state));
  }

  /** A hex name in the middle of a hex, cut (with a dot) to the hex's width at full size. */
  name(cls, text, y, suffix = '') {
    const el = s('text', {class: cls, y, 'text-anchor': 'middle', 'dominant-baseline': 'central'});
    el.textContent = this.fit(cls, text, suffix);
    return el;
  }

  fit(cls, text, suffix) {
    const id = `${cls}|${text}|${suffix}`;
    this.fitted ??= new Map();
    if (this.fitted.has(id)) return this.fitted.get(id);
    let out = suffix ? `${text} ${suffix}` : text;
    const width = this.measure(cls);
    if (!width) { // not laid out (hidden): measure next time
      this.unmeasured = true;
      return out;
    }
    if (width(out) > NAME_WIDTH) {
      let cut = text.length - 1;
      while (cut > 2 && width(`${text.slice(0, cut)}.${suffix}`) > NAME_WIDTH) cut--;
      out = `${text.slice(0, cut)}.${suffix}`;
    }
    this.fitted.set(id, out);
    return out;
  }

  /** The width of a text in the board's words of class `cls`, in board units (null where the
   * browser draws no text yet: the name is measured again next time). A canvas measures
   * each name in the same font, scaled to the browser's own measure of one sample drawn in a
   * hidden board of its own: the page is laid out once for each class, not once for each name (a
   * layout of the whole page each time, a long task on a phone), and the start measures before
   * the board is shown (premeasure), while that layout is still a small one. */
  measure(cls) {
    this.fonts ??= new Map();
    if (this.fonts.has(cls)) return this.fonts.get(cls);
    const sample = 'Countryside, hedgerow';
    const probe = s('text', {class: cls, x: 0, y: 20}, sample);
    const host = s('svg', {class: 'board visually-hidden', 'aria-hidden': 'true'}, probe);
    document.body.append(host);
    const drawn = probe.getComputedTextLength();
    const style = getComputedStyle(probe);
    host.remove();
    if (!drawn) return null;
    const context = document.createElement('canvas').getContext('2d');
    context.font = `${style.fontStyle} ${style.fontWeight} ${style.fontSize} ${style.fontFamily}`;
    const scale = drawn / context.measureText(sample).width;
    const width = (t) => context.measureText(t).width * scale;
    this.fonts.set(cls, width);
    return width;
  }

  /** Measure the board's words now, before the board is drawn (see measure). */
  premeasure() {
    for (const cls of ['hex-terrain', 'hex-obstacle-text']) this.measure(cls);
  }

  token(unit, state) {
    const c = this.content;
    const start = c.startFigures(unit);
    const g = s('g', {class: `unit side-${unit.side}`});
    g.append(this.mark(unit));
    g.append(s('rect',
      {class: 'unit-body', x: -22, y: -10.5, width: 44, height: 20, rx: unit.side === 'allies' ? 6 : 1.5}));
    g.append(s('text', {class: 'unit-abbr', y: 0, 'text-anchor': 'middle', 'dominant-baseline': 'central'},
      c.abbr(unit)));
    const n = Math.max(start, unit.figures);
    const gap = 6.4;
    for (let i = 0; i < n; i++) {
      const cx = (i - (n - 1) / 2) * gap;
      g.append(s('circle', {class: i < unit.figures ? 'pip' : 'pip lost', cx, cy: 14, r: 2.6}));
    }
    if (unit.badges.length) g.append(s('text',
      {class: 'unit-badge', x: -21, y: -11, 'text-anchor': 'middle', 'dominant-baseline': 'central'}, '★'));
    if (unit.moved) g.append(s('text',
      {class: 'unit-moved', x: -19, y: 20, 'text-anchor': 'middle', 'dominant-baseline': 'central'}, `→${unit.moved}`));
    const role = unit.id === state.attacker ? 'A' : unit.id === state.target ? 'T' : null;
    if (role) {
      g.append(s('circle', {class: `role role-${role}`, cx: 20, cy: -12, r: 8.5}));
      g.append(s('text',
        {class: 'role-text', x: 20, y: -12, 'text-anchor': 'middle', 'dominant-baseline': 'central'}, role));
    }
    return g;
  }

  /** The unit as a zoomed-out board shows it (CSS shows it only on a .compact board): a block of
   * its side's colour, shaped as its token is (rounded: Allies), with its class's map symbol. */
  mark(unit) {
    const cls = (this.content.profile(unit) || this.content.units.get(unit.type))?.unit_class;
    const symbol = CLASS_MARKS[cls]?.() || [];
    return s('g', {class: `unit-mark mark-${cls || 'unknown'}`},
      s('rect', {class: 'mark-body', x: -22, y: -17, width: 44, height: 34, rx: unit.side === 'allies' ? 9 : 2}),
      s('g', {class: 'mark-symbol'}, ...symbol));
  }

  describe(hex, cell, unit, state) {
    const c = this.content;
    const bits = [hex.label];
    bits.push(cell.terrain ? c.name(cell.terrain) : 'countryside');
    if (cell.obstacle) bits.push(c.name(cell.obstacle) + (cell.owner ? ` (${cell.owner})` : ''));
    if (unit) {
      let text = `${c.sideName(unit.side)} ${c.unitName(unit)}, ${unit.figures} of ${c.startFigures(unit)} figures`;
      if (unit.badges.length) text += `, ${unit.badges.map((b) => c.name(b)).join(', ')}`;
      if (unit.id === state.attacker) text += ', attacker';
      if (unit.id === state.target) text += ', target';
      bits.push(text);
    }
    if (hex.sections.length > 1) bits.push(`on the ${hex.sections.join('/')} section line`);
    return bits.join('; ');
  }

  // -- overlays ----------------------------------------------------------------------------------
  centre(p) { return [this.x(p.col), this.y(p.row)]; }

  hexShape(p, cls, scale = 1) {
    const [x, y] = this.centre(p);
    return s('polygon', {class: cls, points: pts(scale), transform: `translate(${x.toFixed(2)} ${y.toFixed(2)})`});
  }

  /** Line of sight, retreat options, re-supply targets and an error hex, drawn over the board. */
  setOverlay({los = null, from = null, to = null, retreat = null, retreatFrom = null, highlight = null, resupply = null,
    errorHex = null,
    under = [], extra = [], tags = [], citedKeys = []} = {}) {
    // `under` (move shading, trails) goes below the other overlays, `extra` (fire map, losses) above.
    const parts = [...under];
    if (los && from && to) {
      const seen = new Set();
      for (const p of los.crossed || []) {
        parts.push(this.hexShape(p, 'los-crossed', 0.97));
        seen.add(key(p.row, p.col));
      }
      for (const pair of los.edges || []) {
        for (const p of Array.isArray(pair) ? pair : [pair.a, pair.b, ...(pair.hexes || [])]) {
          if (p && !seen.has(key(p.row, p.col))) {
            parts.push(this.hexShape(p, 'los-edge', 0.97));
            seen.add(key(p.row, p.col));
          }
        }
      }
      for (const p of los.blocked_by || []) {
        parts.push(this.hexShape(p, 'los-blocked', 0.97));
        const [x, y] = this.centre(p);
        parts.push(s('text',
          {class: 'los-x', x: x + 15, y: y - 2, 'text-anchor': 'middle', 'dominant-baseline': 'central'}, '✕'));
      }
      const [x1, y1] = this.centre(from);
      const [x2, y2] = this.centre(to);
      const cls = los.clear ? 'los-line clear' : 'los-line blocked';
      parts.push(s('line', {class: `${cls} halo`, x1, y1, x2, y2}),
        s('line', {class: cls, x1, y1, x2, y2, 'data-los': los.clear ? 'clear' : 'blocked'}));
    }
    if (retreat && retreatFrom) {
      const ends = new Map();
      retreat.options.forEach((opt, i) => {
        const k = key(opt.end.row, opt.end.col);
        const prev = ends.get(k);
        if (!prev || opt.figures_lost < prev.opt.figures_lost) ends.set(k, {opt, i});
      });
      retreat.options.forEach((opt, i) => {
        const pointsList = [retreatFrom, ...(opt.path || [])]
          .map((p) => this.centre(p).map((v) => v.toFixed(1)).join(',')).join(' ');
        const on = highlight === i;
        parts.push(s('polyline', {class: on ? 'retreat-path on' : 'retreat-path', points: pointsList}));
      });
      for (const {opt, i} of ends.values()) {
        const on = highlight === i;
        parts.push(this.hexShape(opt.end, on ? 'retreat-end on' : 'retreat-end', 0.86));
        const [x, y] = this.centre(opt.end);
        const lost = opt.figures_lost ? `−${opt.figures_lost}` : '0';
        parts.push(s('text',
          {class: 'retreat-text', x, y: y + 21, 'text-anchor': 'middle', 'dominant-baseline': 'central'}, lost));
      }
    }
    if (resupply) {
      for (const t of resupply) {
        parts.push(this.hexShape(t.hex, 'resupply-hex', 0.86));
        const [x, y] = this.centre(t.hex);
        parts.push(s('text',
          {class: 'resupply-text', x, y: y + 21, 'text-anchor': 'middle', 'dominant-baseline': 'central'},
          `+${t.max_figures}`));
      }
    }
    parts.push(...extra);
    if (errorHex) parts.push(this.hexShape(errorHex, 'error-hex', 0.95));
    this.overlay.replaceChildren(...parts);
    this.tagLayer.replaceChildren(...tags);
    // The hexes a ruling names show their coordinates.
    const cited = new Set();
    const cite = (p) => { if (p) cited.add(key(p.row, p.col)); };
    cite(from); cite(to); cite(errorHex); cite(this.selected);
    if (los) for (const p of los.blocked_by || []) cite(p);
    if (retreat) for (const opt of retreat.options || []) { cite(opt.end); for (const p of opt.path || []) cite(p); }
    for (const t of resupply || []) cite(t.hex);
    for (const k of citedKeys) cited.add(k);
    for (const [k, entry] of this.cells) {
      entry.top.classList.toggle('cited', cited.has(k));
      if (cited.has(k)) this.label(entry);
    }
  }

  // -- zoom and scrolling ----------------------------------------------------------------------
  /** The room the board has on screen: its frame's width, and the height the page's layout gives
   * the frame (its fixed height on a phone, upright or sideways; a desktop page grows instead). */
  room() {
    const style = getComputedStyle(this.wrap);
    const limit = [style.height, style.maxHeight].map(parseFloat).filter((v) => v > 0 && Number.isFinite(v));
    const fixed = style.maxHeight !== 'none' || this.wrap.clientHeight < this.svg.getBoundingClientRect().height;
    return {width: Math.max(200, this.wrap.clientWidth - 2),
      height: fixed && limit.length ? Math.min(...limit) - 2 : Infinity};
  }

  /** "Fit": the whole board in its frame, every column (and every row the frame's height allows
   * for). Where that is too small for words (a phone), the board goes compact: units as marks. */
  fitScale() {
    const {width, height} = this.room();
    return Math.min(width / this.width, height / this.height);
  }

  /** How far a pinch or "−" zooms out: MIN_ZOOM, or the whole board where that is smaller. */
  minScale() { return Math.min(MIN_ZOOM, this.fitScale()); }

  /** A comfortable default: the whole board when its hexes stay thumb-sized, else hexes of
   * at least 44 px with the board scrolling. */
  defaultScale() {
    const {width} = this.room();
    const fit = width / this.width;
    const coarse = window.matchMedia('(pointer: coarse)').matches || window.innerWidth < 700;
    return coarse ? Math.max(fit, MIN_TAP_PX / W) : Math.min(Math.max(fit, 0.55), 1.6);
  }

  applyZoom() {
    if (!this.board) return;
    const scale = this.zoom ?? this.defaultScale();
    const width = Math.round(this.width * scale);
    this.svg.setAttribute('width', width);
    this.svg.setAttribute('height', Math.round(this.height * scale));
    // Semantic zoom: where the words would be drawn under MIN_TEXT_PX (at the size drawn, rounded
    // to whole pixels), they are left off and units are drawn as marks.
    this.svg.classList.toggle('compact', FONT * (width / this.width) < MIN_TEXT_PX);
    this.scale = scale;
    return scale;
  }

  /** The board point (board units) under a point of the screen (client px). */
  boardPoint(at) {
    const box = this.svg.getBoundingClientRect();
    const per = box.width / this.width;
    return {x: (at.x - box.left) / per, y: (at.y - box.top) / per};
  }

  /** Scroll the frame so that board point `b` is under screen point `at`. */
  pin(b, at) {
    const box = this.svg.getBoundingClientRect();
    const per = box.width / this.width;
    this.wrap.scrollLeft += box.left + b.x * per - at.x;
    this.wrap.scrollTop += box.top + b.y * per - at.y;
  }

  /** Zoom about a point of the screen (the frame's centre by default): what is under it stays. */
  zoomTo(scale, at = null) {
    const frame = this.wrap.getBoundingClientRect();
    const spot = at || {x: frame.left + this.wrap.clientWidth / 2, y: frame.top + this.wrap.clientHeight / 2};
    const b = this.boardPoint(spot);
    this.zoom = Math.min(MAX_ZOOM, Math.max(this.minScale(), scale));
    this.applyZoom();
    this.pin(b, spot);
  }

  /** The zoom buttons: a factor, or 0 for "Fit". */
  zoomBy(factor) {
    const before = this.scale || this.defaultScale();
    if (factor === 0) {
      this.zoomTo(this.fitScale());
      this.centreView();
    } else {
      this.zoomTo(before * factor);
    }
  }

  /** Two fingers on the board zoom it about the point between them, and move it with them: the
   * board point first under their middle stays under it (as a map does). One finger pans it (the
   * browser scrolls the frame: touch-action lets it pan, never zoom the page, over the board). */
  pinchZoom() {
    let start = null;
    const fingers = ([a, b]) => ({span: Math.hypot(a.clientX - b.clientX, a.clientY - b.clientY),
      at: {x: (a.clientX + b.clientX) / 2, y: (a.clientY + b.clientY) / 2}});
    this.wrap.addEventListener('touchstart', (e) => {
      if (e.touches.length !== 2) return;
      const {span, at} = fingers(e.touches);
      start = {span: Math.max(1, span), scale: this.scale || this.defaultScale(), under: this.boardPoint(at)};
    }, {passive: true});
    this.wrap.addEventListener('touchmove', (e) => {
      if (!start || e.touches.length !== 2) return;
      if (e.cancelable) e.preventDefault();
      const {span, at} = fingers(e.touches);
      this.zoom = Math.min(MAX_ZOOM, Math.max(this.minScale(), start.scale * span / start.span));
      this.applyZoom();
      this.pin(start.under, at);
      this.onZoom?.();
    }, {passive: false});
    const end = (e) => { if (e.touches.length < 2) start = null; };
    this.wrap.addEventListener('touchend', end);
    this.wrap.addEventListener('touchcancel', end);
  }

  /** The board's middle in the middle of its frame (a board larger than the frame). */
  centreView() {
    const {wrap} = this;
    wrap.scrollLeft = (wrap.scrollWidth - wrap.clientWidth) / 2;
    wrap.scrollTop = (wrap.scrollHeight - wrap.clientHeight) / 2;
  }

  /** Scroll the frame so that the given hexes are well inside it (the attacker and the target),
   * a hex's width from its edges; hexes too far apart to show together are centred between. */
  reveal(points) {
    if (!points.length || !this.scale) return;
    const {wrap, scale} = this;
    const margin = R * scale * 1.2;
    const fit = (values, scroll, size) => {
      const lo = Math.min(...values) - margin;
      const hi = Math.max(...values) + margin;
      if (lo >= scroll && hi <= scroll + size) return scroll;
      return hi - lo > size ? (lo + hi) / 2 - size / 2 : Math.min(lo, Math.max(scroll, hi - size));
    };
    wrap.scrollLeft = fit(points.map((p) => this.x(p.col) * scale), wrap.scrollLeft, wrap.clientWidth);
    wrap.scrollTop = fit(points.map((p) => this.y(p.row) * scale), wrap.scrollTop, wrap.clientHeight);
  }

  // -- keyboard ----------------------------------------------------------------------------------
  setCursor(row, col, focus = true) {
    const next = this.cells.get(key(row, col));
    if (!next) return false;
    if (this.cursor && this.cursor !== next.g) this.cursor.setAttribute('tabindex', '-1');
    next.g.setAttribute('tabindex', '0');
    this.cursor = next.g;
    if (focus) next.g.focus({preventScroll: false});
    return true;
  }

  focusHex(row, col) { this.setCursor(row, col, true); }

  activate(row, col, keyboard = false) {
    this.setCursor(row, col, false);
    this.handlers.onActivate(row, col, keyboard);
  }

  onKey(event) {
    const g = event.target.closest?.('.hex');
    if (!g) return;
    const row = Number(g.dataset.row);
    const col = Number(g.dataset.col);
    const tryMove = (...candidates) => candidates.some(([r, c]) => this.setCursor(r, c));
    const upDown = (dr) => {
      // Alternate the half-column step so repeated up/down keeps to one visual column.
      const step = row % 2 === 0 ? -1 : 1;
      return tryMove([row + dr, col + step], [row + dr, col - step]);
    };
    const rowHexes = () => this.board.hexes.filter((x) => x.row === row);
    let handled = true;
    switch (event.key) {
      case 'ArrowLeft': tryMove([row, col - 2]); break;
      case 'ArrowRight': tryMove([row, col + 2]); break;
      case 'ArrowUp': upDown(-1); break;
      case 'ArrowDown': upDown(1); break;
      case 'Home': { const r = rowHexes(); this.setCursor(row, r[0].col); break; }
      case 'End': { const r = rowHexes(); this.setCursor(row, r[r.length - 1].col); break; }
      case 'Enter':
      case ' ':
        this.activate(row, col, true);
        break;
      default: handled = Boolean(this.handlers.onKey?.(row, col, event));
    }
    if (handled) event.preventDefault();
  }
}
