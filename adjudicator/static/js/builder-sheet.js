// The hex sheet: the choices for the tapped hex, at the bottom of a phone's screen or in the
// column beside the board. An empty hex offers a unit of either side, the common terrains and
// obstacles first, then "More…" and clear; a unit offers attacker, target, edit, move and remove,
// its move undone, and its fire map (builder-firemap.js) last, so the choices above never shift
// under a thumb. A saved situation (read-only) lists what is on the hex instead.

import {segmented, unitFields, unitTypeOptions} from './builder-controls.js';
import {$, fill, h} from './builder-dom.js';
import {hexLabel} from './builder-results.js';

const otherSide = (side) => (side === 'allies' ? 'axis' : 'allies');

function chip({label, pressed, fk, onclick, cls = '', aria}) {
  return h('button',
    {type: 'button', class: `chip-btn ${cls}`,
      'aria-pressed': pressed === undefined ? undefined : pressed ? 'true' : 'false',
      'data-fk': fk, 'aria-label': aria, onclick}, label);
}

/** A short "More…" list after the common choices: every other choice of the palette. */
function moreSelect({label, fk, options, value = '', empty, onChange}) {
  const el = h('select', {class: 'more-select', 'data-fk': fk, 'aria-label': label});
  el.append(h('option', {value: ''}, empty));
  const groups = new Map();
  for (const opt of options) {
    const node = h('option', {value: opt.value}, opt.label);
    if (!opt.group) { el.append(node); continue; }
    if (!groups.has(opt.group)) {
      groups.set(opt.group, h('optgroup', {label: opt.group}));
      el.append(groups.get(opt.group));
    }
    groups.get(opt.group).append(node);
  }
  el.value = value || '';
  el.addEventListener('change', () => onChange(el.value || null));
  return el;
}

function sheetRow(label, ...children) {
  return h('div', {class: 'sheet-row', role: 'group', 'aria-label': label},
    h('span', {class: 'sheet-label', 'aria-hidden': 'true'}, label), ...children);
}

export class Sheet {
  /** `redraw`: the controller's {all, sheet, ruling, overlay}. */
  constructor({store, content, board, readonly, wide, move, fire, redraw}) {
    Object.assign(this, {store, content, board, readonly, wide, move, fire, redraw});
  }

  /** Close the sheet; the focus goes back to its hex when it was in the sheet. */
  close() {
    const {store, board} = this;
    const was = store.ui.selected;
    const inSheet = $('#sheet').contains(document.activeElement) || document.activeElement === document.body;
    store.select(null);
    store.stopMoving();
    store.commit({refresh: false});
    if (was && inSheet) board.focusHex(was.row, was.col);
  }

  render() {
    const {store, content} = this;
    const {ui} = store;
    const sheet = $('#sheet');
    document.body.classList.toggle('sheet-open', Boolean(ui.selected) && !(ui.expanded && !this.wide.matches));
    if (!ui.selected) { sheet.hidden = true; return; }
    const {row, col} = ui.selected;
    const bd = store.board();
    const hx = bd.hexes.find((x) => x.row === row && x.col === col);
    if (!hx) { store.select(null, {keepEditing: true}); sheet.hidden = true; return; }
    sheet.hidden = false;
    const cell = store.cell(row, col);
    const unit = store.unitAt(row, col);
    const where = [cell.terrain ? content.name(cell.terrain) : 'Countryside',
      cell.obstacle ? content.name(cell.obstacle) : null].filter(Boolean).join(' + ');
    const strength = unit && `${unit.figures}/${content.startFigures(unit)}`;
    $('#sheet-h').textContent = unit
      ? `${hx.label} · ${content.sideName(unit.side)} ${content.unitName(unit)} ${strength} · ${where}`
      : `${hx.label} · ${where}`;
    const body = $('#sheet-body');
    const section = hx.sections.length > 1 ? `on the line between the ${hx.sections.join(' and ')} sections`
      : `${hx.sections[0]} section`;
    const label = (p) => hexLabel(bd, p);

    if (this.readonly) {
      fill(body, this.facts({cell, unit, row, col, section}));
      return;
    }
    if (unit && ui.moving === unit.id && ui.move) {
      fill(body, ...this.move.sheet(unit, label));
      return;
    }
    const parts = unit ? this.unitParts(unit, label) : this.placeParts(row, col);
    parts.push(...this.hexParts(row, col, cell, unit));
    parts.push(h('p', {class: 'muted small'},
      `Row ${row}, column ${col} · ${section} (as the bottom player sees it)${unit ? ` · unit id ${unit.id}` : ''}`));
    if (unit) {
      parts.push(this.fire.sheet({state: store.state, content, label, onPick: (b) => {
        store.setBattle(b.attacker, b.target);
        store.commit();
      }}));
    }
    fill(body, ...parts);
  }

