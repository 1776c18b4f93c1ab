// The builder's one owner of what the player has set up: the situation with its selection
// (builder-state.js gives its shape and its share-link form) and the view state (the tapped hex,
// the open tab, move mode, the last rulings). Every other module reads it through the getters
// here and changes it through the methods here, then calls commit(), which hands the change to
// the controller (builder.js): redraw, ask for new rulings, update the link.
//
// The objects the getters return are the live ones: a reader must not change them. The unit form
// (builder-controls.js) is the one writer handed a unit to edit in place; it reports each edit
// through unitEdited().

import {settleFigures} from './builder-controls.js';
import {
  EMPTY, clearOrders, hexDistance, key, newState, nextUnitId, setOrdered, setPlay, unitAt, unitById,
} from './builder-state.js';

/** The situation fields set from the page's controls (builder-settings.js) by name. */
const FIELDS = new Set(['bottom_side', 'face', 'card', 'combat_card', 'overrun_battle', 'title']);

export class Store {
  #state = newState(EMPTY);
  #ui = {
    selected: null, // {row, col} of the tapped hex, whose sheet is open
    editing: false, // the unit form is open in the sheet
    expanded: false, // the ruling is unfolded (on a phone)
    tab: 'dice', // the ruling's tab shown
    moving: null, // the id of the unit in move mode
    move: null, // the /move answer while moving (builder-move.js)
    labels: false, // every hex shows its coordinates
    results: {}, // the last answer of each ruling request (builder-requests.js)
    highlight: null, // the retreat option pointed at
    pending: false, // a change waits for its rulings
    partial: false, // of which the battle's answer is in (results holds it alone)
  };

  /** `boards` and `faces` from the page data; `onCommit({push, refresh, draw, link})` is the controller's. */
  constructor({boards, faces, content, onCommit}) {
    this.boards = boards;
    this.faces = faces;
    this.content = content;
    this.onCommit = onCommit;
  }

  // -- reading --------------------------------------------------------------------------------
  get state() { return this.#state; }
  get ui() { return this.#ui; }

  /** The board the situation is on (its hexes, labels and sections, from the page data). */
  board() { return this.boards[this.#state.board]; }
  unitAt(row, col) { return unitAt(this.#state, row, col); }
  unitById(id) { return unitById(this.#state, id); }
  attacker() { return unitById(this.#state, this.#state.attacker); }
  target() { return unitById(this.#state, this.#state.target); }
  cell(row, col) { return this.#state.hexes.get(key(row, col)) || {terrain: null, obstacle: null, owner: null}; }

  selectedUnit() {
    const at = this.#ui.selected;
    return at ? this.unitAt(at.row, at.col) : null;
  }

  /** The selected unit when it can re-supply (its sheet then shows the re-supply ruling). */
  selectedSupplier() {
    const unit = this.selectedUnit();
    return unit && this.content.canResupply(unit) ? unit : null;
  }

  /** Whether the chosen command card attacks by itself (Air Power, Barrage): then /battle and
   * /resolve rule the card's dice on the target, and the attacker plays no part. */
  cardAttacksAlone() {
    const card = this.#state.card;
    return Boolean(card && this.content.p.command_cards.find((c) => c.id === card)?.attacks_alone);
  }

  /** Hand the change to the controller: redraw (unless `draw` is false: the start draws in steps
   * of its own), (unless `refresh` is false) ask again, and (unless `link` is false: the address
   * bar already holds this situation) write the link. */
  commit({push = false, refresh = true, draw = true, link = true} = {}) {
    if (refresh) {
      this.#ui.pending = true;
      this.#ui.partial = false;
    }
    this.onCommit({push, refresh, draw, link});
  }

  // -- the whole situation --------------------------------------------------------------------
  /** Start from another situation (a link, an example, an import, a saved one): nothing stays
   * selected. A board or a face this content does not know falls back to the default. */
  load(next) {
    const state = newState(next);
    if (!this.boards[state.board]) state.board = 'standard';
    if (state.face && !this.faces.has(state.face)) state.face = null;
    this.#state = state;
    Object.assign(this.#ui, {selected: null, editing: false, moving: null, move: null, results: {}, highlight: null});
  }

  /** Another board kind: what does not fit on it is removed; returns how many things were. */
  changeBoard(kind) {
    const state = this.#state;
    const fits = (p) => this.boards[kind].hexes.some((x) => x.row === p.row && x.col === p.col);
    const at = (k) => { const [row, col] = k.split(',').map(Number); return {row, col}; };
    const lost = state.units.filter((u) => !fits(u)).length
      + [...state.hexes.keys()].filter((k) => !fits(at(k))).length;
    state.board = kind;
    state.units = state.units.filter(fits);
    for (const k of [...state.hexes.keys()]) if (!fits(at(k))) state.hexes.delete(k);
    if (!this.attacker()) state.attacker = null;
    if (!this.target()) state.target = null;
    this.#ui.selected = null;
    return lost;
  }

  /** One of the situation's own fields (FIELDS) set from a control. */
  setField(name, value) {
    if (!FIELDS.has(name)) throw new Error(`not a situation field: ${name}`);
    this.#state[name] = value;
  }

  /** A special rule of the scenario in effect or not. */
  setRule(id, on) {
    const state = this.#state;
    state.rules = state.rules.filter((x) => x !== id);
    if (on) state.rules.push(id);
  }

  /** Flags rolled, as the player picks them (no retreat option stays pointed at). */
  setFlags(n) {
    this.#state.flags = n;
    this.#ui.highlight = null;
  }

  /** No more flags than dice: the battle's dice cap the flags picked. */
  capFlags(dice) {
    this.#state.flags = dice;
  }

  // -- hexes and units ------------------------------------------------------------------------
  /** Change the terrain, obstacle or owner of a hex; a hex left with neither is forgotten. */
  setCell(row, col, mutate) {
    const cell = this.cell(row, col);
    mutate(cell);
    if (cell.terrain || cell.obstacle) this.#state.hexes.set(key(row, col), cell);
    else this.#state.hexes.delete(key(row, col));
  }

  /** Empty a hex: its unit, terrain and obstacle. */
  clearHex(row, col) {
    const unit = this.unitAt(row, col);
    if (unit) this.removeUnit(unit);
    this.#state.hexes.delete(key(row, col));
  }

  /** A unit's side and type changed where it stands (a key on its hex): its figures follow. */
  retype(unit, side, type) {
    if (unit.side === side && unit.type === type) return;
    Object.assign(unit, {side, type, figures: null, start_figures: null, badges: [], nation: null});
    settleFigures(this.content, unit, true);
    this.settleRoles(unit);
  }

  placeUnit(row, col, side, type) {
    const unit = {id: nextUnitId(this.#state), side, type, row, col, figures: null, start_figures: null, badges: [],
      nation: null, moved: 0};
    settleFigures(this.content, unit, true);
    this.#state.units.push(unit);
    this.settleRoles(unit);
    return unit;
  }

  removeUnit(unit) {
    const state = this.#state;
    state.units = state.units.filter((u) => u !== unit);
    if (state.attacker === unit.id) state.attacker = null;
    if (state.target === unit.id) state.target = null;
    if (this.#ui.moving === unit.id) this.stopMoving();
    this.settleRoles(null);
  }

  /** The unit form changed `unit` in place (its side may now make it a friend of its rival). */
  unitEdited(unit) {
    this.settleRoles(unit);
  }

  /** Put a unit on a hex: along a path it moved this turn (start first), or with none. */
  moveUnit(unit, to, path = null, hexesMoved = 0) {
    const hadPath = Boolean(unit.path);
    unit.row = to.row;
    unit.col = to.col;
    unit.path = path && path.length > 1 ? path.map((p) => ({row: p.row, col: p.col})) : null;
    // The token's →n shows the hexes moved (climb costs counted); the engine reads the path.
    if (unit.path) unit.moved = hexesMoved;
    else if (hadPath) unit.moved = 0;
  }

  /** "Undo the move": back to the start of its path, as if it had not moved. */
  undoMove(unit) {
    unit.row = unit.path[0].row;
    unit.col = unit.path[0].col;
    unit.path = null;
    unit.moved = 0;
    this.#ui.selected = {row: unit.row, col: unit.col};
  }

  /** A ground taken or a retreat entered: the unit stands on `hex`, not as part of its move. */
  standOn(unit, hex) {
    unit.row = hex.row;
    unit.col = hex.col;
    unit.path = null;
  }

  /** A battle's outcome applied to its target: figures lost, and where it ends or removed. The
   * loss goes into the situation's `casualties` (the side that lost it, the unit, the figures, and
   * whether it was eliminated), which the score counts (builder-score.js). */
  applyLoss(target, {lost, end, eliminated}) {
    if (lost || eliminated) {
      const unit = {side: target.side, type: target.type, figures: Math.max(lost, 1), eliminated: Boolean(eliminated)};
      if (target.badges?.length) unit.badges = [...target.badges];
      if (target.nation) unit.nation = target.nation;
      this.#state.casualties = [...(this.#state.casualties || []), unit];
    }
    if (eliminated) this.removeUnit(target);
    else {
      target.figures -= lost;
      this.standOn(target, end);
    }
  }

  /** The objectives' `held_by` as a score answer says they stand now (`found`: its `objectives`,
   * each with its hexes): a medal gained for good stays with its side after the unit leaves.
   * True when one changed. */
  carryHeld(found) {
    const objectives = this.#state.scenario?.objectives;
    if (!Array.isArray(objectives)) return false;
    let changed = false;
    for (const item of found) {
      for (const p of item.hexes) {
        const mine = objectives.find((o) => o.row === p.row && o.col === p.col && o.kind === item.kind);
        if (mine && (mine.held_by ?? null) !== item.held_by) {
          if (item.held_by) mine.held_by = item.held_by;
          else delete mine.held_by;
          changed = true;
        }
      }
    }
    return changed;
  }

  // -- attacker and target --------------------------------------------------------------------
  /** The enemy of `unit` a free role goes to: the nearest one among `rivals` (the enemies the fire
   * map says it can battle, or that can battle it), else the nearest enemy on the board; ties go to
   * the one placed last. */
  nearestEnemy(unit, rivals = null) {
    const enemies = this.#state.units.filter((u) => u.side !== unit.side);
    const preferred = rivals ? enemies.filter((u) => rivals.includes(u.id)) : [];
    const pool = preferred.length ? preferred : enemies;
    let best = null;
    for (const u of pool) if (!best || hexDistance(unit, u) <= hexDistance(unit, best)) best = u;
    return best;
  }

  /** Attacker and target follow the board without a tap: the first unit placed attacks, the
   * first one of the other side is its target; a side change that makes them friends frees the
   * target role for the nearest unit of the other side. `changed` is the unit just placed or
   * edited, preferred for a free role; `rivals` the enemies it can battle (nearest first). */
  settleRoles(changed, rivals = null) {
    const state = this.#state;
    let a = this.attacker();
    let t = this.target();
    if (a && t && a.side === t.side) {
      if (changed === a || changed !== t) t = null;
      else a = null;
    }
    if (!a && !t && changed && state.units.includes(changed)) {
      a = changed;
      t = this.nearestEnemy(changed, rivals);
    }
    if (a && !t) t = changed && changed !== a && changed.side !== a.side ? changed : this.nearestEnemy(a, rivals);
    if (t && !a) a = changed && changed !== t && changed.side !== t.side ? changed : this.nearestEnemy(t, rivals);
    state.attacker = a ? a.id : null;
    state.target = t ? t.id : null;
  }

  /** The sheet's Attacker or Target button: give `unit` the role, or take it back. A role given
   * with the other one free (after an import or an example) pairs it with the nearest enemy of
   * `rivals`: those the fire map says it can battle (as attacker) or that can battle it. */
  toggleRole(unit, name, rivals = null) {
    const state = this.#state;
    const other = name === 'attacker' ? 'target' : 'attacker';
    state[name] = state[name] === unit.id ? null : unit.id;
    if (state[other] === unit.id) state[other] = null;
    if (state[name] === unit.id) {
      const rival = this.unitById(state[other]);
      if (rival && rival.side === unit.side) state[other] = null;
      if (!state[other]) state[other] = this.nearestEnemy(unit, rivals)?.id ?? null;
    }
    this.settleRoles(state[name] === unit.id ? null : unit, rivals);
  }

  /** The ruling line's swap: the target attacks the attacker. */
  swapRoles() {
    const state = this.#state;
    [state.attacker, state.target] = [state.target, state.attacker];
  }

  /** The battle shown: these two units (ids), as the fire map or an overrun picks them. */
  setBattle(attacker, target, {overrun = this.#state.overrun_battle} = {}) {
    this.#state.attacker = attacker;
    this.#state.target = target;
    this.#state.overrun_battle = overrun;
  }

  // -- the card played (builder-orders.js) ---------------------------------------------------
  /** "Play a card": the side ordering and how the card is played; null: no card played. */
  setPlay(play) { setPlay(this.#state, play); }

  /** A unit ordered this turn, or its order taken back. */
  setOrdered(unit, on) { setOrdered(this.#state, unit, on); }

  /** Every order taken back (another card, another section). */
  clearOrders() { clearOrders(this.#state); }

  // -- the view -------------------------------------------------------------------------------
  /** Open the sheet of a hex (null closes it); the unit form and the unfolded ruling close. */
  select(hex, {keepEditing = false, keepExpanded = true} = {}) {
    this.#ui.selected = hex ? {row: hex.row, col: hex.col} : null;
    if (!keepEditing) this.#ui.editing = false;
    if (!keepExpanded) this.#ui.expanded = false;
  }

  toggleEditing() { this.#ui.editing = !this.#ui.editing; }
  setExpanded(open) { this.#ui.expanded = open; }
  setTab(tab) { this.#ui.tab = tab; }
  toggleLabels() { this.#ui.labels = !this.#ui.labels; return this.#ui.labels; }
  setHighlight(i) { this.#ui.highlight = i; }

  /** Move mode for `unit`: returns the fresh move record builder-move.js fills in. */
  startMoving(unit) {
    this.#ui.moving = unit.id;
    this.#ui.move = {tap: null, queued: null};
    return this.#ui.move;
  }

  stopMoving() {
    this.#ui.moving = null;
    this.#ui.move = null;
  }

  /** The answers of one round of ruling requests ({battle, reverse, los, retreat, resupply});
   * `partial`: the first of them (the battle), the others still to come. */
  setResults(results, {partial = false} = {}) {
    this.#ui.results = results;
    this.#ui.pending = partial;
    this.#ui.partial = partial;
  }
}