  /** What a saved situation's hex holds, with links to the rules. */
  facts({cell, unit, row, col, section}) {
    const {content} = this;
    return h('dl', {class: 'facts-list'},
      h('dt', {}, 'Terrain'),
      h('dd', {},
        cell.terrain ? h('a', {href: content.ruleUrl(cell.terrain)}, content.name(cell.terrain)) : 'Countryside'),
      cell.obstacle ? [h('dt', {}, 'Obstacle'),
        h('dd', {}, h('a', {href: content.ruleUrl(cell.obstacle)}, content.name(cell.obstacle)),
          cell.owner ? ` (owner: ${cell.owner})` : '')] : null,
      unit ? [h('dt', {}, 'Unit'), h('dd', {}, this.unitFacts(unit))] : null,
      h('dt', {}, 'Where'), h('dd', {}, `Row ${row}, column ${col}, ${section}`));
  }

  /** "Allied Infantry, 3/4 figures, Camouflage, moved 1". */
  unitFacts(unit) {
    const {content} = this;
    const badges = unit.badges.length ? `, ${unit.badges.map((b) => content.name(b)).join(', ')}` : '';
    const moved = unit.moved ? `, moved ${unit.moved}` : '';
    const name = `${content.sideName(unit.side)} ${content.unitName(unit)}`;
    return `${name}, ${unit.figures}/${content.startFigures(unit)} figures${badges}${moved}`;
  }

  /** A unit's choices: its roles, edit, move, remove; the form; its move this turn. */
  unitParts(unit, label) {
    const {store, content} = this;
    const {state, ui} = store;
    const role = (name) => () => {
      store.toggleRole(unit, name);
      store.commit();
    };
    const parts = [h('div', {class: 'roles'},
      h('button', {type: 'button', class: 'button role-btn atk',
        'aria-pressed': state.attacker === unit.id ? 'true' : 'false', 'data-fk': 'role-a', onclick: role('attacker')},
      'Attacker'),
      h('button', {type: 'button', class: 'button role-btn tgt',
        'aria-pressed': state.target === unit.id ? 'true' : 'false', 'data-fk': 'role-t',
        onclick: role('target')}, 'Target'),
      h('button', {type: 'button', class: 'button secondary', 'data-fk': 'edit',
        'aria-expanded': ui.editing ? 'true' : 'false',
        onclick: () => { store.toggleEditing(); this.redraw.all(); }}, 'Edit'),
      // Move: the board shades where it may go (POST /api/v1/move, builder-move.js).
      h('button', {type: 'button', class: 'button secondary', 'data-fk': 'move',
        'aria-pressed': ui.moving === unit.id ? 'true' : 'false',
        onclick: () => this.move.start(unit)}, 'Move'),
      h('button', {type: 'button', class: 'button danger', 'data-fk': 'remove',
        onclick: () => { store.removeUnit(unit); store.commit(); }}, 'Remove'))];
    if (ui.editing) {
      parts.push(h('div', {class: 'b-form unit-form'},
        unitFields(content, unit, () => { store.unitEdited(unit); store.commit(); }, {fk: 'unit'})));
    }
    if (unit.path) {
      parts.push(h('p', {class: 'small'}, `Moved this turn: ${unit.path.map(label).join(' → ')}. `,
        h('button', {type: 'button', class: 'button secondary', 'data-fk': 'unmove',
          onclick: () => { store.undoMove(unit); store.commit({push: true}); }}, 'Undo the move')));
    }
    return parts;
  }

  /** An empty hex: the common units of each side (bottom side first), then every other type. */
  placeParts(row, col) {
    const {store, content} = this;
    const place = (side, type) => { store.placeUnit(row, col, side, type); store.commit(); };
    const common = content.p.common.units;
    const others = unitTypeOptions(content).filter((o) => !common.includes(o.value));
    const sides = [store.state.bottom_side, otherSide(store.state.bottom_side)];
    return sides.map((side, i) => {
      const name = content.sideName(side);
      return sheetRow(side === 'axis' ? 'Axis' : 'Allies',
        common.map((type) => chip({label: content.name(type), cls: `side-${side}`, fk: `place-${side}-${type}`,
          aria: `Place ${name} ${content.name(type)} here`, onclick: () => place(side, type)})),
        i === 1 ? moreSelect({label: 'Place another unit type', fk: 'place-more', empty: 'More…',
          options: sides.flatMap((sd) => others.map((o) => ({value: `${sd}:${o.value}`, label: o.label,
            group: `${content.sideName(sd)} ${o.group.toLowerCase()}`}))),
          onChange: (v) => { if (v) { const [sd, type] = v.split(':'); place(sd, type); } }}) : null);
    });
  }

  /** The hex itself: terrain, obstacle, the hex's original owner where it matters, clear. */
  hexParts(row, col, cell, unit) {
    const {store, content} = this;
    const setCell = (mutate) => { store.setCell(row, col, mutate); store.commit(); };
    const parts = [];
    const terrainChoices = [...content.p.common.terrain];
    if (cell.terrain && !terrainChoices.includes(cell.terrain)) terrainChoices.unshift(cell.terrain);
    parts.push(sheetRow('Terrain',
      terrainChoices.map((id) => chip({label: content.terrain.get(id)?.short || content.name(id),
        aria: content.name(id), pressed: cell.terrain === id, fk: `terrain-${id}`,
        onclick: () => setCell((c) => { c.terrain = c.terrain === id ? null : id; })})),
      moreSelect({label: 'Terrain: every kind', fk: 'sel-terrain', value: cell.terrain, empty: 'More…',
        options: content.p.terrain.map((t) => ({value: t.id, label: t.name})),
        onChange: (v) => setCell((c) => { c.terrain = v; })})));
    const obstacleChoices = [...content.p.common.obstacles];
    if (cell.obstacle && !obstacleChoices.includes(cell.obstacle)) obstacleChoices.unshift(cell.obstacle);
    parts.push(sheetRow('Obstacle',
      obstacleChoices.map((id) => chip({label: content.obstacles.get(id)?.short || content.name(id),
        aria: content.name(id), pressed: cell.obstacle === id, fk: `obstacle-${id}`,
        onclick: () => setCell((c) => {
          c.obstacle = c.obstacle === id ? null : id;
          if (!c.obstacle) c.owner = null;
        })})),
      moreSelect({label: 'Obstacle: every kind', fk: 'sel-obstacle', value: cell.obstacle, empty: 'More…',
        options: content.p.obstacles.map((o) => ({value: o.id, label: o.name})),
        onChange: (v) => setCell((c) => { c.obstacle = v; if (!v) c.owner = null; })})));
    const feature = content.obstacles.get(cell.obstacle);
    if (feature?.owner_matters || cell.owner || content.terrain.get(cell.terrain)?.owner_matters) {
      parts.push(segmented({label: 'Original owner of the hex', value: cell.owner || '', fk: 'sel-owner',
        options: [{value: '', label: 'Not set'}, {value: 'allies', label: 'Allies'}, {value: 'axis', label: 'Axis'}],
        onChange: (v) => setCell((c) => { c.owner = v || null; })}));
    }
    if (unit || cell.terrain || cell.obstacle) {
      parts.push(h('div', {class: 'b-buttons'},
        h('button', {type: 'button', class: 'button secondary', 'data-fk': 'clear-hex',
          onclick: () => { store.clearHex(row, col); store.commit(); }}, 'Clear this hex')));
    }
    return parts;
  }
}
